#!/usr/bin/env python3
"""The Markdown tables of docs/performance.md, made from a bench/scale.py --json file.

    python3 bench/doc_tables.py docs/bench/scale.json

Prints the Results tables (built-in catalog; synthetic catalogs alone; laid over the
built-in catalog; the ratios) and the stage table of "Where the time goes", so that the
page's figures are the run's, not copied by hand. Stdlib only.
"""
import argparse
import json
import sys


def ms_text(ms):
    """4.2 ms, 395 ms, 3.22 s: as the page writes times."""
    if ms >= 1000:
        return f"{ms / 1000:.2f} s"
    if ms >= 100:
        return f"{ms:.0f} ms"
    return f"{ms:.1f} ms"


def offers_text(offers):
    return f"{offers:,}"


def find(rows, tool="gpuadvisor", setup="alone", command=None, cache=None):
    for row in rows:
        if (row["tool"] == tool and row["setup"] == setup and row["command"] == command
                and (cache is None or row["cache"] == cache)):
            return row
    return None


def builtin_table(builtin):
    lines = ["| command | time | peak RSS |", "|---|---:|---:|"]
    for row in builtin:
        rss = f"{row['rss_mb']:.1f} MB" if row.get("rss_mb") else ""
        lines.append(f"| `{row['command']}` | {ms_text(row['ms'])} | {rss} |")
    return lines


def cell(row):
    if row is None:
        return ""
    rss = f", {row['rss_mb']:.0f} MB" if row.get("rss_mb") else ""
    return ms_text(row["ms"]) + rss


def alone_table(results):
    lines = ["| offers (YAML) | command | cache warm | first run | no cache |",
             "|---|---|---:|---:|---:|"]
    commands = ["validate", "list offers --gpu A100 -o json", "recommend training",
                "recommend inference"]
    for size in results:
        label = f"{offers_text(size['offers'])} ({size['megabytes']:.1f} MB)"
        rows = size["rows"]
        for command in commands:
            cells = [find(rows, command=command, cache=c) for c in ("warm", "first", "off")]
            if any(cells):
                lines.append(f"| {label} | `{command}` | " + " | ".join(map(cell, cells)) + " |")
        for row in rows:
            if row["tool"] != "gpuadvisor":
                lines.append(f"| {label} | {row['tool']} | | | {cell(row)} |")
    return lines


def overlay_table(results):
    lines = ["| offers | `validate` | `recommend training` | `recommend inference` |",
             "|---|---:|---:|---:|"]
    for size in results:
        cells = []
        for command in ["validate", "recommend training", "recommend inference"]:
            runs = [find(size["rows"], setup="overlay", command=command, cache=cache)
                    for cache in ("warm", "first", "off")]
            cells.append(" / ".join(ms_text(r["ms"]) if r else "-" for r in runs))
        lines.append(f"| {offers_text(size['offers'])} | " + " | ".join(cells) + " |")
    return lines


def ratio(alternative, ours):
    if alternative is None or ours is None:
        return "-"
    return f"{alternative['ms'] / ours['ms']:.1f}x"


def ratio_table(results):
    lines = ["| offers | yaml-cpp walk / list, warm | / list, no cache | PyYAML / list, warm "
             "| / list, no cache | yaml-cpp walk / recommend, warm | PyYAML / recommend, warm |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for size in results:
        rows = size["rows"]
        walks = [next((r for r in rows if r["tool"].startswith(name)), None)
                 for name in ("yaml-cpp", "PyYAML")]
        listing = "list offers --gpu A100 -o json"
        cells = []
        for walk in walks:
            cells += [ratio(walk, find(rows, command=listing, cache=c)) for c in ("warm", "off")]
        cells += [ratio(walk, find(rows, command="recommend training", cache="warm"))
                  for walk in walks]
        lines.append(f"| {offers_text(size['offers'])} | " + " | ".join(cells) + " |")
    return lines


def stage_line(label, command, row):
    stages = row.get("stages") or {}
    figures = [stages.get(k) for k in ("catalog", "plan", "output", "other", "from main")]
    text = ["" if f is None else f"{f:.1f}" for f in figures]
    share = ""
    if stages.get("plan") is not None and stages.get("from main"):
        share = f"{100 * stages['plan'] / stages['from main']:.1f}%"
    return f"| {label} | `{command}` | " + " | ".join(text) + f" | {share} |"


def stage_table(data):
    lines = ["| offers, cache | command | catalog | plan | output | other | from `main` "
             "| plan share |", "|---|---|---:|---:|---:|---:|---:|---:|"]
    for command in ("recommend training", "recommend inference"):
        row = find(data["builtin"], setup="built-in", command=command)
        if row:
            lines.append(stage_line("built-in", command, row))
    labels = {100_000: "100k", 1_000_000: "1M"}
    for size in data["results"]:
        if size["offers"] not in labels:
            continue
        name = labels[size["offers"]]
        for cache, cache_name in (("warm", "warm"), ("first", "first run"), ("off", "none")):
            if size["offers"] == 1_000_000 and cache != "warm":
                continue
            for command in ("recommend training", "recommend inference"):
                row = find(size["rows"], command=command, cache=cache)
                if row:
                    lines.append(stage_line(f"{name}, {cache_name}", command, row))
        if size["offers"] == 100_000:
            for command in ("list offers --gpu A100 -o json", "validate"):
                row = find(size["rows"], command=command, cache="warm")
                if row:
                    lines.append(stage_line(f"{name}, warm", command, row))
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", help="a bench/scale.py --json file")
    args = parser.parse_args()
    try:
        with open(args.json, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"doc_tables.py: {args.json}: {e}")
    if not isinstance(data, dict) or not {"builtin", "results"} <= data.keys():
        sys.exit(f"doc_tables.py: {args.json}: not a bench/scale.py --json file "
                 "(no 'builtin' and 'results' keys)")
    sections = [
        (f"Built-in catalog ({data.get('machine', '')})", builtin_table(data["builtin"])),
        ("Synthetic catalogs alone", alone_table(data["results"])),
        ("Laid over the built-in catalog (cache warm / first run / no cache)",
         overlay_table(data["results"])),
        ("Ratios", ratio_table(data["results"])),
        ("Stages (--timings medians, ms)", stage_table(data)),
    ]
    for title, lines in sections:
        print(f"{title}:\n")
        print("\n".join(lines))
        print()


if __name__ == "__main__":
    main()
