#!/usr/bin/python3
"""Check gpuadvisor catalog YAML files against the catalog JSON Schema.

usage: check_schema.py SCHEMA [--expect-fail] FILE_OR_DIR...

A folder stands for its *.yaml and *.yml files (sorted, not recursive). Prints
"FILE: PATH: message" for each failure and "N passed, M failed" (files) at the
end. Exits 0 if every file passes; with --expect-fail (for negative tests), 0
only if every file fails. Needs python3-yaml and python3-jsonschema (>= 4.0).
"""
import argparse
import datetime
import json
import math
import pathlib
import reprlib
import sys

import yaml
from jsonschema.validators import validator_for


def to_json(value):
    """PyYAML's data as the JSON data the schema describes."""
    # PyYAML loads an unquoted 2025-06-01 as datetime.date (and 2025-06-01 12:00 as
    # datetime.datetime); the catalog's dates are YYYY-MM-DD text, so validate the ISO string.
    if isinstance(value, datetime.date):
        return value.isoformat()
    # .nan and .inf are no JSON numbers and the decoder refuses them: as text they fail "number".
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {str(key): to_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [to_json(item) for item in value]
    return value


def path_of(error):
    """The decoder's way to name a place: instances[3].regions[0].on_demand."""
    path = ""
    for part in error.absolute_path:
        path += f"[{part}]" if isinstance(part, int) else f".{part}" if path else part
    return path or "(top)"


def problems(validator, file):
    """(path, message) for each way the file fails the schema."""
    try:
        data = to_json(yaml.safe_load(file.read_text(encoding="utf-8")))
    except (OSError, ValueError, yaml.YAMLError) as error:  # ValueError: bad UTF-8, 2025-13-01
        return [("(load)", " ".join(str(error).split()))]
    errors = sorted(validator.iter_errors(data), key=lambda error: list(error.absolute_path))
    # Messages quote the failing value; shorten it (a whole instance can be long).
    return [(path_of(e), e.message.replace(repr(e.instance), reprlib.repr(e.instance)))
            for e in errors]


def catalog_files(paths):
    for path in map(pathlib.Path, paths):
        if path.is_dir():
            yield from sorted(f for f in path.iterdir()
                              if f.suffix in (".yaml", ".yml") and f.is_file())
        elif path.exists():
            yield path
        else:
            sys.exit(f"check_schema.py: {path}: no such file or folder")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("schema", type=pathlib.Path)
    parser.add_argument("--expect-fail", action="store_true",
                        help="succeed only if every file fails validation")
    parser.add_argument("paths", nargs="+", metavar="FILE_OR_DIR")
    args = parser.parse_args()

    schema = json.loads(args.schema.read_text(encoding="utf-8"))
    cls = validator_for(schema)  # the $schema draft: 2020-12
    cls.check_schema(schema)
    validator = cls(schema, format_checker=cls.FORMAT_CHECKER)  # asserts "format": "date"

    files = list(catalog_files(args.paths))
    passed = failed = 0
    for file in files:
        found = problems(validator, file)
        for path, message in found:
            print(f"{file}: {path}: {message}")
        if found:
            failed += 1
        else:
            passed += 1
            if args.expect_fail:
                print(f"{file}: (top): passes the schema but was expected to fail")
    print(f"{passed} passed, {failed} failed")
    ok = passed == 0 if args.expect_fail else failed == 0
    return 0 if ok and files else 1


if __name__ == "__main__":
    sys.exit(main())
