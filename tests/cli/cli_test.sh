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
# expect_row OUTPUT LINE: the line must appear with its runs of spaces squeezed to one
expect_row() { tr -s ' ' <<<"$1" | grep -qxF -- "$2" || { echo "$1" | head -60 >&2; fail "missing row: $2"; }; }

case "$case_name" in
  scores_text)
    # cats=[1,0,1,0,0], chase=[0,0,1,0,1], mice=[1,1,0,1,0]: S = [[2,1,1],[1,2,0],[1,0,3]]
    out="$("$bin" --lesson "$lessons/first-hand-exercise.json" --sentence "cats chase mice" --print --step scores --decimals 1)" || fail "exit $?"
    # whole numbers print as the lesson writes them, whatever --decimals says (issue 13)
    expect_line "$out" "cats      2      1     1"
    expect_line "$out" "mice      1      0     3"
    ;;
  weights_csv_builtin_name)
    # row mice [1,0,3]: exps e^-2, e^-3, 1 over 1.18512235 → 0.1142, 0.0420, 0.8438
    out="$("$bin" --lesson first-hand-exercise --print --step weights --format csv --decimals 4)" || fail "exit $?"
    expect_line "$out" "weights,1,1,3,mice,1,cats,0.1142"
    expect_line "$out" "weights,1,1,3,mice,2,chase,0.0420"
    expect_line "$out" "weights,1,1,3,mice,3,mice,0.8438"
    ;;
  hand_rounding)
    # exact A[cats,cats] = 0.57611688, rounded 0.58; out[cats,0] = 0.58·1 + 0.21·0 + 0.21·1 = 0.79
    out="$("$bin" --lesson first-hand-exercise --print --step weighted_sum --format csv --hand-rounding 2 --decimals 4)" || fail "exit $?"
    expect_line "$out" "weighted_sum,1,1,1,cats,1,animal,0.7900"
    exact="$("$bin" --lesson first-hand-exercise --print --step weighted_sum --format csv --decimals 4)" || fail "exit $?"
    expect_line "$exact" "weighted_sum,1,1,1,cats,1,animal,0.7881"
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
assert doc["format"] == "attnscope-trace" and doc["version"] == 2
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
    grep -q "^masked_scores,1,1,1,[^,]*,2,.*,−∞$" <<<"$out" || fail "row 1 should hide token 2 with −∞"
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
assert pred["position"] == 3 and pred["kind"] == "masked_token"
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
    grep -q "^prediction,,,3,␣sat,1,␣on,0.3685$" <<<"$csv" || fail "csv prediction: $csv"
    grep -q "^weights,2,1,1,the,2,␣cat,0.0000$" <<<"$csv" || fail "causal mask row 0 of layer 2: $csv"
    ;;
  words_chinese)
    # qwen2-tiny's weights with tests/reference/fixtures/tokenizer-zh-tiny.json (Qwen's pattern):
    # 马路很宽，它很长。 is the pieces 马 路 很 ◌ 宽 ， 它 很 长 。 and ICU's words 马路|很|宽|，|它|很|长|。
    # Every word-level number is summed here from the printed piece weights: to a word the sum
    # over its pieces, from a word the mean (Clark et al. 2019).
    model="$tmp/qwen-zh"; mkdir "$model"
    cp "$src/tests/reference/models/qwen2-tiny/config.json" "$src/tests/reference/models/qwen2-tiny/model.safetensors" "$model/"
    cp "$src/tests/reference/fixtures/tokenizer-zh-tiny.json" "$model/tokenizer.json"
    sentence="马路很宽，它很长。"
    "$bin" --model "$model" --sentence "$sentence" --print --format csv --layer 2 --step weights --decimals 7 >"$tmp/pieces.csv" || fail "exit $?"
    "$bin" --model "$model" --sentence "$sentence" --print --format csv --layer 2 --words --decimals 7 >"$tmp/words.csv" || fail "exit $?"
    "$bin" coref --model "$model" --sentence "$sentence" --heads 2:1 --words --format json >"$tmp/coref.json" || fail "exit $?"
    text="$("$bin" --model "$model" --sentence "$sentence" --print --layer 2 --words --head 1)" || fail "exit $?"
    grep -q "马路" <<<"$text" || fail "text has no word 马路: $text"
    python3 - "$tmp/pieces.csv" "$tmp/words.csv" "$tmp/coref.json" <<'PY' || fail "word-level numbers"
import csv, json, sys
def weights(path):
    cells, labels = {}, {}
    for row in csv.reader(open(path, encoding="utf-8")):
        if row and row[0] == "weights":
            layer, head, r, c = int(row[1]), int(row[2]), int(row[3]) - 1, int(row[5]) - 1  # rows, cols from 1
            cells[(head, r, c)] = float(row[7])
            labels[c] = row[6]
    return cells, [labels[c] for c in sorted(labels)]
p, piece_labels = weights(sys.argv[1])
w, word_labels = weights(sys.argv[2])
# A repeated token is named with its position counted from 1 (core/trace/token_names.hpp).
assert piece_labels == ["马", "路", "很#3", "◌", "宽", "，", "它", "很#8", "长", "。"], piece_labels
assert word_labels == ["马路", "很#2", "宽", "，", "它", "很#6", "长", "。"], word_labels
words = [[0, 1], [2], [3, 4], [5], [6], [7], [8], [9]]  # the pieces of each word
worst = 0
for h in range(1, 5):
    for i, qs in enumerate(words):
        for j, ks in enumerate(words):
            expected = sum(p[(h, q, k)] for q in qs for k in ks) / len(qs)
            worst = max(worst, abs(w[(h, i, j)] - expected))
