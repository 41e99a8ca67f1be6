#!/usr/bin/env bash
# catalog import sheet end to end: the overlay is the golden one, passes `catalog validate
# --strict` and changes the prices `catalog show` gives; several providers go to --output-dir;
# a 1 GB sheet (sparse) is refused quickly by the size cap.
# Usage: import_sheet.sh BINARY FIXTURES_DIR
set -u
bin=$1 fixtures=$2
sheets=$fixtures/import/sheet
export GPUADVISOR_TODAY=2026-12-02 NO_COLOR=1
source "$(dirname "$0")/checks.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

imports_the_golden() {
  "$bin" catalog import sheet "$sheets/good.csv" --output-file "$tmp/good.yaml" 2>/dev/null &&
    cmp -s "$tmp/good.yaml" "$sheets/good.yaml"
}
validates_strict() {
  "$bin" catalog validate --strict "$tmp/good.yaml" >/dev/null
}
changes_the_prices() {
  local before after
  before=$("$bin" catalog show ecs.gn6i-c4g1.xlarge -o csv) &&
    after=$("$bin" --catalog "$tmp/good.yaml" catalog show ecs.gn6i-c4g1.xlarge -o csv) &&
    [[ "$before" != *"10.99"* ]] && [[ "$after" == *"cn-shanghai,CNY,10.99,"* ]] &&
    [[ "$after" == *"cn-hangzhou,CNY,11.20,"* ]]
}
one_file_a_provider() {
  mkdir -p "$tmp/out" &&
    "$bin" catalog import sheet "$sheets/multi.csv" --output-dir "$tmp/out" 2>/dev/null &&
    [ "$(ls "$tmp/out")" = $'alibaba.yaml\ntencent.yaml' ] &&
    "$bin" catalog validate --strict "$tmp/out" >/dev/null
}
several_providers_need_a_dir() {
  local status
  "$bin" catalog import sheet "$sheets/multi.csv" >"$tmp/multi.out" 2>&1; status=$?
  [ "$status" -eq 2 ] && grep -q -- "--output-dir" "$tmp/multi.out"
}
refuses_a_gigabyte() {
  local status start end
  truncate -s 1G "$tmp/huge.csv" || return 1
  start=$(date +%s%N)
  "$bin" catalog import sheet "$tmp/huge.csv" >"$tmp/huge.out" 2>&1; status=$?
  end=$(date +%s%N)
  [ "$status" -eq 3 ] && grep -q "larger than the limit of 64 MiB" "$tmp/huge.out" &&
    [ $(((end - start) / 1000000)) -lt 5000 ]
}
stops_after_1000_errors() {
  local status
  {
    echo "provider,instance,region,plan,price,currency,as_of,source"
    for _ in $(seq 3000); do
      echo "alibaba,ecs.gn6i-c4g1.xlarge,cn-shanghai,on-demand,10.99,CNY,2026-11-20,Quote"
    done
  } >"$tmp/many.csv"
  "$bin" catalog import sheet "$tmp/many.csv" >"$tmp/many.out" 2>"$tmp/many.err"; status=$?
  [ "$status" -eq 3 ] && [ ! -s "$tmp/many.out" ] && grep -q "^\.\.\. and 901 more$" "$tmp/many.err"
}
same_output_twice() {
  "$bin" catalog import sheet "$sheets/good.csv" >"$tmp/a" 2>/dev/null &&
    "$bin" catalog import sheet "$sheets/good.csv" >"$tmp/b" 2>/dev/null && cmp -s "$tmp/a" "$tmp/b"
}

check "the import of good.csv is good.yaml" imports_the_golden
check "the imported overlay passes catalog validate --strict" validates_strict
check "loaded with --catalog, the overlay changes catalog show's prices" changes_the_prices
check "--output-dir: one overlay a provider, each valid" one_file_a_provider
check "several providers without --output-dir: exit 2 naming it" several_providers_need_a_dir
check "a 1 GB sheet is refused by the size cap, in under 5 s" refuses_a_gigabyte
check "a sheet of 2999 duplicates: 1000 errors, then a limit error, nothing written" stops_after_1000_errors
check "the same sheet gives the same bytes" same_output_twice
checks_done
