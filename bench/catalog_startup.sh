#!/usr/bin/env bash
# Whole-process wall time of catalog commands on the built-in catalog.
#   bench/catalog_startup.sh [BINARY]
# Uses hyperfine (Debian package 'hyperfine') when present: mean of 50 runs after 5 warm-ups;
# otherwise a plain loop reporting the median of 21 runs.
set -euo pipefail
bin=${1:-build/gpuadvisor}
commands=("catalog list gpus" "catalog list instances" "catalog list offers"
          "catalog list offers -o json" "catalog show p4d.24xlarge" "catalog validate")
echo "gpuadvisor $("$bin" --version), $(nproc) cores, built-in catalog"
if command -v hyperfine >/dev/null; then
  args=()
  for c in "${commands[@]}"; do args+=("$bin $c"); done
  hyperfine -N --warmup 5 --runs 50 --style basic "${args[@]}" 2>&1 | grep -E "Benchmark|Time"
  exit 0
fi
for c in "${commands[@]}"; do
  times=()
  for _ in $(seq 21); do
    start=$(date +%s%N)
    # shellcheck disable=SC2086
    "$bin" $c >/dev/null
    times+=($(( ($(date +%s%N) - start) / 1000 )))
  done
  median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 11p)
  printf '%-32s %6.1f ms (median of 21)\n' "$c" "$(echo "$median / 1000" | bc -l)"
done
