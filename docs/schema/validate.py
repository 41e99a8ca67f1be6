#!/usr/bin/python3
"""Checks gpuadvisor -o json documents against the JSON Schemas beside this file.

    gpuadvisor price p5.48xlarge -o json > price.json
    docs/schema/validate.py price.json          # or '-' for standard input

The schema is picked from the document's `command` and `ok`: `price` -> price.schema.json,
`catalog list gpus` (any kind) -> catalog-list.schema.json, and a failure (`ok` false with
only `diagnostics` besides the envelope; any `ok` false for a command whose own document
never says false) -> failure.schema.json. A document naming no known command is invalid.
Counts are checked as the contract has them: 2 is an integer, 2.0 is not (a generic
validator accepts 2.0 as an integer). $refs between the files resolve here, never over the
network.

Exit 0 when every document is valid, 1 when one is not, 2 on a usage error. Needs
python3-jsonschema 4 or later (Debian: python3-jsonschema).
"""
import json
import pathlib
import sys

from jsonschema import validators

SCHEMA_DIR = pathlib.Path(__file__).resolve().parent
# The command a document names -> its schema file (catalog list's kinds share one).
COMMAND_SCHEMAS = {
    "size": "size", "scaling": "scaling", "price": "price", "compare": "compare", "tco": "tco",
    "recommend": "recommend", "upgrade": "upgrade", "catalog show": "catalog-show",
    "catalog validate": "catalog-validate", "catalog diff": "catalog-diff",
}
LIST_KINDS = (
    "gpus", "instances", "offers", "models", "regions", "currencies", "servers", "providers",
    "cpus")
COMMAND_SCHEMAS.update({f"catalog list {kind}": "catalog-list" for kind in LIST_KINDS})
# Commands whose own document may say ok false (nothing fits; the hardware is too small;
# the files have errors): their failures are told apart by holding nothing but diagnostics.
OWN_NOT_OK = {"recommend", "size", "upgrade", "catalog validate", "catalog diff"}
FAILURE_KEYS = {"schema_version", "command", "ok", "diagnostics"}


def schema_name(document):
    """The schema file's stem for a document, or raise ValueError saying why there is none."""
    if not isinstance(document, dict):
        raise ValueError("not a JSON object")
    command, ok = document.get("command"), document.get("ok")
    if ok is False and (command not in OWN_NOT_OK or set(document) <= FAILURE_KEYS):
        return "failure"
    if command not in COMMAND_SCHEMAS:
        raise ValueError(f"no schema for command {command!r}")
    return COMMAND_SCHEMAS[command]


def _strict_integer(_checker, instance):
    return isinstance(instance, int) and not isinstance(instance, bool)


def _no_network(uri):
    raise ValueError(f"$ref to {uri}: only the schemas in {SCHEMA_DIR} are used")


class Schemas:
    """The schemas of a folder, each checked against its meta-schema, $refs resolved locally."""

    def __init__(self, folder=SCHEMA_DIR):
        self.folder = pathlib.Path(folder)
        self.by_id = {}
        for path in sorted(self.folder.glob("*.schema.json")):
            schema = json.loads(path.read_text(encoding="utf-8"))
            validators.validator_for(schema).check_schema(schema)
            self.by_id[schema["$id"]] = schema
        self._validators = {}

    def validator(self, name):
        if name not in self._validators:
            schema = json.loads((self.folder / f"{name}.schema.json").read_text(encoding="utf-8"))
            base = validators.validator_for(schema)
            checker = base.TYPE_CHECKER.redefine("integer", _strict_integer)
            strict = validators.extend(base, type_checker=checker)
            self._validators[name] = strict(schema, **self._resolution(schema))
        return self._validators[name]

    def _resolution(self, schema):
        try:  # jsonschema >= 4.18
            from referencing import Registry
            from referencing.jsonschema import DRAFT202012
        except ImportError:  # jsonschema 4.0-4.17 (Debian bookworm: 4.10)
            resolver = validators.RefResolver(schema["$id"], schema, store=dict(self.by_id),
                                              handlers={"http": _no_network,
                                                        "https": _no_network})
            return {"resolver": resolver}
        resources = [(uri, DRAFT202012.create_resource(s)) for uri, s in self.by_id.items()]
        return {"registry": Registry().with_resources(resources)}

    def errors(self, document):
        """(schema file name, ["/json/pointer: message", ...]); no errors: valid."""
        try:
            name = schema_name(document)
        except ValueError as error:
            return None, [str(error)]
        found = sorted(self.validator(name).iter_errors(document),
                       key=lambda e: list(map(str, e.absolute_path)))
        return f"{name}.schema.json", [
            f"/{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in found]


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    schemas, invalid = Schemas(), 0
    for arg in argv:
        try:
            text = sys.stdin.read() if arg == "-" else pathlib.Path(arg).read_text("utf-8")
            document = json.loads(text)
        except (OSError, ValueError) as error:
            print(f"{arg}: cannot read a JSON document: {error}")
            invalid += 1
            continue
        schema, errors = schemas.errors(document)
        for error in errors:
            print(f"{arg}: {error}")
        print(f"{arg}: {'valid' if not errors else 'INVALID'}"
              f"{f' against {schema}' if schema else ''}")
        invalid += bool(errors)
    return 1 if invalid else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
