#!/usr/bin/env bash
# attnscope movement --ablate, derived by hand. The two-heads lesson's layer output is its attention
# output alone (no residual connection), so with both heads off every word leaves the layer as the
# zero vector: y = 0, ‖y − x‖ = ‖x‖, the lesson's own embedding row read here from its file
# (cats = (1, 0, 1, 0, 0): √2; chase √2; mice = (1, 1, 0, 1, 0): √3), cos(x, y) = 0 by the export's
# rule for a zero vector, and every source 0. One head off moves the words otherwise. On a model
# (example-gpt, every head of layer 2 off) every source is 0 and the words move otherwise than with
# the heads on. A head the lesson lacks is refused naming --ablate.
# Usage: movement_ablate_test.sh ATTNSCOPE_BINARY SOURCE_DIR
set -uo pipefail
bin="$1"; src="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
run() {  # run OUT ARGS…: exit 0
    local out="$1"; shift
    "$bin" movement --layer 1 --format json "$@" > "$out" 2> "$tmp/err"
    local status=$?
    [ "$status" = 0 ] || { cat "$tmp/err" >&2; fail "exit $status: $*"; }
}
run "$tmp/both_off.json" --lesson two-heads --ablate 1:1,1:2
run "$tmp/one_off.json" --lesson two-heads --ablate 1:2
run "$tmp/none_off.json" --lesson two-heads
model="$src/resources/models/example-gpt"
run "$tmp/model_off.json" --model "$model" --sentence "the cat sat" --layer 2 --ablate 2:1,2:2,2:3,2:4
run "$tmp/model_on.json" --model "$model" --sentence "the cat sat" --layer 2
"$bin" movement --lesson two-heads --layer 1 --ablate 1:3 > /dev/null 2> "$tmp/refused" && fail "--ablate 1:3 accepted (two heads)"
grep -q -- "--ablate" "$tmp/refused" || { cat "$tmp/refused" >&2; fail "the refusal does not name --ablate"; }

python3 - "$src/resources/lessons/two-heads.json" "$tmp" <<'PY' || fail "differs from the hand derivation"
import json, math, sys
lesson_path, tmp = sys.argv[1:]
lesson = json.load(open(lesson_path))
doc = lambda name: json.load(open(f"{tmp}/{name}.json"))["tokens"]
mismatches, largest = [], 0.0
def close(what, got, want, tol=1e-12):
    global largest
    largest = max(largest, abs(got - want))
    if abs(got - want) > tol:
        mismatches.append(f"{what}: {got}, by hand {want}")
both = doc("both_off")
assert [t["text"] for t in both] == lesson["sentence"].split(), [t["text"] for t in both]
for t in both:
    row = lesson["embeddings"][t["text"]]
    close(f"{t['text']} distance", t["distance"], math.sqrt(sum(v * v for v in row)))
    close(f"{t['text']} cosine", t["cosine"], 0.0)
    for i, y in enumerate(t["y"]):
        close(f"{t['text']} y[{i}]", y, 0.0)
    for s in t["sources"]:
        close(f"{t['text']} source {s['text']}", s["norm"], 0.0)
for t in doc("model_off"):
    for s in t["sources"]:
        close(f"model {t['text']} source {s['text']}", s["norm"], 0.0)
print(f"largest difference from the hand derivation {largest:.1e}")
if mismatches:
    sys.exit("first mismatches: " + "; ".join(mismatches[:5]))
differs = lambda a, b: any(abs(x["distance"] - y["distance"]) > 1e-6 for x, y in zip(doc(a), doc(b)))
assert differs("one_off", "none_off"), "head 1:2 off changed nothing"
assert differs("one_off", "both_off"), "head 1:2 off did what both off do"
assert differs("model_off", "model_on"), "layer 2's heads off changed nothing on the model"
assert any(s["norm"] > 0 for t in doc("one_off") for s in t["sources"]), "head 1:1 on, yet no source"
PY
