#!/usr/bin/env bash
# AttnScope's float32 BERT forward pass vs Debian's PyTorch on the same bert-base-shaped weights,
# in one run: paired, alternating rounds at each thread count, medians and ratios; plus the FMA
# peak, the split forward math / Trace filling, peak RSS vs the file size and, when the CLI has
# --model, the whole-process time to the first heatmap PNG. See bench/README.md.
#
#   bench/run_forward_bench.sh [build-dir] [rounds] [model-dir]
#
# Defaults: build-dir build-perf, 5 rounds of 3 timed runs per side (after 1 warm-up run), thread
# counts "1 2" (override with THREADS="1 2 4"), model in /tmp/attnscope-bench/bert-base (written
# by bench/make_bert_base.py when missing; ~440 MB).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build-perf}"
rounds="${2:-5}"
model="${3:-/tmp/attnscope-bench/bert-base}"
threads_list="${THREADS:-1 2}"
runs=3
py=/usr/bin/python3
bench="$build/bench/attnscope_forward_bench"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT

[ -x "$bench" ] || { echo "build $bench first (cmake --build $build --target attnscope_forward_bench)" >&2; exit 1; }
[ -f "$model/model.safetensors" ] || "$py" "$here/bench/make_bert_base.py" "$model"
cat "$model/model.safetensors" > /dev/null  # warm file cache for both sides

echo "== machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; load: $(uptime | sed 's/.*load average: //')"
for n in $threads_list; do "$bench" --peak --threads "$n"; done

echo "== correctness: final hidden state, same weights and ids"
"$bench" "$model" --mode full --runs 1 --warmup 0 --dump "$tmp/ours.f32" > /dev/null
"$py" "$here/bench/torch_forward.py" "$model" --runs 1 --warmup 0 --compare "$tmp/ours.f32" | tail -1

for n in $threads_list; do
    echo "== $n thread(s): $rounds rounds, alternating order, $runs timed runs per side per round"
    for r in $(seq 1 "$rounds"); do
        ours() { "$bench" "$model" --threads "$n" --mode all --runs "$runs" --warmup 1 > "$tmp/ours-$n-$r.txt"; }
        theirs() { "$py" "$here/bench/torch_forward.py" "$model" --threads "$n" --runs "$runs" --warmup 1 > "$tmp/torch-$n-$r.txt"; }
        if [ $((r % 2)) -eq 1 ]; then ours; theirs; else theirs; ours; fi
    done
    "$py" - "$tmp" "$n" "$rounds" <<'PY'
import statistics as st, sys, re
tmp, n, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
flops = None
per = {"math": [], "app": [], "full": [], "weights": [], "torch": []}
pairs = {"math": [], "app": [], "full": []}
for r in range(1, rounds + 1):
    mine = open(f"{tmp}/ours-{n}-{r}.txt").read()
    theirs = open(f"{tmp}/torch-{n}-{r}.txt").read()
    rm = {}
    for mode, ms in re.findall(r"^time (\w+) ([\d.]+)$", mine + theirs, re.M):
        rm.setdefault(mode, []).append(float(ms))
        per[mode].append(float(ms))
    for k in pairs:
        pairs[k].append(st.median(rm["torch"]) / st.median(rm[k]))
    flops = float(re.search(r"encoder FLOPs \(products only\): ([\d.]+) GFLOP", mine).group(1))
    if r == 1:
        phases = mine[mine.index("phases of"):mine.index("memory:")]
med = {k: st.median(v) for k, v in per.items()}
print(f"  median ms over {len(per['torch'])} runs each: torch {med['torch']:.1f} | attnscope as the app runs it {med['app']:.1f}"
      f" | every layer Full {med['full']:.1f} | weights-only {med['weights']:.1f} | forward math only {med['math']:.1f}")
print(f"  torch / attnscope (median of the {rounds} paired rounds): app {st.median(pairs['app']):.2f}x,"
      f" every layer Full {st.median(pairs['full']):.2f}x, math only {st.median(pairs['math']):.2f}x  (>1: attnscope faster)")
print(f"  GFLOP/s ({flops:.2f} GFLOP): torch {flops / med['torch'] * 1000:.1f} | attnscope app {flops / med['app'] * 1000:.1f}"
      f" | every layer Full {flops / med['full'] * 1000:.1f} | math {flops / med['math'] * 1000:.1f}")
