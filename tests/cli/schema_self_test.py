"""json_goldens.py --self-test: the schemas in docs/schema refuse broken documents and accept
what may come. Each case takes a golden document (which must be valid as it is), changes one
thing, and expects the schema validate.py picks to refuse it (or, for MAY_COME, to accept it).
And validate.py's command line gives the exit codes it promises.
"""
import copy
import json
import subprocess
import sys
import tempfile

CONVERSION = {"from": "CNY", "to": "USD", "rate": 0.13748728, "as_of": "2025-02-28",
              "source": "Federal Reserve Board G.5"}


def at(doc, path):
    """The object holding the last step of `path` ("cost/total", "parts/0/rate"), and that step."""
    *steps, last = [int(s) if s.isdigit() else s for s in path.split("/")]
    for step in steps:
        doc = doc[step]
    return doc, last


def setting(path, value):
    def change(doc):
        holder, key = at(doc, path)
        holder[key] = value
    return change


def deleting(path):
    def change(doc):
        holder, key = at(doc, path)
        del holder[key]
    return change


# (golden case, what is broken, the change)
BROKEN = [
    ("price-mix-json", "a money amount as a bare number", setting("cost/total", 455455.18)),
    ("price-mix-json", "a rate as a bare number", setting("parts/0/rate/per_hour", 19.22)),
    ("price-mix-json", "a rate with seven decimals",
     setting("parts/0/rate/per_hour", "19.2200001")),
    ("price-mix-json", "a billed total not to the cent", setting("cost/total", "455455.183")),
    ("price-mix-json", "an amount with one decimal", setting("list_cost/total", "455455.1")),
    ("price-mix-json", "a money object without its currency", deleting("cost/currency")),
    ("price-mix-json", "a money object with an unknown amount key",
     setting("cost/per_day", "1.00")),
    ("price-mix-json", "a subscription's rate per hour", setting("parts/0/plan", "subscription")),
    ("price-mix-json", "a missing key", deleting("region")),
    ("price-mix-json", "an extra key", setting("bogus", 1)),
    ("price-mix-json", "an extra key in a part", setting("parts/1/bogus", 1)),
    ("price-mix-json", "a count as 2.0", setting("usage/instances", 2.0)),
    ("price-mix-json", "schema_version 3", setting("schema_version", 3)),
    ("price-mix-json", "ok false with a price", setting("ok", False)),
    ("price-currency-json", "a conversion's rate as a string",
     setting("conversions/0/rate", "0.9603")),
    ("compare-instances-json", "an instance's column without its provider",
     deleting("items/0/provider")),
    ("compare-instances-json", "a plan's price as a bare number", setting("items/0/spot", 12.51)),
    ("compare-instances-json", "GPUs as text, two values in a cell",
     setting("items/0/gpu_count", "8x A100-40GB")),
    ("tco-json", "conversions not a list", setting("conversions", CONVERSION)),
    ("tco-json", "a conversion with an extra key",
     setting("conversions", [dict(CONVERSION, note="x")])),
    ("tco-json", "a server count as 1.0", setting("server/count", 1.0)),
    ("tco-json", "conversions left out", deleting("conversions")),
    ("scaling-json", "a GPU count as 1.0", setting("steps/0/gpus", 1.0)),
    ("scaling-json", "a step without its ratio", deleting("steps/1/scaling_ratio")),
    ("size-training-json", "a workload key of another kind", setting("workload/qps", 1.0)),
    ("size-training-json", "an unknown workload kind", setting("workload/kind", "serving")),
    ("size-training-json", "ok false while the estimate fits", setting("ok", False)),
    ("size-graphics-json", "no vGPU profile as 0 (absent is null)",
     setting("estimate/vgpu_profile_gb", 0.0)),
    ("recommend-training-json", "a recommendation with an extra key",
     setting("recommendations/0/bogus", True)),
    ("recommend-training-json", "a count as 2.0",
     setting("recommendations/0/instance_count", 2.0)),
    ("list-gpus-json", "a GPU with an extra key", setting("gpus/0/bogus", 1)),
    ("list-gpus-json", "a kind's list under another kind's command",
     setting("command", "catalog list instances")),
    ("list-offers-json", "an hourly price per month",
     setting("offers/0/on_demand", {"currency": "USD", "per_month": "1.00"})),
    ("list-offers-json", "an offer without its provenance", deleting("offers/0/as_of")),
    ("list-models-json", "a parameter count as a string", setting("models/0/parameters", "1")),
    ("list-servers-json", "conversions left out", deleting("conversions")),
    ("show-instance-json", "a price row with an extra key", setting("prices/0/bogus", 1)),
    ("show-gpu-json", "a GPU shown with prices", setting("prices", [])),
    ("validate-errors-json", "ok true with errors", setting("ok", True)),
    ("usage-error-json", "a diagnostic without its hint", deleting("diagnostics/0/hint")),
    ("usage-error-json", "a line 0 (absent is null)", setting("diagnostics/0/line", 0)),
    ("usage-error-json", "a failure without diagnostics", setting("diagnostics", [])),
    ("usage-error-json", "a failure with an extra key", setting("bogus", 1)),
    ("usage-error-json", "a command with no schema", setting("command", "catalog lst gpus")),
    ("unknown-command-json", "a severity not known", setting("diagnostics/0/severity", "fatal")),
    ("catalog-diff-json", "ok false without a threshold", setting("ok", False)),
    ("catalog-diff-json", "a percent across currencies", setting("price_changes/5/percent", 7.0)),
    ("catalog-diff-json", "a price change's percent as text",
     setting("price_changes/0/percent", "-20.06")),
    ("catalog-diff-json", "an appeared price with an old one",
     setting("price_changes/3/old", {"currency": "EUR", "per_hour": "1.00"})),
    ("catalog-diff-json", "a price change of an unknown plan", setting("price_changes/0/plan", "x")),
    ("catalog-diff-json", "a GPU's spec change naming a provider",
     setting("spec_changes/0/provider", "testcloud")),
    ("catalog-diff-json", "a count as text", setting("summary/price_changes", "6")),
    ("catalog-diff-threshold-up-json", "a threshold of 0", setting("threshold/percent", 0)),
]
# (golden case, what may come, the change): valid all the same.
MAY_COME = [
    ("tco-json", "tco's conversions naming a rate", setting("conversions", [CONVERSION])),
    ("price-mix-json", "a fractional instance count", setting("usage/instances", 0.5)),
]


