#!/usr/bin/env bash
# attnscope qk through the real binary: JSON and CSV output parsed and compared, up to the sign of
# each component, with the numpy reference (tests/reference/fixtures/qk_*.json, reference_qk.py).
# Usage: qk_test.sh ATTNSCOPE_BINARY SOURCE_DIR CASE
set -uo pipefail
bin="$1"; src="$2"; case_name="$3"
fix="$src/tests/reference"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL [$case_name]: $*" >&2; exit 1; }

# compare FORMAT OUTPUT_FILE FIXTURE CASE_INDEX TOLERANCE: every point's kind, token and text, and
# x, y up to one sign per component; the explained variance (JSON only).
compare() {
  python3 - "$@" <<'PY' || fail "differs from the reference"
import csv, json, sys
fmt, path, fixture, index, tol = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
want = json.load(open(fixture))["cases"][index]
if fmt == "json":
    doc = json.load(open(path))
    points = doc["points"]
    assert doc["format"] == "attnscope-qk" and doc["version"] == 2, (doc.get("format"), doc.get("version"))
    assert doc["layer"] == want["layer"] and doc["head"] == want["head"], (doc["layer"], doc["head"])
    for got, exp in zip(doc["explained_variance"], want["explained_variance"]):
        assert abs(got - exp) < tol, ("explained variance", got, exp)
    assert -1 <= doc["distance_dot_correlation"] <= 1
    assert doc["softmax_max_difference"] < 1e-5, doc["softmax_max_difference"]
else:
    rows = list(csv.DictReader(open(path)))
    points = [{**r, "sentence": int(r["sentence"]), "token": int(r["token"]), "x": float(r["x"]), "y": float(r["y"])}
              for r in rows]
assert len(points) == len(want["points"]), (len(points), len(want["points"]))
largest = 0
for axis in ("x", "y"):
    sign = -1 if sum(p[axis] * q[axis] for p, q in zip(points, want["points"])) < 0 else 1
    for i, (p, q) in enumerate(zip(points, want["points"])):
        # The reference counts from 0, the command line from 1 (docs/cli.md).
        assert (p["kind"], p["sentence"], p["token"], p["text"]) == (q["kind"], q["sentence"] + 1, q["token"] + 1, q["text"]), (i, p, q)
        diff = abs(sign * p[axis] - q[axis])
        largest = max(largest, diff)
        assert diff < tol, f"point {i} ({p['kind']} {p['text']}) {axis}: {sign * p[axis]} vs reference {q[axis]}"
print(f"largest coordinate difference {largest:.3g}")
PY
}

case "$case_name" in
  qk_lesson_json)
    "$bin" qk --lesson two-heads --layer 1 --head 2 --format json > "$tmp/out.json" 2> "$tmp/err" || fail "exit $?"
    grep -q "^qk: 3 queries, 3 keys; PC1 explains 91.1 %, PC2 8.9 %" "$tmp/err" || { cat "$tmp/err" >&2; fail "no summary"; }
    compare json "$tmp/out.json" "$fix/fixtures/qk_two-heads.json" 1 1e-9
    ;;
  qk_lesson_corpus_csv)
    printf 'cats chase mice\n\n  \nmice chase cats chase mice\n' > "$tmp/corpus.txt"
    "$bin" qk --lesson two-heads --corpus "$tmp/corpus.txt" --layer 1 --head 1 --format csv --output "$tmp/out.csv" \
      > "$tmp/stdout" 2>&1 || { cat "$tmp/stdout" >&2; fail "exit $?"; }
    compare csv "$tmp/out.csv" "$fix/fixtures/qk_two-heads.json" 2 1e-9
    ;;
  qk_model_json)
    "$bin" qk --model "$fix/models/bert-tiny" --sentence "the dog sat on the mat" --layer 2 --head 2 \
      --output "$tmp/out.json" 2> "$tmp/err" || { cat "$tmp/err" >&2; fail "exit $?"; }
    compare json "$tmp/out.json" "$fix/fixtures/qk_bert-tiny.json" 1 1e-4
    ;;
  qk_model_csv)
    "$bin" qk --model "$fix/models/bert-tiny" --sentence "the dog sat on the mat" --layer 1 --head 3 --format csv \
      > "$tmp/out.csv" 2> "$tmp/err" || { cat "$tmp/err" >&2; fail "exit $?"; }
    compare csv "$tmp/out.csv" "$fix/fixtures/qk_bert-tiny.json" 0 1e-4
    ;;
  qk_tsne_seed)
    # The same seed gives the same layout, another seed another; the points are those of PCA.
    run() { "$bin" qk --lesson coreference --layer 1 --head 1 --layout tsne --perplexity 5 "$@" --format csv 2>/dev/null; }
    a="$(run --seed 7)" && b="$(run --seed 7)" && c="$(run --seed 8)" || fail "exit $?"
    [ "$a" = "$b" ] || fail "seed 7 gave two layouts"
    [ "$a" != "$c" ] || fail "seeds 7 and 8 gave the same layout"
    [ "$(grep -c '^query,' <<<"$a")" = 11 ] && [ "$(grep -c '^key,' <<<"$a")" = 11 ] || fail "expected 11 queries and 11 keys"
    "$bin" qk --lesson coreference --layer 1 --head 1 --layout tsne --perplexity 5 2>/dev/null |
      python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["layout"]=="tsne" and d["perplexity"]==5, d' || fail "json"
    ;;
  *) fail "unknown case" ;;
esac
