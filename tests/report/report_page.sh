#!/usr/bin/env bash
# report_page.sh BINARY FIXTURES_DIR: requires chromium (a missing one fails), then runs
# report_page.py (the page's and the chart's checks, and their renderings).
set -eu
. "$(dirname "$0")/../checkers/require.sh"
require_checker chromium
exec /usr/bin/python3 "$(dirname "$0")/report_page.py" "$@"
