#!/usr/bin/env bash
# Speed and memory of `gpuadvisor catalog import aws` on a realistic regional EC2 offer file,
# side by side in one run with Python's json.load and jq on the same file (issue 31).
#
# usage: bench/import_aws.sh [--bin build/gpuadvisor] [--mb 300] [--runs 3] [--file PATH]
#
# Writes a synthetic offer file in the real format (bench/gen_aws_offer.py, deterministic) of
# --mb megabytes unless --file names one, then runs each tool --runs times: wall time (median)
# and peak RSS (max, /usr/bin/time -v) of
#   gpuadvisor catalog import aws FILE > /dev/null
#   python3 -c 'import json,sys; json.load(open(sys.argv[1]))' FILE
#   jq empty FILE
#   bench/simdjson_offer.cpp (simdjson On-Demand, the same filter; built here when
#   libsimdjson-dev is installed, else skipped with a note)
# and checks the limits: the import at most a third of json.load's time, at most 200 MB.
# Exits 1 if a limit is missed. Not run by ctest (it takes minutes). Needs python3, jq and GNU
# time. The generated file is removed at the end.
set -u
bin=build/gpuadvisor mb=300 runs=3 file=""
while [ $# -gt 0 ]; do
  case $1 in
    --bin) bin=$2; shift 2 ;;
    --mb) mb=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --file) file=$2; shift 2 ;;
    *) echo "usage: $0 [--bin BIN] [--mb N] [--runs N] [--file PATH]" >&2; exit 2 ;;
  esac
done
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "$file" ]; then
  file=$tmp/offer.json
  python3 "$here/gen_aws_offer.py" "$file" --mb "$mb" || exit 2
fi
bytes=$(stat -c %s "$file")
echo "file: $file, $((bytes / 1000000)) MB ($bytes bytes)"
export GPUADVISOR_TODAY=2026-12-02

# measure NAME CMD...: median wall seconds and max peak RSS (MB) of --runs runs.
measure() {
  local name=$1; shift
  local walls=() rss=0 i
  for i in $(seq "$runs"); do
    /usr/bin/time -v -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err"
    local status=$?
    if [ "$status" -ne 0 ] && [ "$name" != gpuadvisor ]; then
      echo "$name failed ($status):"; tail -3 "$tmp/err"; return 1
    fi
    local wall kb
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (k = 1; k <= n; k++) s = s * 60 + p[k]; print s}' "$tmp/time")
    kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tmp/time")
    walls+=("$wall")
    [ "$kb" -gt "$rss" ] && rss=$kb
  done
  local median
  median=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
  printf '%s %s %s\n' "$name" "$median" "$((rss / 1024))" >>"$tmp/results"
}

measure gpuadvisor "$bin" catalog import aws "$file"
measure python_json_load python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$file"
measure jq_empty jq empty "$file"
if [ -f /usr/include/simdjson.h ] &&
  c++ -O2 -std=c++20 "$here/simdjson_offer.cpp" -lsimdjson -o "$tmp/simdjson_offer" 2>/dev/null; then
  measure simdjson_ondemand "$tmp/simdjson_offer" "$file"
else
  echo "(simdjson column skipped: no libsimdjson-dev)"
fi

echo
echo "| tool | wall (s, median of $runs) | peak RSS (MB) |"
echo "|---|---|---|"
awk '{printf "| %s | %.2f | %d |\n", $1, $2, $3}' "$tmp/results"
ours=$(awk '$1 == "gpuadvisor" {print $2}' "$tmp/results")
ours_rss=$(awk '$1 == "gpuadvisor" {print $3}' "$tmp/results")
python=$(awk '$1 == "python_json_load" {print $2}' "$tmp/results")
echo
ok=0
awk -v a="$ours" -v b="$python" 'BEGIN {r = a / b; printf "import / json.load: %.3f (limit 0.333): %s\n", r, r <= 1 / 3 ? "met" : "MISS"; exit !(r <= 1 / 3)}' || ok=1
if [ "$ours_rss" -le 200 ]; then echo "import peak RSS: $ours_rss MB (limit 200): met"; else echo "import peak RSS: $ours_rss MB (limit 200): MISS"; ok=1; fi
exit $ok
