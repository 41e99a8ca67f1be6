#!/usr/bin/env bash
# catalog fetch against price_server.py on 127.0.0.1 (no other network): the files downloaded
# are the recorded pages; a second run makes no request; a run cut off resumes; --refresh
# revalidates (304); Azure's NextPageLink chain; a 500 then success; a slow page (--timeout); a
# truncated body (retried, then an error, nothing partial kept); a redirect loop; exit codes;
# and each feed imported: the golden overlays (fixtures/fetch/*-overlay.yaml).
# Usage: fetch.sh BINARY FIXTURES_DIR
set -u
bin=$1 fixtures=$2
export GPUADVISOR_TODAY=2026-12-02 NO_COLOR=1 GPUADVISOR_FETCH_BACKOFF_MS=10
source "$(dirname "$0")/../cli/checks.sh"
tmp=$(mktemp -d)
log=$tmp/requests.log
touch "$log"
python3 "$(dirname "$0")/price_server.py" "$fixtures/fetch" "$log" >"$tmp/port" &
server=$!
trap 'kill "$server" 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 400); do [ -s "$tmp/port" ] && break; sleep 0.05; done
url=http://127.0.0.1:$(cat "$tmp/port")
catalog=(--no-default-catalog --catalog "$fixtures/catalog/gpus.yaml" --catalog "$fixtures/fetch/catalog")
fetch() { "$bin" "${catalog[@]}" catalog fetch "$@"; }
requests() { wc -l <"$log"; }

