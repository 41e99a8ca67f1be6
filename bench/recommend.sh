#!/usr/bin/env bash
# Whole-process wall time of `recommend` on the built-in catalog, and how it grows with the
# catalog: the built-in instance types laid over it again K times under new ids (synthetic
# copies, same prices), K = 0, 1, 3, 7 (1x, 2x, 4x, 8x the offers).
#   bench/recommend.sh [BINARY]
# Uses hyperfine when present (mean of 30 runs after 3 warm-ups); otherwise the median of 11.
set -euo pipefail
bin=${1:-build/gpuadvisor}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
workloads=("recommend training --model llama-2-7b --tokens 1T --deadline 30d"
           "recommend inference --model bert-base --qps 2000 --latency-ms 50")
time_ms() { # median wall time of a command, in ms
  if command -v hyperfine >/dev/null; then
    hyperfine -N --warmup 3 --runs 30 --export-json "$work/h.json" "$*" >/dev/null 2>&1
    python3 -c "import json;print('%.1f' % (json.load(open('$work/h.json'))['results'][0]['median']*1000))"
    return
  fi
  local times=()
  for _ in $(seq 11); do
    local start; start=$(date +%s%N)
    "$@" >/dev/null 2>&1 || true
    times+=($(( ($(date +%s%N) - start) / 1000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n 6p | awk '{printf "%.1f\n", $1/1000}'
}
echo "gpuadvisor $("$bin" --version), $(nproc) cores; median wall time per run"
printf '%-8s %-8s %-10s %s\n' copies offers time_ms workload
for copies in 0 1 3 7; do
  dir="$work/x$copies"; mkdir -p "$dir"
  for k in $(seq 1 "$copies"); do
    for f in data/catalog/providers/*.yaml; do
      sed -E "s/^  - id: (.*)$/  - id: \1-copy$k/" "$f" >"$dir/$(basename "$f" .yaml)-$k.yaml"
    done
  done
  offers=$("$bin" --catalog "$dir" catalog list offers -o csv | tail -n +2 | wc -l)
  for w in "${workloads[@]}"; do
    # shellcheck disable=SC2086
    printf '%-8s %-8s %-10s %s\n' "$copies" "$offers" "$(time_ms "$bin" --catalog "$dir" $w)" "$w"
  done
done
