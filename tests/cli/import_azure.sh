#!/usr/bin/env bash
# catalog import azure end to end: the overlay of the GPU pages is the golden one, passes
# `catalog validate --strict` and changes the prices `catalog show` gives (spot, reserved, a
# new region); a folder and its files give the same bytes; a 1 GB page is refused quickly by
# the size cap; deep nesting and a page of 90,000 items are handled in bounded time.
# Usage: import_azure.sh BINARY FIXTURES_DIR
set -u
bin=$1 fixtures=$2
pages=$fixtures/import/azure
export GPUADVISOR_TODAY=2026-12-02 NO_COLOR=1
source "$(dirname "$0")/checks.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

imports_the_golden() {
  "$bin" catalog import azure "$pages/gpu" --output-file "$tmp/gpu.yaml" 2>/dev/null &&
    cmp -s "$tmp/gpu.yaml" "$pages/gpu.yaml"
}
validates_strict() {
  "$bin" catalog validate --strict "$tmp/gpu.yaml" >/dev/null
}
changes_the_prices() {
  local nc nd
  nc=$("$bin" --catalog "$tmp/gpu.yaml" catalog show Standard_NC24ads_A100_v4 -o csv) &&
    nd=$("$bin" --catalog "$tmp/gpu.yaml" catalog show Standard_ND96isr_H100_v5 -o csv) &&
    [[ "$nc" == *"eastus,USD,3.673,0.7345,2.208333,1.41895,,,2024-05-01,high,Azure Retail Prices API page page-1.json,"* ]] &&
    [[ "$nc" == *"swedencentral,USD,4.10,0.82,,,,,2024-09-01,high,"* ]] &&
    [[ "$nd" == *"eastus,USD,98.32,,62.924772,43.162481,,,2023-08-01,high,"* ]]
}
folder_is_its_files() {
  "$bin" catalog import azure "$pages/gpu/page-2.json" "$pages/gpu/page-1.json" >"$tmp/a" 2>/dev/null
  # the source names the pages in name order whatever the order given
  "$bin" catalog import azure "$pages/gpu" >"$tmp/b" 2>/dev/null && cmp -s "$tmp/a" "$tmp/b"
}
refuses_a_gigabyte() {
  local status start end
  truncate -s 1G "$tmp/huge.json" || return 1
  start=$(date +%s%N)
  "$bin" catalog import azure "$tmp/huge.json" >"$tmp/huge.out" 2>&1; status=$?
  end=$(date +%s%N)
  [ "$status" -eq 3 ] && grep -q "larger than the limit of 64 MiB" "$tmp/huge.out" &&
    [ $(((end - start) / 1000000)) -lt 5000 ]
}
refuses_deep_nesting() {
  local status
  head -c 2000000 /dev/zero | tr '\0' '[' >"$tmp/deep.json"
  "$bin" catalog import azure "$tmp/deep.json" >"$tmp/deep.out" 2>&1; status=$?
  [ "$status" -eq 3 ] && grep -q "deep.json:1:65: error\[limit\]: nested over 64 levels" "$tmp/deep.out"
}
many_items_in_time() {
  local status start end
  python3 - "$pages/gpu/page-1.json" "$tmp/many.json" <<'PY' || return 1
import json, sys
page = json.load(open(sys.argv[1]))
item = page["Items"][0]
items = []
for i in range(90000):
    copy = dict(item)
    copy["meterId"] = f"m{i}"
    copy["effectiveStartDate"] = f"20{10 + i % 15:02d}-01-01T00:00:00Z"
    items.append(copy)
page["Items"] = items
page["Count"] = len(items)
json.dump(page, open(sys.argv[2], "w"))
PY
  start=$(date +%s%N)
  "$bin" catalog import azure "$tmp/many.json" >"$tmp/many.out" 2>"$tmp/many.err"; status=$?
  end=$(date +%s%N)
  echo "90,000 items ($(stat -c %s "$tmp/many.json") bytes): $(((end - start) / 1000000)) ms" >&2
  [ "$status" -eq 0 ] && grep -q "90000 items, the newest (effective 2024-01-01) is taken" "$tmp/many.err" &&
    [ $(((end - start) / 1000000)) -lt 20000 ]
}
stops_after_1000_errors() {
  local status
  python3 - "$pages/negative.json" "$tmp/bad.json" <<'PY' || return 1
import json, sys
page = json.load(open(sys.argv[1]))
page["Items"] = [page["Items"][0]] * 3000
page["Count"] = 3000
json.dump(page, open(sys.argv[2], "w"), indent=1)
PY
  cp "$tmp/bad.json" "$tmp/bad2.json"
  "$bin" catalog import azure "$tmp/bad.json" "$tmp/bad2.json" >"$tmp/bad.out" 2>"$tmp/bad.err"; status=$?
  [ "$status" -eq 3 ] && [ ! -s "$tmp/bad.out" ] && grep -q "^\.\.\. and 901 more$" "$tmp/bad.err" &&
    [ "$(grep -c "bad2.json" "$tmp/bad.err")" -eq 0 ]
}
same_output_twice() {
  "$bin" catalog import azure "$pages/gpu" >"$tmp/a" 2>/dev/null &&
    "$bin" catalog import azure "$pages/gpu" >"$tmp/b" 2>/dev/null && cmp -s "$tmp/a" "$tmp/b"
}

check "the import of gpu/ is gpu.yaml" imports_the_golden
check "the imported overlay passes catalog validate --strict" validates_strict
check "loaded with --catalog, the overlay gives the pages' prices (spot, reserved, new region)" changes_the_prices
check "a folder gives what its files give" folder_is_its_files
check "a 1 GB page is refused by the size cap, in under 5 s" refuses_a_gigabyte
check "2,000,000 nested arrays: a limit error at the 65th" refuses_deep_nesting
check "a page of 90,000 items is read in under 20 s" many_items_in_time
check "3000 negative prices: 1000 errors, a limit error, the next page not read" stops_after_1000_errors
check "the same pages give the same bytes" same_output_twice
checks_done
