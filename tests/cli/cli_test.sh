#!/usr/bin/env bash
# Command-line tests: run the attnscope binary on real lesson files and compare printed numbers.
# Usage: cli_test.sh ATTNSCOPE_BINARY SOURCE_DIR CASE
set -uo pipefail
bin="$1"; src="$2"; case_name="$3"
lessons="$src/resources/lessons"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL [$case_name]: $*" >&2; exit 1; }
# expect_line OUTPUT LINE: the exact line must appear in the output
expect_line() { grep -qxF -- "$2" <<<"$1" || { echo "$1" | head -40 >&2; fail "missing line: $2"; }; }

case "$case_name" in
  scores_text)
    # cats=[1,0,1,0,0], chase=[0,0,1,0,1], mice=[1,1,0,1,0]: S = [[2,1,1],[1,2,0],[1,0,3]]
    out="$("$bin" --lesson "$lessons/first-hand-exercise.json" --sentence "cats chase mice" --print --step scores --decimals 1)" || fail "exit $?"
    expect_line "$out" "cats    2.0    1.0   1.0"
    expect_line "$out" "mice    1.0    0.0   3.0"
    ;;
  weights_csv_builtin_name)
    # row mice [1,0,3]: exps e^-2, e^-3, 1 over 1.18512235 → 0.1142, 0.0420, 0.8438
    out="$("$bin" --lesson first-hand-exercise --print --step weights --format csv --decimals 4)" || fail "exit $?"
    expect_line "$out" "weights,1,1,2,mice,0,cats,0.1142"
    expect_line "$out" "weights,1,1,2,mice,1,chase,0.0420"
    expect_line "$out" "weights,1,1,2,mice,2,mice,0.8438"
    ;;
  hand_rounding)
    # exact A[cats,cats] = 0.57611688, rounded 0.58; out[cats,0] = 0.58·1 + 0.21·0 + 0.21·1 = 0.79
    out="$("$bin" --lesson first-hand-exercise --print --step weighted_sum --format csv --hand-rounding 2 --decimals 4)" || fail "exit $?"
    expect_line "$out" "weighted_sum,1,1,0,cats,0,animal,0.7900"
    exact="$("$bin" --lesson first-hand-exercise --print --step weighted_sum --format csv --decimals 4)" || fail "exit $?"
    expect_line "$exact" "weighted_sum,1,1,0,cats,0,animal,0.7881"
    ;;
  inline_lesson)
    # Q = K = V = X = [[1,0],[0,1]], no scaling: S = I, A row 0 = [e/(e+1), 1/(e+1)] = [0.7311, 0.2689]
    json='{"format":"attnscope-lesson","version":1,"d_model":2,"projections":false,"scale":false,"embeddings":{"x":[1,0],"y":[0,1]}}'
    out="$("$bin" --lesson "$json" --sentence "x y" --print --step weights --decimals 4)" || fail "exit $?"
    expect_line "$out" "x  0.7311  0.2689"
    expect_line "$out" "y  0.2689  0.7311"
    ;;
  json_schema)
    out="$("$bin" --lesson first-hand-exercise --print --format json)" || fail "exit $?"
    python3 - "$out" <<'PY' || fail "json schema"
import json, sys
doc = json.loads(sys.argv[1])
assert doc["format"] == "attnscope-trace" and doc["version"] == 1
assert doc["tokens"] == ["cats", "chase", "mice"], doc["tokens"]
head = doc["layers"][0]["heads"][0]
for key in ("q", "k", "v", "scores", "scaled_scores", "weights", "output"):
    assert len(head[key]) == 3, key
