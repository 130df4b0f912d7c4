#!/usr/bin/python3
"""One line of bench/run_forward_bench.sh's table: TMP MODEL THREADS TOKENS ROUNDS PEAK_FILE.

Reads the "time <mode> <ms>" lines of each round's files (app-, math-, torch-…-<round>.txt), and
prints the medians, the min / median / max over the rounds of the PAIRED ratio torch / attnscope
(each round's medians; > 1: attnscope faster), and the math's GFLOP/s against the best measured
peak at this thread count (the widest FMA the CPU has: the last "peak" line for that count).
"""
import re
import statistics as st
import sys

tmp, model, threads, tokens, rounds, peak_file = sys.argv[1:7]
rounds = int(rounds)
per = {"app": [], "math": [], "torch": []}
pairs = {"app": [], "math": []}
flops = None
for r in range(1, rounds + 1):
    medians = {}
    for side in ("app", "math", "torch"):
        text = open(f"{tmp}/{side}-{model}-{threads}-{tokens}-{r}.txt").read()
        ms = [float(v) for v in re.findall(r"^time \w+ ([\d.]+)$", text, re.M)]
        per[side] += ms
        medians[side] = st.median(ms)
        found = re.search(r"layer FLOPs \(products only\): ([\d.]+) GFLOP", text)
        if found:
            flops = float(found.group(1))
    for k in pairs:
        pairs[k].append(medians["torch"] / medians[k])
peak = None
for line in open(peak_file):
    found = re.match(rf"peak (.*), {threads} thread\(s\): median [\d.]+ GFLOP/s, best ([\d.]+)", line)
    if found:
        peak = (found.group(1), float(found.group(2)))
med = {k: st.median(v) for k, v in per.items()}
ratio = {k: f"{min(v):.2f}/{st.median(v):.2f}/{max(v):.2f}" for k, v in pairs.items()}
gflops = flops / med["math"] * 1000
share = f", {100 * gflops / peak[1]:.0f}% of the {peak[1]:.0f} GFLOP/s {peak[0].split(',')[0]} peak" if peak else ""
print(f"  {model:10s} {threads} thr T={tokens:>3s}: torch {med['torch']:8.1f} ms | math {med['math']:8.1f} ms"
      f" | app {med['app']:8.1f} ms | torch/ours min/med/max: math {ratio['math']}, app {ratio['app']}"
      f" | math {gflops:.1f} GFLOP/s{share}")
