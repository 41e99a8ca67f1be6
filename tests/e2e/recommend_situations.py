#!/usr/bin/python3
"""End-to-end: the source documents' situations through `gpuadvisor recommend`.

usage: recommend_situations.py BINARY SCHEMA_DIR (docs/schema)

For each situation the built-in catalog and rules are used, and the test asserts:
- the output is valid against docs/schema/recommend.schema.json (validate.py);
- the ranking follows the documents' matrix (the top recommendation is preferred by the
  rule the situation should fire), or a tier line gives the rule's best row and what following
  it costs, or the notes say in words why not;
- every shown cost equals what `gpuadvisor price` charges for the same instance, region,
  count, plan and hours (the cost module), to the cent.
Needs python3-jsonschema (>= 4.0).
"""
import json
import pathlib
import subprocess
import sys
from decimal import Decimal

FAILURES = []


def check(condition, message):
    if not condition:
        FAILURES.append(message)


def run(binary, args):
    done = subprocess.run([binary, *args, "-o", "json"], capture_output=True, text=True,
                          check=False)
    return done.returncode, json.loads(done.stdout)


def price_total(binary, rec, doc):
    """What `price` charges for this recommendation's usage."""
    args = ["price", rec["instance"], "--provider", rec["provider"], "--region", rec["region"],
            "--instances", str(rec["instance_count"]), "--pricing", rec["pricing"]]
    if doc["workload"]["kind"] in ("training", "finetune"):
        hours = rec["estimate"]["hours"]
        if rec["pricing"] == "spot":
            return None  # spot hours include the overhead: priced from the base hours
        args += ["--hours", repr(hours)]
    else:
        args += ["--months", "1"]
    args += ["--currency", doc["currency"]]
    code, priced = run(binary, args)
    return Decimal(priced["cost"]["total"]) if code == 0 else None


def total(rec):
    """A recommendation's total: money amounts are exact decimal strings."""
    return Decimal(rec["cost"]["total"])


def follows_matrix(doc, rule_id):
    """True when the top recommendation is preferred by the rule, or the answer shows the
    rule's best row and what following it costs (a tier line), or a note says why not."""
    recs = doc["recommendations"]
    if recs and rule_id in recs[0]["preferred_by"]:
        return True
    tiers = [t for t in doc["preferred_tiers"] if t["rule"] == rule_id]
    if tiers and recs and total(tiers[0]["recommendation"]) >= total(recs[0]):
        return True
    return any(rule_id in note for note in doc["notes"])


SITUATIONS = [
    # (name, args, the matrix rule the ranking should follow)
    ("a model under 1B parameters",
     ["recommend", "training", "--params", "350M", "--tokens", "10B"], "doc-training-under-1b"),
    ("a 7B model",
     ["recommend", "training", "--model", "llama-2-7b", "--tokens", "1T", "--deadline", "30d"],
     "doc-training-1b-10b"),
    ("a 70B model",
     ["recommend", "training", "--model", "llama-2-70b", "--tokens", "2T", "--deadline", "90d",
      "--max-instances", "128"], "doc-training-over-10b"),
    ("light inference",
     ["recommend", "inference", "--model", "resnet-50", "--qps", "500"],
     "doc-matrix-light-inference"),
    ("real-time BERT under 50 ms",
     ["recommend", "inference", "--model", "bert-base", "--qps", "2000", "--latency-ms", "50"],
     "doc-matrix-light-inference"),
    ("an FP64 simulation needing 12 TFLOPS",
     ["recommend", "hpc", "--fp64-tflops", "12", "--memory-gb", "100"], "doc-hpc-gpus"),
    ("40 CAD desktops on vGPU",
     ["recommend", "graphics", "--sessions", "40", "--memory-per-session-gb", "6"],
     "doc-graphics-vgpu"),
]


def main():
    binary, schema_dir = sys.argv[1], pathlib.Path(sys.argv[2])
    sys.path.insert(0, str(schema_dir))
    import validate  # pylint: disable=import-outside-toplevel
    schemas = validate.Schemas(schema_dir)
    for name, args, rule_id in SITUATIONS:
        code, doc = run(binary, args)
        schema, errors = schemas.errors(doc)
        check(schema == "recommend.schema.json" and not errors, f"{name}: schema: {errors[:3]}")
        check(code == 0 and doc["ok"], f"{name}: exit {code}, no_fit {doc.get('no_fit')}")
        check(follows_matrix(doc, rule_id), f"{name}: neither follows nor explains {rule_id}")
        check(any(r["id"] == rule_id for r in doc["rules"]), f"{name}: {rule_id} did not fire")
        for rec in doc["recommendations"][:3]:
            expected = price_total(binary, rec, doc)
            if expected is not None:
                check(abs(expected - total(rec)) <= Decimal("0.005"),
                      f"{name}: #{rec['rank']} costs {rec['cost']['total']}, price says "
                      f"{expected}")
        if name.startswith("real-time"):
            check(all(r["estimate"]["latency_ms"] <= 50 for r in doc["recommendations"]),
                  f"{name}: a recommendation misses 50 ms")
        if name.startswith("an FP64"):
            check(any(r["id"] == "doc-hpc-bandwidth" and r["effect"] == "require"
                      for r in doc["rules"]), f"{name}: the bandwidth rule did not fire")
    # A job that fits nowhere: exit 1, ok false, and the message names what binds.
    code, doc = run(binary, ["recommend", "training", "--model", "llama-2-70b", "--tokens",
                             "2T", "--deadline", "1d", "--budget", "10000"])
    check(code == 1 and not doc["ok"], f"no fit: exit {code}")
    check((doc["no_fit"] or "").startswith("no configuration meets the 24 h deadline under "
                                           "10000.00 USD"), f"no fit: {doc['no_fit']}")
    check(schemas.errors(doc) == ("recommend.schema.json", []), "no fit: schema")
    for failure in FAILURES:
        print("FAIL:", failure)
    print(f"{len(SITUATIONS) + 1} situations, {len(FAILURES)} failure(s)")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
