#!/usr/bin/env bash
# package.build_deb BUILD OUT VERSION (fixture package_deb): CPack writes the Debian package of
# the current build into OUT (beside the build, not build/package where ./dev.sh package writes).
set -euo pipefail
source "$(dirname "$0")/common.sh"
build=$1 out=$2 version=$3
rm -rf "$out"  # a package of an earlier run must not be checked if this one is skipped or fails
need dpkg-deb dpkg
need dpkg-shlibdeps dpkg-dev
need cpack cmake
for f in "$build/app/attnscope" "$build/packaging/attnscope.1.gz" "$build/packaging/icons/16x16/$app_id.png"; do
  [ -f "$f" ] || fail "$f is missing: build everything first (cmake --build $build)"
done
cpack --config "$build/CPackConfig.cmake" -B "$out" > "$out.log" 2>&1 || { cat "$out.log"; fail "cpack failed"; }
deb=$out/attnscope_${version}_amd64.deb
[ -f "$deb" ] || { cat "$out.log"; fail "cpack did not write $deb"; }
echo "built $deb ($(stat -c %s "$deb") bytes)"