assert head["scores"][2] == [1.0, 0.0, 3.0], head["scores"][2]
assert abs(head["weights"][2][2] - 0.84379473) < 1e-8
assert len(doc["layers"][0]["concat"]) == 3 and len(doc["layers"][0]["output"]) == 3
PY
    ;;
  two_heads_head_option)
    out="$("$bin" --lesson two-heads --print --step weights --head 2 --format csv)" || fail "exit $?"
    grep -q "^weights,1,2," <<<"$out" || fail "head 2 missing"
    ! grep -q "^weights,1,1," <<<"$out" || fail "head 1 printed though --head 2 was asked"
    ;;
  causal_mask_infinity)
    out="$("$bin" --lesson causal-mask --print --step masked_scores --format csv --head 1)" || fail "exit $?"
    grep -q ",0,.*,1,.*,−∞$" <<<"$out" || fail "row 0 should hide token 1 with −∞"
    ;;
  errors)
    "$bin" --lesson no-such-lesson --print >"$tmp/out" 2>"$tmp/err" && fail "missing lesson accepted"
    grep -q "neither a lesson file nor a built-in lesson" "$tmp/err" || fail "unclear error: $(cat "$tmp/err")"
    printf '{"format":"attnscope-lesson","version":1,"d_model":2,"embeddings":{"a":[1]}}' >"$tmp/bad.json"
    "$bin" --lesson "$tmp/bad.json" --print 2>"$tmp/err" >/dev/null && fail "bad lesson accepted"
    grep -q "bad.json: embeddings.a: expected 2 numbers, found 1" "$tmp/err" || fail "unclear error: $(cat "$tmp/err")"
    "$bin" --lesson first-hand-exercise --print --step nonsense 2>"$tmp/err" >/dev/null && fail "bad step accepted"
    grep -q 'unknown step "nonsense"' "$tmp/err" || fail "unclear error: $(cat "$tmp/err")"
    "$bin" --lesson first-hand-exercise --print --decimals abc 2>"$tmp/err" >/dev/null && fail "bad decimals accepted"
    grep -q -- '--decimals expects a whole number' "$tmp/err" || fail "unclear error: $(cat "$tmp/err")"
    ;;
  export_png)
    "$bin" --lesson two-heads --export-png "$tmp/heat.png" || fail "exit $?"
    head -c 8 "$tmp/heat.png" | od -An -c | grep -q "P   N   G" || fail "not a PNG"
    [ "$(stat -c %s "$tmp/heat.png")" -gt 2000 ] || fail "PNG too small"
    ;;
  list_lessons)
    out="$("$bin" --list-lessons)" || fail "exit $?"
    for name in first-hand-exercise two-heads coreference causal-mask two-layers; do
      grep -q "^$name	" <<<"$out" || fail "$name not listed"
    done
    ;;
  model_bert_mask)
    # tests/reference/fixtures/model-bert-tiny.json run 1: ids [2, 17, 4, 42, 3] = "[CLS] the [MASK] sat [SEP]"
    models="$src/tests/reference/models"
    out="$("$bin" --model "$models/bert-tiny" --sentence "the [MASK] sat" --print --top-k 3 --layer 1 --head 1 --step weights --decimals 4)" || fail "exit $?"
    expect_line "$out" "[MASK] at position 3: cat 0.2982, dog 0.2603, bird 0.2499"
    # the fixture's layer 1, head 1, row [MASK]: 0.02998 0.25536 0.63311 0.08149 0.00005
    expect_line "$out" "[MASK]  0.0300  0.2554  0.6331  0.0815  0.0001"
    "$bin" --model "$models/bert-tiny" --sentence "the [MASK] sat" --print --format json --top-k 5 >"$tmp/trace.json" || fail "exit $?"
    python3 - "$tmp/trace.json" "$src/tests/reference/fixtures/model-bert-tiny.json" <<'PY' || fail "json differs from the fixture"
import json, sys
doc, fixture = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))["runs"][0]
assert [t["id"] for t in doc["token_info"]] == fixture["ids"], doc["token_info"]
assert doc["format"] == "attnscope-trace" and len(doc["layers"]) == 2
for l, layer in enumerate(doc["layers"]):
    for h, head in enumerate(layer["heads"]):
        for r, row in enumerate(head["weights"]):
            for c, w in enumerate(row):
                assert abs(w - fixture["attentions"][l][h][r][c]) < 1e-5, (l, h, r, c)