def command_line(cases, schemas):
    """validate.py as a user runs it: exit 0 for a valid document, 1 for a broken one (named
    with where it breaks), 1 for a document of no known command."""
    script = schemas.folder / "validate.py"
    good = json.loads((cases / "price-mix-json" / "stdout").read_text(encoding="utf-8"))
    bad = copy.deepcopy(good)
    bad["cost"]["total"] = 1.5
    failures = []
    for doc, code, says in [(good, 0, "valid against price.schema.json"),
                            (bad, 1, "/cost/total"),
                            ({"schema_version": 2, "command": "x", "ok": True}, 1, "no schema")]:
        with tempfile.NamedTemporaryFile("w", suffix=".json") as file:
            json.dump(doc, file)
            file.flush()
            done = subprocess.run([sys.executable, str(script), file.name], capture_output=True,
                                  text=True, check=False)
        if done.returncode != code or says not in done.stdout:
            failures.append(f"validate.py: exit {done.returncode} (expected {code}), "
                            f"{done.stdout!r} does not say {says!r}")
    return failures


def run(cases, schemas):
    failures, checked = command_line(cases, schemas), 0
    for case, what, change, expect_valid in (
            [(*b, False) for b in BROKEN] + [(*m, True) for m in MAY_COME]):
        doc = json.loads((cases / case / "stdout").read_text(encoding="utf-8"))
        schema, errors = schemas.errors(doc)
        if errors:
            failures.append(f"{case}: not valid as it is ({schema}): {errors[:2]}")
            continue
        changed = copy.deepcopy(doc)
        change(changed)
        schema, errors = schemas.errors(changed)
        checked += 1
        if expect_valid and errors:
            failures.append(f"{case}, {what}: refused by {schema}: {errors[:2]}")
        elif not expect_valid and not errors:
            failures.append(f"{case}, {what}: accepted by {schema}")
        else:
            print(f"ok: {case}, {what}: {'accepted' if expect_valid else errors[0]}")
    for failure in failures:
        print("FAIL:", failure)
    print(f"{checked} changed documents ({len(BROKEN)} broken, {len(MAY_COME)} valid) and 3 "
          f"runs of validate.py, {len(failures)} failure(s)")
    return 1 if failures or checked == 0 else 0
