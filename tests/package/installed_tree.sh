#!/usr/bin/env bash
# Package test: the installed tree, moved after installing (it must not care where it is).
#   installed_tree.sh BUILD_DIR SOURCE_DIR WORK_DIR
# Each component's files are there; a project built against it with find_package(gpuadvisor)
# (tests/package/consumer) and one compiled with `pkg-config gpuadvisor` print the first pick
# of gpuadvisor::recommend, which is the installed binary's recommend #1 for that workload.
set -euo pipefail
build=$1 source=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/installed" >/dev/null
mv "$work/installed" "$work/prefix"
prefix=$work/prefix
libdir=$(dirname "$(find "$prefix" -name libgpuadvisor.a)")
failed=0
for file in bin/gpuadvisor include/gpuadvisor/recommend.hpp include/gpuadvisor/planner.hpp \
    share/man/man1/gpuadvisor.1 share/man/man1/gpuadvisor-recommend.1 \
    share/man/man1/gpuadvisor-catalog-list.1 share/bash-completion/completions/gpuadvisor \
    share/zsh/vendor-completions/_gpuadvisor share/fish/vendor_completions.d/gpuadvisor.fish \
    "${libdir#"$prefix"/}/cmake/gpuadvisor/gpuadvisorConfig.cmake" \
    "${libdir#"$prefix"/}/cmake/gpuadvisor/gpuadvisorConfigVersion.cmake" \
    "${libdir#"$prefix"/}/cmake/gpuadvisor/gpuadvisorTargets.cmake" \
    "${libdir#"$prefix"/}/pkgconfig/gpuadvisor.pc"; do
  [ -f "$prefix/$file" ] || { echo "not installed: $file"; failed=1; }
done
if find "$prefix" -name '*__generate*' | grep -q .; then
  echo "a page of the hidden __generate command was installed"; failed=1
fi

# recommend's first row, in the words the consumer prints: provider instance region xN pricing
first_row() {
  python3 -c 'import json, sys
r = json.load(sys.stdin)["recommendations"][0]
print(r["provider"], r["instance"], r["region"], "x%d" % r["instance_count"], r["pricing"])'
}
expected=$(env -u GPUADVISOR_TODAY -u SOURCE_DATE_EPOCH -u GPUADVISOR_CATALOG \
  GPUADVISOR_CACHE_DIR= "$prefix/bin/gpuadvisor" recommend training --model llama-2-7b \
  --tokens 1T --deadline 30d -o json | first_row)
echo "recommend #1: $expected"

cmake -S "$source/tests/package/consumer" -B "$work/consumer-cmake" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/consumer-cmake" >/dev/null
got=$("$work/consumer-cmake/first_pick")
echo "find_package consumer: $got"
[ "$got" = "$expected" ] || { echo "find_package consumer: not recommend's #1"; failed=1; }

flags=$(PKG_CONFIG_PATH=$libdir/pkgconfig pkg-config --cflags --libs gpuadvisor)
case $flags in *"$prefix"*) ;; *) echo "gpuadvisor.pc does not point into $prefix: $flags"; failed=1 ;; esac
# shellcheck disable=SC2086 # the flags are words
c++ -std=c++20 -O1 "$source/tests/package/consumer/main.cpp" $flags -o "$work/first_pick_pc"
got=$("$work/first_pick_pc")
echo "pkg-config consumer: $got"
[ "$got" = "$expected" ] || { echo "pkg-config consumer: not recommend's #1"; failed=1; }
exit $failed