(pred,) = doc["predictions"]
assert pred["position"] == 2 and pred["kind"] == "masked_token"
expected = fixture["predictions"][0]["top"]
assert [t["id"] for t in pred["top"]] == [i for i, _ in expected]
for got, (_, p) in zip(pred["top"], expected):
    assert abs(got["probability"] - p) < 1e-5, (got, p)
assert pred["top"][0]["token"] == "cat"
PY
    ;;
  model_gpt2_next)
    # fixture run 1: ids [10, 20, 30] = "the cat sat"; top-1 next token id 70 = "Ġon", p = 0.36847126
    out="$("$bin" --model "$src/tests/reference/models/gpt2-tiny" --sentence "the cat sat" --print --top-k 1 --step weights --head 2)" || fail "exit $?"
    expect_line "$out" "next token after position 3 (␣sat): ␣on 0.368"
    grep -q "^model: .*gpt2-tiny (GPT-2, 2 layers × 4 heads), layer 2$" <<<"$out" || fail "header: $out"
    csv="$("$bin" --model "$src/tests/reference/models/gpt2-tiny" --sentence "the cat sat" --print --format csv --top-k 1 --layer 2 --step weights --head 1 --decimals 4)" || fail "exit $?"
    grep -q "^prediction,,,2,␣sat,0,␣on,0.3685$" <<<"$csv" || fail "csv prediction: $csv"
    grep -q "^weights,2,1,0,the,1,␣cat,0.0000$" <<<"$csv" || fail "causal mask row 0 of layer 2: $csv"
    ;;
  model_truncation)
    # 40 word pieces, 32 positions: [CLS] + 30 pieces + [SEP]; the notice goes to stderr.
    long="$(printf 'the cat %.0s' $(seq 20))"
    out="$("$bin" --model "$src/tests/reference/models/bert-tiny" --sentence "$long" --print --format json 2>"$tmp/err")" || fail "exit $?"
    grep -q "notice: The sentence has 40 tokens; the model reads at most 30" "$tmp/err" || fail "no notice: $(cat "$tmp/err")"
    python3 -c 'import json,sys; d=json.load(sys.stdin); assert len(d["tokens"]) == 32 and d["tokens"][-1] == "[SEP]", d["tokens"]' <<<"$out" || fail "not cut to 32"
    ;;
  model_export_png)
    "$bin" --model "$src/tests/reference/models/bert-tiny" --sentence "the [MASK] sat" --layer 2 --export-png "$tmp/heat.png" || fail "exit $?"
    head -c 8 "$tmp/heat.png" | od -An -c | grep -q "P   N   G" || fail "not a PNG"
    ;;
  model_errors)
    models="$src/tests/reference/models"
    "$bin" --model "$tmp/no-such-model" --sentence x --print 2>"$tmp/err" >/dev/null && fail "missing folder accepted"
    grep -q "no-such-model" "$tmp/err" || fail "unclear error: $(cat "$tmp/err")"
    mkdir -p "$tmp/pickle" && printf 'not really a pickle' >"$tmp/pickle/pytorch_model.bin"
    cp "$models/bert-tiny/config.json" "$tmp/pickle/"
    "$bin" --model "$tmp/pickle" --sentence x --print 2>"$tmp/err" >/dev/null && fail "pickle folder accepted"
    grep -q "pytorch_model.bin" "$tmp/err" && grep -qi "pickle" "$tmp/err" || fail "no pickle refusal: $(cat "$tmp/err")"
    mkdir -p "$tmp/pickle-only" && printf 'x' >"$tmp/pickle-only/pytorch_model.bin"
    "$bin" --model "$tmp/pickle-only" --sentence x --print 2>"$tmp/err" >/dev/null && fail "pickle-only folder accepted"
    grep -qi "pickle" "$tmp/err" || fail "no pickle refusal without config.json: $(cat "$tmp/err")"
    cp -r "$models/bert-tiny" "$tmp/badconfig"
    sed -i 's/"hidden_size": 32/"hidden_size": "wide"/' "$tmp/badconfig/config.json"
    "$bin" --model "$tmp/badconfig" --sentence x --print 2>"$tmp/err" >/dev/null && fail "malformed config accepted"
    grep -q "hidden_size" "$tmp/err" || fail "config error does not name the field: $(cat "$tmp/err")"
    "$bin" --model "$models/bert-tiny" --sentence "$(printf 'bad \xff byte')" --print 2>"$tmp/err" >/dev/null && fail "invalid UTF-8 accepted"
    grep -q "UTF-8" "$tmp/err" || fail "unclear UTF-8 error: $(cat "$tmp/err")"
    "$bin" --model "$models/bert-tiny" --sentence x --print --layer 3 2>"$tmp/err" >/dev/null && fail "layer 3 of 2 accepted"
    grep -q -- "--layer expects a whole number from 1 to 2" "$tmp/err" || fail "unclear layer error: $(cat "$tmp/err")"
    ;;
  lesson_layer_option)
    # resources/lessons/two-layers.json, layer 2, row "it" (token 7): e^3.9032/(e^3.9032 + 10) = 0.8321
    # on the noun that fits the state word, 1/(e^3.9032 + 10) = 0.0168 on the other one.
    out="$("$bin" --lesson two-layers --print --layer 2 --step weights --format csv --decimals 4)" || fail "exit $?"
    expect_line "$out" "weights,2,1,7,it,1,animal,0.8321"
    expect_line "$out" "weights,2,1,7,it,5,street,0.0168"
    ! grep -q "^weights,1," <<<"$out" || fail "layer 1 printed though --layer 2 was asked"
    wide="$("$bin" --lesson two-layers --sentence "The animal didn't cross the street because it was too wide" --print --layer 2 --step weights --format csv --decimals 4)" || fail "exit $?"
    expect_line "$wide" "weights,2,1,7,it,1,animal,0.0168"
    expect_line "$wide" "weights,2,1,7,it,5,street,0.8321"
    # Without --layer every layer is printed; layer 2 starts at its input X = X + output of layer 1.
    all="$("$bin" --lesson two-layers --print --step weights --decimals 4)" || fail "exit $?"
    expect_line "$all" "== Layer 1: Attention weights A = softmax(rows) =="
    expect_line "$all" "== Layer 2: Attention weights A = softmax(rows) =="
    x2="$("$bin" --lesson two-layers --print --layer 2 --step x --format csv --decimals 4)" || fail "exit $?"
    expect_line "$x2" "x,2,,7,it,5,tired,0.9758"
    "$bin" --lesson two-layers --print --format json --layer 2 >"$tmp/trace.json" || fail "exit $?"
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["layer_index"] == 1 and len(d["layers"]) == 1, d.keys()' "$tmp/trace.json" || fail "json --layer"
    "$bin" --lesson two-layers --print --layer 3 2>"$tmp/err" >/dev/null && fail "layer 3 of 2 accepted"
    grep -q -- "--layer expects a whole number from 1 to 2" "$tmp/err" || fail "unclear layer error: $(cat "$tmp/err")"
    "$bin" --lesson first-hand-exercise --print --layer 2 2>"$tmp/err" >/dev/null && fail "layer 2 of 1 accepted"
    "$bin" --lesson two-layers --layer 2 --export-png "$tmp/heat.png" || fail "exit $?"
    head -c 8 "$tmp/heat.png" | od -An -c | grep -q "P   N   G" || fail "not a PNG"
    ;;
  *) fail "unknown case" ;;
esac
echo "ok [$case_name]"