assert worst < 2e-6, worst
doc = json.load(open(sys.argv[3], encoding="utf-8"))
(m,) = doc["mentions"]
assert m["text"] == "它", m
assert [c["text"] for c in m["candidates"]] == ["马路", "宽"], m["candidates"]
road, wide = p[(1, 6, 0)] + p[(1, 6, 1)], p[(1, 6, 3)] + p[(1, 6, 4)]
assert abs(m["candidates"][0]["score"] - road / (road + wide)) < 1e-5, (m["candidates"], road, wide)
PY
    ;;
  model_example_by_name)
    # The shipped example GPT opened by name (resources/models/example-gpt, found from the source tree).
    out="$("$bin" --model example-gpt --sentence "The LORD is my shepherd" --print --top-k 1)" || fail "exit $?"
    grep -q "^model: example-gpt (GPT-2, 4 layers × 4 heads), layer 4$" <<<"$out" || fail "header: $out"
    expect_line "$out" "next token after position 5 (␣shepherd): , 0.313"
    ;;
  model_truncation)
    # 40 word pieces, 32 positions: [CLS] + 30 pieces + [SEP]; the notice goes to stderr.
    long="$(printf 'the cat %.0s' $(seq 20))"
    out="$("$bin" --model "$src/tests/reference/models/bert-tiny" --sentence "$long" --print --format json 2>"$tmp/err")" || fail "exit $?"
    grep -q "The sentence has 40 tokens; the model reads at most 30 besides its special tokens" "$tmp/err" || fail "no notice: $(cat "$tmp/err")"
    python3 -c 'import json,sys; d=json.load(sys.stdin); assert len(d["tokens"]) == 32 and d["tokens"][-1] == "[SEP]", d["tokens"]' <<<"$out" || fail "not cut to 32"
    ;;
  model_export_png)
    "$bin" --model "$src/tests/reference/models/bert-tiny" --sentence "the [MASK] sat" --layer 2 --export-png "$tmp/heat.png" || fail "exit $?"
    head -c 8 "$tmp/heat.png" | od -An -c | grep -q "P   N   G" || fail "not a PNG"
    ;;
  session_stage)
    # A session saved on a decoder stage acts on that stage, as --stage does: its heads switched
    # off are the cross-attention's (Y₂ = Y₁, "every cross head off"), not the encoder's.
    lesson=(--lesson translation --sentence "我 是 谁" --print)
    "$bin" "${lesson[@]}" --stage cross --ablate 1:1 > "$tmp/flags.txt" || fail "exit $?"
    "$bin" "${lesson[@]}" --ablate 1:1 > "$tmp/encoder.txt" || fail "encoder exit $?"
    printf '{"format":"attnscope-session","version":1,"source":{"kind":"lesson","path":"translation"},"sentence":"我 是 谁","ablated":[[1,1]],"layer":1,"head":1,"step":1,"tab":1,"stage":"cross"}' > "$tmp/s.json"
    "$bin" --session-file "$tmp/s.json" --print > "$tmp/session.txt" || fail "session exit $?"
    cmp -s "$tmp/flags.txt" "$tmp/session.txt" || fail "the session did not act on the cross stage"
    cmp -s "$tmp/encoder.txt" "$tmp/session.txt" && fail "the cross stage printed as the encoder"
    sed 's/"cross"/"decoder"/' "$tmp/s.json" > "$tmp/bad.json"
    "$bin" --session-file "$tmp/bad.json" --print 2>"$tmp/err" >/dev/null && fail "a stage no lesson has was accepted"
    grep -q 'bad.json: stage: expected encoder, decoder_self or cross' "$tmp/err" || fail "unclear error: $(cat "$tmp/err")"
    ;;
  export_png_norms)
    # --norms shades by weight × ‖value‖ (numbers checked against torch in beyond_window_tests);
    # here: the picture changes, and a session saved with View's norms box ticked draws the same.
    lesson=(--lesson two-layers --sentence "The animal didn't cross the street because it was too tired")
    "$bin" "${lesson[@]}" --export-png "$tmp/w.png" || fail "exit $?"
    "$bin" "${lesson[@]}" --export-png "$tmp/n.png" --norms || fail "--norms exit $?"
    cmp -s "$tmp/w.png" "$tmp/n.png" && fail "--norms drew the weights"
    printf '{"format":"attnscope-session","version":1,"source":{"kind":"lesson","path":"two-layers"},"sentence":"The animal didn'"'"'t cross the street because it was too tired","layer":2,"head":1,"step":1,"tab":1,"view":{"norms":true}}' > "$tmp/s.json"
    "$bin" --session-file "$tmp/s.json" --export-png "$tmp/s.png" || fail "session exit $?"
    cmp -s "$tmp/n.png" "$tmp/s.png" || fail "the session's norms were not drawn"
    "$bin" "${lesson[@]}" --norms --print 2>"$tmp/err" >/dev/null && fail "--norms without --export-png accepted"
    grep -q -- "--norms needs --export-png" "$tmp/err" || fail "unclear error: $(cat "$tmp/err")"
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
  coref_lesson)
    # Lesson "coreference", head 1, row "it": over the candidates animal : cross : street =
    # e^(6/√2) : 1 : e^(2/√2) → 0.932, 0.013, 0.055 (docs/coreference.md, tests/core/test_coreference.cpp)
    out="$("$bin" coref --lesson coreference --heads 1:1)" || fail "exit $?"
    expect_line "$out" "scoring: layer 1 head 1"
    expect_line "$out" "  animal  0.932  chosen"
    expect_line "$out" "  street  0.055  nearest, rule"
    expect_line "$out" "it → animal 0.932 (nearest: street, rule: street)"
    # Rollout (the default) scores the mean attention of both heads: animal 0.797.
    out="$("$bin" coref --lesson coreference)" || fail "exit $?"
    expect_line "$out" "it → animal 0.797 (nearest: street, rule: street)"
    # Both heads: mean of the distributions (0.932 + 1/3)/2 = 0.632; head 2 gives 1/3 to animal.
    out="$("$bin" coref --lesson coreference --heads 1:1,1:2)" || fail "exit $?"
    expect_line "$out" "it → animal 0.632 (nearest: street, rule: street)"
    expect_line "$out" "per head, score of animal: 1:1 0.932 1:2 0.333"
    # Head 2 spreads "it"'s attention evenly over the 11 words: the 3 candidates get 3/11 = 27.3%.
    out="$("$bin" coref --lesson coreference --heads 1:2)" || fail "exit $?"
    expect_line "$out" "  scores renormalised over the candidates, which received 27.3% of the mention's attention"
    "$bin" coref --lesson coreference --heads 1:1 --format json >"$tmp/coref.json" || fail "exit $?"
    python3 - "$tmp/coref.json" <<'PY' || fail "coref json"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["format"] == "attnscope-coref" and doc["version"] == 2
