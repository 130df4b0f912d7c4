#!/usr/bin/env bash
# Issue 25's decoder benchmark: random-weight BF16 checkpoints in the Qwen2.5-0.5B and Llama-3.2-1B
# layouts (bench/make_decoder_checkpoint.py), at 128 and 512 tokens:
#   (a) peak RSS of the command line's full forward pass against the safetensors file (goal ≤ 1.3×):
#       `--print --step weights` as text (the whole Trace kept), and the JSON print of (c), which
#       streams the Trace layer by layer;
#   (b) the window's start to its first heatmap (attnscope_first_heatmap under one Xvfb server), then
#       switching the shown layer to the middle one (the layer rebuilt, issue 31) and the window's peak RSS;
#   (c) the forward pass against PyTorch on the same weights (bench/torch_decoder_forward.py) in
#       paired rounds alternating the order, the same thread count on both sides, and once the
#       last token's top-5 ids and logits compared.
# Both sides are given two ways: the forward pass alone, after as many untimed warm-ups
# (attnscope_forward_bench --mode app: the window's runSentence with its Trace, the shown layer
# moved out; torch's second pass), and the whole process (ours: start, map and check the file,
# tokenize, the run, print one head as JSON; torch: start, import, widen, forward).
# See bench/README.md.
#
#   bench/run_decoder_bench.sh [build-dir] [rounds]   (rounds 0: only (a) and (b))
#
# Environment: MODELS="qwen2.5-0.5b llama-3.2-1b" TOKENS="128 512" (issue 31: TOKENS="512 4096") THREADS=2 (both sides)
# HEATMAP_RUNS=3 (0: skip the window), TORCH_WARMUP=1 (torch's timed pass is its second: the
# stronger baseline, while ours is a cold process), BENCH_DIR=/tmp/attnscope-bench (checkpoints written once),
# CLI=path/to/attnscope (default build-dir/app/attnscope), TORCH_KEEP=1 (torch holds every head's weights
# until its forward pass returns, as output_attentions does; by default it drops each after its A·V).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build}"
rounds="${2:-3}"
models="${MODELS:-qwen2.5-0.5b llama-3.2-1b}"
tokens_list="${TOKENS:-128 512}"
threads="${THREADS:-2}"
heatmap_runs="${HEATMAP_RUNS:-3}"
torch_warmup="${TORCH_WARMUP:-1}"  # untimed torch forward passes before the timed one
dir="${BENCH_DIR:-/tmp/attnscope-bench}"
py=/usr/bin/python3
cli="${CLI:-$build/app/attnscope}"
first_heatmap="${FIRST_HEATMAP:-$build/bench/attnscope_first_heatmap}"  # bench/first_heatmap.cpp
forward_bench="${FORWARD_BENCH:-$build/bench/attnscope_forward_bench}"  # bench/forward_bench.cpp
tmp="$(mktemp -d)"; xvfb=; display=
trap 'rm -rf "$tmp"; [ -z "$xvfb" ] || kill "$xvfb" 2> /dev/null' EXIT

[ -x "$cli" ] && [ -x "$forward_bench" ] || { echo "build $cli first (cmake --build $build --target attnscope attnscope_first_heatmap attnscope_forward_bench)" >&2; exit 1; }
load() { uptime | sed 's/.*load average: //'; }
echo "== machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; load average: $(load)"
for m in $models; do
    [ -f "$dir/$m/model.safetensors" ] || "$py" "$here/bench/make_decoder_checkpoint.py" "$m" "$dir/$m"
    cat "$dir/$m/model.safetensors" > /dev/null  # warm file cache for both sides
done
# Both sides run the kernels attnscope's start-up decision picks (torch uses the same OpenBLAS).
if [ -z "${OPENBLAS_CORETYPE:-}" ]; then
    OPENBLAS_CORETYPE="$("$cli" --lang en --kernel-info 2>/dev/null | sed -n 's/^Kernels: \([A-Za-z0-9]*\).*/\1/p')"
fi
[ -n "${OPENBLAS_CORETYPE:-}" ] && export OPENBLAS_CORETYPE
export OPENBLAS_NUM_THREADS="$threads"
echo "   OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-unset}, $threads threads on both sides; $rounds rounds; $(date -u '+%Y-%m-%d %H:%M UTC')"

