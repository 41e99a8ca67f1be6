# What the behaviour scripts share (sourced): `check DESCRIPTION COMMAND...` counts a pass or
# prints "FAILED: DESCRIPTION"; `checks_done` prints the counts and fails if any check failed.
failures=0 passes=0
check() {
  local what=$1; shift
  if "$@"; then passes=$((passes + 1)); else echo "FAILED: $what"; failures=$((failures + 1)); fi
}
checks_done() {
  echo "$passes passed, $failures failed"
  [ "$failures" -eq 0 ]
}
