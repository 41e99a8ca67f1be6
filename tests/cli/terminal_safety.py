#!/usr/bin/python3
"""What gpuadvisor prints is safe for a terminal and a spreadsheet, whatever the bytes of the
paths it was given: catalog folders named with a lone 0x9B (a CSI to 8-bit terminals), an
ESC sequence or bytes that are not UTF-8 show escaped (\\xXX, \\u{XXXX}) in tables, CSV,
Markdown and diagnostics on stderr; JSON stays valid UTF-8 (U+FFFD for such bytes); and no
CSV cell is a formula (a path or a source starting with '=' or '@' gets a leading quote).

usage: terminal_safety.py BINARY FIXTURES
"""
import csv
import io
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

FAILURES = []
# (folder name, the escape it must show as)
HOSTILE = [
    (b"csi\x9bx", "csi\\x9Bx"),
    (b"esc\x1b[31mred", "esc\\u{001B}[31mred"),
    (b"inv\xc3(x", "inv\\xC3(x"),
    (b"cut\xf0\x9b", "cut\\xF0\\x9B"),
    (b"c1\xc2\x9bx", "c1\\u{009B}x"),
]
# Code points a terminal acts on: C0 but LF, DEL, C1, bidi controls.
UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def run(binary, args, cwd=None):
    return subprocess.run([binary, "--no-cache", "--no-default-catalog", *args],
                          capture_output=True, timeout=30, check=False, cwd=cwd)


def check_safe(name, data, escape=None):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        FAILURES.append(f"{name}: not UTF-8 ({error}): {data[:200]!r}")
        return
    bad = UNSAFE.search(text)
    if bad:
        FAILURES.append(f"{name}: prints {bad.group()!r} raw: {data[:200]!r}")
    if escape is not None and escape not in text:
        FAILURES.append(f"{name}: no {escape!r} in {text[:300]!r}")


def make_catalog(folder, fixtures, source=None):
    os.makedirs(folder)
    for path in pathlib.Path(fixtures, "catalog").glob("*.yaml"):
        text = path.read_text()
        if source is not None:
            text = text.replace('source: "test fixture"', f"source: {source}")
        (pathlib.Path(os.fsdecode(folder)) / path.name).write_text(text)


def check_paths(binary, fixtures, root):
    for name, escape in HOSTILE:
        folder = os.path.join(root, name)
        make_catalog(folder, fixtures)
        label = repr(name)
        for fmt in ["table", "csv", "markdown"]:
            done = run(binary, ["--catalog", folder, "catalog", "show", "big.8x", "-o", fmt])
            check_safe(f"{label} show -o {fmt}: stdout", done.stdout, escape)
            check_safe(f"{label} show -o {fmt}: stderr", done.stderr)
        missing = os.path.join(folder, b"missing.yaml")
        done = run(binary, ["--catalog", missing, "catalog", "list", "gpus"])
        check_safe(f"{label} missing file: stderr", done.stderr, escape)
        done = run(binary, [name, "-o", "json"])
        check_safe(f"{label} as a command: stderr", done.stderr, escape)
        check_json(binary, label, folder, missing)


def check_json(binary, label, folder, missing):
    for args in (["--catalog", folder, "catalog", "show", "big.8x"],
                 ["--catalog", missing, "catalog", "list", "gpus"]):
        done = run(binary, [*args, "-o", "json"])
        try:
            json.loads(done.stdout.decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as error:
            FAILURES.append(f"{label} {args[-1]} -o json: not strict JSON: {error}")
            continue
        if b"\xc3(" in os.fsencode(folder) and "\ufffd".encode() not in done.stdout:
            FAILURES.append(f"{label} {args[-1]} -o json: invalid UTF-8 not replaced")


def formula_cells(text):
    cells = [cell for row in csv.reader(io.StringIO(text)) for cell in row]
    return [cell for cell in cells
            if cell[:1] in ("=", "+", "@", "\t", "\r") or
            (cell[:1] == "-" and not re.fullmatch(r"-\d+(\.\d+)?%?", cell))]


def check_formulas(binary, fixtures, root):
    make_catalog(os.path.join(root, b"=cmd|calc"), fixtures)
    make_catalog(os.path.join(root, b"@SUM(1+1)"), fixtures)
    make_catalog(os.path.join(root, b"formula-source"), fixtures,
                 source='"=HYPERLINK(\\"http://x\\",\\"click\\")"')
    for folder, args, quoted in [
            ("=cmd|calc", ["catalog", "show", "big.8x"], "'=cmd|calc/testcloud.yaml:23"),
            ("@SUM(1+1)", ["catalog", "show", "big.8x"], "'@SUM(1+1)/testcloud.yaml:23"),
            ("formula-source", ["catalog", "show", "yun.t4"],
             "'=HYPERLINK(\"http://x\",\"click\")"),
            ("formula-source", ["catalog", "show", "big.8x"],
             "'=HYPERLINK(\"http://x\",\"click\")")]:
        done = run(binary, ["--catalog", folder, *args, "-o", "csv"], cwd=root)
        text = done.stdout.decode("utf-8", "replace")
        name = f"{folder} {' '.join(args)} -o csv"
        if done.returncode != 0:
            FAILURES.append(f"{name}: exit {done.returncode}: {done.stderr[:200]!r}")
        if formula_cells(text):
            FAILURES.append(f"{name}: formula cells {formula_cells(text)[:3]}")
        cells = [cell for row in csv.reader(io.StringIO(text)) for cell in row]
        if quoted not in cells:
            FAILURES.append(f"{name}: no cell {quoted!r}")


def main():
    binary, fixtures = os.path.abspath(sys.argv[1]), sys.argv[2]
    root = tempfile.mkdtemp(prefix="gpuadvisor-terminal-").encode()
    try:
        check_paths(binary, fixtures, root)
        check_formulas(binary, fixtures, root)
    finally:
        shutil.rmtree(root)
    for failure in FAILURES:
        print("FAIL:", failure)
    print(f"{len(HOSTILE)} hostile folder names, 3 formula files: {len(FAILURES)} failure(s)")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
