#!/usr/bin/env bash
# The command-line long run of issue 31, two builds paired in one run: `attnscope --print --format
# json --steps weights --layers 1 --heads 1` on the decoder checkpoint (run_decoder_bench.sh (c)),
# the two binaries alternating which runs first each round, each a whole process under
# /usr/bin/time (wall, user, sys, peak RSS), the 1-minute load average printed before each run, and
# the two JSON outputs compared byte for byte at the end.
#
#   bench/run_long_run_paired.sh BEFORE_BINARY AFTER_BINARY [tokens] [rounds]
#
# Environment: MODEL=/tmp/attnscope-bench/qwen2.5-0.5b (bench/make_decoder_checkpoint.py writes it),
# OPENBLAS_CORETYPE=Haswell unless set.
set -euo pipefail
before="$1"
after="$2"
tokens="${3:-1024}"
rounds="${4:-2}"
model="${MODEL:-/tmp/attnscope-bench/qwen2.5-0.5b}"
export OPENBLAS_CORETYPE="${OPENBLAS_CORETYPE:-Haswell}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
sentence="$(python3 -c "print(''.join(chr(97 + i % 26) for i in range($tokens)))")"  # T tokens, ids = bytes
echo "machine: $(nproc) cores,$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2); $tokens tokens; $model"
for round in $(seq 1 "$rounds"); do
    order=("before" "after")
    if (( round % 2 == 0 )); then order=("after" "before"); fi
    for side in "${order[@]}"; do
        binary="$before"
        if [[ "$side" == after ]]; then binary="$after"; fi
        echo "round $round $side, load average $(cut -d' ' -f1-3 /proc/loadavg)"
        /usr/bin/time -f "  %e s wall, %U s user, %S s sys, %M KB peak" "$binary" --lang en --model "$model" \
            --sentence "$sentence" --print --format json --steps weights --layers 1 --heads 1 \
            > "$out/$side.json" 2> "$out/$side.err" || { cat "$out/$side.err"; exit 1; }
        tail -1 "$out/$side.err"
    done
done
if cmp -s "$out/before.json" "$out/after.json"; then echo "JSON byte-identical"; else echo "JSON differs"; fi
echo "load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