downloads_the_feed() {
  fetch aws --download-only --endpoint "$url/ok" --cache-dir "$tmp/c" >"$tmp/out" 2>"$tmp/err" &&
    [ "$(cat "$tmp/out")" = "$tmp/c/aws/AmazonEC2-us-east-1.json"$'\n'"$tmp/c/aws/AmazonEC2-eu-west-1.json" ] &&
    cmp -s "$tmp/c/aws/AmazonEC2-us-east-1.json" "$fixtures/fetch/aws/offer-us-east-1.json" &&
    cmp -s "$tmp/c/aws/AmazonEC2-eu-west-1.json" "$fixtures/fetch/aws/offer-eu-west-1.json" &&
    [ "$(requests)" -eq 3 ] && grep -q "^gpuadvisor: fetched $tmp/c/aws/AmazonEC2-us-east-1.json" "$tmp/err" &&
    ! grep -q $'\r' "$tmp/err"
}
second_run_asks_nothing() {
  local before
  before=$(requests)
  fetch aws --download-only --endpoint "$url/ok" --cache-dir "$tmp/c" >"$tmp/out2" 2>"$tmp/err" &&
    cmp -s "$tmp/out" "$tmp/out2" && [ "$(requests)" -eq "$before" ] &&
    grep -q "^gpuadvisor: cached $tmp/c/aws/AmazonEC2-eu-west-1.json$" "$tmp/err"
}
resumes_a_run_cut_off() { # eu-west-1 was being downloaded: a .part, no file, no meta
  local before
  rm "$tmp/c/aws/AmazonEC2-eu-west-1.json" "$tmp/c/aws/AmazonEC2-eu-west-1.json.meta.json"
  echo '{"half' >"$tmp/c/aws/AmazonEC2-eu-west-1.json.part"
  before=$(requests)
  fetch aws --download-only --endpoint "$url/ok" --cache-dir "$tmp/c" >/dev/null 2>&1 &&
    [ "$(requests)" -eq $((before + 1)) ] && tail -1 "$log" | grep -q "/eu-west-1/index.json$" &&
    cmp -s "$tmp/c/aws/AmazonEC2-eu-west-1.json" "$fixtures/fetch/aws/offer-eu-west-1.json" &&
    [ ! -e "$tmp/c/aws/AmazonEC2-eu-west-1.json.part" ]
}
refresh_revalidates() {
  local before
  before=$(requests)
  fetch aws --download-only --refresh --endpoint "$url/ok" --cache-dir "$tmp/c" >/dev/null 2>"$tmp/err" &&
    [ "$(requests)" -eq $((before + 3)) ] &&
    [ "$(grep -c "^gpuadvisor: not modified, kept" "$tmp/err")" -eq 3 ] &&
    cmp -s "$tmp/c/aws/AmazonEC2-us-east-1.json" "$fixtures/fetch/aws/offer-us-east-1.json"
}
a_day_old_copy_is_revalidated() { # after 24 hours, a conditional GET; a 304 starts the age again
  local before
  touch -d "25 hours ago" "$tmp/c/aws/region_index.json.meta.json" \
    "$tmp/c/aws/AmazonEC2-us-east-1.json.meta.json"
  before=$(requests)
  fetch aws --download-only --endpoint "$url/ok" --cache-dir "$tmp/c" >/dev/null 2>"$tmp/err" &&
    [ "$(requests)" -eq $((before + 2)) ] &&
    [ "$(grep -c "^gpuadvisor: not modified, kept" "$tmp/err")" -eq 2 ] &&
    fetch aws --download-only --endpoint "$url/ok" --cache-dir "$tmp/c" >/dev/null 2>&1 &&
    [ "$(requests)" -eq $((before + 2)) ]
}
a_changed_file_is_fetched_again() { # a copy whose size is not the one recorded is not trusted
  echo "garbage" >"$tmp/c/aws/AmazonEC2-us-east-1.json"
  fetch aws --download-only --endpoint "$url/ok" --cache-dir "$tmp/c" >/dev/null 2>&1 &&
    cmp -s "$tmp/c/aws/AmazonEC2-us-east-1.json" "$fixtures/fetch/aws/offer-us-east-1.json"
}
azure_follows_next_page_link() {
  : >"$log"
  fetch azure --download-only --region eastus --endpoint "$url/ok" --cache-dir "$tmp/z" \
    >"$tmp/out" 2>/dev/null &&
    [ "$(cat "$tmp/out")" = "$tmp/z/azure/eastus-q1-p0001.json"$'\n'"$tmp/z/azure/eastus-q1-p0002.json"$'\n'"$tmp/z/azure/eastus-q1-p0003.json" ] &&
    cmp -s "$tmp/z/azure/eastus-q1-p0002.json" "$fixtures/fetch/azure/eastus-100.json" &&
    [ "$(requests)" -eq 3 ] &&
    head -1 "$log" | grep -qF "armRegionName%20eq%20%27eastus%27%20and%20%28armSkuName%20eq%20%27Standard_NC4as_T4_v3%27%20or%20armSkuName%20eq%20%27Standard_ND96asr_v4%27%29" &&
    sed -n 2p "$log" | grep -q '^GET /ok/api/retail/prices?.*&$skip=100$'
}
a_broken_page_is_dropped() { # not JSON (same size, so the cache takes it): exit 3, then fetched anew
  local status page=$tmp/z/azure/eastus-q1-p0002.json
  tr '{' '<' <"$page" >"$tmp/broken" && cp "$tmp/broken" "$page"
  fetch azure --download-only --region eastus --endpoint "$url/ok" --cache-dir "$tmp/z" \
    >/dev/null 2>"$tmp/err"; status=$?
  [ "$status" -eq 3 ] && [ ! -e "$page" ] &&
    grep -q "^$page: error\[syntax\]: not a Retail Prices API page" "$tmp/err" &&
    fetch azure --download-only --region eastus --endpoint "$url/ok" --cache-dir "$tmp/z" \
      >/dev/null 2>&1 && cmp -s "$page" "$fixtures/fetch/azure/eastus-100.json"
}
azure_default_regions() {
  fetch azure --download-only --endpoint "$url/ok" --cache-dir "$tmp/z" >"$tmp/out" 2>/dev/null &&
    [ "$(wc -l <"$tmp/out")" -eq 4 ] && grep -q "/azure/westeurope-q1-p0001.json$" "$tmp/out"
}
azure_unknown_region_warns() {
  fetch azure --download-only --region nowhere --endpoint "$url/ok" --cache-dir "$tmp/z" \
    >/dev/null 2>"$tmp/err" && grep -q "warning\[no-price\]: .*'nowhere'" "$tmp/err"
}
retries_a_500() {
  fetch aws --download-only --region us-east-1 --endpoint "$url/flaky" --cache-dir "$tmp/f" \
    >/dev/null 2>"$tmp/err" && grep -q "region_index.json (.* bytes, 2 tries)" "$tmp/err" &&
    cmp -s "$tmp/f/aws/AmazonEC2-us-east-1.json" "$fixtures/fetch/aws/offer-us-east-1.json"
}
waits_as_told() { # 429 with Retry-After: 1 (the backoff is 10 ms): the retry waits 1 s
  local start
  start=$(date +%s%N)
  fetch aws --download-only --region us-east-1 --endpoint "$url/busy" --cache-dir "$tmp/b" \
    >/dev/null 2>"$tmp/err" && [ $((($(date +%s%N) - start) / 1000000)) -ge 1000 ] &&
    grep -q "region_index.json (.* bytes, 2 tries)" "$tmp/err"
}
a_500_without_retries() { # (the region index was asked for above: the offer file fails)
  local status
  fetch aws --download-only --region eu-west-1 --endpoint "$url/flaky" --cache-dir "$tmp/f0" \
    --retries 0 >"$tmp/out" 2>"$tmp/err"; status=$?
  [ "$status" -eq 3 ] && [ ! -s "$tmp/out" ] &&
    grep -q "^$url/flaky/offers/v1.0/aws/AmazonEC2/20261201000000/eu-west-1/index.json: error\[network\]: the server answered HTTP 500$" "$tmp/err"
}
times_out() { # (the page comes after 3 s: without the timeout, the run would succeed)
  local status
  fetch aws --download-only --endpoint "$url/slow" --cache-dir "$tmp/s" --timeout 1 --retries 1 \
    >/dev/null 2>"$tmp/err"; status=$?
  [ "$status" -eq 3 ] && grep -q "error\[network\]: timed out after 1 s (.*) (2 tries)" "$tmp/err" &&
    grep -q "hint: .*--timeout" "$tmp/err" && [ -z "$(ls -A "$tmp/s/aws")" ]
}
truncated_is_an_error() {
  local status
  : >"$log"
  fetch aws --download-only --endpoint "$url/truncated" --cache-dir "$tmp/t" --retries 2 \
    >"$tmp/out" 2>"$tmp/err"; status=$?
  [ "$status" -eq 3 ] && [ ! -s "$tmp/out" ] && [ "$(requests)" -eq 3 ] &&
    grep -q "error\[network\]: the body was cut short (.*) (3 tries)" "$tmp/err" &&
    [ -z "$(ls -A "$tmp/t/aws")" ]
}
truncated_once_is_retried() {
  fetch aws --download-only --region eu-west-1 --endpoint "$url/cut-once" --cache-dir "$tmp/t1" \
    >/dev/null 2>&1 &&
    cmp -s "$tmp/t1/aws/AmazonEC2-eu-west-1.json" "$fixtures/fetch/aws/offer-eu-west-1.json"
}
redirect_loop() {
  local status
  : >"$log"
  fetch aws --download-only --endpoint "$url/loop" --cache-dir "$tmp/l" >/dev/null 2>"$tmp/err"
  status=$?
  [ "$status" -eq 3 ] && grep -q "error\[network\]: more than 5 redirects: a redirect loop?$" "$tmp/err" &&
    [ "$(requests)" -eq 6 ]
}
refuses_a_link_elsewhere() {
  local status
  fetch azure --download-only --region eastus --endpoint "$url/elsewhere" --cache-dir "$tmp/e" \
    >/dev/null 2>"$tmp/err"; status=$?
  [ "$status" -eq 3 ] && grep -q "error\[bad-value\]: NextPageLink 'https://prices.example.com/api" "$tmp/err"
}
unknown_aws_region() {
  local status
  fetch aws --download-only --region us-esat-1 --endpoint "$url/ok" --cache-dir "$tmp/u" \
    >/dev/null 2>"$tmp/err"; status=$?
  [ "$status" -eq 3 ] && grep -q "error\[unknown-region\]: region 'us-esat-1' is not in AWS's region index" "$tmp/err" &&
    grep -q "hint: did you mean 'us-east-1'?" "$tmp/err"
}
connection_refused() {
  local status
  fetch aws --download-only --endpoint "http://127.0.0.1:1" --cache-dir "$tmp/r" --retries 1 \
    >/dev/null 2>"$tmp/err"; status=$?
  [ "$status" -eq 3 ] && grep -q "error\[network\]: .*(2 tries)" "$tmp/err"
}
usage_errors() {
  local a b c d e
  fetch aws --download-only --endpoint "ftp://127.0.0.1" --cache-dir "$tmp/x" >/dev/null 2>&1; a=$?
  fetch aws --download-only --region "us east" --endpoint "$url/ok" --cache-dir "$tmp/x" >/dev/null 2>&1; b=$?
  fetch aws -o json --download-only --endpoint "$url/ok" --cache-dir "$tmp/x" >/dev/null 2>&1; c=$?
  fetch gcp --download-only >/dev/null 2>&1; d=$?
  fetch aws --download-only --output-file "$tmp/x.yaml" --cache-dir "$tmp/x" >/dev/null 2>&1; e=$?
  [ "$a$b$c$d$e" = 22222 ] && [ ! -e "$tmp/x" ]
}
default_folder() { # XDG_CACHE_HOME, else HOME's .cache; a HOME that is not there is not made
  local status
  env -u GPUADVISOR_CACHE_DIR XDG_CACHE_HOME="$tmp/xdg" "$bin" "${catalog[@]}" catalog fetch aws \
    --download-only --region us-east-1 --endpoint "$url/ok" >"$tmp/out" 2>/dev/null &&
    [ "$(cat "$tmp/out")" = "$tmp/xdg/gpuadvisor/fetch/aws/AmazonEC2-us-east-1.json" ] &&
    env -u XDG_CACHE_HOME -u GPUADVISOR_CACHE_DIR HOME="$tmp/home" "$bin" "${catalog[@]}" catalog \
      fetch aws --download-only --region us-east-1 --endpoint "$url/ok" >/dev/null 2>"$tmp/err"
  status=$?
  [ "$status" -eq 2 ] && [ ! -e "$tmp/home" ] && grep -q "no folder to download into" "$tmp/err"
}
a_region_once() {
  fetch aws --download-only --region us-east-1 --region us-east-1 --endpoint "$url/ok" \
    --cache-dir "$tmp/c" 2>/dev/null | cmp -s - <(echo "$tmp/c/aws/AmazonEC2-us-east-1.json")
}
waits_for_the_folder() { # another run holds DIR/.lock for 1 s: this one ends after it
  local holder
  mkdir -p "$tmp/k"
  flock "$tmp/k/.lock" sh -c 'touch "$1/held"; sleep 1; touch "$1/released"' _ "$tmp/k" &
  holder=$!
  for _ in $(seq 200); do [ -e "$tmp/k/held" ] && break; sleep 0.05; done
  fetch aws --download-only --region us-east-1 --endpoint "$url/ok" --cache-dir "$tmp/k" \
    >/dev/null 2>"$tmp/err"
  [ -e "$tmp/k/released" ] && wait "$holder" &&
    grep -q "^gpuadvisor: waiting for another catalog fetch using $tmp/k$" "$tmp/err" &&
    [ -s "$tmp/k/aws/AmazonEC2-us-east-1.json" ]
}
progress_on_a_terminal_only() {
  script -qec "$(printf '%q ' "$bin" "${catalog[@]}" catalog fetch aws --download-only --refresh \
    --endpoint "$url/ok" --cache-dir "$tmp/p")" /dev/null >"$tmp/tty" 2>&1 &&
    grep -q $'\r\\[#.*100%' "$tmp/tty" &&
    fetch aws -q --download-only --refresh --endpoint "$url/ok" --cache-dir "$tmp/p" \
      >/dev/null 2>"$tmp/err" && [ ! -s "$tmp/err" ]
}
imports_the_golden() { # PROVIDER: fetched and imported, the overlay is the golden one
  local provider=$1
  fetch "$provider" --endpoint "$url/ok" --cache-dir "$tmp/i" --output-file "$tmp/$provider.yaml" \
    >"$tmp/out" 2>"$tmp/err" && [ ! -s "$tmp/out" ] &&
    cmp -s "$tmp/$provider.yaml" "$fixtures/fetch/$provider-overlay.yaml" &&
    grep -q "^gpuadvisor: wrote $tmp/$provider.yaml$" "$tmp/err" &&
    "$bin" "${catalog[@]}" catalog validate --strict "$tmp/$provider.yaml" >/dev/null
}

