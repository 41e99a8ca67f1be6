#!/usr/bin/python3
"""End-to-end: `size` without a count chooses the count `recommend` prices.

usage: size_matches_recommend.py BINARY

For each workload, on the built-in catalog: the fewest instances `recommend` lists for an
instance type (the fewest that meet the deadline; for serving, the fewest that serve the load)
equals the count `size --instance TYPE` chooses, and the estimate on it is the same.
"""
import json
import subprocess
import sys

WORKLOADS = [
    ["training", "--model", "llama-2-7b", "--tokens", "1T", "--deadline", "30d"],
    ["training", "--model", "llama-2-70b", "--tokens", "300B", "--deadline", "60d"],
    ["finetune", "--model", "llama-2-13b", "--method", "lora", "--tokens", "200M"],
    ["inference", "--model", "llama-2-13b", "--qps", "20", "--latency-ms", "4000"],
    ["hpc", "--fp64-tflops", "40", "--memory-gb", "200"],
    ["graphics", "--sessions", "40", "--memory-per-session-gb", "6"],
    ["graphics", "--sessions", "40", "--memory-per-session-gb", "6", "--byo-vgpu"],
]
TYPES_PER_WORKLOAD = 6


def run(binary, args):
    done = subprocess.run([binary, *args, "-o", "json"], capture_output=True, text=True,
                          check=False)
    return done.returncode, json.loads(done.stdout)


def main():
    binary = sys.argv[1]
    failures = []
    for workload in WORKLOADS:
        code, doc = run(binary, ["recommend", *workload, "--top", "100"])
        if code != 0 or not doc["recommendations"]:
            failures.append(f"{workload}: recommend found nothing (exit {code})")
            continue
        fewest = {}
        for rec in doc["recommendations"]:
            key = (rec["provider"], rec["instance"])
            if key not in fewest or rec["instance_count"] < fewest[key]["instance_count"]:
                fewest[key] = rec
        for (provider, instance), rec in list(fewest.items())[:TYPES_PER_WORKLOAD]:
            code, sized = run(binary, ["size", *workload, "--instance", instance,
                                       "--provider", provider])
            estimate = sized.get("estimate", {})
            gpus = rec["total_gpus"]
            label = f"{' '.join(workload)} on {provider} {instance}"
            if code != 0 or not estimate.get("count_chosen"):
                failures.append(f"{label}: size exit {code}, count_chosen "
                                f"{estimate.get('count_chosen')}")
            elif abs(estimate["gpus"] - gpus) > 1e-6:
                failures.append(f"{label}: size chose {estimate['gpus']} GPUs, recommend's "
                                f"fewest is {gpus} ({rec['instance_count']} instances)")
            elif "hours" in rec["estimate"] and \
                    abs(estimate["hours"] - rec["estimate"]["hours"]) > 0.01 * estimate["hours"]:
                failures.append(f"{label}: size {estimate['hours']} h, recommend "
                                f"{rec['estimate']['hours']} h")
            else:
                print(f"ok: {label}: {gpus:g} GPUs")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
