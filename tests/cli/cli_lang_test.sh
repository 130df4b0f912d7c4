#!/usr/bin/env bash
# --lang and core's texts (issue 12): `--print` writes step titles, explanations and notices in the
# chosen language, the numbers unchanged; JSON stays English. Usage: cli_lang_test.sh BINARY CASE
set -uo pipefail
bin="$1"; case_name="$2"

fail() { echo "FAIL [$case_name]: $*" >&2; exit 1; }
# expect_line OUTPUT LINE: the exact line must appear in the output
expect_line() { grep -qxF -- "$2" <<<"$1" || { echo "$1" | head -40 >&2; fail "missing line: $2"; }; }
refuse_text() { ! grep -qF -- "$2" <<<"$1" || fail "unexpected: $2"; }

# S[cats, cats] of the first lesson = 1·1 + 0·0 + 1·1 + 0·0 + 0·0 = 2; head 1:1 switched off.
run=(--lesson first-hand-exercise --sentence "cats chase mice" --print --step scores --explain --decimals 1 --ablate 1:1)
case "$case_name" in
  chinese)
    out="$("$bin" --lang zh_CN "${run[@]}" 2>"${TMPDIR:-/tmp}/cli_lang_$$")" || fail "exit $?"
    err="$(cat "${TMPDIR:-/tmp}/cli_lang_$$")"; rm -f "${TMPDIR:-/tmp}/cli_lang_$$"
    expect_line "$out" "== 分数 S = Q·Kᵀ =="
    expect_line "$out" "cats      2      1     1"  # integers as the lesson writes them
    expect_line "$out" "分数 S = Q·Kᵀ：S[cats, cats]"
    expect_line "$out" "S[i,j] = q_i · k_j = Σ_c Q[i,c] · K[j,c]  （cats 的查询与 cats 的键有多匹配）"
    expect_line "$out" "  q[cats,1]·k[cats,1] = 1 × 1 = 1"
    expect_line "$out" "和 = 2"
    expect_line "$out" "值 = 2"
    expect_line "$out" "提示：已关闭的头（层:头）：1:1；其注意力权重按计算结果显示，输出为零"
    expect_line "$err" "提示：已关闭的头（层:头）：1:1；其注意力权重按计算结果显示，输出为零"
    expect_line "$out" "词元：cats | chase | mice"
    refuse_text "$out" "notice:"
    refuse_text "$out" "how well"
    ;;
  english)
    out="$("$bin" --lang en "${run[@]}" 2>/dev/null)" || fail "exit $?"
    expect_line "$out" "== Scores S = Q·Kᵀ =="
    expect_line "$out" "cats      2      1     1"  # integers as the lesson writes them
    expect_line "$out" "S[i,j] = q_i · k_j = Σ_c Q[i,c] · K[j,c]  (how well cats's query matches cats's key)"
    expect_line "$out" "sum = 2"
    expect_line "$out" "value = 2"
    expect_line "$out" "notice: heads switched off (layer:head): 1:1; their weights are shown as computed, their output is zero"
    refuse_text "$out" "分数"
    ;;
  json_stays_english)
    out="$("$bin" --lang zh_CN --lesson first-hand-exercise --print --format json --ablate 1:1 2>/dev/null)" || fail "exit $?"
    python3 - "$out" <<'PY' || fail "json notices"
import json, sys
doc = json.loads(sys.argv[1])
assert doc["notices"] == ["heads switched off (layer:head): 1:1; their weights are shown as computed, their output is zero"], doc["notices"]
PY
    ;;
  *) fail "unknown case" ;;
esac
echo "ok [$case_name]"
