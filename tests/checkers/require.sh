#!/usr/bin/env bash
# Source this from a test that runs an external checker:
#   . "$(dirname "$0")/../checkers/require.sh"; require_checker promtool
# A missing checker FAILS the test (exit 1) rather than skipping it: scripts/test installs the
# checkers (scripts/bootstrap --checkers), so a missing one is a broken setup, not a pass.
require_checker() {
  local command=$1
  if ! command -v "$command" >/dev/null 2>&1; then
    echo "FAIL: the checker '$command' is not on PATH; run scripts/bootstrap --checkers" >&2
    exit 1
  fi
}