(m,) = doc["mentions"]
words = [w["text"] for w in doc["words"]]
assert m["text"] == "it" and words[m["chosen"] - 1] == "animal", (m, words)  # counted from 1
assert [c["text"] for c in m["candidates"]] == ["animal", "cross", "street"]
assert abs(m["candidates"][0]["score"] - 0.9315537677) < 1e-9, m["candidates"][0]
assert abs(sum(c["score"] for c in m["candidates"]) - 1) < 1e-12
assert words[m["baselines"]["nearest"] - 1] == "street" and m["heads"] == [{"layer": 1, "head": 1}]
PY
    # A user-chosen mention: "tired" asks head 2 for an animate word → animal.
    out="$("$bin" coref --lesson coreference --heads 1:2 --mention tired)" || fail "exit $?"
    grep -q "^tired → animal " <<<"$out" || fail "tired: $out"
    ;;
  coref_errors)
    "$bin" coref --lesson coreference --heads 2:1 2>"$tmp/err" >/dev/null && fail "layer 2 of 1 accepted"
    grep -qF -- '--heads: expected layers 1 to 1 and heads 1 to 2, got "2:1"' "$tmp/err" || fail "unclear: $(cat "$tmp/err")"
    "$bin" coref --lesson coreference --heads five 2>"$tmp/err" >/dev/null && fail "bad --heads accepted"
    grep -qF -- 'expected LAYER:HEAD pairs' "$tmp/err" || fail "unclear: $(cat "$tmp/err")"
    "$bin" coref --lesson coreference --mention zebra 2>"$tmp/err" >/dev/null && fail "missing mention accepted"
    grep -qF -- '--mention: "zebra" is not a word of the sentence' "$tmp/err" || fail "unclear: $(cat "$tmp/err")"
    "$bin" coref --sentence x 2>"$tmp/err" >/dev/null && fail "no source accepted"
    grep -qF -- 'coref needs --model' "$tmp/err" || fail "unclear: $(cat "$tmp/err")"
    "$bin" coref --lesson coreference --layer 1 --rollout 2>"$tmp/err" >/dev/null && fail "two scorings accepted"
    grep -qF -- 'give one of --heads, --layer and --rollout' "$tmp/err" || fail "unclear: $(cat "$tmp/err")"
    ;;
  heads_model)
    # The six examples of tests/core/test_coreference.cpp on the tiny random BERT: 5 evaluated,
    # nearest right on 2 (book, dogs), rule on 3 (cats, book, dogs); line 5's gold "he" is a stop-word.
    cat >"$tmp/tiny.jsonl" <<'EOF_SET'
{"sentence": "the cat sat on the mat and it ran", "mention": "it", "antecedent": "cat"}
{"sentence": "the dog sat by the tree and it ran", "mention": "it", "antecedent": "dog"}
{"sentence": "the cats sat on the mat and they ran", "mention": "they", "antecedent": "cats"}
{"sentence": "she read the book and it was red", "mention": "it", "antecedent": "book"}
{"sentence": "he sat by the river , then he ran", "mention": "he", "mention_occurrence": 2, "antecedent": "he"}
{"sentence": "the cat sat with two dogs and they ran", "mention": "they", "antecedent": "dogs"}
EOF_SET
    out="$("$bin" heads --model "$src/tests/reference/models/bert-tiny" --coref-set "$tmp/tiny.jsonl")" || fail "exit $?"
    # First candidate: cat ✓ dog ✓ cats ✓ read ✗ cat ✗ = 3/5; a random pick expects
    # (1/3 + 1/3 + 1/3 + 1/2 + 1/4) / 5 = 1.75/5 = 35.0% (tests/core/test_coreference.cpp).
    interval='\[[0-9.]+%, [0-9.]+%\]'
    for line in "random candidate \(expected\) 35.0% $interval \(1.75/5\)" "first candidate 60.0% $interval \(3/5\)" \
                "nearest mention 40.0% $interval \(2/5\)" "rule-based 60.0% $interval \(3/5\)"; do
        grep -qE "^baseline: $line$" <<<"$out" || fail "missing baseline: $line in $out"
    done
    expect_line "$out" "intervals: 95% bootstrap over the 5 evaluated examples (sentences resampled), 1000 resamples, seed 1"
    grep -q "tiny.jsonl, 5 of 6 examples evaluated (1 skipped), 2 layers × 4 heads$" <<<"$out" || fail "header: $out"
    grep -q "tiny.jsonl: line 5: antecedent \"he\" is not a candidate" <<<"$out" || fail "skip reason: $out"
    [ "$(grep -cE "^ +[0-9]+ +[12] +[1-4] +[0-9.]+% +$interval +[0-5]/5( +above rule)?$" <<<"$out")" = 8 ] || fail "expected 8 ranking rows: $out"
    # The same seed gives the same intervals; the control (shuffled weights) is deterministic too.
    again="$("$bin" heads --model "$src/tests/reference/models/bert-tiny" --coref-set "$tmp/tiny.jsonl")" || fail "exit $?"
    [ "$out" = "$again" ] || fail "a second run differs"
    control="$("$bin" heads --model "$src/tests/reference/models/bert-tiny" --coref-set "$tmp/tiny.jsonl" --control --seed 3)" || fail "control exit $?"
    grep -qE "^random-weights control \(weights shuffled, seed 3\): best head [12]:[1-4] [0-9.]+% $interval, would rank [1-9] among the trained heads$" <<<"$control" || fail "control line: $control"
    [ "$control" = "$("$bin" heads --model "$src/tests/reference/models/bert-tiny" --coref-set "$tmp/tiny.jsonl" --control --seed 3)" ] || fail "control differs between runs"
    "$bin" heads --model "$src/tests/reference/models/bert-tiny" --coref-set "$tmp/tiny.jsonl" --format csv --resamples 200 --output "$tmp/heads.csv" || fail "csv exit $?"
    # --output is the spelling every subcommand documents; --output (above) stays an alias.
    "$bin" heads --model "$src/tests/reference/models/bert-tiny" --coref-set "$tmp/tiny.jsonl" --format csv --resamples 200 --output "$tmp/heads2.csv" || fail "csv --output exit $?"
    cmp -s "$tmp/heads.csv" "$tmp/heads2.csv" || fail "--output and --output differ"
    help="$("$bin" --help)" || fail "help exit $?"
    for sub in coref heads qk compare; do grep -qE "^  $sub +[a-z]" <<<"$help" || fail "main --help does not list $sub: $help"; done
    python3 - "$tmp/heads.csv" <<'PY' || fail "heads csv"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
