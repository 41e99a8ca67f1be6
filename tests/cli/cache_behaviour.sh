#!/usr/bin/env bash
# The cache of large catalog files from the command line (docs/cli.md): where it lives
# (GPUADVISOR_CACHE_DIR, XDG_CACHE_HOME, HOME), --no-cache and an empty GPUADVISOR_CACHE_DIR
# turn it off, and the answer is the same cold, warm, without it, and over corrupt entries.
# Usage: cache_behaviour.sh BINARY SOURCE_DIR
set -u
bin=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$src/bench/gen_catalog.py" "$work/catalog" --offers 1000 >/dev/null || exit 1
args=(--no-default-catalog --catalog "$src/data/catalog/gpus.yaml" --catalog "$work/catalog"
      recommend training --model llama-2-7b --tokens 1T --deadline 30d -o json)
source "$(dirname "$0")/checks.sh"
run() { env -u GPUADVISOR_CACHE_DIR -u XDG_CACHE_HOME HOME="$work/home" "$@" "$bin" "${args[@]}"; }

reference=$(run GPUADVISOR_CACHE_DIR="$work/c1")
entries() { find "$1" -name '*.bin' 2>/dev/null | wc -l; }

check "a run fills the cache" [ "$(entries "$work/c1")" -ge 2 ]
check "a warm run answers the same" [ "$(run GPUADVISOR_CACHE_DIR="$work/c1")" == "$reference" ]
check "the answer names offers" grep -q '"recommendations"' <<<"$reference"
check "--no-cache answers the same" \
  [ "$(GPUADVISOR_CACHE_DIR="$work/c2" "$bin" --no-cache "${args[@]}")" == "$reference" ]
check "--no-cache writes nothing" [ ! -e "$work/c2" ]
check "an empty GPUADVISOR_CACHE_DIR answers the same" \
  [ "$(run GPUADVISOR_CACHE_DIR=)" == "$reference" ]
check "an empty GPUADVISOR_CACHE_DIR writes nothing, not even under HOME" [ ! -e "$work/home" ]
mkdir "$work/home" # (a home folder that does not exist is never created: cache_trust.sh)
check "XDG_CACHE_HOME is used" [ "$(run XDG_CACHE_HOME="$work/xdg")" == "$reference" ]
check "XDG_CACHE_HOME/gpuadvisor holds the entries" [ "$(entries "$work/xdg/gpuadvisor")" -ge 2 ]
check "else HOME/.cache is used" [ "$(run)" == "$reference" ]
check "HOME/.cache/gpuadvisor holds the entries" [ "$(entries "$work/home/.cache/gpuadvisor")" -ge 2 ]
for entry in "$work"/c1/*.bin; do printf 'not a cache entry' >"$entry"; done
check "corrupt entries are not used" [ "$(run GPUADVISOR_CACHE_DIR="$work/c1")" == "$reference" ]
check "and are rewritten" [ "$(grep -l 'not a cache entry' "$work"/c1/*.bin | wc -l)" -eq 0 ]
printf 'x' >"$work/a-file"
check "an unusable cache folder changes nothing" \
  [ "$(run GPUADVISOR_CACHE_DIR="$work/a-file/cache")" == "$reference" ]
# --timings: a line on stderr, the output unchanged, and the catalog stage says how it was read.
timings() { # the --timings line of a run with its cache in $1 ("": none); stdout to $work/out
  GPUADVISOR_CACHE_DIR="$1" "$bin" --timings "${args[@]}" 2>&1 >"$work/out" |
    grep '^gpuadvisor: timings:'
}
cold=$(timings "$work/c3")
check "--timings leaves the output as it was" [ "$(cat "$work/out")" == "$reference" ]
shape='^gpuadvisor: timings: catalog [0-9.]+ ms \([0-9]+%; 1000 offers, 2 file\(s\) parsed\),'
shape+=' plan [0-9.]+ ms \([0-9]+%\), output [0-9.]+ ms \([0-9]+%\), other [0-9.]+ ms \([0-9]+%\); [0-9.]+ ms'
shape+=' from main to the end; CPU [0-9.]+ ms \(user [0-9.]+, system [0-9.]+\) in all threads'
check "--timings names each stage, its share, the whole and the CPU time" grep -Eq "$shape" <<<"$cold"
check "--timings: a cold run parses the files" grep -q "offers, 2 file(s) parsed)" <<<"$cold"
check "--timings: a warm run reads them from the cache" \
  grep -q "offers, 2 file(s) from the cache)" <<<"$(timings "$work/c3")"
check "--timings: with no cache every file is parsed" \
  grep -q "offers, 2 file(s) parsed)" <<<"$(timings "")"
check "--timings: a file that cannot be read is said not read, not taken from the cache" \
  grep -q "offers, 1 file(s): 0 parsed, 0 from the cache, 1 not read)" \
  <<<"$(GPUADVISOR_CACHE_DIR="$work/c3" "$bin" --timings catalog validate "$work/missing.yaml" 2>&1)"
check "--timings: a usage error prints no line" \
  [ -z "$("$bin" --timings recommend training --no-such-flag 2>&1 | grep "timings:")" ]
printf 'unknown_top_level_key: 1\n' >>"$work/catalog/synth0.yaml"
validate() { GPUADVISOR_CACHE_DIR="$work/c1" "$bin" --no-default-catalog catalog validate \
  "$src/data/catalog/gpus.yaml" "$work/catalog" 2>&1; echo "exit $?"; }
first=$(validate)
check "an edited file with an error is reported" grep -q "unknown-field" <<<"$first"
check "and reported the same the second time" [ "$(validate)" == "$first" ]

checks_done
