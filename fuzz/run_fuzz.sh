#!/usr/bin/env bash
# One fuzz.<target> ctest entry: FUZZ_BINARY SEED_CORPUS DICT_OR_- SECONDS ARTIFACT_DIR.
# Fuzzes a copy of the committed corpus for a fixed time; exit 0 when nothing was found, libFuzzer's
# non-zero code on a crash, sanitizer report or timeout (the input is kept in ARTIFACT_DIR), and 77
# (skipped) when the clang fuzz build is absent.
set -uo pipefail
bin="$1"; seeds="$2"; dict="$3"; seconds="$4"; artifacts="$5"
if [ ! -x "$bin" ]; then
  echo "skipped: $bin is not built (./dev.sh test builds it with clang-14 in <build>/fuzz-clang)" >&2
  exit 77
fi
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
cp -r "$seeds"/. "$work"/
mkdir -p "$artifacts"
# -error_exitcode=1: libFuzzer's default (77) is ctest's "skipped", which hid findings.
args=("$work" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -error_exitcode=1
      -print_final_stats=1 -artifact_prefix="$artifacts/")
[ "$dict" != "-" ] && args+=(-dict="$dict")
"$bin" "${args[@]}" 2>&1 | grep -v '^#[0-9]' ; status=${PIPESTATUS[0]}
[ $status -eq 0 ] || echo "fuzz finding: see the input saved in $artifacts/" >&2
exit $status
