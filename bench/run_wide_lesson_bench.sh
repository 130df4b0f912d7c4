#!/usr/bin/env bash
# Times `attnscope --lesson WIDE --print` on a 4096-wide lesson with 256 tokens (and 3 tokens):
# wall time and peak RSS, median of ROUNDS runs. Usage: bench/run_wide_lesson_bench.sh [build-dir] [rounds]
# (see bench/README.md, "Wide lessons"). The printed text is discarded; only the run is timed.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build}"; rounds="${2:-5}"
bin="${CLI:-$build/app/attnscope}"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
for tokens in 3 256; do
  /usr/bin/python3 "$here/bench/make_wide_lesson.py" "$work/wide-$tokens.json" --tokens "$tokens"
  for ((r = 0; r < rounds; r++)); do
    /usr/bin/time -f "%e %M" -o "$work/time" "$bin" --lesson "$work/wide-$tokens.json" --print >/dev/null 2>"$work/err" ||
      { cat "$work/err" >&2; exit 1; }
    cat "$work/time"
  done | sort -n | awk -v t="$tokens" '{s[NR] = $1; m[NR] = $2} END {
      i = int((NR + 1) / 2); printf "d_model 4096, %3d tokens: median %.2f s, peak RSS %.0f MB (%d runs)\n", t, s[i], m[i] / 1024, NR }'
done
