#!/usr/bin/env bash
# AttnScope's float32 forward pass vs Debian's PyTorch on the same random weights (bert-base and
# gpt2 124M shapes), issue 16: paired rounds alternating the two sides, at 32/128/512 tokens and
# 1 and 2 threads, the same OpenBLAS kernels on both sides; the machine's FMA peak (AVX-512 when
# the CPU has it); the whole-model JSON export (time, peak RSS); peak RSS vs the file size; the
# time to the first heatmap. See bench/README.md.
#
#   bench/run_forward_bench.sh [build-dir] [rounds]
#
# Environment: MODELS="bert-base gpt2-small" TOKENS="32 128 512" THREADS="1 2"
# EXPORT_TOKENS="128 512" (empty: no export), HEATMAP=1 (0: skip the time to first heatmap),
# BENCH_DIR=/tmp/attnscope-bench (checkpoints written once by make_bert_base.py / make_gpt2_small.py),
# CLI=path/to/attnscope (default build-dir/app/attnscope).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build}"
rounds="${2:-5}"
models="${MODELS:-bert-base gpt2-small}"
tokens_list="${TOKENS:-32 128 512}"
threads_list="${THREADS:-1 2}"
export_tokens="${EXPORT_TOKENS-128 512}"
dir="${BENCH_DIR:-/tmp/attnscope-bench}"
py=/usr/bin/python3
bench="$build/bench/attnscope_forward_bench"
cli="${CLI:-$build/app/attnscope}"
first_heatmap="${FIRST_HEATMAP:-$build/bench/attnscope_first_heatmap}"  # bench/first_heatmap.cpp
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT

[ -x "$bench" ] || { echo "build $bench first (cmake --build $build --target attnscope_forward_bench attnscope)" >&2; exit 1; }
for m in $models; do
    case "$m" in
        bert-base) [ -f "$dir/$m/model.safetensors" ] || "$py" "$here/bench/make_bert_base.py" "$dir/$m" ;;
        gpt2-small) [ -f "$dir/$m/model.safetensors" ] || "$py" "$here/bench/make_gpt2_small.py" "$dir/$m" ;;
        *) echo "unknown model $m (bert-base, gpt2-small)" >&2; exit 1 ;;
    esac
    cat "$dir/$m/model.safetensors" > /dev/null  # warm file cache for both sides
done

# Both sides run the kernels attnscope's start-up decision picks (an OPENBLAS_CORETYPE already set
# is kept): torch uses the same OpenBLAS, so the comparison is of the code around the products.
if [ -z "${OPENBLAS_CORETYPE:-}" ] && [ -x "$cli" ]; then
    OPENBLAS_CORETYPE="$("$cli" --lang en --kernel-info 2>/dev/null | sed -n 's/^Kernels: \([A-Za-z0-9]*\).*/\1/p')"
fi
[ -n "${OPENBLAS_CORETYPE:-}" ] && export OPENBLAS_CORETYPE
echo "== machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; load: $(uptime | sed 's/.*load average: //')"
echo "   OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-unset} for both sides; $rounds rounds; $(date -u '+%Y-%m-%d %H:%M UTC')"
for n in $threads_list; do "$bench" --peak --threads "$n" | tee -a "$tmp/peak.txt"; done

sentence() {  # T tokens: BERT [CLS] + T-2 one-letter words + [SEP]; GPT-2 one token per character
    "$py" -c 'import sys; m, t = sys.argv[1], int(sys.argv[2]); a = "abcdefghijklmnopqrstuvwxyz"
print(" ".join(a[i % 26] for i in range(t - 2)) if m == "bert-base" else "".join(a[i % 26] for i in range(t)))' "$1" "$2"
}

for m in $models; do
    echo "== $m: correctness, final hidden state vs torch (same weights and ids, 128 tokens)"
    "$bench" "$dir/$m" --mode full --tokens 128 --runs 1 --warmup 0 --dump "$tmp/ours.f32" > /dev/null
    "$py" "$here/bench/torch_forward.py" "$dir/$m" --tokens 128 --runs 1 --warmup 0 --compare "$tmp/ours.f32" | tail -1
done

