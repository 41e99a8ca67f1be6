#!/usr/bin/env bash
# catalog import skypilot end to end: a SkyPilot catalog folder gives one overlay a provider,
# each the golden one and valid under `catalog validate --strict`; loaded with --catalog they
# change `catalog show`; as_of is the file's modification day unless --as-of gives one; a 1 GB
# vms.csv (sparse) is refused quickly by the size cap; 100,000 zone rows import in seconds.
# Azure's file (v6 layout, no zones) likewise.
# Usage: import_skypilot.sh BINARY FIXTURES_DIR CLI_CASES_DIR
set -u
bin=$1 fixtures=$2 cases=$3
catalogs=$fixtures/import/skypilot/v7
export GPUADVISOR_TODAY=2026-12-02 NO_COLOR=1
source "$(dirname "$0")/checks.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The golden overlays of the aws and gcp cases, with their {fixtures} put back.
golden() { sed "s|{fixtures}|$fixtures|g" "$cases/catalog-import-skypilot-$1/stdout"; }

one_file_a_provider() {
  mkdir -p "$tmp/out" &&
    "$bin" catalog import skypilot "$catalogs" --as-of 2026-11-30 --output-dir "$tmp/out" 2>/dev/null &&
    [ "$(ls "$tmp/out")" = $'aws.yaml\ngcp.yaml' ] &&
    cmp -s "$tmp/out/aws.yaml" <(golden aws) && cmp -s "$tmp/out/gcp.yaml" <(golden gcp)
}
validates_strict() {
  "$bin" catalog validate --strict "$tmp/out" >/dev/null
}
changes_the_prices() {
  local before after
  before=$("$bin" catalog show a2-highgpu-4g -o csv) &&
    after=$("$bin" --catalog "$tmp/out/gcp.yaml" catalog show a2-highgpu-4g -o csv) &&
    [[ "$before" != *"europe-west4,USD,9.71"* ]] && [[ "$after" == *"europe-west4,USD,9.71"* ]] &&
    after=$("$bin" --catalog "$tmp/out/aws.yaml" catalog show g4dn.xlarge -o csv) &&
    [[ "$after" == *"ap-south-1,USD,0.579"* ]]
}
azure_without_zones_validates() {
  "$bin" catalog import skypilot "$fixtures/import/skypilot/v6/azure" --as-of 2026-11-30 \
    --output-file "$tmp/azure.yaml" 2>/dev/null &&
    cmp -s "$tmp/azure.yaml" <(golden azure) &&
    "$bin" catalog validate --strict "$tmp/azure.yaml" >/dev/null 2>&1 &&
    "$bin" --catalog "$tmp/azure.yaml" catalog show Standard_NC4as_T4_v3 -o csv |
    grep -q "centralus,USD,0.594"
}
as_of_is_the_files_day() {
  mkdir -p "$tmp/dated/aws" && cp "$catalogs/aws/vms.csv" "$tmp/dated/aws/" &&
    touch -d '2026-11-20 23:30:00 UTC' "$tmp/dated/aws/vms.csv" &&
    "$bin" catalog import skypilot "$tmp/dated" 2>/dev/null | grep -q "as_of: 2026-11-20, "
}
a_file_from_the_future_needs_as_of() {
  local status
  mkdir -p "$tmp/future/aws" && cp "$catalogs/aws/vms.csv" "$tmp/future/aws/" &&
    touch -d '2026-12-04 UTC' "$tmp/future/aws/vms.csv" &&
    { "$bin" catalog import skypilot "$tmp/future" >"$tmp/future.out" 2>&1; status=$?; } &&
    [ "$status" -eq 3 ] && grep -q "modified on 2026-12-04, after today" "$tmp/future.out" &&
    grep -q -- "--as-of" "$tmp/future.out"
}
refuses_a_gigabyte() {
  local status start end
  mkdir -p "$tmp/huge/aws" && truncate -s 1G "$tmp/huge/aws/vms.csv" || return 1
  start=$(date +%s%N)
  "$bin" catalog import skypilot "$tmp/huge" --as-of 2026-11-30 >"$tmp/huge.out" 2>&1; status=$?
  end=$(date +%s%N)
  [ "$status" -eq 3 ] && grep -q "larger than the limit of 64 MiB" "$tmp/huge.out" &&
    [ $(((end - start) / 1000000)) -lt 5000 ]
}
imports_100000_zone_rows_quickly() {
  local start end row
  # A real g4dn.xlarge row less its price, region and zone, then 100,000 of them.
  row=$(grep '^g4dn.xlarge,' "$catalogs/aws/vms.csv" | tail -1 |
    sed -E 's/(,[^,]*){4}$//')
  mkdir -p "$tmp/big/aws" && head -1 "$catalogs/aws/vms.csv" >"$tmp/big/aws/vms.csv" &&
    awk -v row="$row" 'BEGIN { for (i = 0; i < 100000; i++)
                                 printf "%s,0.526,0.1872,r%d,z%d\n", row, i % 50, i }' \
      >>"$tmp/big/aws/vms.csv" || return 1
  start=$(date +%s%N)
  "$bin" catalog import skypilot "$tmp/big" --as-of 2026-11-30 >"$tmp/big.yaml" 2>/dev/null || return 1
  end=$(date +%s%N)
  echo "100000 zone rows ($(du -h "$tmp/big/aws/vms.csv" | cut -f1)): $(((end - start) / 1000000)) ms"
  [ "$(grep -c 'region: "r' "$tmp/big.yaml")" -eq 50 ] && [ $(((end - start) / 1000000)) -lt 20000 ]
}
same_output_twice() {
  "$bin" catalog import skypilot "$catalogs/aws" --as-of 2026-11-30 >"$tmp/a" 2>/dev/null &&
    "$bin" catalog import skypilot "$catalogs/aws" --as-of 2026-11-30 >"$tmp/b" 2>/dev/null &&
    cmp -s "$tmp/a" "$tmp/b"
}

check "a catalog folder: one overlay a provider, each the golden one" one_file_a_provider
check "the imported overlays pass catalog validate --strict" validates_strict
check "loaded with --catalog, the overlays change catalog show's prices" changes_the_prices
check "Azure's zoneless file: the golden overlay, valid under --strict, shown" azure_without_zones_validates
check "without --as-of, as_of is the file's modification day (UTC)" as_of_is_the_files_day
check "a file modified after today: exit 3 naming --as-of" a_file_from_the_future_needs_as_of
check "a 1 GB vms.csv is refused by the size cap, in under 5 s" refuses_a_gigabyte
check "100,000 zone rows of 50 regions import in under 20 s" imports_100000_zone_rows_quickly
check "the same catalog gives the same bytes" same_output_twice
checks_done
