#!/usr/bin/python3
"""Writes a valid synthetic catalog in gpuadvisor's own format: N instance types x R regions.

usage: gen_catalog.py OUT_DIR --offers N [--regions R] [--files F] [--seed S]

The instance types use the built-in catalog's GPU ids (so they resolve against it, and the
synthetic catalog can be used alone with --no-default-catalog plus data/catalog/gpus.yaml, or
overlaid on the built-in one), realistic field mixes (1-8 GPUs, NVLink and RDMA on the large
ones, spot on most rows, reserved and subscription on some, a few rows in CNY), and are split
over F files (default: one per 20,000 offers) of one synthetic provider each. Deterministic for
a seed.
"""
import argparse
import pathlib
import random

GPUS = [  # (id, memory GB): a spread of the built-in catalog's GPUs
    ("A100-40GB", 40), ("A100-80GB", 80), ("H100-80GB", 80), ("H200-141GB", 141),
    ("L4", 24), ("L40S", 48), ("T4", 16), ("A10G", 24), ("V100-16GB", 16), ("MI300X", 192),
]
COUNTRIES = ["US", "US", "IE", "DE", "JP", "SG", "CN", "CN", "BR", "IN"]


def provider_file(index, instances, regions, rng):
    lines = [
        "schema_version: 1",
        "provider:",
        f"  id: synth{index}",
        f"  name: Synthetic cloud {index}",
        "  currency: USD",
        '  source: "gpuadvisor bench/gen_catalog.py (synthetic)"',
        "  as_of: 2026-01-01",
        "  confidence: low",
        "  regions:",
    ]
    for r in range(regions):
        lines.append(f"    - {{id: region-{r}, name: Region {r}, "
                     f"country: {COUNTRIES[r % len(COUNTRIES)]}}}")
    lines.append("instances:")
    for i in range(instances):
        gpu, memory = GPUS[rng.randrange(len(GPUS))]
        count = rng.choice([1, 1, 2, 4, 8, 8])
        big = count == 8
        hourly = round(count * rng.uniform(0.4, 6.0), 4)
        lines += [
            f"  - id: s{index}.{gpu.lower()}.{count}x.{i}",
            f"    family: s{index}-{gpu.lower()}",
            f"    gpu: {gpu}",
            f"    gpu_count: {count}",
            f"    vcpus: {count * rng.choice([4, 8, 12, 16])}",
            f"    memory_gb: {count * rng.choice([16, 32, 64, 128])}",
            f"    network_gbps: {rng.choice([400, 800, 3200]) if big else rng.choice([10, 25, 50])}",
            f"    rdma: {'true' if big else 'false'}",
            f"    nvlink: {'true' if big and gpu not in ('L4', 'T4', 'A10G', 'L40S') else 'false'}",
            "    regions:",
        ]
        for r in range(regions):
            price = round(hourly * rng.uniform(0.9, 1.3), 4)
            row = f"      - {{region: region-{r}, on_demand: {price}"
            if rng.random() < 0.8:
                row += f", spot: {round(price * rng.uniform(0.25, 0.6), 4)}"
            if rng.random() < 0.3:
                row += f", reserved_1y: {round(price * 0.63, 4)}"
                row += f", reserved_3y: {round(price * 0.45, 4)}"
            if COUNTRIES[r % len(COUNTRIES)] == "CN" and rng.random() < 0.5:
                row = (f"      - {{region: region-{r}, currency: CNY, "
                       f"on_demand: {round(price * 7.2, 2)}, "
                       f"subscription_monthly: {round(price * 7.2 * 730 * 0.7, 2)}")
            lines.append(row + "}")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--offers", type=int, required=True)
    parser.add_argument("--regions", type=int, default=10)
    parser.add_argument("--files", type=int)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    instances = max(1, args.offers // args.regions)
    files = args.files or max(1, args.offers // 20_000)
    args.out.mkdir(parents=True, exist_ok=True)
    for f in range(files):
        share = instances // files + (1 if f < instances % files else 0)
        (args.out / f"synth{f}.yaml").write_text(provider_file(f, share, args.regions, rng))
    print(f"{instances * args.regions} offers ({instances} instance types x {args.regions} "
          f"regions) in {files} file(s) under {args.out}")


if __name__ == "__main__":
    main()
