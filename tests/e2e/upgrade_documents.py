#!/usr/bin/python3
"""End-to-end: `upgrade` puts the source documents' CPU -> GPU examples in their range.

usage: upgrade_documents.py BINARY

On the built-in catalog (docs/upgrade.md, "The documents' examples", has the figures):
- molecular dynamics, 72 h on a dual Xeon Platinum 8380 -> about 8 h on one A100 (its FP64
  tensor cores; on vector FP64 one A100 takes about twice that, two A100s about 8 h);
- ResNet-50, 90 epochs of ImageNet (115M samples): about 2 h on 8 x V100, the GPUs 10-100x
  the dual-socket CPU servers;
- --cpu-hours scales the job: the speed-up stays, the GPU hours are the CPU hours over it;
- --migration-cost is paid back in ceil(cost / saving per run) runs.
"""
import json
import math
import subprocess
import sys

FAILURES = []


def upgrade(binary, args):
    done = subprocess.run([binary, "upgrade", *args, "--top", "20", "-o", "json"],
                          capture_output=True, text=True, check=False,
                          env={"GPUADVISOR_TODAY": "2026-12-02", "LC_ALL": "C"})
    if done.returncode != 0:
        FAILURES.append(f"upgrade {' '.join(args)}: exit {done.returncode}: {done.stderr}")
        return {"cpu": {"hours": 0}, "options": []}
    return json.loads(done.stdout)


def check(condition, message):
    if not condition:
        FAILURES.append(message)


def rows(doc, gpus):
    return [o for o in doc["options"] if o["gpus"] == gpus]


def molecular_dynamics(binary):
    md = ["hpc", "--cpu", "8380x2", "--cpu-hours", "72", "--gpu", "A100-80GB"]
    tensor = rows(upgrade(binary, [*md, "--fp64-tensor"]), 1)
    check(tensor, "MD: no 1 x A100 row")
    for row in tensor:
        check(5 <= row["hours"] <= 12, f"MD on 1 x A100 (FP64 tensor): {row['hours']} h, not ~8")
    vector = upgrade(binary, md)
    for row in rows(vector, 1):
        check(12 <= row["hours"] <= 20, f"MD on 1 x A100 (vector FP64): {row['hours']} h")
    for row in rows(vector, 2):
        check(5 <= row["hours"] <= 12, f"MD on 2 x A100 (vector FP64): {row['hours']} h")


def resnet(binary):
    job = ["training", "--model", "resnet-50", "--tokens", "115M", "--gpu", "V100"]
    for cpu in ["8380x2", "8480+x2", "7763x2", "9654x2"]:
        doc = upgrade(binary, [*job, "--cpu", cpu])
        eight = rows(doc, 8)
        check(eight, f"ResNet-50 on {cpu}: no 8 x V100 row")
        for row in eight:
            check(1.5 <= row["hours"] <= 4, f"ResNet-50 on 8 x V100: {row['hours']} h, not ~2")
            check(10 <= row["speedup"] <= 100,
                  f"ResNet-50, 8 x V100 against {cpu}: {row['speedup']}x, not 10-100x")
    estimate = upgrade(binary, [*job, "--cpu", "8380x2"])
    measured = upgrade(binary, [*job, "--cpu", "8380x2", "--cpu-hours", "72"])
    check(measured["cpu"]["hours"] == 72 and measured["cpu"]["hours_basis"] != "estimate",
          "--cpu-hours 72 is not the CPU's hours")
    for before, after in zip(rows(estimate, 8), rows(measured, 8)):
        check(math.isclose(before["speedup"], after["speedup"], rel_tol=0.01),
              f"--cpu-hours changed the speed-up: {before['speedup']} -> {after['speedup']}")
        check(math.isclose(after["hours"], 72 / after["speedup"], rel_tol=0.01),
              f"GPU hours {after['hours']} are not 72 h / {after['speedup']}")


def payback(binary):
    doc = upgrade(binary, ["hpc", "--cpu", "8380x2", "--cpu-hours", "72", "--gpu", "A100-80GB",
                           "--fp64-tensor", "--migration-cost", "500", "--runs-per-month", "4"])
    for row in doc["options"]:
        saving = float(row["saving_per_run"]["total"])
        if saving > 0:
            runs = math.ceil(500 / saving)
            check(row["runs_to_break_even"] in (runs, runs + 1),
                  f"{row['instance']}: {row['runs_to_break_even']} runs, not ceil(500/{saving})")
            check(math.isclose(row["months_to_pay_back"], row["runs_to_break_even"] / 4,
                               abs_tol=0.001), f"{row['instance']}: months != runs / 4")
        else:
            check(row["runs_to_break_even"] is None, f"{row['instance']}: payback without saving")


def main():
    binary = sys.argv[1]
    molecular_dynamics(binary)
    resnet(binary)
    payback(binary)
    for failure in FAILURES:
        print("FAIL:", failure)
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
