#!/usr/bin/python3
"""bench/scale.py's verdicts on its speed limits: each met, or MISS, from figures made here.

usage: scale_targets.py SOURCE_DIR   (exit 0: every check held)
"""
import contextlib
import copy
import io
import sys

sys.path.insert(0, f"{sys.argv[1]}/bench")
import scale  # noqa: E402


def recommend(command, ms, cache="warm"):
    return {"tool": "gpuadvisor", "setup": "alone", "command": command, "cache": cache,
            "ms": ms, "rss_mb": 40.0}


def size(offers, scale_by):
    rows = [recommend("recommend training", 40.0 * scale_by),
            recommend("recommend inference", 38.0 * scale_by),
            recommend("recommend training", 220.0 * scale_by, "first"),
            recommend("recommend inference", 215.0 * scale_by, "first"),
            {"tool": "gpuadvisor", "setup": "alone", "command": "validate", "cache": "warm",
             "ms": 30.0 * scale_by, "rss_mb": 30.0}]
    return {"offers": offers, "rows": rows}


def verdicts(results):
    """(misses, printed lines) of print_targets on these results."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        missed = scale.print_targets([], results)
    return missed, out.getvalue()


failures = []


def check(name, results, want_missed, want_line):
    """want_line: (the verdict, words) of a line print_targets must print."""
    missed, text = verdicts(results)
    verdict, words = want_line
    found = any(line.split()[:1] == [verdict] and words in line for line in text.splitlines())
    if missed != want_missed or not found:
        failures.append(f"{name}: {missed} missed (want {want_missed}), "
                        f"line {want_line} found: {found}\n{text}")


good = [size(100_000, 1), size(1_000_000, 8)]
check("every target met", good, 0, ("met", "100000 recommend training"))

slow_first_run = copy.deepcopy(good)
slow_first_run[0]["rows"][2]["ms"] = 650.0  # 100k recommend training, first run, over 600 ms
check("a first run at 100k over 600 ms", slow_first_run, 1,
      ("MISS", "recommend training, first run"))

quadratic = copy.deepcopy(good)
quadratic[1]["rows"][4]["ms"] = 30.0 * 16  # validate x16 for x10 the offers
check("growth beyond x15", quadratic, 1, ("MISS", "validate, growth"))

over_limit = copy.deepcopy(good)
over_limit[1]["rows"][0]["ms"] = 1600.0  # 1M recommend training over 1.5 s (and x40)
check("1M recommend over 1.5 s", over_limit, 2, ("MISS", "1000000 recommend training"))

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("scale.py's verdicts: 4 cases held")
