#!/usr/bin/env bash
# attnscope compare through the real binary: JSON and CSV output parsed and compared with the
# torch reference (tests/reference/fixtures/compare.json, reference_compare.py): tokens, the
# alignment and A, B, A − B of every head, on the tiny BERT and GPT-2 fixtures and a lesson.
# Cases named norms_*: compare --norms on the example GPT against the norm-weighted attention
# ‖α_ij·f(x_j)‖ of fixtures/beyond_weights.json (reference_beyond_weights.py), each row divided by
# its sum (the shares the Compare tab shows under weight × ‖value‖), and on the lesson two-heads
# against the same worked out below from the lesson file; text checks the note and the rounded tables.
# Usage: compare_test.sh ATTNSCOPE_BINARY SOURCE_DIR CASE FORMAT
set -uo pipefail
bin="$1"; src="$2"; case_name="$3"; format="$4"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL [$case_name $format]: $*" >&2; exit 1; }
cd "$src/tests/reference" || fail "no tests/reference"

# The case as compare.json writes one: args, ids, units (tokens from 0), heads [{layer, head, a, b,
# difference}] (layers and heads from 1). Norm cases are built from beyond_weights.json.
export CASE_LOADER='
import json
NORM_CASES = {  # the sentences whose ids reference_beyond_weights.py lists (EXAMPLE_CASES, SECOND_SENTENCES)
    "norms_example_gpt_layer": (["--layer", "2"], 2, [1, 2, 3, 4]),
    "norms_example_gpt_head": (["--head", "3"], 4, [3]),
}
def shares(m):
    return [[x / sum(row) if sum(row) > 0 else x for x in row] for row in m]
def matmul(a, b):
    return [[sum(x * y for x, y in zip(row, col)) for col in zip(*b)] for row in a]
def lesson_norms(lesson, words):
    """Per head, the shares of alpha_ij * |v_j W_O^h| of the lesson two-heads (one layer, no positions,
    no mask, scores / sqrt(d_k)), worked out here in plain Python from the lesson file."""
    import math
    x = [lesson["embeddings"][w] for w in words]
    dv, out = lesson["d_v"], []
    for h, w in enumerate(lesson["heads_weights"]):
        q, k, v = matmul(x, w["W_Q"]), matmul(x, w["W_K"]), matmul(x, w["W_V"])
        scores = [[s / math.sqrt(lesson["d_k"]) for s in row] for row in matmul(q, list(map(list, zip(*k))))]
        alpha = [[math.exp(s - max(row)) / sum(math.exp(t - max(row)) for t in row) for s in row] for row in scores]
        f = matmul(v, lesson["W_O"][h * dv:(h + 1) * dv])
        norm = [math.sqrt(sum(c * c for c in row)) for row in f]
        out.append(shares([[a * norm[j] for j, a in enumerate(row)] for row in alpha]))
    return out
def lesson_case():
    lesson = json.load(open("../../resources/lessons/two-heads.json"))
    a, b = ["cats", "chase", "mice"], ["mice", "chase", "cats"]
    na, nb = lesson_norms(lesson, a), lesson_norms(lesson, b)
    return {"args": ["--lesson", "two-heads", "--sentence", " ".join(a), "--sentence-b", " ".join(b), "--norms"],
            "ids_a": [-1] * 3, "ids_b": [-1] * 3, "texts_a": a, "texts_b": b, "alignment": "position",
            "only_in_a": [], "only_in_b": [], "units": [{"tokens_a": [t], "tokens_b": [t]} for t in range(3)],
            "heads": [{"layer": 1, "head": h + 1, "a": na[h], "b": nb[h],
                       "difference": [[x - y for x, y in zip(ra, rb)] for ra, rb in zip(na[h], nb[h])]}
                      for h in range(len(na))]}
