#!/usr/bin/env bash
# attnscope --lesson L --print on an encoder–decoder lesson (format version 8) through the real
# binary: every stage is printed, and the teacher-forcing table's p(label) and −ln p(label) equal the
# numpy reference's (tests/reference/fixtures/encoder_decoder.json, reference_encoder_decoder.py).
# Usage: encoder_decoder_test.sh ATTNSCOPE_BINARY SOURCE_DIR MODE   (MODE: text, markdown, chinese, step, json_refused)
set -uo pipefail
bin="$1"; src="$2"; mode="$3"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL [$mode]: $*" >&2; exit 1; }
fixture="$src/tests/reference/fixtures/encoder_decoder.json"
run() {  # run ARGS…: exit 0; stdout in $tmp/out
    "$bin" --lesson translation --print --exact --decimals 6 "$@" > "$tmp/out" 2> "$tmp/err"
    local status=$?
    [ "$status" = 0 ] || { cat "$tmp/err" >&2; fail "exit $status: $*"; }
}
has() { grep -qF -- "$1" "$tmp/out" || { cat "$tmp/out" >&2; fail "missing: $1"; }; }
case "$mode" in
    text|markdown)
        run --format "$mode"
        has "Encoder: self-attention over the source 我 是 谁"
        has "Decoder, masked self-attention over the decoder input <s> who am i"
        has "Decoder, cross-attention: queries from the decoder's Y₁"
        has "Output and labels (teacher forcing)"
        has "Logits"
        has "mean loss (cross-entropy over the 4 labels) = 0.453582" ;;
    chinese)
        run --lang zh_CN
        has "编码器：对源句 我 是 谁 做自注意力"
        has "输出与标签（教师强制）"
        has "平均损失（4 个标签的交叉熵）= 0.453582" ;;
    step)  # only the weights of each stage: the encoder's 3×3, the decoder's masked 4×4, cross's 4×3
        run --step weights
        [ "$(grep -c "Attention weights" "$tmp/out")" = 3 ] || { cat "$tmp/out" >&2; fail "expected three weight tables"; }
        grep -qF "Logits" "$tmp/out" && fail "--step weights printed the logits" ;;
    json_refused)
        "$bin" --lesson translation --print --format json > "$tmp/out" 2> "$tmp/err"
        [ $? = 1 ] || fail "--format json was not refused"
        grep -qF "an encoder-decoder lesson prints its stages as text or markdown" "$tmp/err" || fail "message: $(cat "$tmp/err")"
        exit 0 ;;
    *) fail "no such mode" ;;
esac
[ "$mode" = step ] && exit 0
python3 - "$fixture" "$tmp/out" "$mode" <<'PY' || fail "differs from the reference"
import json, re, sys
fixture, out, mode = sys.argv[1:]
want = json.load(open(fixture))["cases"][0]
assert want["lesson"] == "resources/lessons/translation.json"
text = open(out, encoding="utf-8").read()
rows = []
for line in text.splitlines():
    cells = [c.strip("*") for c in re.split(r"[ |]+", line.strip()) if c]
    if len(cells) == 5 and cells[0].isdigit() and cells[2] in want["labels"]:
        rows.append(cells)
assert [r[1] for r in rows] == want["decoder_input"], rows
assert [r[2] for r in rows] == want["labels"], rows
largest = 0.0
for r, p, loss in zip(rows, want["label_probability"], want["loss"]):
    largest = max(largest, abs(float(r[3]) - p), abs(float(r[4]) - loss))
print("largest difference from the reference:", largest)
sys.exit(0 if largest <= 5e-7 else 1)  # printed with 6 decimals
PY
