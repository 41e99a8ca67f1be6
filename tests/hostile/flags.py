#!/usr/bin/python3
"""Every numeric flag of every command refuses NaN, infinity, text, negative numbers, zero
where zero means nothing, absurd values, and forms the documentation does not give (hex,
a leading '+' or zero, spaces; decimals for counts): exit 2, with a message that names the
flag.

usage: flags.py BINARY FIXTURES
"""
import concurrent.futures
import subprocess
import sys

# (command and the flags it needs to run, flag, zero allowed)
FLAGS = [
    (["price", "big.8x"], "--instances", False),
    (["price", "big.8x"], "--count", False),  # the old spelling, kept for a release
    (["price", "big.8x"], "--hours", False),
    (["price", "big.8x"], "--months", False),
    (["price", "big.8x"], "--utilization", False),
    (["price", "big.8x"], "--baseline", True),
    (["price", "big.8x", "--mix", "auto"], "--interruptible-share", True),
    (["price", "big.8x"], "--interruptions-per-hour", True),
    (["price", "big.8x"], "--checkpoint-hours", True),
    (["price", "big.8x"], "--restart-hours", True),
    (["price", "big.8x"], "--idle-stretches-per-day", True),
    (["tco", "--instance", "big.8x"], "--instances", False),
    (["tco", "--instance", "big.8x"], "--count", False),  # the old spelling
    (["tco", "--instance", "big.8x"], "--utilization", False),
    (["tco", "--instance", "big.8x"], "--years", False),
    (["scaling", "--gpu-counts", "1,2", "--throughput", "1,2"], "--threshold", False),
    (["catalog", "list", "gpus"], "--min-gpu-memory-gb", True),
    (["catalog", "list", "instances"], "--min-gpus", True),
    (["catalog", "validate"], "--max-age-days", True),
    (["size", "--gpu", "A100-40GB"], "--gpus", False),
    (["size", "--instance", "big.8x"], "--instances", False),
    (["recommend", "inference", "--model", "bert-base"], "--max-instances", False),
    (["recommend", "inference", "--model", "bert-base"], "--top", False),
    (["recommend", "inference", "--model", "bert-base"], "--prefer-within", True),
    (["recommend", "inference", "--model", "bert-base"], "--max-price-age", True),
    (["recommend", "training", "--params", "7B", "--tokens", "1B"], "--value-per-day", True),
    (["price", "big.8x"], "--max-price-age", True),
    (["recommend", "inference", "--model", "bert-base"], "--dataset-tb", False),
    (["price", "big.8x"], "--dataset-tb", False),
    (["price", "big.8x", "--dataset-tb", "1"], "--link-gbps", False),
    (["size", "hpc", "--fp64-tflops", "1", "--instance", "big.8x"], "--dataset-tb", False),
    (["recommend", "inference", "--model", "bert-base", "--dataset-tb", "1"], "--link-gbps",
     False),
    (["export", "prometheus", "--workload", "inference", "--model", "bert-base"], "--rank", False),
    (["export", "prometheus", "--workload", "inference", "--model", "bert-base"], "--temp-c", False),
    (["export", "prometheus", "--workload", "inference", "--model", "bert-base"],
     "--memory-percent", False),
    (["export", "prometheus", "--workload", "inference", "--model", "bert-base"],
     "--alert-minutes", True),
    (["export", "prometheus", "--workload", "inference", "--model", "bert-base"],
     "--idle-percent", False),
    (["export", "prometheus", "--workload", "inference", "--model", "bert-base"],
     "--idle-minutes", False),
    (["export", "kubernetes", "--workload", "inference", "--model", "bert-base"], "--port", False),
    (["export", "prometheus", "--workload", "inference", "--model", "bert-base"],
     "--max-instances", False),
]
# upgrade, on the fixture catalog's CPUs (tests/fixtures/cpus) laid over it.
UPGRADE = ["--catalog", "{fixtures}/cpus/cpus.yaml", "upgrade", "hpc", "--cpu", "8380x2"]
FLAGS += [
    ([*UPGRADE], "--cpu-hours", False),
    ([*UPGRADE, "--cpu-hours", "1"], "--cpu-cost-per-hour", True),
    ([*UPGRADE, "--cpu-hours", "1"], "--runs-per-month", False),
    ([*UPGRADE, "--cpu-hours", "1"], "--migration-cost", True),
    ([*UPGRADE, "--cpu-hours", "1"], "--top", False),
]
# The workload flags, through `size` and `recommend` alike.
WORKLOAD = {
    "training": ["--params", "--tokens", "--seq-len", "--batch", "--deadline", "--budget"],
    "inference": ["--qps", "--latency-ms", "--input-tokens", "--output-tokens",
                  "--hours-per-month"],
    "hpc": ["--fp64-tflops", "--memory-gb", "--bandwidth-gb-per-s"],
    "graphics": ["--sessions", "--memory-per-session-gb"],
}
BASE = {
    "training": ["--params", "7B", "--tokens", "1B"],
    "inference": ["--model", "llama-2-7b", "--qps", "1"],
    "hpc": ["--fp64-tflops", "1"],
    "graphics": ["--sessions", "4", "--memory-per-session-gb", "4"],
}
def without(args, flag):
    """The base arguments less `flag` and its value."""
    if flag not in args:
        return args
    i = args.index(flag)
    return args[:i] + args[i + 2:]


