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
    for name in first-hand-exercise two-heads coreference causal-mask; do
      grep -q "^$name	" <<<"$out" || fail "$name not listed"
    done
    ;;
  *) fail "unknown case" ;;
esac
echo "ok [$case_name]"
