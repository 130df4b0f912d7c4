#!/usr/bin/python3
"""Independent reference for AttnScope's encoder–decoder lessons (format version 8,
core/lesson/run_encoder_decoder.hpp), written from docs/lesson-format.md ("An encoder and a
decoder") and the textbook picture of a translation transformer trained by teacher forcing. It
shares no code with core/ nor with the other references: numpy only, float64.

    /usr/bin/python3 tests/reference/reference_encoder_decoder.py [-o fixture.json]

For each case (a lesson file and a source sentence):
    teacher forcing: decoder input = "<s>" + target words, labels = target words + "</s>"
    encoder:  X = E(source) + P;  layer l: out_l = MHA(X_l, X_l) (no mask), X_{l+1} = X_l + out_l;
              M = X_L + out_L (the encoder output)
    decoder:  Y0 = E(decoder input) + P;  A = MHA(Y0, Y0) with the causal mask;  Y1 = Y0 + A
    cross:    C = MHA(queries Y1, keys and values M) (no mask);  Y2 = Y1 + C
    head:     logits = Y2·W_vocab + b_vocab;  P = softmax of each row;
              p_i = P[i, label_i];  loss_i = −ln p_i;  mean loss
MHA(Xq, Xkv): per head Q = Xq·W_Q + b_Q, K = Xkv·W_K + b_K, V = Xkv·W_V + b_V, weights =
softmax(Q·Kᵀ/√d_k (+ mask)), out_h = weights·V; concat of the heads; ·W_O + b_O (W_O absent:
the concatenation). Sentences are split at spaces (lower-cased when the lesson says so); every
word must be in the lesson's table. The fixture is tests/reference/fixtures/encoder_decoder.json.
"""

import json
import math
import os
import sys

import numpy as np

from reference_cross_attention import jsonable, sinusoidal  # the fixtures' conversion; PE(pos, 2i), PE(pos, 2i+1)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))

CASES = [
    # the built-in lessons on their own sentences
    ("resources/lessons/translation.json", None),
    ("resources/lessons/translation-zh.json", None),
    # another source under the same teacher forcing (the target stays): no 我, so p(i) falls
    ("resources/lessons/translation.json", "谁 是 谁"),
    # two heads of width 2, two encoder layers, sinusoidal positions, biases, W_O everywhere, b_vocab
    ("tests/reference/lessons/encoder-decoder-layers.json", None),
]


def words_of(lesson, sentence):
    text = sentence.lower() if lesson.get("lowercase", True) else sentence
    words = text.split()
    for w in words:
        if w not in lesson["embeddings"]:
            raise SystemExit("%r is not in the lesson's table" % w)
    return words


def embed(lesson, words):
    kind = lesson.get("positional_encoding", "none")
    if kind not in ("none", "sinusoidal"):
        raise SystemExit("positional encoding %r is not handled by this reference" % kind)
    e = np.array([lesson["embeddings"][w] for w in words], dtype=float)
    return e + (sinusoidal(len(words), lesson["d_model"]) if kind == "sinusoidal" else 0.0)


def softmax_rows(s):
    out = np.zeros_like(s)
    for i, row in enumerate(s):
        e = np.exp(row - row.max())
        out[i] = e / e.sum()
    return out


def mha(lesson, weights, xq, xkv, causal):
    """Returns (per-head dicts, output)."""
    heads, outs = [], []
    for w in weights["heads_weights"]:
        q = xq @ np.array(w["W_Q"], float) + np.array(w.get("b_Q", 0.0))
        k = xkv @ np.array(w["W_K"], float) + np.array(w.get("b_K", 0.0))
        v = xkv @ np.array(w["W_V"], float) + np.array(w.get("b_V", 0.0))
        s = q @ k.T
        if lesson.get("scale", True):
            s = s / math.sqrt(q.shape[1])
        if causal:
            s = s + np.triu(np.full(s.shape, -np.inf), 1)
        a = softmax_rows(s)
        heads.append({"q": q, "k": k, "v": v, "weights": a})
        outs.append(a @ v)
    out = np.concatenate(outs, axis=1)
    if "W_O" in weights:
        out = out @ np.array(weights["W_O"], float)
    if "b_O" in weights:
        out = out + np.array(weights["b_O"], float)
    return heads, out


def run(lesson, source):
    ed = lesson["encoder_decoder"]
    target = words_of(lesson, ed["target"])
    decoder_input = ["<s>"] + target
    labels = target + ["</s>"]
    src = words_of(lesson, source)
    x = embed(lesson, src)
    layers = lesson.get("layers") or [lesson]
    encoder_layers = []
    for layer in layers:
        heads, out = mha(lesson, layer, x, x, False)
        encoder_layers.append({"input": x, "heads": heads, "output": out})
        memory = x + out
        x = memory
    y0 = embed(lesson, decoder_input)
    self_heads, self_out = mha(lesson, ed["decoder_self"], y0, y0, True)
    y1 = y0 + self_out
    cross_heads, cross_out = mha(lesson, ed["cross"], y1, memory, False)
    y2 = y1 + cross_out
    head = ed["output_head"]
    logits = y2 @ np.array(head["W_vocab"], float) + np.array(head.get("b_vocab", 0.0))
    probs = softmax_rows(logits)
    columns = [head["vocabulary"].index(w) for w in labels]
    p = np.array([probs[i, c] for i, c in enumerate(columns)])
    loss = -np.log(p)
    return {"source_tokens": src, "decoder_input": decoder_input, "labels": labels,
            "encoder_layers": encoder_layers, "memory": memory,
            "decoder_x": y0, "decoder_self_heads": self_heads, "decoder_self_output": self_out, "y1": y1,
            "cross_heads": cross_heads, "cross_output": cross_out, "y2": y2,
            "logits": logits, "probabilities": probs, "label_probability": p, "loss": loss,
            "mean_loss": float(loss.mean())}


def main(argv):
    out_path = os.path.join(HERE, "fixtures", "encoder_decoder.json")
    if len(argv) == 3 and argv[1] == "-o":
        out_path = argv[2]
    cases = []
    for path, source in CASES:
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            lesson = json.load(f)
        sentence = source if source is not None else lesson["sentence"]
        case = {"lesson": path, "source": sentence}
        case.update(run(lesson, sentence))
        cases.append(jsonable(case))
    with open(out_path, "w", encoding="utf-8", newline="\n") as f:
        json.dump({"generator": "tests/reference/reference_encoder_decoder.py (numpy %s)" % np.__version__,
                   "cases": cases}, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv)