for kind, flags in WORKLOAD.items():
    for flag in flags:
        for command in ("size", "recommend"):
            FLAGS.append(([command, kind, *without(BASE[kind], flag)], flag, False))
# A preset and --params together would leave one of them unused: refused.
FLAGS.append((["size", "training", "--model", "llama-2-7b", "--tokens", "1B", "--params", "7B"],
              "--params", True))

BAD = ["nan", "NaN", "inf", "-inf", "abc", "-1", "1e308",
       # Forms strtod and CLI11 read but the documentation does not give: a hex float
       # (0x10 = 16), a leading '+', leading or trailing spaces, a leading zero (octal to
       # some readers: 016 = 14), a bare fraction.
       "0x10", "0x1p4", "+1", " 1", "1 ", "01", ".5"]
# Count flags take digits only: a whole number written as a decimal or with an exponent is
# refused too.
COUNT_FLAGS = {"--count", "--baseline", "--max-age-days", "--gpus", "--instances",
               "--max-instances", "--top", "--max-price-age"}
NOT_DIGITS = ["1.0", "1e0", "2.5e1"]


def check(binary, catalog, args, flag, value):
    """One run: None if it refused the value as it must, else what went wrong."""
    args = [arg.replace("{fixtures}", catalog[-1].rsplit("/", 1)[0]) for arg in args]
    done = subprocess.run([binary, *catalog, *args, f"{flag}={value}"],
                          capture_output=True, text=True, timeout=10, check=False)
    first = done.stderr.splitlines()[0] if done.stderr else ""
    if done.returncode != 2 or flag not in done.stderr:
        return f"FAIL {' '.join(args)} {flag}={value}: exit {done.returncode}: {first}"
    return None


def main():
    binary, fixtures = sys.argv[1], sys.argv[2]
    catalog = ["--no-default-catalog", "--catalog", f"{fixtures}/catalog"]
    runs = [(args, flag, value)
            for args, flag, zero_ok in FLAGS
            for value in BAD + (NOT_DIGITS if flag in COUNT_FLAGS else []) +
            ([] if zero_ok else ["0"])]
    # Two at a time: the runs are independent, and under the sanitizers each takes a while.
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda run: check(binary, catalog, *run), runs))
    failures = [result for result in results if result is not None]
    for failure in failures:
        print(failure)
    print(f"{len(runs)} bad flag values, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
