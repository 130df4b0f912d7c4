#!/usr/bin/env bash
# Whole-model exports and the window at real lengths (issue 16): `attnscope --model DIR --sentence S
# --print --format F [--steps weights] > /dev/null` (a pipe would time the pipe: 4 GB through `wc`
# doubled the wall time), and the window until its first heatmap (offscreen), each a whole process
# under /usr/bin/time: wall and CPU seconds, peak RSS against the weight file. With BASE=path/to/another/attnscope (say main's build)
# both run in alternating order each round and the paired wall-time ratio base/ours is printed.
#
#   bench/run_export_bench.sh [build-dir] [rounds]
#
# Environment: MODELS="bert-base gpt2-small" TOKENS="512" FORMATS="json" STEPS="all weights"
# WINDOW=1 (0: no window run) BENCH_DIR=/tmp/attnscope-bench (checkpoints of run_forward_bench.sh).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build}"
rounds="${2:-3}"
models="${MODELS:-bert-base gpt2-small}"
tokens_list="${TOKENS:-512}"
formats="${FORMATS:-json}"
steps_list="${STEPS:-all weights}"
dir="${BENCH_DIR:-/tmp/attnscope-bench}"
ours="$build/app/attnscope"
base="${BASE:-}"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT

[ -x "$ours" ] || { echo "build $ours first" >&2; exit 1; }
for m in $models; do
    [ -f "$dir/$m/model.safetensors" ] || { echo "no $dir/$m: run bench/run_forward_bench.sh once (it writes the checkpoints)" >&2; exit 1; }
    cat "$dir/$m/model.safetensors" > /dev/null  # warm file cache
done

sentence() {  # T tokens: BERT [CLS] + T-2 one-letter words + [SEP]; GPT-2 one token per character
    /usr/bin/python3 -c 'import sys; m, t = sys.argv[1], int(sys.argv[2]); a = "abcdefghijklmnopqrstuvwxyz"
print(" ".join(a[i % 26] for i in range(t - 2)) if m == "bert-base" else "".join(a[i % 26] for i in range(t)))' "$1" "$2"
}

# One whole process: prints "wall cpu rss_kb".
measure() {  # CLI MODEL-DIR SENTENCE FORMAT STEPS
    local cli="$1" model="$2" s="$3" format="$4" steps="$5" extra=()
    [ "$steps" = all ] || extra=(--steps "$steps")
    /usr/bin/time -f "%e %U %S %M" -o "$tmp/time.txt" "$cli" --model "$model" --sentence "$s" --print \
        --format "$format" ${extra[@]+"${extra[@]}"} > /dev/null 2>&1
    read -r wall user sys rss < "$tmp/time.txt"
    echo "$wall $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') $rss"
}

window() {  # CLI MODEL-DIR SENTENCE: "wall cpu rss_kb"
    # The window benchmark of CLI's build (bench/first_heatmap.cpp); a build from before it moved
    # out of attnscope has the option instead.
    local bin args=()
    bin="$(dirname "$(dirname "$1")")/bench/attnscope_first_heatmap"
    if [ ! -x "$bin" ]; then bin="$1"; args=(--exit-after-first-heatmap); fi
    /usr/bin/time -f "%e %U %S %M" -o "$tmp/time.txt" env QT_QPA_PLATFORM=offscreen "$bin" --model "$2" \
        --sentence "$3" ${args[@]+"${args[@]}"} > /dev/null 2>&1 || true
    read -r wall user sys rss < "$tmp/time.txt"
    echo "$wall $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') $rss"
}

summarize() {  # LABEL FILE-KB: rows "side wall cpu rss" on stdin
    /usr/bin/python3 -c '
import sys, statistics as st
label, file_kb = sys.argv[1], int(sys.argv[2])
rows = [l.split() for l in sys.stdin if l.strip()]
def side(name):
    v = [[float(x) for x in r[1:]] for r in rows if r[0] == name]
    return v
o, b = side("ours"), side("base")
med = lambda v, i: st.median(x[i] for x in v)
line = f"  {label:<34} ours: wall {med(o,0):5.2f} s (min {min(x[0] for x in o):.2f}, max {max(x[0] for x in o):.2f}), CPU {med(o,1):5.2f} s, peak RSS {med(o,2)/1024:6.1f} MiB = {med(o,2)/file_kb:.2f} x file"
if b:
    ratios = sorted(x[0] / y[0] for x, y in zip(b, o))
    line += "\n" + " " * 37 + f"base: wall {med(b,0):5.2f} s, CPU {med(b,1):5.2f} s, peak RSS {med(b,2)/file_kb:.2f} x file; wall base/ours per round min/med/max {ratios[0]:.2f}/{st.median(ratios):.2f}/{ratios[-1]:.2f}"
print(line)' "$1" "$2"
}

echo "== $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; load: $(uptime | sed 's/.*load average: //'); $rounds rounds; $(date -u '+%Y-%m-%d %H:%M UTC')"
[ -n "$base" ] && echo "   base: $base"
for m in $models; do
    file_kb=$(( $(stat -c %s "$dir/$m/model.safetensors") / 1024 ))
    for t in $tokens_list; do
        s="$(sentence "$m" "$t")"
        for f in $formats; do
            for st in $steps_list; do
                for r in $(seq 1 "$rounds"); do
                    if [ -n "$base" ] && [ $((r % 2)) -eq 0 ]; then echo "base $(measure "$base" "$dir/$m" "$s" "$f" "$st")"; fi
                    echo "ours $(measure "$ours" "$dir/$m" "$s" "$f" "$st")"
                    if [ -n "$base" ] && [ $((r % 2)) -eq 1 ]; then echo "base $(measure "$base" "$dir/$m" "$s" "$f" "$st")"; fi
                done | summarize "$m T=$t $f steps=$st" "$file_kb"
            done
        done
        if [ "${WINDOW:-1}" = 1 ]; then
            for r in $(seq 1 "$rounds"); do
                if [ -n "$base" ] && [ $((r % 2)) -eq 0 ]; then echo "base $(window "$base" "$dir/$m" "$s")"; fi
                echo "ours $(window "$ours" "$dir/$m" "$s")"
                if [ -n "$base" ] && [ $((r % 2)) -eq 1 ]; then echo "base $(window "$base" "$dir/$m" "$s")"; fi
            done | summarize "$m T=$t window to first heatmap" "$file_kb"
        fi
    done
done
echo "== done: $(date -u '+%H:%M UTC'); load: $(uptime | sed 's/.*load average: //')"
