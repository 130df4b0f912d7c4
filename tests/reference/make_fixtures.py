#!/usr/bin/python3
"""Regenerates tests/reference/fixtures/lessons/*.json with the independent reference implementation.

    /usr/bin/python3 tests/reference/make_fixtures.py          # rewrite every fixture
    /usr/bin/python3 tests/reference/make_fixtures.py --check  # exit 1 if any fixture is stale

The fixtures are committed: the C++ test (tests/core/test_reference_traces.cpp) reads them and
needs no Python. Rerun this after changing a built-in lesson or the list below.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

import reference_attention  # noqa: E402

L1 = "resources/lessons/first-hand-exercise.json"
L2 = "resources/lessons/two-heads.json"
L3 = "resources/lessons/coreference.json"
L4 = "resources/lessons/causal-mask.json"
L5 = "resources/lessons/two-layers.json"  # format version 2: two layers and a residual connection
# format version 3 (texts in English and Chinese), character tokens
Z1 = "resources/lessons/first-hand-exercise-zh.json"
Z2 = "resources/lessons/coreference-zh.json"  # two layers, like L5
Z3 = "resources/lessons/causal-mask-zh.json"
# format version 4: words missing from the table get zero vectors ("unknown_words": "zeros")
V4 = "tests/reference/lessons/first-hand-exercise-zeros.json"
# format version 5: rotary position encoding, Hugging Face's pairing (built in) and the paper's
R1 = "resources/lessons/rope.json"
R2 = "resources/lessons/rope-zh.json"
R3 = "tests/reference/lessons/rope-interleaved.json"
# format version 6: the block after attention (residual, norms, feed-forward network, output head)
B1 = "resources/lessons/whole-block.json"
B2 = "resources/lessons/whole-block-zh.json"
B3 = "tests/reference/lessons/block-swiglu-rmsnorm.json"  # RMSNorm, SwiGLU, tied head, RoPE, two heads
B4 = "tests/reference/lessons/block-gelu.json"            # GELU with biases, no residual, final LayerNorm only
# format version 7: grouped-query attention (4 query heads sharing 2 key/value heads) and
# multi-query attention with biases and two layers (every query head reads one K and V)
G1 = "resources/lessons/grouped-query.json"
G2 = "tests/reference/lessons/multi-query-layers.json"

# (fixture name, lesson, sentence or None for the lesson's own, hand_rounding or None for exact)
FIXTURES = [
    # every built-in lesson on its own sentence, exact
    ("first-hand-exercise", L1, None, None),
    ("two-heads", L2, None, None),
    ("coreference", L3, None, None),
    ("causal-mask", L4, None, None),
    ("two-layers", L5, None, None),
    # a token missing from the table: the hash rule
    ("first-hand-exercise-hashed", L1, "Cats chase birds", None),
    ("two-heads-hashed", L2, "cats chase birds", None),
    ("coreference-hashed", L3,
     "The dog didn't cross the avenue, because it was too tired.", None),
    ("causal-mask-hashed", L4, "the cat saw a bird", None),
    ("first-hand-exercise-zeros", V4, "Cats chase birds", None),
    ("two-layers-hashed", L5, "The dog didn't cross the avenue, because it was too wide.", None),
    # the "wide" variant of the coreference sentence (all tokens in the table)
    ("coreference-wide", L3, "The animal didn't cross the street because it was too wide", None),
    ("two-layers-wide", L5, "The animal didn't cross the street because it was too wide", None),
    # hand-rounding
    ("first-hand-exercise-round2", L1, None, 2),
    ("two-heads-round2", L2, None, 2),
    ("coreference-round1", L3, None, 1),
    ("causal-mask-round3", L4, None, 3),
    ("two-layers-round2", L5, None, 2),
    # CJK: every character is its own token and none is in the table
    ("first-hand-exercise-cjk", L1, "我的笔记本", None),
    # the Chinese lessons: own sentences, the 宽 (wide) variant, a hashed character, hand-rounding
    ("first-hand-exercise-zh", Z1, None, None),
    ("coreference-zh", Z2, None, None),
    ("coreference-zh-wide", Z2, "动物没有过马路，因为它太宽了", None),
    ("causal-mask-zh", Z3, None, None),
    ("first-hand-exercise-zh-hashed", Z1, "猫追小鸟", None),
    ("coreference-zh-round2", Z2, None, 2),
    ("causal-mask-zh-round3", Z3, None, 3),
    # RoPE: the built-in lessons, a longer sentence, hand-rounding, the interleaved pairing
    ("rope", R1, None, None),
    ("rope-zh", R2, None, None),
    ("rope-long", R1, "the cat saw the cat saw the cat saw the cat", None),
    ("rope-round3", R1, None, 3),
    ("rope-interleaved", R3, None, None),
    ("rope-interleaved-round2", R3, None, 2),
    # the block after attention: the built-in lessons, a hashed word, hand-rounding, the other kinds
    ("whole-block", B1, None, None),
    ("whole-block-zh", B2, None, None),
    ("whole-block-hashed", B1, "the dog sat on", None),
    ("whole-block-round2", B1, None, 2),
    ("block-swiglu-rmsnorm", B3, None, None),
    ("block-swiglu-rmsnorm-round3", B3, None, 3),
    ("block-gelu", B4, None, None),
    ("block-gelu-round2", B4, None, 2),
    # grouped-query and multi-query attention: the built-in lesson, a hashed word, hand-rounding
    ("grouped-query", G1, None, None),
    ("grouped-query-hashed", G1, "the dog sat", None),
    ("grouped-query-round2", G1, None, 2),
    ("multi-query-layers", G2, None, None),
    ("multi-query-layers-round3", G2, None, 3),
]


def main(argv):
    check = "--check" in argv[1:]
    out_dir = os.path.join(HERE, "fixtures", "lessons")
    os.makedirs(out_dir, exist_ok=True)
    stale = []
    for name, lesson, sentence, hand_rounding in FIXTURES:
        text, _ = reference_attention.expected_trace(os.path.join(ROOT, lesson), lesson,
                                                     sentence, hand_rounding)
        path = os.path.join(out_dir, name + ".json")
        old = None
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                old = f.read()
        if old == text:
            continue
        if check:
            stale.append(name)
        else:
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
            print("wrote", os.path.relpath(path, ROOT))
    if check and stale:
        print("stale fixtures:", ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
