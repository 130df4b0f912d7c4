#!/usr/bin/env python3
"""Independent reference for `attnscope compare` (issue 14 §4): two sentences side by side.

Runs both sentences through reference_ablation.py's own torch forward passes (BERT, GPT-2 and the
two-layer ablation lesson, with Hugging Face's head_mask), tokenizes them itself (whole words and
WordPiece pieces of the tiny vocabularies; a lesson: lower-cased words) and lines the tokens up by
the rule of docs (core/analysis/compare.hpp), written again here: by position when both sentences
have as many tokens, else by word (words = a first piece and its ## pieces; special tokens alone),
matched by a longest common subsequence of their lower-cased texts, the words between two matches
paired in order when both gaps are as long, left out otherwise. From a unit: the mean over its
query tokens; to a unit: the sum over its key tokens.

Output: tests/reference/fixtures/compare.json, each case with the command-line arguments that
produce it (paths relative to tests/reference), the expected tokens, alignment and A, B, A − B
of every compared head. tests/cli/compare_test.sh checks the binary's JSON and CSV against it.
Run with /usr/bin/python3 (Debian's python3-torch).
"""
import json
import os

import torch

from reference_ablation import FIXTURES, HERE, MODELS, bert, gpt2, head_mask_of, lesson_forward, read_model, short


def bert_tokens(sentence):
    """[CLS] pieces [SEP]: greedy longest-match WordPiece over the tiny vocabulary (ids, texts)."""
    vocab = open(os.path.join(MODELS, "bert-tiny", "vocab.txt")).read().split("\n")
    texts = ["[CLS]"]
    for word in sentence.lower().split():
        start = 0
        while start < len(word):
            end = len(word)
            while (("##" if start else "") + word[start:end]) not in vocab:
                end -= 1
                assert end > start, word
            texts.append(("##" if start else "") + word[start:end])
            start = end
    texts.append("[SEP]")
    return [vocab.index(t) for t in texts], texts


def gpt2_tokens(sentence):
    """Every word one token of the tiny vocabulary: the first as is, the others after a space (Ġ)."""
    vocab = json.load(open(os.path.join(MODELS, "gpt2-tiny", "vocab.json")))
    texts = [w if i == 0 else "Ġ" + w for i, w in enumerate(sentence.split())]
    return [vocab[t] for t in texts], texts


def words(texts, special):
    """(lower-cased word, its token indices): ## pieces join the word before them."""
    out = []
    for t, text in enumerate(texts):
        if text.startswith("##") and out and not special(texts[out[-1][1][0]]):
            out[-1] = (out[-1][0] + text[2:], out[-1][1] + [t])
        else:
            out.append((text.lower().lstrip("Ġ"), [t]))
    return out


def lcs_pairs(a, b):
    n, m = len(a), len(b)
    length = [[0] * (m + 1) for _ in range(n + 1)]
    for i in reversed(range(n)):
        for j in reversed(range(m)):
            length[i][j] = length[i + 1][j + 1] + 1 if a[i][0] == b[j][0] else max(length[i + 1][j], length[i][j + 1])
    i = j = 0
    pairs = []
    while i < n and j < m:
        if a[i][0] == b[j][0]:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif length[i + 1][j] >= length[i][j + 1]:
            i += 1
        else:
            j += 1
    return pairs


def align(texts_a, texts_b, special):
    """(by, units [(tokens_a, tokens_b)], only_in_a, only_in_b)."""
    if len(texts_a) == len(texts_b):
        return "position", [([t], [t]) for t in range(len(texts_a))], [], []
    a, b = words(texts_a, special), words(texts_b, special)
    units, only_a, only_b = [], [], []
    i = j = 0
    for mi, mj in lcs_pairs(a, b) + [(len(a), len(b))]:
        if mi - i == mj - j:
            units += [(a[i + k][1], b[j + k][1]) for k in range(mi - i)]
        else:
            only_a += [w for w, _ in a[i:mi]]
            only_b += [w for w, _ in b[j:mj]]
        if mi < len(a):
            units.append((a[mi][1], b[mj][1]))
        i, j = mi + 1, mj + 1
    return "word", units, only_a, only_b


