#!/usr/bin/python3
"""The Python alternative the speed benchmark compares with (bench/scale.py): each catalog
file through PyYAML's C loader, then the same filter-and-price as bench/yaml_walk.cpp (every
A100 instance type's on-demand rows, in USD per hour, and the cheapest).

usage: pyyaml_walk.py FILE...   exit 2 if PyYAML or its C loader is missing
"""
import sys

try:
    import yaml
    from yaml import CSafeLoader as Loader
except ImportError:
    print("pyyaml_walk: PyYAML with its C loader (libyaml) is not installed", file=sys.stderr)
    sys.exit(2)

CNY_PER_USD = 7.2


def main():
    matched, cheapest = 0, float("inf")
    for path in sys.argv[1:]:
        with open(path, "rb") as handle:
            root = yaml.load(handle, Loader=Loader)
        for instance in root.get("instances") or []:
            if not str(instance["gpu"]).startswith("A100"):
                continue
            for row in instance.get("regions") or []:
                if "on_demand" not in row:
                    continue
                price = float(row["on_demand"])
                if row.get("currency") == "CNY":
                    price /= CNY_PER_USD
                matched += 1
                cheapest = min(cheapest, price)
    print(f"{matched} offers, cheapest {cheapest:.4f} USD/h")


if __name__ == "__main__":
    main()
