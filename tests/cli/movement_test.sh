#!/usr/bin/env bash
# attnscope movement through the real binary: JSON and CSV output parsed and compared with the
# torch reference (tests/reference/fixtures/token_movement.json, reference_token_movement.py) on the
# example GPT-2-style and BERT-style models: each layer's ‖y − x‖, cos(x, y) and source norms, the
# whole stack, and the same word in two sentences.
# Usage: movement_test.sh ATTNSCOPE_BINARY SOURCE_DIR MODEL MODE   (MODE: layers_json, layer_csv, stack_json, same_word_json, same_word_csv)
set -uo pipefail
bin="$1"; src="$2"; model="$3"; mode="$4"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL [$model $mode]: $*" >&2; exit 1; }
fixture="$src/tests/reference/fixtures/token_movement.json"
field() { python3 -c 'import json,sys; c=next(c for c in json.load(open(sys.argv[1]))["cases"] if c["model"]==sys.argv[2]); print(c[sys.argv[3]])' "$fixture" "$model" "$1"; }
a="$(field sentence_a)"; b="$(field sentence_b)"
run() {  # run OUT ARGS…: exit 0, nothing on stdout (--output given)
    local out="$1"; shift
    "$bin" movement --model "$model" --sentence "$a" "$@" --output "$out" > "$tmp/stdout" 2> "$tmp/err"
    local status=$?
    [ "$status" = 0 ] || { cat "$tmp/err" >&2; fail "exit $status: $*"; }
    [ -s "$tmp/stdout" ] && fail "--output given, yet something went to standard output"
    return 0
}
case "$mode" in
    layers_json) for l in 1 2 3 4; do run "$tmp/layer$l.json" --layer "$l" --format json; done ;;
    layer_csv) run "$tmp/layer2.csv" --layer 2 --format csv ;;
    stack_json) run "$tmp/stack.json" --format json ;;
    same_word_json|same_word_csv)
        ta=$(( $(field token_a) + 1 )); tb=$(( $(field token_b) + 1 ))
        run "$tmp/same.${mode##*_}" --sentence-b "$b" --token-a "$ta" --token-b "$tb" --format "${mode##*_}" ;;
    *) fail "no such mode" ;;
esac

python3 - "$fixture" "$model" "$mode" "$tmp" <<'PY' || fail "differs from the reference"
import csv, json, sys
fixture, model, mode, tmp = sys.argv[1:]
want = next(c for c in json.load(open(fixture))["cases"] if c["model"] == model)
tol = 1e-4  # float32 runs against float64 torch
largest, mismatches = 0.0, []
def close(got, exp, what):
    global largest
    largest = max(largest, abs(got - exp))
    if not abs(got - exp) <= tol:
        mismatches.append(f"{what}: {got} vs reference {exp}")
def check_layer(doc, l):
    assert doc["format"] == "attnscope-token-movement" and doc["layer"] == l + 1, (doc["format"], doc["layer"])
    assert [t["token"] for t in doc["tokens"]] == list(range(1, len(want["ids_a"]) + 1))
    for t in doc["tokens"]:
        i = t["token"] - 1  # the command line counts from 1 (docs/cli.md)
        close(t["distance"], want["distance"][l][i], f"layer {l+1} token {i+1} distance")
        close(t["cosine"], want["cosine"][l][i], f"layer {l+1} token {i+1} cosine")
        norms = [s["norm"] for s in t["sources"]]
        assert norms == sorted(norms, reverse=True), f"token {i+1}: sources not largest first"
        for s in t["sources"]:
            close(s["norm"], want["sources"][l][i][s["token"] - 1], f"layer {l+1} token {i+1} source {s['token']}")
if mode == "layers_json":
    for l in range(4):
        check_layer(json.load(open(f"{tmp}/layer{l+1}.json")), l)
elif mode == "layer_csv":
    rows = list(csv.DictReader(open(f"{tmp}/layer2.csv")))
    T = len(want["ids_a"])
    assert len(rows) == T * T, len(rows)
    for row in rows:
        i, j = int(row["token"]) - 1, int(row["source"]) - 1
        assert row["layer"] == "2", row
        close(float(row["distance"]), want["distance"][1][i], f"token {i+1} distance")
        close(float(row["cosine"]), want["cosine"][1][i], f"token {i+1} cosine")
        close(float(row["source_norm"]), want["sources"][1][i][j], f"token {i+1} source {j+1}")
elif mode == "stack_json":
    doc = json.load(open(f"{tmp}/stack.json"))
    assert doc["layer"] is None
    for t in doc["tokens"]:
        i = t["token"] - 1
        assert t["sources"] == [], t["sources"]
        close(t["distance"], want["stack_distance"][i], f"stack token {i+1} distance")
        close(t["cosine"], want["stack_cosine"][i], f"stack token {i+1} cosine")
elif mode == "same_word_json":
    doc = json.load(open(f"{tmp}/same.json"))
    assert doc["format"] == "attnscope-same-word"
    assert (doc["token_a"], doc["token_b"]) == (want["token_a"] + 1, want["token_b"] + 1)
    assert len(doc["states"]) == len(want["same_word"]), len(doc["states"])
    assert doc["states"][0]["state"] == "entering layer 1" and doc["states"][-1]["state"] == "leaving layer 4"
    for l, (s, e) in enumerate(zip(doc["states"], want["same_word"])):
        close(s["cosine"], e, f"state {l}")
else:
    rows = list(csv.DictReader(open(f"{tmp}/same.csv")))
    assert [int(r["layer"]) for r in rows] == [1, 2, 3, 4, 4], rows
    for l, (r, e) in enumerate(zip(rows, want["same_word"])):
        close(float(r["cosine"]), e, f"state {l}")
print(f"{model} {mode}: largest difference {largest:.3g}; {len(mismatches)} mismatches")
assert not mismatches, "first mismatches: " + "; ".join(mismatches[:5])
PY