def unit_matrix(weights, units, side):
    return [[sum(float(weights[q, k]) for q in u[side] for k in v[side]) / len(u[side]) for v in units] for u in units]


def case(name, args, weights_a, weights_b, texts_a, texts_b, ids_a, ids_b, layer, heads, special):
    by, units, only_a, only_b = align(texts_a, texts_b, special)
    compared = []
    for h in heads:
        a = unit_matrix(weights_a[layer - 1][h - 1], units, 0)
        b = unit_matrix(weights_b[layer - 1][h - 1], units, 1)
        compared.append({"layer": layer, "head": h, "a": [[short(x) for x in r] for r in a],
                         "b": [[short(x) for x in r] for r in b],
                         "difference": [[short(x - y) for x, y in zip(ra, rb)] for ra, rb in zip(a, b)]})
    return {"name": name, "args": args, "alignment": by, "ids_a": ids_a, "ids_b": ids_b, "texts_a": texts_a,
            "texts_b": texts_b, "units": [{"tokens_a": u[0], "tokens_b": u[1]} for u in units],
            "only_in_a": only_a, "only_in_b": only_b, "heads": compared}


def model_case(name, model, forward, tokenize, a, b, layer, heads, ablate, extra_args):
    config, w = read_model(model)
    layers = config.get("num_hidden_layers", config.get("n_layer"))
    count = config.get("num_attention_heads", config.get("n_head"))
    mask = head_mask_of(ablate, layers, count)
    (ids_a, texts_a), (ids_b, texts_b) = tokenize(a), tokenize(b)
    weights_a, weights_b = forward(config, w, ids_a, mask)[0], forward(config, w, ids_b, mask)[0]
    args = ["--model", "models/" + model, "--sentence", a, "--sentence-b", b] + extra_args
    return case(name, args, weights_a, weights_b, texts_a, texts_b, ids_a, ids_b, layer, heads,
                lambda t: t.startswith("["))


def lesson_case(name, a, b, ablate, extra_args):
    lesson = json.load(open(os.path.join(FIXTURES, "ablation-lesson.json")))
    mask = head_mask_of(ablate, 2, 2)
    weights_a, _, texts_a = lesson_forward(lesson, a, mask)
    weights_b, _, texts_b = lesson_forward(lesson, b, mask)
    args = ["--lesson", "fixtures/ablation-lesson.json", "--sentence", a, "--sentence-b", b] + extra_args
    return case(name, args, weights_a, weights_b, texts_a, texts_b, [-1] * len(texts_a), [-1] * len(texts_b),
                2, [1, 2], lambda t: False)


def main():
    torch.set_default_dtype(torch.float64)
    cases = [
        model_case("bert_position", "bert-tiny", bert, bert_tokens, "the cat sat on the mat", "the dog sat on the mat",
                   2, [1, 2, 3, 4], [], []),
        model_case("bert_word_ablated", "bert-tiny", bert, bert_tokens, "the cats sat on the mat",
                   "the dog sat on the big red mat", 2, [1, 2, 3, 4], [[1, 2]], ["--layer", "2", "--ablate", "1:2"]),
        model_case("gpt2_position_head", "gpt2-tiny", gpt2, gpt2_tokens, "the cat sat on a mat",
                   "the dog ran on a mat", 1, [3], [], ["--layer", "1", "--head", "3"]),
        lesson_case("lesson_position", "the animal didn't cross the street because it was too tired",
                    "the animal didn't cross the street because it was too wide", [], []),
        lesson_case("lesson_word_ablated", "the animal didn't cross the street because it was too tired",
                    "the dog didn't cross the road because it was wide", [[1, 1]], ["--ablate", "1:1"]),
    ]
    with open(os.path.join(FIXTURES, "compare.json"), "w") as f:
        json.dump({"generator": "tests/reference/reference_compare.py", "cases": cases}, f)
        f.write("\n")


if __name__ == "__main__":
    main()
