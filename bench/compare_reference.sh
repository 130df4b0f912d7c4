#!/usr/bin/env bash
# Times one keystroke's recompute in AttnScope's engine and in the independent pure-Python
# reference (tests/reference/reference_attention.py) on the same 20-token, 4-head lesson, in one
# run, and prints the ratio. Usage: bench/compare_reference.sh [build-dir] [iterations]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build}"
iterations="${2:-200}"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
QT_QPA_PLATFORM=offscreen "$build/bench/attnscope_bench" "$iterations" --write-lesson "$tmp/bench.json" 2>/dev/null | tee "$tmp/cpp.txt"
python3 - "$here/tests/reference" "$tmp/bench.json" "$iterations" <<'PY' | tee "$tmp/py.txt"
import json, statistics, sys, time
sys.path.insert(0, sys.argv[1])
import reference_attention as ref
lesson = ref.load_lesson(sys.argv[2])
sentence = json.load(open(sys.argv[2]))["sentence"]
times = []
for i in range(int(sys.argv[3])):
    start = time.perf_counter()
    ref.run(lesson, sentence, None)
    times.append((time.perf_counter() - start) * 1000)
print("python reference (run)      median %.3f ms" % statistics.median(times))
PY
cpp=$(awk '/engine only/ {print $6}' "$tmp/cpp.txt")  # wall median, as the reference's
py=$(awk '/python reference/ {print $5}' "$tmp/py.txt")
awk -v c="$cpp" -v p="$py" 'BEGIN { printf "engine / python reference (median recompute): %.5f, i.e. the engine is %.0f times faster\n", c / p, p / c }'
