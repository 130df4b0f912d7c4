#!/usr/bin/env bash
# --stage on the encoder–decoder lesson translation through the real binary (--print, --ablate,
# compare, movement), its numbers against the numpy reference (tests/reference/fixtures/
# encoder_decoder.json, reference_encoder_decoder.py, which shares no code with core/): case 0 is the
# lesson on its own source 我 是 谁, case 2 the same target on the source 谁 是 谁.
# Usage: encoder_decoder_stage_test.sh ATTNSCOPE_BINARY SOURCE_DIR MODE
#   print_cross, print_decoder_self, ablate_cross, ablate_decoder_self, compare_cross_json|csv|text,
#   movement_cross_json, movement_decoder_self_csv
set -uo pipefail
bin="$1"; src="$2"; mode="$3"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL [$mode]: $*" >&2; exit 1; }
fixture="$src/tests/reference/fixtures/encoder_decoder.json"
lesson="$src/resources/lessons/translation.json"
run() {  # run ARGS…: exit 0; stdout in $tmp/out
    "$bin" "$@" > "$tmp/out" 2> "$tmp/err"
    local status=$?
    [ "$status" = 0 ] || { cat "$tmp/err" >&2; fail "exit $status: $*"; }
}
has() { grep -qF -- "$1" "$tmp/out" || { cat "$tmp/out" >&2; fail "missing: $1"; }; }
lacks() { grep -qF -- "$1" "$tmp/out" && { cat "$tmp/out" >&2; fail "printed, yet another stage's: $1"; }; return 0; }
encoder="== Encoder: self-attention over the source"
decoder="== Decoder, masked self-attention over the decoder input <s> who am i"
cross="== Decoder, cross-attention: queries from the decoder's Y₁"
print() { run --lesson translation --print --exact --decimals 6 "$@"; }
case "$mode" in
    print_cross) print --stage cross; has "$cross"; has "mean loss (cross-entropy over the 4 labels) = 0.453582"
        lacks "$encoder"; lacks "$decoder" ;;
    print_decoder_self) print --stage decoder_self --step residual; has "$decoder"; lacks "$encoder"; lacks "$cross"
        lacks "mean loss" ;;
    ablate_cross) print --stage cross --ablate 1:1; has "$cross" ;;
    ablate_decoder_self) print --stage decoder_self --ablate 1:1 --step residual; has "$decoder" ;;
    compare_cross_json|compare_cross_csv|compare_cross_text)
        run compare --lesson translation --stage cross --sentence-b "谁 是 谁" --format "${mode##*_}" ;;
    movement_cross_json) run movement --lesson translation --stage cross --layer 1 --format json ;;
    movement_decoder_self_csv) run movement --lesson translation --stage decoder_self --layer 1 --format csv ;;
    *) fail "no such mode" ;;
esac

python3 - "$fixture" "$lesson" "$tmp/out" "$mode" <<'PY' || fail "differs from the reference"
import csv, io, json, math, re, sys
fixture, lesson_path, out, mode = sys.argv[1:]
cases = json.load(open(fixture))["cases"]
want, want_b = cases[0], cases[2]
assert want["lesson"] == want_b["lesson"] == "resources/lessons/translation.json" and want_b["source"] == "谁 是 谁"
lesson = json.load(open(lesson_path))
text = open(out, encoding="utf-8").read()
largest, mismatches = 0.0, []
def close(got, exp, what, tol):
    global largest
    largest = max(largest, abs(got - exp))
    if not abs(got - exp) <= tol:
        mismatches.append(f"{what}: {got} vs reference {exp}")
def matrix(title):
    """The rows of the text table under the heading `title` (token, then its numbers)."""
    block = text.split(f"== {title}", 1)[1].split("\n\n", 1)[0].splitlines()[2:]
    return [[float(x) for x in line.split()[1:]] for line in block]  # whole numbers print without decimals
def labels_table():
    rows = [c for c in (re.split(r"\s+", l.strip()) for l in text.splitlines()) if len(c) == 5 and c[0].isdigit()]
    assert [r[2] for r in rows] == want["labels"], rows
    return [float(r[3]) for r in rows]
def norm(v): return math.sqrt(sum(x * x for x in v))
def sub(a, b): return [x - y for x, y in zip(a, b)]
def cosine(a, b): return sum(x * y for x, y in zip(a, b)) / (norm(a) * norm(b))
def matmul(a, b): return [[sum(x * y for x, y in zip(row, col)) for col in zip(*b)] for row in a]
def softmax(row):
    e = [math.exp(x - max(row)) for x in row]
    return [x / sum(e) for x in e]
printed = 5e-7  # printed with 6 decimals
if mode == "print_cross":
    for i, (got, exp) in enumerate(zip(labels_table(), want["label_probability"])):
        close(got, exp, f"p(label {i+1})", printed)
elif mode == "print_decoder_self":  # Y₁ = Y₀ + attention, unchanged
    for i, row in enumerate(matrix("Residual connection")):
        for c, (g, e) in enumerate(zip(row, want["y1"][i])):
            close(g, e, f"Y1[{i+1}][{c+1}]", printed)
