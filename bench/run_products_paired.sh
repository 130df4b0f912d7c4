#!/usr/bin/env bash
# The command-line long run with the two products paths of BF16 weights (issue 31,
# core/model/bf16_products.hpp) paired in one run on one binary: `attnscope --products f32|bf16
# --print --format json --steps weights --layers 1 --heads 1` on the decoder checkpoint, the two
# paths alternating which runs first each round, each a whole process under /usr/bin/time (wall,
# user, sys, peak RSS), the 1-minute load average printed before each run; up to 1,024 tokens the
# printed attention weights of the two paths are compared (largest difference, and where).
#
#   bench/run_products_paired.sh BINARY [tokens] [rounds]
#
# Environment: MODEL=/tmp/attnscope-bench/qwen2.5-0.5b (bench/make_decoder_checkpoint.py writes it),
# OPENBLAS_CORETYPE=SkylakeX unless set (the f32 path's AVX-512 kernels).
set -euo pipefail
binary="$1"
tokens="${2:-512}"
rounds="${3:-2}"
model="${MODEL:-/tmp/attnscope-bench/qwen2.5-0.5b}"
export OPENBLAS_CORETYPE="${OPENBLAS_CORETYPE:-SkylakeX}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
sentence="$(python3 -c "print(''.join(chr(97 + i % 26) for i in range($tokens)))")"  # T tokens, ids = bytes
echo "machine: $(nproc) cores,$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2); $tokens tokens; $model"
"$binary" --products bf16 --kernel-info | grep -E "^(Kernels|Products)"
for round in $(seq 1 "$rounds"); do
    order=("f32" "bf16")
    if (( round % 2 == 0 )); then order=("bf16" "f32"); fi
    for side in "${order[@]}"; do
        echo "round $round $side, load average $(cut -d' ' -f1-3 /proc/loadavg)"
        /usr/bin/time -f "  %e s wall, %U s user, %S s sys, %M KB peak" "$binary" --products "$side" --lang en \
            --model "$model" --sentence "$sentence" --print --format json --steps weights --layers 1 --heads 1 \
            > "$out/$side.json" 2> "$out/$side.err" || { cat "$out/$side.err"; exit 1; }
        tail -1 "$out/$side.err"
    done
done
if (( tokens <= 1024 )); then
    python3 - "$out/f32.json" "$out/bf16.json" <<'PY'
import json, sys
def weights(path):
    head = json.load(open(path))["layers"][0]["heads"][0]
    return head["weights"]
a, b = weights(sys.argv[1]), weights(sys.argv[2])
largest, where = max((abs(x - y), (r, c)) for r, (ra, rb) in enumerate(zip(a, b)) for c, (x, y) in enumerate(zip(ra, rb)))
print(f"layer 1 head 1 attention weights, f32 vs bf16 products: largest |diff| {largest:.3g} at row {where[0] + 1}, column {where[1] + 1}")
PY
fi
echo "load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