kinds = [r["kind"] for r in rows]
assert kinds[:5] == ["random", "first", "nearest", "rule", "rollout"] and kinds[5:] == ["head"] * 8, kinds
assert float(rows[0]["correct"]) == 1.75 and float(rows[0]["accuracy"]) == 0.35, rows[0]
for r in rows:
    assert float(r["low"]) <= float(r["accuracy"]) <= float(r["high"]), r
PY
    "$bin" heads --model "$src/tests/reference/models/bert-tiny" --coref-set "$tmp/tiny.jsonl" --format json >"$tmp/heads.json" || fail "exit $?"
    python3 - "$tmp/heads.json" <<'PY' || fail "heads json"
import json, sys
doc = json.load(open(sys.argv[1]))
e = doc["evaluation"]
assert doc["head_stats"] is None
assert e["evaluated"] == 5 and e["examples"] == 6 and e["layers"] == 2 and e["heads"] == 4
b = e["baselines"]
assert (b["nearest"]["correct"], b["nearest"]["accuracy"]) == (2, 0.4), b
assert (b["rule"]["correct"], b["rule"]["accuracy"]) == (3, 0.6), b
assert (b["first"]["correct"], b["first"]["accuracy"]) == (3, 0.6), b
assert abs(b["random"]["accuracy"] - 0.35) < 1e-15, b
assert e["bootstrap"]["resamples"] == 1000 and e["bootstrap"]["seed"] == 1 and e["control"] is None, e["bootstrap"]
for name, score in b.items():
    low, high = score["interval"]
    assert low <= score["accuracy"] <= high, (name, score)
acc = [r["accuracy"] for r in e["ranking"]]
assert len(acc) == 8 and acc == sorted(acc, reverse=True), acc
for r in e["ranking"]:
    assert abs(e["accuracy"][r["layer"] - 1][r["head"] - 1] - r["correct"] / 5) < 1e-12, r
assert [s["line"] for s in e["skipped"]] == [5]
PY
    ;;
  heads_stats)
    out="$("$bin" heads --lesson coreference --stats)" || fail "exit $?"
    expect_line "$out" "layer  head  entropy  delimiter  previous   next   self   first   coref  label"
    [ "$(grep -cE '^ +1 +[12] ' <<<"$out")" = 2 ] || fail "expected 2 head rows: $out"
    "$bin" heads --lesson coreference --stats --format json >"$tmp/stats.json" || fail "exit $?"
    python3 - "$tmp/stats.json" <<'PY' || fail "stats json"
import json, math, sys
heads = json.load(open(sys.argv[1]))["head_stats"]["heads"]
assert len(heads) == 2
# Head 2: every row but "tired" is uniform over the 11 tokens, so self = (10/11 + w(tired,tired))/11 ≥ 10/121.
for h in heads:
    for key in ("delimiter", "previous", "next", "self", "normalized_entropy"):
        assert 0 <= h[key] <= 1, (key, h)
    assert h["labels"], h
