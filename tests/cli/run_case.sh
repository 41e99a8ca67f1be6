#!/usr/bin/env bash
# Runs one golden CLI case: run_case.sh BINARY CASE_DIR FIXTURES_DIR
#   CASE_DIR/args    one argument per line; {fixtures} stands for FIXTURES_DIR
#   CASE_DIR/env     optional KEY=VALUE lines added to the environment
#   CASE_DIR/stdout, stderr, exit   the expected results ({fixtures} for FIXTURES_DIR)
# UPDATE_GOLDEN=1 rewrites the expected files from the actual ones.
set -u
binary=$1 case_dir=$2 fixtures=$3
mapfile -t args < <(sed "s|{fixtures}|$fixtures|g" "$case_dir/args")
env_vars=()
if [ -f "$case_dir/env" ]; then
  mapfile -t env_vars < <(sed "s|{fixtures}|$fixtures|g" "$case_dir/env")
fi
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
env -i PATH=/usr/bin:/bin LC_ALL=C NO_COLOR=1 "${env_vars[@]}" "$binary" "${args[@]}" \
  >"$out" 2>"$err" </dev/null
status=$?
sed -i "s|$fixtures|{fixtures}|g" "$out" "$err"
if [ -n "${UPDATE_GOLDEN:-}" ]; then
  cp "$out" "$case_dir/stdout"; cp "$err" "$case_dir/stderr"; echo "$status" >"$case_dir/exit"
  exit 0
fi
failed=0
diff -u "$case_dir/stdout" "$out" || failed=1
diff -u "$case_dir/stderr" "$err" || failed=1
expected=$(cat "$case_dir/exit")
if [ "$status" != "$expected" ]; then
  echo "exit status $status, expected $expected"; failed=1
fi
exit $failed
