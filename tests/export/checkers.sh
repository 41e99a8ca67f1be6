#!/usr/bin/env bash
# export's files through the tools that read them: promtool (check rules, test rules), kubectl
# (client dry run against a local discovery server), and SkyPilot's and dstack's documented
# fields. Usage: checkers.sh BINARY FIXTURES
. "$(dirname "$0")/../checkers/require.sh"
require_checker promtool
require_checker kubectl
exec /usr/bin/python3 "$(dirname "$0")/check_exports.py" "$@"