def load_case(name):
    if name == "norms_lesson_two_heads":
        return lesson_case()
    if name not in NORM_CASES:
        return next(c for c in json.load(open("fixtures/compare.json"))["cases"] if c["name"] == name)
    extra, layer, heads = NORM_CASES[name]
    ref = json.load(open("fixtures/beyond_weights.json"))
    a = next(c for c in ref["cases"] if c["model"] == "example-gpt")
    b = next(c for c in ref["second_sentences"] if c["model"] == "example-gpt")
    n = len(a["ids"])
    assert n == len(b["ids"])  # aligned by position
    out = {"args": ["--model", "example-gpt", "--sentence", "The LORD is my shepherd",
                    "--sentence-b", "The LORD is my light", "--norms"] + extra,
           "ids_a": a["ids"], "ids_b": b["ids"], "alignment": "position", "only_in_a": [], "only_in_b": [],
           "units": [{"tokens_a": [t], "tokens_b": [t]} for t in range(n)], "heads": []}
    for h in heads:
        sa, sb = shares(a["norm_weighted"][layer - 1][h - 1]), shares(b["norm_weighted"][layer - 1][h - 1])
        out["heads"].append({"layer": layer, "head": h, "a": sa, "b": sb,
                             "difference": [[x - y for x, y in zip(ra, rb)] for ra, rb in zip(sa, sb)]})
    return out
'
mapfile -d '' args < <(python3 - "$case_name" <<'PY'
import os, sys
exec(os.environ["CASE_LOADER"])
sys.stdout.write("".join(a + "\0" for a in load_case(sys.argv[1])["args"]))
PY
)
[ "${#args[@]}" -gt 0 ] || fail "no such case in fixtures/compare.json or beyond_weights.json"
"$bin" compare "${args[@]}" --format "$format" --output "$tmp/out" > "$tmp/stdout" 2> "$tmp/err"
status=$?
[ "$status" = 0 ] || { cat "$tmp/err" >&2; fail "exit $status"; }
[ -s "$tmp/stdout" ] && fail "--output given, yet something went to standard output"

python3 - "$case_name" "$format" "$tmp/out" <<'PY' || fail "differs from the reference"
import csv, json, os, re, sys
exec(os.environ["CASE_LOADER"])
name, fmt, path = sys.argv[1:]
want = load_case(name)
shading = "norms" if "--norms" in want["args"] else "weights"
tol = 1e-9 if "--lesson" in want["args"] else 1e-5  # lessons run in double, models in float32
largest = 0
def close(got, exp, what):
    global largest
    largest = max(largest, abs(got - exp))
    assert abs(got - exp) < tol, f"{what}: {got} vs reference {exp}"
if fmt == "json":
    doc = json.load(open(path))
    assert doc["format"] == "attnscope-compare" and doc["alignment"] == want["alignment"], doc["alignment"]
    assert doc["shading"] == shading, doc["shading"]
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
elif fmt == "text":
    # The note, then each block "A, layer L, head H" and a row per unit: its label, then 3 decimals.
    text = open(path).read()
    assert ("Shaded by weight × ‖value‖ (Kobayashi et al. 2020)" in text) == (shading == "norms"), text[:400]
    n = len(want["units"])
    tol = 0.0005 + 1e-5  # rounded to 3 decimals
    for exp in want["heads"]:
        for which, key in (("A", "a"), ("B", "b"), ("A − B", "difference")):
            title = f"\n{which}, layer {exp['layer']}, head {exp['head']}\n"
            assert title in text, title
            lines = text.split(title, 1)[1].splitlines()[1:1 + n]  # after the column labels
            for r, line in enumerate(lines):
                numbers = [float(x) for x in re.findall(r"-?\d+\.\d+", line)][-n:]
                assert len(numbers) == n, line
                for c, g in enumerate(numbers):
                    close(g, exp[key][r][c], f"head {exp['head']} {key}[{r}][{c}] (text)")
else:
    rows = list(csv.DictReader(open(path)))
    assert all(row["shading"] == shading for row in rows), {row["shading"] for row in rows}
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