assert heads[1]["entropy"] > 3.0, heads[1]  # near log2(11) = 3.46: nearly uniform rows
PY
    # The shipped English set runs through the lesson (unknown words get hashed vectors).
    out="$("$bin" heads --lesson coreference --coref-set "$src/resources/coref/english.jsonl" --top 2)" || fail "exit $?"
    grep -q "english.jsonl, [0-9]* of 160 examples evaluated" <<<"$out" || fail "english set: $out"
    ;;
  heads_errors)
    printf '{"sentence": "the cat ran", "mention": "it", "antecedent": "cat"}\n' >"$tmp/bad.jsonl"
    "$bin" heads --lesson coreference --coref-set "$tmp/bad.jsonl" 2>"$tmp/err" >/dev/null && fail "bad set accepted"
    grep -qF "bad.jsonl: line 1: mention: expected \"it\" to occur as a word 1 time in the sentence, found 0" "$tmp/err" || fail "unclear: $(cat "$tmp/err")"
    "$bin" heads --lesson coreference 2>"$tmp/err" >/dev/null && fail "heads without a task accepted"
    grep -qF "heads needs --coref-set FILE or --stats" "$tmp/err" || fail "unclear: $(cat "$tmp/err")"
    "$bin" heads --lesson coreference --coref-set "$tmp/none.jsonl" 2>"$tmp/err" >/dev/null && fail "missing set accepted"
    grep -qF "none.jsonl" "$tmp/err" || fail "unclear: $(cat "$tmp/err")"
    "$bin" heads --lesson coreference --coref-set "$src/resources/coref/english.jsonl" --control 2>"$tmp/err" >/dev/null && fail "control of a lesson accepted"
    grep -qF "needs --model" "$tmp/err" || fail "unclear: $(cat "$tmp/err")"
    # --ablate as in the other subcommands: checked against the lesson's 1 layer × 2 heads; rollout
    # counts a switched-off head as all-zero attention, so the scores move.
    "$bin" coref --lesson coreference --ablate 2:1 2>"$tmp/err" >/dev/null && fail "--ablate 2:1 accepted"
    grep -qF -- "--ablate" "$tmp/err" || fail "unclear: $(cat "$tmp/err")"
    [ "$("$bin" coref --lesson coreference --ablate 1:2)" != "$("$bin" coref --lesson coreference)" ] || fail "--ablate changed nothing"
    "$bin" heads --lesson coreference --stats --control 2>"$tmp/err" >/dev/null && fail "--control without a set accepted"
    grep -qF -- "--control: needs --coref-set FILE" "$tmp/err" || fail "unclear: $(cat "$tmp/err")"
    ;;
  lesson_layer_option)
    # resources/lessons/two-layers.json, layer 2, row "it" (token 7): e^3.9032/(e^3.9032 + 10) = 0.8321
    # on the noun that fits the state word, 1/(e^3.9032 + 10) = 0.0168 on the other one.
    out="$("$bin" --lesson two-layers --print --layer 2 --step weights --format csv --decimals 4)" || fail "exit $?"
    expect_line "$out" "weights,2,1,8,it,2,animal,0.8321"
    expect_line "$out" "weights,2,1,8,it,6,street,0.0168"
    ! grep -q "^weights,1," <<<"$out" || fail "layer 1 printed though --layer 2 was asked"
    wide="$("$bin" --lesson two-layers --sentence "The animal didn't cross the street because it was too wide" --print --layer 2 --step weights --format csv --decimals 4)" || fail "exit $?"
    expect_line "$wide" "weights,2,1,8,it,2,animal,0.0168"
    expect_line "$wide" "weights,2,1,8,it,6,street,0.8321"
    # Without --layer every layer is printed; layer 2 starts at its input X = X + output of layer 1.
    all="$("$bin" --lesson two-layers --print --step weights --decimals 4)" || fail "exit $?"
    expect_line "$all" "== Layer 1: Attention weights A = softmax(rows) =="
    expect_line "$all" "== Layer 2: Attention weights A = softmax(rows) =="
    x2="$("$bin" --lesson two-layers --print --layer 2 --step x --format csv --decimals 4)" || fail "exit $?"
    expect_line "$x2" "x,2,,8,it,6,tired,0.9758"
    "$bin" --lesson two-layers --print --format json --layer 2 >"$tmp/trace.json" || fail "exit $?"
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["layer_index"] == 2 and len(d["layers"]) == 1, d.keys()' "$tmp/trace.json" || fail "json --layer"
    "$bin" --lesson two-layers --print --layer 3 2>"$tmp/err" >/dev/null && fail "layer 3 of 2 accepted"
    grep -q -- "--layer expects a whole number from 1 to 2" "$tmp/err" || fail "unclear layer error: $(cat "$tmp/err")"
    "$bin" --lesson first-hand-exercise --print --layer 2 2>"$tmp/err" >/dev/null && fail "layer 2 of 1 accepted"
    "$bin" --lesson two-layers --layer 2 --export-png "$tmp/heat.png" || fail "exit $?"
    head -c 8 "$tmp/heat.png" | od -An -c | grep -q "P   N   G" || fail "not a PNG"
    ;;
  coref_two_layers)
    # Lesson 5, layer 2's head: "it" → the noun that fits the state word, e^s/(e^s + 2) = 0.961 with
    # s = 3.9032 (tests/core/test_coreference.cpp); "tired" → animal, "wide" → street.
    base="The animal didn't cross the street because it was too"
    out="$("$bin" coref --lesson two-layers --heads 2:1 --sentence "$base tired")" || fail "exit $?"
    expect_line "$out" "it → animal 0.961 (nearest: street, rule: street)"
    out="$("$bin" coref --lesson two-layers --heads 2:1 --sentence "$base wide")" || fail "exit $?"
    expect_line "$out" "it → street 0.961 (nearest: street, rule: street)"
    ;;
  model_rope_families)
    # Issue 25: every command on each RoPE family's tiny random checkpoint (tests/reference/models/*-tiny;
    # their 64-token tokenizer.json, tests/reference/make_tiny_tokenizers.py, puts <s> first).
    # "the cat sat on the mat" → <s> the ␣cat ␣sat ␣on ␣the ␣mat: 7 tokens, 2 layers × 4 heads.
    printf '%s\n' '{"sentence": "the cat sat on the mat and it ran", "mention": "it", "antecedent": "cat"}' >"$tmp/set.jsonl"
    printf '%s\n' "the cat sat" "the dog ran on the mat" >"$tmp/corpus.txt"
    for m in llama-tiny mistral-tiny qwen2-tiny qwen3-tiny gemma3-tiny; do
        dir="$src/tests/reference/models/$m"
        s="the cat sat on the mat"
        out="$("$bin" --model "$dir" --sentence "$s" --print --layer 1 --head 3 --step k --top-k 3)" || fail "$m: exit $?"
        grep -q "RoPE: keys turned by position  K = RoPE(K_pre)" <<<"$out" || fail "$m: no RoPE step: $out"
        "$bin" --model "$dir" --sentence "$s" --print --format json --top-k 3 >"$tmp/$m.json" || fail "$m json: exit $?"
        python3 - "$tmp/$m.json" "$m" <<'PY' || fail "$m: json"
