#!/usr/bin/env bash
# Output guarantees (RELIABILITY.md): a closed pipe ends quietly, a full disk fails loudly,
# the locale changes nothing, and the same inputs give byte-identical output.
# Usage: output_behaviour.sh BINARY FIXTURES_DIR
set -u
bin=$1 fixtures=$2
cat_args=(--no-default-catalog --catalog "$fixtures/catalog")
source "$(dirname "$0")/checks.sh"

closed_pipe() {
  local err
  err=$( { "$bin" catalog list offers | head -1 >/dev/null; } 2>&1 )
  [ -z "$err" ]
}
full_disk() {
  local err status
  err=$("$bin" catalog list offers 2>&1 >/dev/full); status=$?
  [ "$status" -ne 0 ] && [[ "$err" == *"cannot write the output"* ]]
}
same_under_locale() {
  local a b
  a=$(LC_ALL=C "$bin" "${cat_args[@]}" catalog list offers -o json)
  b=$(LC_ALL=de_DE.UTF-8 LANG=de_DE.UTF-8 "$bin" "${cat_args[@]}" catalog list offers -o json)
  [ "$a" == "$b" ] && [[ "$a" == *"32.7726"* ]]
}
deterministic() {
  local a b
  a=$("$bin" catalog list offers -o json | md5sum)
  b=$("$bin" catalog list offers -o json | md5sum)
  [ "$a" == "$b" ]
}
json_valid() {
  "$bin" catalog list offers -o json | /usr/bin/python3 -c 'import json,sys; json.load(sys.stdin)'
}
colour_off_when_piped() {
  ! "$bin" catalog list gpus | grep -q $'\x1b'
}
colour_always() {
  NO_COLOR= "$bin" --color always catalog list gpus | grep -q $'\x1b\[1m'
}

check "| head -1 ends quietly" closed_pipe
check "> /dev/full fails with a message" full_disk
check "LC_ALL=de_DE.UTF-8 changes nothing" same_under_locale
check "two runs give byte-identical output" deterministic
check "JSON output parses" json_valid
check "no colour escapes when piped" colour_off_when_piped
check "--color always colours the header" colour_always
checks_done
