#!/usr/bin/python3
"""bench/scale.py's verdicts on issue 7's targets: each met, or MISS, from figures made here.

usage: scale_targets.py SOURCE_DIR   (exit 0: every check held)
"""
import contextlib
import copy
import io
import sys

sys.path.insert(0, f"{sys.argv[1]}/bench")
import scale  # noqa: E402


def recommend(command, ms, catalog, plan):
    stages = {"catalog": catalog, "plan": plan, "output": 0.1, "other": 2.0,
              "from main": catalog + plan + 2.1}
    return {"tool": "gpuadvisor", "setup": "alone", "command": command, "cache": "warm",
            "ms": ms, "rss_mb": 40.0, "stages": stages}


def size(offers, scale_by, floor):
    rows = [recommend("recommend training", 40.0 * scale_by, 25.0 * scale_by, 10.0 * scale_by),
            recommend("recommend inference", 38.0 * scale_by, 23.0 * scale_by, 8.0 * scale_by),
            {"tool": "gpuadvisor", "setup": "alone", "command": "validate", "cache": "warm",
             "ms": 30.0 * scale_by, "rss_mb": 30.0}]
    return {"offers": offers, "rows": rows, "planner_floor_ms": floor}


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


good = [size(100_000, 1, 3.2), size(1_000_000, 8, 30.0)]
check("every target met", good, 0, ("met", "recommend training, planner"))

slow_planner = copy.deepcopy(good)
slow_planner[0]["planner_floor_ms"] = 2.5  # training's 10 ms is 4x it, inference's 3.2x
check("a planner over 3.5 times its floor", slow_planner, 1,
      ("MISS", "recommend training, planner"))

planner_over_load = copy.deepcopy(good)
planner_over_load[0]["rows"][1]["stages"]["plan"] = 24.0  # not under the catalog's 23 ms
planner_over_load[0]["planner_floor_ms"] = 100.0
check("a plan stage longer than the load", planner_over_load, 1,
      ("MISS", "recommend inference, planner"))

no_floor = copy.deepcopy(good)
no_floor[0]["planner_floor_ms"] = None
check("no floor: only plan < catalog checked", no_floor, 0,
      ("plan", "the floor could not run"))

quadratic = copy.deepcopy(good)
quadratic[1]["rows"][2]["ms"] = 30.0 * 16  # validate x16 for x10 the offers
check("growth beyond x15", quadratic, 1, ("MISS", "validate, growth"))

over_limit = copy.deepcopy(good)
over_limit[1]["rows"][0]["ms"] = 1600.0  # 1M recommend training over 1.5 s (and x40)
check("1M recommend over 1.5 s", over_limit, 2, ("MISS", "1000000 recommend training"))

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("scale.py's verdicts: 6 cases held")