elif mode == "ablate_cross":
    # The lesson's one cross head off: its output, and so concat·W_O (no b_O), is zero; Y₂ = Y₁, so
    # logits = Y₁·W_vocab and p(label_i) = softmax(Y₁[i]·W_vocab)[label_i], worked out here.
    assert "b_O" not in lesson["encoder_decoder"]["cross"] and lesson["heads"] == 1
    for i, row in enumerate(matrix("Output = concat·W_O")):
        for c, g in enumerate(row):
            close(g, 0.0, f"cross output[{i+1}][{c+1}]", 0.0)
    for i, row in enumerate(matrix("Residual connection Y₂")):
        for c, (g, e) in enumerate(zip(row, want["y1"][i])):
            close(g, e, f"Y2 = Y1 [{i+1}][{c+1}]", printed)
    head = lesson["encoder_decoder"]["output_head"]
    logits = matmul(want["y1"], head["W_vocab"])
    p = [softmax(row)[head["vocabulary"].index(label)] for row, label in zip(logits, want["labels"])]
    got = labels_table()
    for i, (g, e) in enumerate(zip(got, p)):
        close(g, e, f"p(label {i+1}) with the cross head off", printed)
    # ... and they are not the numbers of the run with the head on.
    assert max(abs(g - e) for g, e in zip(got, want["label_probability"])) > 0.05, got
elif mode == "ablate_decoder_self":
    # Its one head off (no W_O, no b_O: the output is the head's): Y₁ = Y₀, the decoder input's embeddings.
    assert lesson["heads"] == 1 and "b_O" not in lesson["encoder_decoder"]["decoder_self"]
    rows = matrix("Residual connection")
    assert len(rows) == 4, rows
    for i, row in enumerate(rows):
        for c, (g, e) in enumerate(zip(row, want["decoder_x"][i])):
            close(g, e, f"Y1 = Y0 [{i+1}][{c+1}]", printed)
    assert any(abs(a - b) > 0.1 for r, s in zip(rows, want["y1"]) for a, b in zip(r, s))
elif mode.startswith("compare_cross"):
    # The decoder rows (the same in A and B) looking at each source's words, aligned by position.
    a, b = want["cross_heads"][0]["weights"], want_b["cross_heads"][0]["weights"]  # T_dec×T_src each
    expected = {"a": a, "b": b, "difference": [sub(r, s) for r, s in zip(a, b)]}
    if mode.endswith("json"):
        doc = json.load(io.StringIO(text))
        assert [t["text"] for t in doc["tokens_a"]] == want["decoder_input"], doc["tokens_a"]
        (h,) = doc["heads"]
        assert (h["layer"], h["head"]) == (1, 1)
        got, tol = {key: h[key] for key in expected}, 1e-9
    elif mode.endswith("csv"):
        table = list(csv.DictReader(io.StringIO(text)))
        assert len(table) == 4 * 3, len(table)
        got, tol = {key: [[None] * 3 for _ in range(4)] for key in expected}, 1e-9
        for r in table:
            for key in expected:
                got[key][int(r["query"]) - 1][int(r["key"]) - 1] = float(r[key])
    else:  # three 4×3 tables, 3 decimals: "A, layer 1, head 1", "B, …", "A − B, …"
        got, tol = {}, 5e-4 + 1e-12
        for key, which in (("a", "A"), ("b", "B"), ("difference", "A − B")):
            block = text.split(f"\n{which}, layer 1, head 1\n", 1)[1].splitlines()[1:5]
            got[key] = [[float(x) for x in line.split()[-3:]] for line in block]
            assert [line.split()[0] for line in block] == want["decoder_input"], block
    for key, exp in expected.items():
        assert len(got[key]) == 4 and all(len(r) == 3 for r in got[key]), (key, got[key])
        for i, row in enumerate(exp):
            for j, e in enumerate(row):
                close(got[key][i][j], e, f"{key}[{i+1}][{j+1}]", tol)
else:
    # Each decoder row from the stage's input x to x + output: ‖y − x‖ = ‖output‖, cos(x, y), and
    # each source's share c_ij = α_ij·v_j·W_O (one head) of the new content.
    cross = mode == "movement_cross_json"
    x, y = (want["y1"], want["y2"]) if cross else (want["decoder_x"], want["y1"])
    weights = want["cross_heads" if cross else "decoder_self_heads"][0]
    w_o = lesson["encoder_decoder"]["cross"]["W_O"] if cross else None
    f = matmul(weights["v"], w_o) if w_o else weights["v"]
    def sources(i): return [weights["weights"][i][j] * norm(f[j]) for j in range(len(f))]
    if cross:
        doc = json.load(io.StringIO(text))
        assert [t["text"] for t in doc["tokens"]] == want["decoder_input"], doc["tokens"]
        assert doc["layer"] == 1 and all(t["sources"] for t in doc["tokens"]), doc["layer"]
        rows = [(t["token"] - 1, t["distance"], t["cosine"], {s["token"] - 1: s["norm"] for s in t["sources"]}) for t in doc["tokens"]]
    else:
        table = list(csv.DictReader(io.StringIO(text)))
        assert len(table) == 4 * 4, len(table)  # every decoder row × every decoder source
        rows = []
        for r in table:
            i, j = int(r["token"]) - 1, int(r["source"]) - 1
            rows.append((i, float(r["distance"]), float(r["cosine"]), {j: float(r["source_norm"])}))
    for i, distance, cos, norms in rows:
        close(distance, norm(sub(y[i], x[i])), f"token {i+1} distance", 1e-9)
        close(cos, cosine(x[i], y[i]), f"token {i+1} cosine", 1e-9)
        for j, n in norms.items():
            close(n, sources(i)[j], f"token {i+1} source {j+1}", 1e-9)
print("largest difference from the reference:", largest)
if mismatches:
    print("first mismatches:", *mismatches[:5], sep="\n  ")
    sys.exit(1)
PY
