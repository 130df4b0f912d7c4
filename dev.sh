#!/usr/bin/env bash
# AttnScope developer entry point. Two commands, both idempotent and incremental:
#   ./dev.sh start   install what is missing, build, open the app on its built-in lesson
#   ./dev.sh test    install what is missing, build (and the clang fuzz targets), run the whole
#                    test suite (ctest), fuzzing included
#   ./dev.sh package install what is missing, build, write build/package/attnscope_VERSION_amd64.deb
#                    (CPack, packaging/CMakeLists.txt) and run lintian on it
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="${ATTNSCOPE_BUILD_DIR:-$here/build}"

packages=(cmake g++ ninja-build pkg-config qt6-base-dev libqcustomplot-dev libqcustomplot2.1-qt6
          libeigen3-dev catch2 nlohmann-json3-dev xvfb xauth fonts-wqy-microhei python3 libopenblas-dev libdnnl-dev
          qt6-svg-dev ccache clang-14 libclang-rt-14-dev
          ocl-icd-opencl-dev  # libdnnl-dev's CMake config requires OpenCL; it is only a Recommends
          qt6-l10n-tools qt6-tools-dev qt6-tools-dev-tools qt6-translations-l10n  # lupdate/lrelease, Qt's own zh_CN
          desktop-file-utils appstream lintian dpkg-dev  # the package and its checks (tests/package)
          libonig-dev libicu-dev)  # tokenizer.json: Oniguruma regular expressions; ICU normalization, word boundaries

install_missing() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  # The tests' independent tokenizer reference (tests/reference/tokenizers, npm ci): Debian's node
  # and npm, unless a node that brings its own npm is installed already (Debian's npm conflicts with it).
  command -v npm >/dev/null || missing+=(nodejs npm)
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    echo "dev.sh: installing ${missing[*]} with sudo apt-get (you are not root)" >&2
    sudo=(sudo)
  else
    echo "dev.sh: installing ${missing[*]} with apt-get" >&2
  fi
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

configure_and_build() {  # [TARGET...]: default everything
  # ccache keyed on paths relative to the checkout, so clones and worktrees share compiled objects.
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(dirname "$here")}" CCACHE_NOHASHDIR=1
  if [ ! -f "$build/build.ninja" ]; then
    cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
  fi
  cmake --build "$build" -j "$(nproc)" ${1:+--target "$@"}
}

# The independent tokenizer reference and the genuine tokenizer.json files it is compared on
# (tests/reference/tokenizers/package.json + package-lock.json), into its gitignored node_modules.
# Without the network the comparison test is skipped, not failed.
install_reference_tokenizers() {
  local dir="$here/tests/reference/tokenizers"
  command -v npm >/dev/null || return 0
  [ "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ] && return 0
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) ||
    echo "dev.sh: npm ci failed in $dir: tokenizers.vs_transformers_js will be skipped" >&2
}

# The libFuzzer targets (fuzz/), built with clang-14 + ASan/UBSan in their own folder inside the
# build; the fuzz.<target> ctest entries run each for a fixed time (fuzz/targets.cmake).
build_fuzzers() {
  local fuzz="$build/fuzz-clang"
  if [ ! -f "$fuzz/build.ninja" ]; then
    cmake -S "$here" -B "$fuzz" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
          -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DATTNSCOPE_FUZZ=ON -DATTNSCOPE_OPENBLAS=OFF
  fi
  cmake --build "$fuzz" -j "$(nproc)" --target fuzzers
}

cmd="${1:-start}"
shift || true
case "$cmd" in
  start)
    install_missing
    configure_and_build
    exec "$build/app/attnscope" "$@"
    ;;
  test)
    install_missing
    install_reference_tokenizers
    configure_and_build
    build_fuzzers
    status=0
    (cd "$build" && ctest --output-on-failure -j "$(nproc)" "$@") || status=$?
    "$here/scripts/fuzz_summary.sh" "$build"
    exit $status
    ;;
  package)
    install_missing
    configure_and_build attnscope attnscope_packaging_files  # what the install rules install
    rm -f "$build"/package/attnscope_*.deb
    cpack --config "$build/CPackConfig.cmake" -B "$build/package"
    deb="$(ls "$build"/package/attnscope_*_amd64.deb)"
    lintian "$deb"  # no error allowed (exit non-zero); warnings and notes are printed
    echo "dev.sh: $deb"
    ;;
  *)
    echo "usage: ./dev.sh start|test|package" >&2
    exit 2
    ;;
esac
