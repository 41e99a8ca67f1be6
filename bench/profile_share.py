#!/usr/bin/python3
"""Where `recommend`'s work goes on a large catalog, in instructions (callgrind), cache warm.

usage: bench/profile_share.py [--offers N] [--bin build/gpuadvisor]

Writes a synthetic catalog of N offers (default 100,000) with bench/gen_catalog.py, warms the
cache, then runs `recommend training` and `recommend inference` (the workloads of
bench/scale.py) once each under `valgrind --tool=callgrind` and prints, for each, the share of
all instructions the process executed that fall in: the catalog load, the planner (`plan`,
all threads), and within it the pass over the offers. Instruction counts do not wander from
run to run as times do on a VM; they leave out page faults, cache misses and waiting, so they
are a share of the work, not of the wall time. Needs valgrind (`callgrind_annotate`).
"""
import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
WORKLOADS = {
    "training": ["recommend", "training", "--model", "llama-2-7b", "--tokens", "1T",
                 "--deadline", "30d"],
    "inference": ["recommend", "inference", "--model", "bert-base", "--qps", "2000",
                  "--latency-ms", "50"],
}
# The stage, and the functions whose inclusive counts add up to the stage's work. A function
# counts the calling thread only: each stage adds the work its helper threads (HelperThread)
# run: run_on_threads's for the load (the decode's chunks), the pass's slices for the planner.
STAGES = [
    ("load the catalog", [r"gpuadvisor::cli::load_active_catalog\(",
                          r"_Function_handler<void \(\), gpuadvisor::run_on_threads\(.*::_M_invoke\("]),
    ("plan (all threads)", [r"gpuadvisor::plan\(gpuadvisor::PlanInput const&"
                            r"(, std::shared_ptr<void>&)?\)",
                            r"_Function_handler<void \(\), .*pass_over_offers\(\).*::_M_invoke\("]),
    ("  the pass over the offers", [r"gpuadvisor::planner_detail::Planner::pass\("]),
    ("  join the threads' results", [r"gpuadvisor::planner_detail::Planner::absorb\("]),
]


def inclusive(report, pattern):
    """The largest inclusive count of a function matching pattern (callgrind lists a function
    once per source file its code came from; the largest is the whole)."""
    best = 0
    for line in report.splitlines():
        match = re.match(r"\s*([\d,]+) \([\s\d.]+%\)\s+(.*)", line)
        if match and re.search(pattern, match.group(2)):
            best = max(best, int(match.group(1).replace(",", "")))
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--offers", type=int, default=100_000)
    parser.add_argument("--bin", default=str(ROOT / "build/gpuadvisor"))
    args = parser.parse_args()
    if shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None:
        raise SystemExit("profile_share: needs valgrind (apt-get install valgrind)")
    with tempfile.TemporaryDirectory(prefix="gpuadvisor-profile-") as work:
        catalog = pathlib.Path(work) / "catalog"
        subprocess.run([sys.executable, str(ROOT / "bench/gen_catalog.py"), str(catalog),
                        "--offers", str(args.offers)], check=True, stdout=subprocess.DEVNULL)
        env = dict(os.environ, GPUADVISOR_CACHE_DIR=os.path.join(work, "cache"))
        print(f"{args.offers:,} offers, cache warm; share of the process's instructions")
        for name, command in WORKLOADS.items():
            run = [args.bin] + command + ["--catalog", str(catalog)]
            subprocess.run(run, env=env, check=True, stdout=subprocess.DEVNULL)  # warm
            out = os.path.join(work, f"callgrind.{name}")
            subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"] + run,
                           env=env, check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            report = subprocess.run(["callgrind_annotate", "--inclusive=yes", out],
                                    capture_output=True, text=True, check=True).stdout
            total = inclusive(report, r"PROGRAM TOTALS")
            print(f"\nrecommend {name}: {total:,} instructions")
            for stage, patterns in STAGES:
                count = sum(inclusive(report, pattern) for pattern in patterns)
                print(f"  {stage:<30} {count / total * 100:5.1f}%  {count:>14,}")


if __name__ == "__main__":
    main()
