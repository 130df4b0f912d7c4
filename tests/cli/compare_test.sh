#!/usr/bin/env bash
# attnscope compare through the real binary: JSON and CSV output parsed and compared with the
# torch reference (tests/reference/fixtures/compare.json, reference_compare.py): tokens, the
# alignment and A, B, A − B of every head, on the tiny BERT and GPT-2 fixtures and a lesson.
# Usage: compare_test.sh ATTNSCOPE_BINARY SOURCE_DIR CASE FORMAT
set -uo pipefail
bin="$1"; src="$2"; case_name="$3"; format="$4"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL [$case_name $format]: $*" >&2; exit 1; }
cd "$src/tests/reference" || fail "no tests/reference"

mapfile -d '' args < <(python3 - "$case_name" <<'PY'
import json, sys
case = next(c for c in json.load(open("fixtures/compare.json"))["cases"] if c["name"] == sys.argv[1])
sys.stdout.write("".join(a + "\0" for a in case["args"]))
PY
)
[ "${#args[@]}" -gt 0 ] || fail "no such case in fixtures/compare.json"
"$bin" compare "${args[@]}" --format "$format" --output "$tmp/out" > "$tmp/stdout" 2> "$tmp/err"
status=$?
[ "$status" = 0 ] || { cat "$tmp/err" >&2; fail "exit $status"; }
[ -s "$tmp/stdout" ] && fail "--output given, yet something went to standard output"

python3 - "$case_name" "$format" "$tmp/out" <<'PY' || fail "differs from the reference"
import csv, json, sys
name, fmt, path = sys.argv[1:]
want = next(c for c in json.load(open("fixtures/compare.json"))["cases"] if c["name"] == name)
tol = 1e-9 if "--lesson" in want["args"] else 1e-5  # lessons run in double, models in float32
largest = 0
def close(got, exp, what):
    global largest
    largest = max(largest, abs(got - exp))
    assert abs(got - exp) < tol, f"{what}: {got} vs reference {exp}"
if fmt == "json":
    doc = json.load(open(path))
    assert doc["format"] == "attnscope-compare" and doc["alignment"] == want["alignment"], doc["alignment"]
    for side in ("a", "b"):
        texts = [t["text"] for t in doc["tokens_" + side]]
        ids = [t["id"] for t in doc["tokens_" + side]]
        assert ids == want["ids_" + side], (side, ids, want["ids_" + side])
        if "--lesson" in want["args"]:
            assert texts == want["texts_" + side], (side, texts)
    # The reference counts tokens from 0; the command line from 1 (docs/cli.md).
    from_one = lambda ts: [t + 1 for t in ts]
    assert [[u["tokens_a"], u["tokens_b"]] for u in doc["units"]] == \
        [[from_one(u["tokens_a"]), from_one(u["tokens_b"])] for u in want["units"]], doc["units"]
    assert doc["only_in_a"] == want["only_in_a"] and doc["only_in_b"] == want["only_in_b"], (doc["only_in_a"], doc["only_in_b"])
    assert [[h["layer"], h["head"]] for h in doc["heads"]] == [[h["layer"], h["head"]] for h in want["heads"]]
    for got, exp in zip(doc["heads"], want["heads"]):
        for key in ("a", "b", "difference"):
            assert len(got[key]) == len(exp[key]) == len(want["units"])
            for r, (gr, er) in enumerate(zip(got[key], exp[key])):
                for c, (g, e) in enumerate(zip(gr, er)):
                    close(g, e, f"head {exp['head']} {key}[{r}][{c}]")
else:
    rows = list(csv.DictReader(open(path)))
    n = len(want["units"])
    assert len(rows) == n * n * len(want["heads"]), len(rows)
    for i, row in enumerate(rows):
        exp = want["heads"][i // (n * n)]
        q, k = int(row["query"]) - 1, int(row["key"]) - 1  # counted from 1 (docs/cli.md)
        assert (int(row["layer"]), int(row["head"]), q * n + k) == (exp["layer"], exp["head"], i % (n * n)), row
        for key in ("a", "b", "difference"):
            close(float(row[key]), exp[key][q][k], f"row {i} {key}")
print(f"{name} {fmt}: largest difference {largest:.3g}")
PY
