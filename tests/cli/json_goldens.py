#!/usr/bin/python3
"""The JSON golden documents (tests/cli/*/stdout) keep the JSON contract (docs/cli.md):
`schema_version` 2, `command`, `ok` true exactly when the exit code is 0; every amount of
money a money object ({"currency", amounts as exact decimal strings or null}), no bare
number where money is, no empty string (absent is null); and every document valid against
its command's schema in docs/schema (docs/schema/validate.py picks it: the failure schema
for a failure). A golden whose command has no schema fails, as does a golden that asked
for JSON and holds none, a schema no golden is validated against and a command (each kind
of `catalog list`) with no JSON golden.

With --self-test, the schemas are shown to refuse broken documents: each a golden (valid
as it is) with one thing broken (a money amount as a bare number, a key missing or extra,
a count as 2.0, ...); and to accept what may come (a conversion named, a fractional count).

usage: json_goldens.py [--self-test] CASES_DIR SCHEMA_DIR (docs/schema)
"""
import json
import pathlib
import re
import sys

AMOUNT = re.compile(r"^-?(0|[1-9][0-9]*)\.[0-9]{2,6}$")
AMOUNT_KEYS = {"per_hour", "per_month", "total", "per_million_output_tokens",
               "per_million_tokens"}
# Keys whose value is money (a money object, or null where absent).
MONEY_KEYS = {
    "cost", "list_cost", "rate", "list_rate", "discount_saving", "extra_cost",
    "always_on_total", "with_release_total", "saving", "on_demand_total", "own_total",
    "cash_outlay", "cloud_total", "cloud_list_total", "price",
}
# Each plan's price: in compare's items and the catalog's price rows (price's
# break_even_utilization, keyed by plan too, holds shares and is not walked).
PLAN_MONEY_KEYS = {
    "on_demand", "spot", "reserved_1y", "reserved_3y", "subscription_monthly",
    "on_demand_list", "spot_list", "reserved_1y_list", "reserved_3y_list",
    "subscription_monthly_list", "on_demand_per_gpu_hour", "on_demand_per_gpu_memory_gb_hour",
    "on_demand_per_fp16_tflops_hour", "on_demand_per_fp64_tflops_hour",
}
# Billed amounts are to the cent (or, under half a cent, the amount as it is).
CENTS = re.compile(r"^-?(0|[1-9][0-9]*)\.[0-9]{2}$|^-?0\.00[0-4][0-9]{0,3}$")

FAILURES = []
SCHEMAS_USED = set()  # the schema files the goldens were validated against
COMMANDS_SEEN = set()


def check_conversion(where, value):
    """A currency conversion: {from, to, rate > 0, as_of, source}, or null (nothing converted)."""
    if value is None:
        return
    if (not isinstance(value, dict) or
            set(value) != {"from", "to", "rate", "as_of", "source"} or
            not isinstance(value["rate"], (int, float)) or value["rate"] <= 0 or
            value["from"] == value["to"]):
        FAILURES.append(f"{where}: not a conversion {{from, to, rate, as_of, source}}: {value!r}")


def check_money(where, value):
    if value is None:
        return
    if not isinstance(value, dict) or not isinstance(value.get("currency"), str):
        FAILURES.append(f"{where}: not a money object: {value!r}")
        return
    amounts = {k: v for k, v in value.items() if k != "currency"}
    if not amounts or not set(amounts) <= AMOUNT_KEYS:
        FAILURES.append(f"{where}: money object with keys {sorted(value)}")
    for key, amount in amounts.items():
        if amount is not None and (not isinstance(amount, str) or not AMOUNT.match(amount)):
            FAILURES.append(f"{where}.{key}: not an exact decimal string: {amount!r}")
        elif key == "total" and amount is not None and not CENTS.match(amount):
            FAILURES.append(f"{where}.{key}: a billed amount not to the cent: {amount!r}")


def walk(where, value):
    if isinstance(value, dict):
        for key, item in value.items():
            here = f"{where}.{key}"
            if key in ("break_even_utilization", "break_even_estimated"):
                continue
            if key == "conversions":  # conversions: {from, to, rate (a number), ...}
                for i, conversion in enumerate(item if isinstance(item, list) else [item]):
                    check_conversion(f"{here}[{i}]", conversion)
                continue
            if key in MONEY_KEYS or key in PLAN_MONEY_KEYS:
                check_money(here, item)
            else:
                walk(here, item)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            walk(f"{where}[{i}]", item)
    elif value == "":
        FAILURES.append(f"{where}: an empty string (an absent value is null)")


JSON_ARGS = {"json", "-ojson", "--format=json"}


def check_goldens(cases, schemas):
    documents = 0
    for case in sorted(p for p in cases.iterdir() if (p / "stdout").is_file()):
        text = (case / "stdout").read_text(encoding="utf-8")
        name = case.name
        args = (case / "args").read_text(encoding="utf-8").split("\n")
        if not text.startswith("{"):
            if JSON_ARGS & set(args) and text:
                FAILURES.append(f"{name}: asks for JSON and prints {text[:40]!r}")
            continue
        doc = json.loads(text)
        if doc.get("version") == "2.1.0" and "runs" in doc:
            continue  # a SARIF log (catalog validate -o sarif): ci_formats.py checks it
        documents += 1
        code = int((case / "exit").read_text().strip())
        if doc.get("schema_version") != 2 or not isinstance(doc.get("command"), str):
            FAILURES.append(f"{name}: schema_version {doc.get('schema_version')!r}, "
                            f"command {doc.get('command')!r}")
        if doc.get("ok") is not (code == 0):
            FAILURES.append(f"{name}: ok {doc.get('ok')!r} with exit {code}")
        walk(name, doc)
        schema, errors = schemas.errors(doc)
        SCHEMAS_USED.add(schema)
        COMMANDS_SEEN.add(doc.get("command"))
        if errors:
            FAILURES.append(f"{name}: {schema or 'no schema'}: {errors[:3]}")
    return documents


def main(argv):
    self_test = argv[:1] == ["--self-test"]
    cases, schema_dir = map(pathlib.Path, argv[1:] if self_test else argv)
    sys.path.insert(0, str(schema_dir))
    import validate  # pylint: disable=import-outside-toplevel
    schemas = validate.Schemas(schema_dir)
    if self_test:
        import schema_self_test  # pylint: disable=import-outside-toplevel
        return schema_self_test.run(cases, schemas)
    documents = check_goldens(cases, schemas)
    unused = {p.name for p in schema_dir.glob("*.schema.json")} - SCHEMAS_USED - {
        "common.schema.json", "catalog.schema.json"}
    for name in sorted(unused):
        FAILURES.append(f"{name}: no golden document is validated against it")
    for command in sorted(set(validate.COMMAND_SCHEMAS) - COMMANDS_SEEN):
        FAILURES.append(f"{command}: no golden JSON document (each kind of catalog list too)")
    for failure in FAILURES:
        print("FAIL:", failure)
    print(f"{documents} JSON documents against {len(SCHEMAS_USED)} schemas, "
          f"{len(FAILURES)} failure(s)")
    return 1 if FAILURES or documents == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
