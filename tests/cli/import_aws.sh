#!/usr/bin/env bash
# catalog import aws end to end: the overlay is the golden one, passes `catalog validate
# --strict` and adds the prices `catalog show` gives; an offer file and get-products output
# together; a 1 GB file is read as a stream (not refused by a size cap) and its error found
# quickly; a 20 MiB string is refused; a 40 MB generated offer file imports in bounded memory.
# In a sanitizer build (SANITIZE=ON) the 40 MB file must import, but its peak memory is not
# held to the bound: AddressSanitizer's shadow memory and quarantine are not the product's.
# Usage: import_aws.sh BINARY FIXTURES_DIR BENCH_DIR [SANITIZE]
set -u
bin=$1 fixtures=$2 bench=$3 sanitize=${4:-OFF}
feeds=$fixtures/import/aws
export GPUADVISOR_TODAY=2026-12-02 NO_COLOR=1
source "$(dirname "$0")/checks.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

imports_the_golden() {
  "$bin" catalog import aws "$feeds/offer-good.json" --output-file "$tmp/good.yaml" 2>/dev/null &&
    cmp -s "$tmp/good.yaml" "$feeds/offer-good.yaml"
}
validates_strict() {
  "$bin" catalog validate --strict "$tmp/good.yaml" >/dev/null
}
adds_the_prices() {
  local before after
  before=$("$bin" catalog show g4dn.xlarge -o csv) &&
    after=$("$bin" --catalog "$tmp/good.yaml" catalog show g4dn.xlarge -o csv) &&
    [[ "$before" != *"0.227"* ]] && [[ "$after" == *"us-east-1,USD,0.526,,0.331,0.227,"* ]] &&
    [[ "$after" == *"AWS Price List offer file offer-good.json"* ]]
}
defines_new_types() {
  "$bin" --catalog "$tmp/good.yaml" catalog show g6e.96xlarge >"$tmp/new.txt" &&
    grep -q "^gpu  *L40S$" "$tmp/new.txt" && grep -q "60.10" "$tmp/new.txt"
}
two_feeds_together() {
  "$bin" catalog import aws "$feeds/offer-good.json" "$feeds/get-products.json" \
    >"$tmp/both.yaml" 2>/dev/null &&
    grep -q 'region: "us-east-2"' "$tmp/both.yaml" && grep -q 'region: "us-east-1"' "$tmp/both.yaml" &&
    "$bin" catalog validate "$tmp/both.yaml" >/dev/null
}
reads_a_gigabyte() {
  local status start end
  head -c 200 "$feeds/offer-good.json" >"$tmp/huge.json" && truncate -s 1G "$tmp/huge.json" || return 1
  start=$(date +%s%N)
  "$bin" catalog import aws "$tmp/huge.json" >"$tmp/huge.out" 2>&1; status=$?
  end=$(date +%s%N)
  [ "$status" -eq 3 ] && grep -q "huge.json:6:36: error\[syntax\]" "$tmp/huge.out" &&
    ! grep -q "limit" "$tmp/huge.out" && [ $(((end - start) / 1000000)) -lt 5000 ]
}
refuses_a_long_string() {
  local status
  { printf '{"formatVersion" : "v1.0", "disclaimer" : "'; head -c 20000000 /dev/zero | tr '\0' x; printf '"}'; } >"$tmp/long.json"
  "$bin" catalog import aws "$tmp/long.json" >"$tmp/long.out" 2>&1; status=$?
  [ "$status" -eq 3 ] && grep -q "error\[limit\]: over 16 MiB without a double quote" "$tmp/long.out"
}
bounded_memory() {
  python3 "$bench/gen_aws_offer.py" "$tmp/offer40.json" --mb 40 || return 1
  /usr/bin/time -f "%M" -o "$tmp/rss" "$bin" catalog import aws "$tmp/offer40.json" \
    >"$tmp/offer40.yaml" 2>/dev/null || return 1
  grep -q 'id: "g4dn.xlarge"' "$tmp/offer40.yaml" || return 1
  [ "$sanitize" = ON ] || [ "$(tail -1 "$tmp/rss")" -lt 100000 ]
}
same_output_twice() {
  "$bin" catalog import aws "$feeds/offer-good.json" >"$tmp/a" 2>/dev/null &&
    "$bin" catalog import aws "$feeds/offer-good.json" >"$tmp/b" 2>/dev/null && cmp -s "$tmp/a" "$tmp/b"
}

check "the import of offer-good.json is offer-good.yaml" imports_the_golden
check "the imported overlay passes catalog validate --strict" validates_strict
check "loaded with --catalog, the overlay adds reserved prices to catalog show" adds_the_prices
check "a GPU type the catalog lacks is defined, with its family's GPU" defines_new_types
check "an offer file and get-products output import together" two_feeds_together
check "a 1 GB file is streamed, not refused by a size cap; its syntax error found in under 5 s" reads_a_gigabyte
check "a 20 MiB string is refused by the run limit" refuses_a_long_string
if [ "$sanitize" = ON ]; then
  check "a 40 MB offer file imports (peak memory not bounded: a sanitizer build)" bounded_memory
else
  check "a 40 MB offer file imports in under 100 MB of memory" bounded_memory
fi
check "the same file gives the same bytes" same_output_twice
checks_done