for m in $models; do
  for n in $threads_list; do
    for t in $tokens_list; do
        runs=3; [ "$t" -ge 512 ] && runs=2
        for r in $(seq 1 "$rounds"); do
            ours() { "$bench" "$dir/$m" --threads "$n" --tokens "$t" --mode app --runs "$runs" --warmup 1 > "$tmp/app-$m-$n-$t-$r.txt"
                     "$bench" "$dir/$m" --threads "$n" --tokens "$t" --mode math --runs "$runs" --warmup 1 > "$tmp/math-$m-$n-$t-$r.txt"; }
            theirs() { "$py" "$here/bench/torch_forward.py" "$dir/$m" --threads "$n" --tokens "$t" --runs "$runs" --warmup 1 > "$tmp/torch-$m-$n-$t-$r.txt"; }
            if [ $((r % 2)) -eq 1 ]; then ours; theirs; else theirs; ours; fi
        done
        [ "$m-$n-$t" = "$(echo $models | cut -d' ' -f1)-$(echo $threads_list | cut -d' ' -f1)-$(echo $tokens_list | cut -d' ' -f1)" ] &&
            { grep '^threads' "$tmp/math-$m-$n-$t-1.txt" | sed 's/^/   attnscope /'; grep '^threads' "$tmp/torch-$m-$n-$t-1.txt" | sed 's/^/   torch     /'; }
        "$py" "$here/bench/summarize_forward.py" "$tmp" "$m" "$n" "$t" "$rounds" "$tmp/peak.txt"
    done
  done
done

echo "== memory: peak RSS (getrusage) of the bench process, as the app runs it, 1 thread, vs the safetensors file"
for m in $models; do
    for t in $tokens_list; do
        printf '  %-10s T=%-4s ' "$m" "$t"
        "$bench" "$dir/$m" --mode app --tokens "$t" --runs 1 --warmup 0 | sed -n 's/^memory: //p'
    done
done

if [ -x "$cli" ] && [ -n "$export_tokens" ]; then
    echo "== export: attnscope --model DIR --sentence ... --print --format json > /dev/null (whole process, /usr/bin/time)"
    for m in $models; do
        file_kb=$(( $(stat -c %s "$dir/$m/model.safetensors") / 1024 ))
        for t in $export_tokens; do
            /usr/bin/time -f "%e %M" -o "$tmp/time.txt" "$cli" --model "$dir/$m" --sentence "$(sentence "$m" "$t")" \
                --print --format json 2> /dev/null | wc -c > "$tmp/bytes.txt" || true
            read -r secs rss_kb < "$tmp/time.txt"
            awk -v m="$m" -v t="$t" -v s="$secs" -v r="$rss_kb" -v f="$file_kb" -v b="$(cat "$tmp/bytes.txt")" \
                'BEGIN { printf "  %-10s T=%-4s %6.1f s, %7.1f MB written, peak RSS %.1f MiB = %.2f x the file\n", m, t, s, b/1e6, r/1024, r/f }'
        done
    done
fi

first_bert="$(for m in $models; do [ "$m" = bert-base ] && echo "$dir/$m"; done)"
if [ "${HEATMAP:-1}" = 1 ] && [ -x "$first_heatmap" ] && [ -n "$first_bert" ] && command -v Xvfb > /dev/null; then
    model="$first_bert"
    sentence="the quick brown fox jumps over the lazy dog [MASK] the end"
    echo "== time to first heatmap in the window (bert-base, 14 tokens): attnscope_first_heatmap --model DIR --sentence ..."
    echo "   (one Xvfb server for all runs; whole process wall time, and the app's own figure from the model request)"
    Xvfb :77 -screen 0 1600x1000x24 -nolisten tcp > /dev/null 2>&1 & xvfb=$!
    sleep 1
    for i in $(seq 1 7); do
        start=$(date +%s%N)
        inside=$(DISPLAY=:77 "$first_heatmap" --model "$model" --sentence "$sentence" 2> /dev/null |
                 sed -n 's/first heatmap painted \([0-9]*\) ms.*/\1/p')
        echo "$(( ($(date +%s%N) - start) / 1000000 )) $inside"
    done | "$py" -c 'import sys,statistics as s; v=[l.split() for l in sys.stdin]; w=[int(a) for a,_ in v]; i=[int(b) for _,b in v]; print(f"  whole process (ms): {w}; median {s.median(w):.0f} ms\n  model requested → painted (ms): {i}; median {s.median(i):.0f} ms")'
    DISPLAY=:77 /usr/bin/time -f "%M" -o "$tmp/time.txt" "$first_heatmap" --model "$model" --sentence "$sentence" > /dev/null 2>&1
    file_kb=$(( $(stat -c %s "$model/model.safetensors") / 1024 ))
    awk -v r="$(cat "$tmp/time.txt")" -v f="$file_kb" 'BEGIN { printf "  window, until the first heatmap: max RSS %.1f MiB = %.2f x the file\n", r/1024, r/f }'
    kill "$xvfb"
else
    echo "== time to first heatmap: skipped (HEATMAP=0, no bert-base, no $cli or no Xvfb)"
fi
echo "== done: $(date -u '+%H:%M UTC'); load: $(uptime | sed 's/.*load average: //')"