sentence() { "$py" -c 'import sys; print("".join(chr(97 + i % 26) for i in range(int(sys.argv[1]))))' "$1"; }

ours() {  # model T round: the whole process, one head printed (the run computes every layer and head)
    /usr/bin/time -f "%e %M" -o "$tmp/ours-time-$1-$2-$3" "$cli" --lang en --model "$dir/$1" --sentence "$(sentence "$2")" \
        --print --format json --steps weights --layers 1 --heads 1 --top-k 5 > "$tmp/ours-$1-$2-$3.json" 2> /dev/null
}
ours_forward() {  # model T round: the forward pass alone, after torch's number of warm-ups
    "$forward_bench" "$dir/$1" --tokens "$2" --threads "$threads" --runs 1 --warmup "$torch_warmup" --mode app \
        > "$tmp/forward-$1-$2-$3.txt" 2> /dev/null
}
theirs() {
    local options=(); [ "$3" = 1 ] && options=(--compare "$tmp/ours-$1-$2-1.json")
    [ "${TORCH_KEEP:-0}" = 1 ] && options+=(--keep-attentions)
    /usr/bin/time -f "%e %M" -o "$tmp/torch-time-$1-$2-$3" "$py" "$here/bench/torch_decoder_forward.py" "$dir/$1" \
        --threads "$threads" --tokens "$2" --runs 1 --warmup "$torch_warmup" "${options[@]}" > "$tmp/torch-$1-$2-$3.txt"
}

text_rss() {  # model T file-bytes: the last layer's weights printed as text (every head; from 1,024 tokens head 1,
    # 4,096² numbers a head); the run keeps its Trace, or from the long-run threshold only its digests
    local one=(); [ "$2" -ge 1024 ] && one=(--head 1)
    /usr/bin/time -f "%e %M" -o "$tmp/text-time" "$cli" --lang en --model "$dir/$1" --sentence "$(sentence "$2")" \
        --print --step weights "${one[@]}" > /dev/null 2>&1
    awk -v f="$3" -v h="${one[*]}" '{ printf "   peak RSS, attnscope --print --step weights %s(text): %.0f MiB = %.2f x the file, %.1f s\n", h == "" ? "" : h " ", $2 / 1024, $2 * 1024 / f, $1 }' "$tmp/text-time"
}

if [ "$heatmap_runs" -gt 0 ] && [ -x "$first_heatmap" ] && command -v Xvfb > /dev/null; then
    # A free display number, which Xvfb picks and writes (:78 may be another server's).
    Xvfb -displayfd 3 -screen 0 1600x1000x24 -nolisten tcp 3> "$tmp/display" > /dev/null 2>&1 & xvfb=$!
    for _ in $(seq 50); do [ -s "$tmp/display" ] && break; sleep 0.1; done
    display=":$(head -n1 "$tmp/display")"
fi

for m in $models; do
  file_bytes=$(stat -c %s "$dir/$m/model.safetensors")
  for t in $tokens_list; do
    echo "== $m, T=$t ($file_bytes-byte file); load average: $(load)"
    text_rss "$m" "$t" "$file_bytes"
    for r in $(seq 1 "$rounds"); do
        if [ $((r % 2)) -eq 1 ]; then ours "$m" "$t" "$r"; ours_forward "$m" "$t" "$r"; theirs "$m" "$t" "$r"
        else theirs "$m" "$t" "$r"; ours_forward "$m" "$t" "$r"; ours "$m" "$t" "$r"; fi
    done
    [ "$rounds" -gt 0 ] && grep -E '^(top-5|largest)' "$tmp/torch-$m-$t-1.txt" | sed 's/^/   /'
    [ "$rounds" -gt 0 ] && "$py" - "$tmp" "$m" "$t" "$rounds" "$file_bytes" <<'EOF'
import json, statistics as s, sys
tmp, m, t, rounds, file_bytes = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
def wall_rss(path):
    wall, rss = open(path).read().split()
    return float(wall) * 1000, int(rss) * 1024
