# Shared by the package.* checks (tests/package/CMakeLists.txt): failing and skipping.
fail() { echo "FAIL: $*" >&2; exit 1; }
# A check that cannot run here (a tool is missing) is reported as skipped by ctest, never passed.
skip() { echo "SKIP: $*" >&2; exit 77; }
need() { command -v "$1" >/dev/null 2>&1 || skip "$1 is not installed (${2:-./dev.sh installs it})"; }
app_id=io.github.attnscope.AttnScope
