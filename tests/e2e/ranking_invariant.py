#!/usr/bin/python3
"""End-to-end: recommend ranks by the user's objective, with prefer rules as advice.

usage: ranking_invariant.py BINARY

For varied workloads on the built-in catalog, every feasible configuration listed (--top 1000):
- no configuration beats #1 on both cost and time (latency for serving), and #1 is on the front;
- rows a prefer rule lifts (matched, within --prefer-within of the best objective, beaten on
  both by none) come first; the others follow in order of the objective (total cost, time with
  --sort time, cost plus time's value with --value-per-day);
- each prefer rule #1 does not meet has a tier line: the rule's best row, at its rank;
- every row carries its price's date and confidence.
"""
import json
import subprocess
import sys
from decimal import Decimal

TRAIN_7B = ["training", "--model", "llama-2-7b", "--tokens", "1T", "--deadline", "30d"]
CASES = [
    (TRAIN_7B, []),
    (TRAIN_7B, ["--sort", "time"]),
    (TRAIN_7B, ["--value-per-day", "20000"]),
    (TRAIN_7B, ["--prefer-within", "100"]),
    (["training", "--model", "llama-2-70b", "--tokens", "300B", "--deadline", "60d"], []),
    (["training", "--params", "1B", "--tokens", "20B"], []),
    (["finetune", "--model", "llama-2-13b", "--method", "lora", "--tokens", "200M"], []),
    (["inference", "--model", "bert-base", "--qps", "2000", "--latency-ms", "50"], []),
    (["inference", "--model", "bert-base", "--qps", "2000", "--latency-ms", "50"],
     ["--sort", "time"]),
    (["inference", "--model", "llama-2-13b", "--qps", "20", "--latency-ms", "4000"], []),
    (["hpc", "--fp64-tflops", "40", "--memory-gb", "200"], []),
    (["graphics", "--sessions", "40", "--memory-per-session-gb", "6"], []),
]
CONFIDENCES = {"high", "medium", "low"}


def run(binary, args):
    done = subprocess.run([binary, *args, "-o", "json"], capture_output=True, text=True,
                          check=False, env={"GPUADVISOR_TODAY": "2026-12-02", "PATH": "/usr/bin"})
    return done.returncode, json.loads(done.stdout)


def option(flags, name, default):
    return float(flags[flags.index(name) + 1]) if name in flags else default


def speed(rec):
    est = rec["estimate"]
    return est["hours"] if "hours" in est else est.get("latency_ms", 0.0)


def total(rec):
    """A recommendation's total: money amounts are exact decimal strings (to the cent)."""
    return Decimal(rec["cost"]["total"])


def beats(a, b):
    """a is no worse than b on cost and speed, and better on one."""
    ca, cb = total(a), total(b)
    sa, sb = speed(a), speed(b)
    return ca <= cb and sa <= sb and (ca < cb or sa < sb)


def check(label, doc, flags, trades_speed):
    recs = doc["recommendations"]
    failures = []
    if len(recs) >= 1000:  # (regions merge: fewer rows than configurations)
        return [f"{label}: more rows than --top 1000 shows; choose a narrower workload"]
    first = recs[0]
    if trades_speed:
        if not first["pareto"]:
            failures.append(f"{label}: #1 is not on the front")
        failures += [f"{label}: #{r['rank']} beats #1 on cost and speed"
                     for r in recs if beats(r, first)]
    by_time = "time" in flags
    value = option(flags, "--value-per-day", 0.0)

    def objective(rec):
        if by_time:
            return speed(rec)
        hours = rec["estimate"].get("hours", 0.0)
        return float(total(rec)) + value * hours / 24

    best = min(objective(r) for r in recs)
    within = option(flags, "--prefer-within", 10.0) / 100
    lifted = [bool(r["preferred_by"]) and objective(r) <= best * (1 + within) + 1e-6 and
              not (trades_speed and any(beats(o, r) for o in recs)) for r in recs]
    head = lifted.index(False) if False in lifted else len(lifted)
    if any(lifted[head:]):
        failures.append(f"{label}: a lifted row ranks below one that is not")
    rest = [objective(r) for r in recs[head:]]
    # Totals are rounded to the cent in JSON: allow that much.
    if any(b < a - 0.011 for a, b in zip(rest, rest[1:])):
        failures.append(f"{label}: rows past the lifted ones are not in objective order")
    for rule in doc["rules"]:
        if rule["effect"] != "prefer" or rule["id"] in first["preferred_by"]:
            continue
        tiers = [t for t in doc["preferred_tiers"] if t["rule"] == rule["id"]]
        matching = [r for r in recs if rule["id"] in r["preferred_by"]]
        if not matching:
            continue
        if len(tiers) != 1:
            failures.append(f"{label}: no tier line for {rule['id']}")
        elif tiers[0]["recommendation"]["rank"] != matching[0]["rank"]:
            failures.append(f"{label}: tier {rule['id']} names #"
                            f"{tiers[0]['recommendation']['rank']}, its best is "
                            f"#{matching[0]['rank']}")
    for rec in recs + [t["recommendation"] for t in doc["preferred_tiers"]]:
        if len(rec["price_as_of"]) != 10 or rec["price_confidence"] not in CONFIDENCES:
            failures.append(f"{label}: #{rec['rank']} has no price date or confidence")
    return failures


def main():
    binary = sys.argv[1]
    failures = []
    for workload, flags in CASES:
        label = " ".join(workload + flags)
        code, doc = run(binary, ["recommend", *workload, *flags, "--top", "1000"])
        if code != 0:
            failures.append(f"{label}: exit {code}")
            continue
        trades_speed = workload[0] in ("training", "finetune", "inference")
        failures += check(label, doc, flags, trades_speed)
    # The README's query: the cheapest configuration within the deadline is #1, and the
    # documents' tier it does not meet gets its own line.
    code, doc = run(binary, ["recommend", *TRAIN_7B])
    recs = doc["recommendations"]
    if code != 0 or total(recs[0]) > min(total(r) for r in recs):
        failures.append("README query: #1 is not the cheapest")
    if "doc-training-1b-10b" not in [t["rule"] for t in doc["preferred_tiers"]]:
        failures.append("README query: no line for the documents' tier doc-training-1b-10b")
    for failure in failures:
        print(failure)
    print(f"{len(CASES)} workloads ranked; {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