ours = [wall_rss(f"{tmp}/ours-time-{m}-{t}-{r}") for r in range(1, rounds + 1)]
theirs = [wall_rss(f"{tmp}/torch-time-{m}-{t}-{r}") for r in range(1, rounds + 1)]
fwd = [float(l.split()[2]) for r in range(1, rounds + 1) for l in open(f"{tmp}/torch-{m}-{t}-{r}.txt") if l.startswith("time torch")]
ours_fwd = [float(l.split()[2]) for r in range(1, rounds + 1) for l in open(f"{tmp}/forward-{m}-{t}-{r}.txt") if l.startswith("time app")]
tokens = len(json.load(open(f"{tmp}/ours-{m}-{t}-1.json"))["tokens"])
mmm = lambda v: f"{min(v):.2f}/{s.median(v):.2f}/{max(v):.2f}"
print(f"   tokens run: {tokens}")
print(f"   ours, whole process: median {s.median([w for w, _ in ours]):.0f} ms {[round(w) for w, _ in ours]}")
print(f"   torch forward alone: median {s.median(fwd):.0f} ms {[round(f) for f in fwd]}; whole process: median {s.median([w for w, _ in theirs]):.0f} ms")
print(f"   ours forward alone: median {s.median(ours_fwd):.0f} ms {[round(f) for f in ours_fwd]}")
print(f"   torch forward / ours forward, per round min/med/max: {mmm([f / o for f, o in zip(fwd, ours_fwd)])}")
print(f"   torch forward / ours process, per round min/med/max: {mmm([f / o[0] for f, o in zip(fwd, ours)])}")
print(f"   torch process / ours process, per round min/med/max: {mmm([th[0] / o[0] for th, o in zip(theirs, ours)])}")
rss = max(r for _, r in ours)
print(f"   peak RSS, attnscope --print: {rss / 2**20:.0f} MiB = {rss / file_bytes:.2f} x the file (goal <= 1.3); torch {max(r for _, r in theirs) / 2**20:.0f} MiB")
EOF
    if [ -n "$xvfb" ]; then
        layers=$("$py" -c 'import json, sys; print(json.load(open(sys.argv[1]))["num_hidden_layers"])' "$dir/$m/config.json")
        for i in $(seq 1 "$heatmap_runs"); do
            start=$(date +%s%N)
            DISPLAY=$display /usr/bin/time -f "%M" -o "$tmp/heatmap-rss-$i" "$first_heatmap" --model "$dir/$m" \
                --sentence "$(sentence "$t")" --switch-layer $((layers / 2 + 1)) > "$tmp/heatmap-$i.txt" 2> /dev/null || true
            first=$(sed -n 's/first heatmap painted \([0-9]*\) ms.*/\1/p' "$tmp/heatmap-$i.txt")
            switched=$(sed -n 's/layer [0-9]* shown \([0-9]*\) ms.*/\1/p' "$tmp/heatmap-$i.txt")
            whole=$(sed -n 's/the whole run shown \([0-9]*\) ms.*/\1/p' "$tmp/heatmap-$i.txt")
            echo "$(( ($(date +%s%N) - start) / 1000000 )) ${first:-0} ${switched:-0} $(cat "$tmp/heatmap-rss-$i") ${whole:-0}"
        done | "$py" -c 'import sys, statistics as s; v = [[int(x) for x in l.split()] for l in sys.stdin]; f = int(sys.argv[1])
print(f"   window start to first heatmap, then layer {int(sys.argv[2]) // 2 + 1} shown (process wall): median {s.median(r[0] for r in v)} ms {[r[0] for r in v]}")
print(f"   model requested → first heatmap painted (the shown layer, the run still going): median {s.median(r[1] for r in v)} ms {[r[1] for r in v]}")
print(f"   model requested → the whole run shown: median {s.median(r[4] for r in v)} ms {[r[4] for r in v]}")
print(f"   switching the shown layer: median {s.median(r[2] for r in v)} ms {[r[2] for r in v]}")
print(f"   window peak RSS: {max(r[3] for r in v) / 1024:.0f} MiB = {max(r[3] for r in v) * 1024 / f:.2f} x the file")' "$file_bytes" "$layers"
    fi
  done
done
echo "== done: $(date -u '+%H:%M UTC'); load average: $(load)"
