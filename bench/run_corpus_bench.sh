#!/usr/bin/env bash
# Corpus statistics (attnscope heads --stats --corpus) vs PyTorch computing the same statistics
# (bench/torch_corpus_stats.py) on bert-base shapes with random weights, in one run: sentences per
# second at 32 and 128 tokens, the two results compared, and our peak RSS at 100 vs 1,000
# sentences (flat: only running sums are kept). See bench/README.md.
#
#   bench/run_corpus_bench.sh [build-dir] [rounds] [model-dir]
#
# Defaults: build-dir build, 5 rounds, THREADS=1 (OpenBLAS/OpenMP threads on both sides, torch's
# set_num_threads too; 2 on a loaded machine makes OpenBLAS spin against itself, torch ~7x slower
# here), SENTENCES=40 per timed corpus, TOKENS="32 128", MEMORY="100 1000" (the two corpus sizes
# of the memory check; MEMORY="" skips it); model in /tmp/attnscope-bench/bert-base (written by
# bench/make_bert_base.py when missing; ~440 MB). Each side is a whole process (load + run),
# timed by /usr/bin/time; the per-sentence time is (t(N sentences) − t(1 sentence)) / (N − 1), so
# loading cancels out. Every round runs both sides, the order alternating (ours first in odd
# rounds), and gives one paired ratio torch time / ours; the script prints their min, median
# and max, so a disturbance during one round shows as spread instead of moving the figure.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build}"
rounds="${2:-5}"
model="${3:-/tmp/attnscope-bench/bert-base}"
threads="${THREADS:-1}"
n="${SENTENCES:-40}"
tokens="${TOKENS:-32 128}"
memory="${MEMORY-100 1000}"  # corpus sizes of the memory check; "" skips it
py=/usr/bin/python3
cli="$build/app/attnscope"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
export OPENBLAS_NUM_THREADS="$threads" OMP_NUM_THREADS="$threads" QT_QPA_PLATFORM=offscreen

[ -x "$cli" ] || { echo "build $cli first (cmake --build $build --target attnscope)" >&2; exit 1; }
[ -f "$model/model.safetensors" ] || "$py" "$here/bench/make_bert_base.py" "$model"
cat "$model/model.safetensors" > /dev/null  # warm file cache for both sides

# corpus FILE TOKENS LINES: lines of TOKENS−2 whole words of the vocabulary ([CLS] and [SEP] added).
corpus() {
    "$py" - "$model/vocab.txt" "$1" "$2" "$3" <<'PY'
import random, sys
words = [w for w in open(sys.argv[1]).read().split("\n") if w.isalpha() and len(w) > 1 and w.islower()]
rng = random.Random(7)
with open(sys.argv[2], "w") as f:
    for _ in range(int(sys.argv[4])):
        f.write(" ".join(rng.choice(words) for _ in range(int(sys.argv[3]) - 2)) + "\n")
PY
}
# seconds and peak RSS (KiB) of one whole process; its stderr shown only when it fails
timed() {
    /usr/bin/time -f "%e %M" -o "$tmp/time" "$@" > /dev/null 2> "$tmp/stderr" || { cat "$tmp/stderr" >&2; return 1; }
    tail -1 "$tmp/time"
}
ours() { timed "$cli" heads --model "$model" --stats --corpus "$1" --format json --output "$2"; }
theirs() { timed "$py" "$here/bench/torch_corpus_stats.py" "$model" "$1" --threads "$threads" --out "$2"; }

echo "== machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc --all) cores; load: $(uptime | sed 's/.*load average: //')"
echo "== threads: OPENBLAS_NUM_THREADS=$OPENBLAS_NUM_THREADS OMP_NUM_THREADS=$OMP_NUM_THREADS (both sides), torch.set_num_threads($threads); $rounds rounds, $n sentences a corpus"
for T in $tokens; do
    corpus "$tmp/one-$T.txt" "$T" 1
    corpus "$tmp/many-$T.txt" "$T" "$n"
    : > "$tmp/times-$T"
    for r in $(seq 1 "$rounds"); do
        a() { echo "$r ours 1 $(ours "$tmp/one-$T.txt" "$tmp/o1.json")"; echo "$r ours $n $(ours "$tmp/many-$T.txt" "$tmp/ours-$T.json")"; }
        b() { echo "$r torch 1 $(theirs "$tmp/one-$T.txt" "$tmp/t1.json")"; echo "$r torch $n $(theirs "$tmp/many-$T.txt" "$tmp/torch-$T.json")"; }
        if [ $((r % 2)) -eq 1 ]; then a; b; else b; a; fi >> "$tmp/times-$T"
    done
    "$py" - "$tmp/times-$T" "$T" "$n" "$tmp/ours-$T.json" "$tmp/torch-$T.json" <<'PY'
import json, statistics as st, sys
path, T, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
t = {}  # (round, side, sentences) -> seconds
for line in open(path):
    r, side, count, sec, rss = line.split()
    t[(int(r), side, int(count))] = float(sec)
rounds = sorted({r for r, _, _ in t})
per = {s: [(t[(r, s, n)] - t[(r, s, 1)]) / (n - 1) for r in rounds] for s in ("ours", "torch")}
ratios = [b / a for a, b in zip(per["ours"], per["torch"])]  # paired: the same round's two sides
ours, theirs = json.load(open(sys.argv[4]))["heads"], json.load(open(sys.argv[5]))["heads"]
diff = max(abs(a[k] - b[k]) if not isinstance(a[k], list) else max(abs(x - y) for x, y in zip(a[k], b[k]))
           for a, b in zip(ours, theirs) for k in b if k not in ("layer", "head"))
mo, mt = st.median(per["ours"]), st.median(per["torch"])
print(f"T={T}: attnscope {1 / mo:.2f} sentences/s ({1000 * mo:.0f} ms each), "
      f"torch {1 / mt:.2f} sentences/s ({1000 * mt:.0f} ms each) (medians of {len(rounds)} rounds)")
print(f"T={T}: torch time / attnscope time, paired by round: min {min(ratios):.2f}x, median {st.median(ratios):.2f}x, "
      f"max {max(ratios):.2f}x ({' '.join(f'{x:.2f}' for x in ratios)}); largest |diff| of the statistics {diff:.2g}")
PY
done

[ -n "$memory" ] || exit 0
echo "== memory: peak RSS of attnscope heads --corpus, T=32"
for m in $memory; do
    corpus "$tmp/m$m.txt" 32 "$m"
    echo "$m sentences: peak RSS $(ours "$tmp/m$m.txt" "$tmp/m.json" | awk '{print $2 " KiB, " $1 " s"}')"
done
