#!/usr/bin/env bash
# Package test: `cpack -G DEB` makes gpuadvisor and gpuadvisor-dev with their Depends and
# files; the program extracted from the .deb (dpkg-deb -x) is stripped and runs.
#   deb.sh BUILD_DIR WORK_DIR
set -euo pipefail
build=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work" >"$work/cpack.log" ||
  { cat "$work/cpack.log"; exit 1; }
runtime=$(ls "$work"/gpuadvisor_*.deb)
dev=$(ls "$work"/gpuadvisor-dev_*.deb)
ls -l "$runtime" "$dev"
failed=0
expect() { # expect WHAT TEXT PATTERN...
  local what=$1 text=$2
  shift 2
  for pattern in "$@"; do
    grep -qE -- "$pattern" <<<"$text" || { echo "$what: no match for '$pattern'"; failed=1; }
  done
}
depends=$(dpkg-deb --field "$runtime" Depends)
echo "gpuadvisor Depends: $depends"
expect "gpuadvisor Depends" "$depends" 'libyaml-cpp0\.[0-9]' 'libfmt[0-9]+' 'libstdc\+\+6' 'libc6' 'libcurl4'
expect "gpuadvisor-dev Depends" "$(dpkg-deb --field "$dev" Depends)" 'libyaml-cpp-dev' 'libfmt-dev'
expect "gpuadvisor contents" "$(dpkg-deb --contents "$runtime")" ' \./usr/bin/gpuadvisor$' \
  '/man1/gpuadvisor\.1$' '/man1/gpuadvisor-recommend\.1$' '/man1/gpuadvisor-catalog-validate\.1$' \
  '/bash-completion/completions/gpuadvisor$' '/zsh/vendor-completions/_gpuadvisor$' \
  '/fish/vendor_completions\.d/gpuadvisor\.fish$'
expect "gpuadvisor-dev contents" "$(dpkg-deb --contents "$dev")" \
  '/include/gpuadvisor/recommend\.hpp$' '/libgpuadvisor\.a$' '/gpuadvisorConfig\.cmake$' \
  '/gpuadvisorTargets\.cmake$' '/pkgconfig/gpuadvisor\.pc$'

dpkg-deb -x "$runtime" "$work/root"
binary=$work/root/usr/bin/gpuadvisor
expect "file" "$(file "$binary")" 'ELF .*, stripped'
expect "--version" "$("$binary" --version)" '^gpuadvisor [0-9]+\.[0-9]+\.[0-9]+ '
out=$(env -u GPUADVISOR_CATALOG GPUADVISOR_CACHE_DIR= "$binary" recommend training \
  --model llama-2-7b --tokens 1T --deadline 30d --top 1) || { echo "recommend failed"; failed=1; }
expect "recommend" "$out" '^1[*]? +[a-z]+ +[^ ]+ x [0-9]+ '
exit $failed