import json, sys
t = json.load(open(sys.argv[1]))
assert t["tokens"] == ["<s>", "the", "␣cat", "␣sat", "␣on", "␣the", "␣mat"], t["tokens"]
assert t["settings"]["positional_encoding"] == "rotary"
layer = t["layers"][0]
kv = {"llama-tiny": [1, 1, 2, 2], "mistral-tiny": [1, 1, 1, 1]}.get(sys.argv[2])
assert kv is None or layer["kv_head_of"] == kv, layer["kv_head_of"]
assert len(layer["heads"][0]["q_before_rope"]) == 7 and len(layer["rope_frequencies"]) * 2 == len(layer["heads"][0]["q"][0])
assert len(t["predictions"][0]["top"]) == 3, t["predictions"]
PY
        "$bin" --model "$dir" --sentence "$s" --print --format csv --layer 2 --step k_before_rope >"$tmp/$m.csv" || fail "$m csv: exit $?"
        head -1 "$tmp/$m.csv" | grep -qx "step,layer,head,row,row_label,col,col_label,value,kv_head" || fail "$m: csv header"
        out="$("$bin" --model "$dir" --sentence "$s" --print --layer 1 --head 2 --step q --explain --decimals 4)" || fail "$m explain: exit $?"
        grep -q "^angle m·θ_2 = 3 × " <<<"$out" || fail "$m: no RoPE explanation: $out"
        out="$("$bin" heads --model "$dir" --sentence "$s" --stats)" || fail "$m stats: exit $?"
        [ "$(grep -cE '^ +[12] +[1-4] ' <<<"$out")" = 8 ] || fail "$m: expected 8 head rows: $out"
        "$bin" heads --model "$dir" --corpus "$tmp/corpus.txt" --stats >/dev/null || fail "$m corpus: exit $?"
        "$bin" heads --model "$dir" --coref-set "$tmp/set.jsonl" >/dev/null || fail "$m coref set: exit $?"
        "$bin" coref --model "$dir" --sentence "the cat sat on the mat and it ran" >/dev/null || fail "$m coref: exit $?"
        "$bin" qk --model "$dir" --sentence "$s" --layer 2 --head 4 --format json >"$tmp/$m-qk.json" || fail "$m qk: exit $?"
        "$bin" compare --model "$dir" --sentence "$s" --sentence-b "the dog sat on the mat" --format csv --output "$tmp/$m-compare.csv" \
            >/dev/null || fail "$m compare: exit $?"
        "$bin" --model "$dir" --sentence "$s" --ablate 1:1,2:3 --print --format json --top-k 3 >"$tmp/$m-off.json" || fail "$m ablate: exit $?"
        python3 - "$tmp/$m-off.json" <<'PY' || fail "$m: ablated json"
