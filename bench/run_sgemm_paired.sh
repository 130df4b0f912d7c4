#!/usr/bin/env bash
# Our own SGEMM against OpenBLAS in the forward pass (bench/README.md, "Our own SGEMM"): paired,
# alternating rounds on the same binary, switched by ATTNSCOPE_SGEMM=own|openblas (every product
# on one side), `attnscope_forward_bench --mode math`, printing each run's median and phases and
# the load average.   bench/run_sgemm_paired.sh [build-dir] [rounds]
#   MODELS="bert-base gpt2-small" THREADS="1 2" TOKENS="32" (the checkpoints of run_forward_bench.sh)
set -euo pipefail
build="${1:-build}"; rounds="${2:-3}"
bench="$build/bench/attnscope_forward_bench"
export OPENBLAS_CORETYPE="${OPENBLAS_CORETYPE:-SkylakeX}"
for model in ${MODELS:-bert-base gpt2-small}; do
  for threads in ${THREADS:-1 2}; do
    for tokens in ${TOKENS:-32}; do
      for round in $(seq "$rounds"); do
        if (( round % 2 )); then order="own openblas"; else order="openblas own"; fi
        for side in $order; do
          out=$(OPENBLAS_NUM_THREADS=$threads ATTNSCOPE_SGEMM=$side "$bench" "/tmp/attnscope-bench/$model" \
                --threads "$threads" --tokens "$tokens" --runs 5 --mode math 2>&1)
          median=$(grep -oP 'math\s+median\s+\K[0-9.]+' <<<"$out")
          phases=$(grep -E '^  (ffn in|ffn out|qkv projections|output projection) ' <<<"$out" |
                   awk '{ms=$(NF-1); $NF=""; $(NF-1)=""; gsub(/ +$/, ""); gsub(/^ +/, ""); printf "%s %s; ", $0, ms}')
          echo "$model threads=$threads T=$tokens round=$round $side: median $median ms ($phases) load $(cut -d' ' -f1 /proc/loadavg)"
        done
      done
    done
  done
done