print(f"  Trace filling: app {med['app'] - med['math']:.1f} ms ({100 * (med['app'] - med['math']) / med['app']:.0f}%),"
      f" every layer Full {med['full'] - med['math']:.1f} ms ({100 * (med['full'] - med['math']) / med['full']:.0f}%)")
print("  " + phases.strip().replace("\n", "\n  "))
PY
done

echo "== memory: peak RSS (getrusage) vs the safetensors file"
for mode_tokens in "math 128" "app 128" "full 16" "full 128"; do
    set -- $mode_tokens
    printf '  %-5s T=%-4s ' "$1" "$2"
    "$bench" "$model" --mode "$1" --tokens "$2" --runs 1 --warmup 0 | sed -n 's/^memory: //p'
done

cli="${CLI:-$build/app/attnscope}"  # CLI=path: another build of the app
if [ -x "$cli" ] && "$cli" --help 2>/dev/null | grep -q -- '--model'; then
    echo "== time to first heatmap: whole process, attnscope --model DIR --sentence ... --export-png (warm cache)"
    sentence="the quick brown fox jumps over the lazy dog [MASK] the end"
    for i in $(seq 1 7); do
        start=$(date +%s%N)
        QT_QPA_PLATFORM=offscreen "$cli" --model "$model" --sentence "$sentence" --export-png "$tmp/heat.png" > /dev/null
        echo $(( ($(date +%s%N) - start) / 1000000 ))
    done | "$py" -c 'import sys,statistics as s; v=[int(x) for x in sys.stdin]; print(f"  runs (ms): {v}; median {s.median(v):.0f} ms")'
    ls -la "$tmp/heat.png" | awk '{print "  png bytes:", $5}'
    echo "== memory of that whole process (/usr/bin/time -v), vs the safetensors file"
    QT_QPA_PLATFORM=offscreen /usr/bin/time -v "$cli" --model "$model" --sentence "$sentence" \
        --export-png "$tmp/heat.png" 2> "$tmp/time.txt" > /dev/null
    file_kb=$(( $(stat -c %s "$model/model.safetensors") / 1024 ))
    rss_kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time.txt")
    awk -v r="$rss_kb" -v f="$file_kb" 'BEGIN { printf "  max RSS %.1f MiB, file %.1f MiB: %.2f x\n", r/1024, f/1024, r/f }'
    echo "== time to first heatmap in the window: attnscope --model DIR --sentence ... --exit-after-first-heatmap"
    echo "   (one Xvfb server for all runs; whole process wall time, and the app's own figure from the model request)"
    Xvfb :77 -screen 0 1600x1000x24 -nolisten tcp > /dev/null 2>&1 & xvfb=$!
    sleep 1
    for i in $(seq 1 7); do
        start=$(date +%s%N)
        inside=$(DISPLAY=:77 "$cli" --model "$model" --sentence "$sentence" --exit-after-first-heatmap 2> /dev/null |
                 sed -n 's/first heatmap painted \([0-9]*\) ms.*/\1/p')
        echo "$(( ($(date +%s%N) - start) / 1000000 )) $inside"
    done | "$py" -c 'import sys,statistics as s; v=[l.split() for l in sys.stdin]; w=[int(a) for a,_ in v]; i=[int(b) for _,b in v]; print(f"  whole process (ms): {w}; median {s.median(w):.0f} ms\n  model requested → painted (ms): {i}; median {s.median(i):.0f} ms")'
    echo "== memory of the window process, until the first heatmap (/usr/bin/time -v), vs the safetensors file"
    DISPLAY=:77 /usr/bin/time -v "$cli" --model "$model" --sentence "$sentence" --exit-after-first-heatmap \
        2> "$tmp/time.txt" > /dev/null
    rss_kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time.txt")
    awk -v r="$rss_kb" -v f="$file_kb" 'BEGIN { printf "  max RSS %.1f MiB, file %.1f MiB: %.2f x\n", r/1024, f/1024, r/f }'
    kill "$xvfb"
else
    echo "== time to first heatmap: skipped ($cli has no --model yet)"
fi