check "aws: region index + the catalog's two regions' offer files, byte for byte" downloads_the_feed
check "a second run makes no request: the files are the cache's" second_run_asks_nothing
check "a run cut off (a .part, no file) resumes with the one file missing" resumes_a_run_cut_off
check "--refresh revalidates with the ETag: 304s, files kept" refresh_revalidates
check "a copy older than 24 hours is revalidated (304), then young again" a_day_old_copy_is_revalidated
check "a cached file of the wrong size is fetched again" a_changed_file_is_fetched_again
check "azure: the SKUs in the filter, NextPageLink followed, one file a page" azure_follows_next_page_link
check "a kept page that is not JSON: exit 3, dropped, fetched on the next run" a_broken_page_is_dropped
check "azure: the catalog's regions by default" azure_default_regions
check "azure: a region without prices is a warning" azure_unknown_region_warns
check "HTTP 500 then success: retried" retries_a_500
check "HTTP 429 with Retry-After: 1: the retry waits that long" waits_as_told
check "HTTP 500 with --retries 0: exit 3 naming the URL" a_500_without_retries
check "a slow page: --timeout 1, retried once, exit 3, nothing kept" times_out
check "a truncated body: retried, exit 3, nothing partial kept" truncated_is_an_error
check "a body cut short once: the retry completes it" truncated_once_is_retried
check "a redirect loop: exit 3 after 6 requests, not retried" redirect_loop
check "a NextPageLink to another host is not followed" refuses_a_link_elsewhere
check "an unknown AWS region: exit 3 with did-you-mean" unknown_aws_region
check "connection refused: retried, exit 3" connection_refused
check "usage errors (endpoint, region, -o json, provider, --output-file): exit 2, nothing made" usage_errors
check "the default folder: XDG_CACHE_HOME/gpuadvisor/fetch; no HOME made" default_folder
check "a region named twice is fetched once" a_region_once
check "a second run on the folder waits for the first (DIR/.lock)" waits_for_the_folder
check "a progress bar on a terminal only, none with -q" progress_on_a_terminal_only
check "aws: fetched and imported, the golden overlay, valid" imports_the_golden aws
check "azure: fetched and imported, the golden overlay, valid" imports_the_golden azure
checks_done