import json, sys
t = json.load(open(sys.argv[1]))
assert t["ablated"] == [[1, 1], [2, 3]], t["ablated"]
assert t["layers"][0]["heads"][0]["ablated"] and all(v == 0 for row in t["layers"][0]["heads"][0]["output"] for v in row)
PY
        "$bin" --model "$dir" --sentence "$s" --layer 2 --export-png "$tmp/$m.png" || fail "$m png: exit $?"
        [ -s "$tmp/$m.png" ] || fail "$m: no png"
    done
    ;;
  json_indices_from_one)
    # docs/cli.md: every index the command line writes counts from 1. Each subcommand's JSON on a
    # known input, its indices checked against what the text output and the window call them.
    "$bin" --lesson two-layers --print --format json --layer 2 >"$tmp/trace.json" || fail "trace: exit $?"
    "$bin" --lesson two-layers --print --format json --layers 2 --heads 1 --steps weights >"$tmp/sel.json" || fail "sel: exit $?"
    "$bin" --lesson two-layers --print --format csv --layer 2 --step weights >"$tmp/trace.csv" || fail "csv: exit $?"
    "$bin" coref --lesson coreference --heads 1:1 --format json >"$tmp/coref.json" || fail "coref: exit $?"
    printf '%s\n' '{"sentence": "The animal didn'"'"'t cross the street because it was too tired", "mention": "it", "antecedent": "animal"}' >"$tmp/set.jsonl"
    "$bin" heads --lesson coreference --coref-set "$tmp/set.jsonl" --format json >"$tmp/eval.json" || fail "heads: exit $?"
    "$bin" heads --lesson coreference --stats --format json >"$tmp/stats.json" || fail "stats: exit $?"
    printf '%s\n' "cats chase mice" >"$tmp/corpus.txt"
    "$bin" heads --lesson two-heads --stats --corpus "$tmp/corpus.txt" --format json >"$tmp/corpus.json" 2>/dev/null || fail "corpus: exit $?"
    "$bin" qk --lesson two-heads --layer 1 --head 2 --format json >"$tmp/qk.json" 2>/dev/null || fail "qk: exit $?"
    "$bin" compare --lesson two-heads --sentence "cats chase mice" --sentence-b "mice chase cats" --head 2 --format json \
      >"$tmp/compare.json" || fail "compare: exit $?"
    "$bin" --model "$src/tests/reference/models/bert-tiny" --sentence "the [MASK] sat" --print --format json --layer 1 \
      >"$tmp/model.json" 2>/dev/null || fail "model: exit $?"
    python3 - "$tmp" <<'PY' || fail "an index that does not count from 1"
