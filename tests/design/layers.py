#!/usr/bin/python3
"""Design: the core's folders depend only downwards (docs/architecture.md).

usage: layers.py SOURCE_ROOT

    util <- yaml <- catalog <- data <- {sizing, pricing, rules} <- {planner, builtin} <- recommend

A file in src/core/LAYER/ (or a public header in include/gpuadvisor/, placed in a layer by the
table below) may include headers of its own layer and of layers below it; sizing, pricing and
rules do not include each other, nor do planner and builtin. Every header it includes must be
known: a new public header gets a line in PUBLIC_HEADERS.
"""
import pathlib
import re
import sys

RANK = {"util": 0, "yaml": 1, "catalog": 2, "data": 3, "sizing": 4, "pricing": 4, "rules": 4,
        "planner": 5, "builtin": 5, "recommend": 6}
PUBLIC_HEADERS = {
    "units.hpp": "util", "date.hpp": "util", "diagnostic.hpp": "util", "interned.hpp": "util",
    "spelling.hpp": "util", "provenance.hpp": "util", "input.hpp": "util",
    "enum_names.hpp": "util",
    "catalog.hpp": "catalog", "catalog_io.hpp": "catalog", "discounts.hpp": "catalog",
    "catalog_diff.hpp": "catalog", "transfer_prices.hpp": "catalog",
    "models.hpp": "data", "assumptions.hpp": "data", "workload.hpp": "data",
    "sizing.hpp": "sizing",
    "pricing.hpp": "pricing", "fx.hpp": "pricing", "tco.hpp": "pricing",
    "transfer.hpp": "pricing",
    "rules.hpp": "rules",
    "planner.hpp": "planner",
    "recommend.hpp": "recommend",
}
INCLUDE = re.compile(r'^#include "([^"]+)"', re.M)


def layer_of_include(name):
    if name.startswith("gpuadvisor/"):
        return PUBLIC_HEADERS.get(name.removeprefix("gpuadvisor/"))
    folder = name.split("/")[0] if "/" in name else None
    return folder if folder in RANK else None


def allowed(mine, theirs):
    return theirs == mine or RANK[theirs] < RANK[mine]


def main():
    root = pathlib.Path(sys.argv[1])
    files = []
    for path in sorted((root / "src/core").rglob("*")):
        if path.suffix in (".cpp", ".hpp"):
            layer = path.relative_to(root / "src/core").parts[0]
            files.append((path, layer if path.parent != root / "src/core" else None))
    for path in sorted((root / "include/gpuadvisor").glob("*.hpp")):
        files.append((path, PUBLIC_HEADERS.get(path.name)))
    failures = []
    for path, mine in files:
        shown = path.relative_to(root)
        if mine not in RANK:
            failures.append(f"{shown}: in no layer (a folder of src/core, or PUBLIC_HEADERS)")
            continue
        for name in INCLUDE.findall(path.read_text(encoding="utf-8")):
            theirs = layer_of_include(name)
            if theirs is None:
                failures.append(f"{shown}: includes \"{name}\", in no layer")
            elif not allowed(mine, theirs):
                failures.append(f"{shown} ({mine}) includes \"{name}\" ({theirs})")
    for failure in failures:
        print(failure)
    print(f"{len(files)} files checked; {len(failures)} include(s) against the layers")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