import csv, json, os, sys
d = sys.argv[1]
load = lambda name: json.load(open(os.path.join(d, name)))
t = load("trace.json")
assert (t["version"], t["layer_index"]) == (2, 2), (t["version"], t["layer_index"])
s = load("sel.json")["selection"]
assert s == {"layers": [2], "heads": [1], "steps": ["weights"]}, s
rows = list(csv.DictReader(open(os.path.join(d, "trace.csv"))))
assert {(r["row"], r["col"]) for r in rows if r["head"] == "1"} == {(str(i), str(j)) for i in range(1, 12) for j in range(1, 12)}
c = load("coref.json")
assert c["version"] == 2
words = [w["text"] for w in c["words"]]
(m,) = c["mentions"]
# the animal didn't cross the street because it was too tired: "the" is word 1, "it" word 8.
assert (words[0], words[1], words[7]) == ("the", "animal", "it"), words
assert (m["first_word"], m["last_word"]) == (8, 8), m
assert min(c["words"][0]["tokens"]) == 1, c["words"][0]
assert {x["word"] for x in m["candidates"]} <= set(range(1, 8)) and m["heads"] == [{"layer": 1, "head": 1}], m
assert m["chosen"] == 2, m  # head 1 gives animal 0.932 (coref_lesson)
e = load("eval.json")["evaluation"]
assert e["version"] == 3 and sorted((r["layer"], r["head"]) for r in e["ranking"]) == [(1, 1), (1, 2)], e["ranking"]
h = load("stats.json")["head_stats"]
assert h["version"] == 2 and [(x["layer"], x["head"]) for x in h["heads"]] == [(1, 1), (1, 2)], h["heads"]
k = load("corpus.json")
assert k["version"] == 2 and [(x["layer"], x["head"]) for x in k["heads"]] == [(1, 1), (1, 2)], k["heads"]
q = load("qk.json")
assert (q["format"], q["version"], q["layer"], q["head"]) == ("attnscope-qk", 2, 1, 2), q
assert [(p["sentence"], p["token"]) for p in q["points"] if p["kind"] == "query"] == [(1, 1), (1, 2), (1, 3)], q["points"]
p = load("compare.json")
assert p["version"] == 2 and [(u["tokens_a"], u["tokens_b"]) for u in p["units"]] == [([1], [1]), ([2], [2]), ([3], [3])], p["units"]
assert [(x["layer"], x["head"]) for x in p["heads"]] == [(1, 2)], p["heads"]
mo = load("model.json")
# [CLS] the [MASK] sat [SEP]: the mask is token 3; layer 1 of 2.
assert mo["layer_index"] == 1 and [x["position"] for x in mo["predictions"]] == [3], mo["predictions"]
assert mo["tokens"][2] == "[MASK]" and mo["token_info"][1]["word"] == 1 and mo["token_info"][0]["word"] is None, mo["token_info"]
print("every index counts from 1")
PY
    ;;
  progress_on_a_terminal)
    # A corpus run and a set evaluation count their sentences on a terminal's standard error (on
    # a pipe or file they stay silent, for logs); `script` gives the run a terminal.
    command -v script >/dev/null || { echo "SKIP: no script command to give the run a terminal"; exit 77; }
    printf '%s\n' "cats chase mice" "mice chase cats" "the cat sat" >"$tmp/corpus.txt"
    printf '%s\n' '{"sentence": "The animal didn'"'"'t cross the street because it was too tired", "mention": "it", "antecedent": "animal"}' >"$tmp/set.jsonl"
    out="$(script -qec "'$bin' heads --lesson two-heads --stats --corpus '$tmp/corpus.txt' --output '$tmp/c.txt'" /dev/null)" || fail "corpus: exit $?"
    grep -q "sentences: 3/3, about [0-9]* s left" <<<"$out" || fail "no corpus progress: $out"
    grep -q "sentences: 1/3" <<<"$out" || fail "no first step: $out"
    out="$(script -qec "'$bin' heads --lesson coreference --coref-set '$tmp/set.jsonl' --output '$tmp/e.txt'" /dev/null)" || fail "set: exit $?"
    grep -q "1/1" <<<"$out" || fail "no evaluation progress: $out"
    quiet="$("$bin" heads --lesson two-heads --stats --corpus "$tmp/corpus.txt" --output "$tmp/c2.txt" 2>&1)" || fail "exit $?"
    ! grep -q "sentences:" <<<"$quiet" || fail "progress on a pipe: $quiet"
    ;;
  print_rope_steps)
    # Lesson rope (base 100, d_k = 4, Hugging Face pairing (i, i + 2)): cat#2 = [0, 1, 1, 0] at position m = 1.
    # Pair 1 (x0, x2) = (0, 1) turned by 1·θ_0 = 1 rad: (0·cos 1 − 1·sin 1, 0·sin 1 + 1·cos 1) = (−0.841, 0.540);
    # pair 2 (x1, x3) = (1, 0) by θ_1 = 100^(−2/4) = 0.1: (cos 0.1, sin 0.1) = (0.995, 0.100).
    out="$("$bin" --lesson rope --print --decimals 3)" || fail "exit $?"
    # No projections: what RoPE turns is X itself, not X·W_Q (both languages).
    for title in "== Queries before RoPE  Q_pre = X (no projection) ==" "== Keys before RoPE  K_pre = X (no projection) =="; do
      expect_line "$out" "$title"
    done
    ! grep -q "Q_pre = X·W_Q\|K_pre = X·W_K" <<<"$out" || fail "Q_pre or K_pre titled as a projection: $out"
    expect_row "$out" "cat#2 -0.841 0.995 0.540 0.100"
    # the#1 at position 0 is not turned: [1, 0, 0, 1]
    expect_row "$out" "the#1 1.000 0.000 0.000 1.000"
    # Without projections the turned Q and K are still RoPE's, not X: their titles say so (both languages).
    expect_line "$out" "== RoPE: queries turned by position  Q = RoPE(Q_pre) =="
    expect_line "$out" "== RoPE: keys turned by position  K = RoPE(K_pre) =="
    ! grep -q "Queries Q = X (no projection)" <<<"$out" || fail "the turned Q titled as X: $out"
    expect_line "$out" "== Values V = X (no projection) =="
    zh="$("$bin" --lesson rope --print --step q --lang zh_CN)" || fail "exit $?"
    expect_line "$zh" "== RoPE：按位置旋转的查询 Q = RoPE(Q_pre) =="
    zh_pre="$("$bin" --lesson rope --print --step q_before_rope --lang zh_CN)" || fail "exit $?"
    expect_line "$zh_pre" "== RoPE 之前的查询 Q_pre = X（无投影） =="
    ;;
  print_grouped_query_steps)
    # Lesson grouped-query: query head 2 reads K/V head 1. Q₂ = [[0,1],[1,0],[1,1]], K₁ = [[1,0],[0,1],[1,1]]:
    # S₂ = Q₂·K₁ᵀ = the [0,1,1], cat [1,0,1], sat [1,1,2].
    out="$("$bin" --lesson grouped-query --print --step scores --head 2)" || fail "exit $?"
    expect_row "$out" "the 0 1 1"
    expect_row "$out" "sat 1 1 2"
    keys="$("$bin" --lesson grouped-query --print --step k --head 4)" || fail "exit $?"
    expect_line "$keys" "== Keys K = X·W_K — head 4, K/V head 2, shared by query heads 3–4 =="
    # The counts: W_Q 4·4·2 = 32, W_K + W_V 4·H_kv·(2 + 2); the K/V cache H_kv·(2 + 2) numbers per token.
    expect_line "$out" "  H_kv = 4 (multi-head): 4·4·2 + 4·4·(2 + 2) = 96 parameters; K/V cache 4·(2 + 2) = 16 numbers per token"
    expect_line "$out" "  H_kv = 2 (grouped-query): 4·4·2 + 4·2·(2 + 2) = 64 parameters; K/V cache 2·(2 + 2) = 8 numbers per token  ← this run"
    expect_line "$out" "  H_kv = 1 (multi-query): 4·4·2 + 4·1·(2 + 2) = 48 parameters; K/V cache 1·(2 + 2) = 4 numbers per token"
    zh="$("$bin" --lesson grouped-query --print --step scores --head 2 --lang zh_CN)" || fail "exit $?"
    expect_line "$zh" "  H_kv = 1（多查询）：4·4·2 + 4·1·(2 + 2) = 48 个参数；K/V 缓存每个词元 1·(2 + 2) = 4 个数"
    ;;
  print_block_steps)
    # Lesson whole-block (worked in its description): R(sat) = [3,0,3,0] + [1,0,1,0] = [4,0,4,0]; its LayerNorm,
    # μ = 2, σ² = 4: [1,−1,1,−1]; the logits of the: [0,4,−4,0,−2], softmax: e⁴/(2 + e⁴ + e⁻⁴ + e⁻²) = 0.962.
    out="$("$bin" --lesson whole-block --print --decimals 3)" || fail "exit $?"
    for title in "== Residual connection R = X + attention output ==" "== LayerNorm N = (x − μ) / √(σ² + ε) · γ + β ==" \
                 "== Feed-forward output F = act·W_2 + b_2 ==" "== Next-word probabilities P = softmax(logits) =="; do
      expect_line "$out" "$title"
    done
    expect_row "$out" "sat 4 0 4 0"
    expect_row "$out" "sat 1.000 -1.000 1.000 -1.000"
    expect_row "$out" "the 0.018 0.962 0.000 0.018 0.002"
    ;;
  *) fail "unknown case" ;;
esac
echo "ok [$case_name]"
