#!/usr/bin/python3
"""Independent reference for AttnScope's cross-attention (core/lesson/run_lesson.hpp runCrossAttention).

Written from the lesson-format specification (docs/lesson-format.md) and the textbook definition of
cross-attention, sharing no code with core/ (nor with reference_attention.py): numpy only.

    /usr/bin/python3 tests/reference/reference_cross_attention.py [-o fixture.json]

For each case (a built-in lesson, a target sentence, a source sentence) it computes, in float64:
    X_t = E(target) + P(0…T_q−1),  X_s = E(source) + P(0…T_k−1)    (each sentence its own positions)
    per head h:  Q = X_t·W_Q (T_q×d_k),  K = X_s·W_K (T_k×d_k),  V = X_s·W_V (T_k×d_v)
                 S = Q·Kᵀ (T_q×T_k),  S' = S/√d_k when the lesson scales,
                 A = softmax of each row of S' (no mask at all, even in a causal lesson),
                 out_h = A·V (T_q×d_v)
    concat = [out_1 | … | out_H],  output = concat·W_O (identity without W_O)
Without projections W_Q = W_K = W_V = the identity. Only the lesson's first layer is used. Words
must be in the lesson's embedding table (the script refuses others rather than reimplement the
hash rule); sentences are lowercased when the lesson says so and split at spaces.
The fixture is tests/reference/fixtures/cross_attention.json.
"""

import json
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
LESSONS = os.path.join(HERE, "..", "..", "resources", "lessons")

CASES = [
    # Projections, two heads, √2 scaling, W_O; a 2-token source so the weights are 3×2.
    ("two-heads", "cats chase mice", "mice cats"),
    # No projections, sinusoidal positions, a causal lesson (no mask in cross-attention); 5×3.
    ("causal-mask", "the cat saw the dog", "a dog sat"),
]


def sinusoidal(T, d):
    pe = np.zeros((T, d))
    for pos in range(T):
        for i in range(0, d, 2):
            angle = pos / (10000.0 ** (i / d))
            pe[pos, i] = math.sin(angle)
            if i + 1 < d:
                pe[pos, i + 1] = math.cos(angle)
    return pe


def positions(lesson, T):
    kind = lesson.get("positional_encoding", "none")
    d = lesson["d_model"]
    if kind == "sinusoidal":
        return sinusoidal(T, d)
    if kind == "none":
        return np.zeros((T, d))
    raise SystemExit("positional encoding %r is not handled by this reference" % kind)


def embed(lesson, sentence):
    words = (sentence.lower() if lesson.get("lowercase", True) else sentence).split()
    table = lesson["embeddings"]
    for w in words:
        if w not in table:
            raise SystemExit("%r is not in the lesson's table; choose words that are" % w)
    return words, np.array([table[w] for w in words], dtype=float)


def first_layer(lesson):
    if "layers" in lesson:
        layer = lesson["layers"][0]
        return layer["heads_weights"], layer.get("W_O")
    return lesson.get("heads_weights"), lesson.get("W_O")


def softmax_rows(s):
    shifted = s - s.max(axis=1, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=1, keepdims=True)


def cross_attention(lesson, target, source):
    d = lesson["d_model"]
    t_words, e_t = embed(lesson, target)
    s_words, e_s = embed(lesson, source)
    x_t = e_t + positions(lesson, len(t_words))
    x_s = e_s + positions(lesson, len(s_words))
    heads_weights, w_o = first_layer(lesson)
    if not lesson.get("projections", True):
        heads_weights = [{"W_Q": np.eye(d), "W_K": np.eye(d), "W_V": np.eye(d)}] * lesson.get("heads", 1)
    heads, outs = [], []
    for w in heads_weights:
        q = x_t @ np.array(w["W_Q"], dtype=float) + np.array(w.get("b_Q", 0.0))
        k = x_s @ np.array(w["W_K"], dtype=float) + np.array(w.get("b_K", 0.0))
        v = x_s @ np.array(w["W_V"], dtype=float) + np.array(w.get("b_V", 0.0))
        scores = q @ k.T
        scaled = scores / math.sqrt(q.shape[1]) if lesson.get("scale", True) else scores
        weights = softmax_rows(scaled)
        out = weights @ v
        heads.append({"q": q, "k": k, "v": v, "scores": scores, "scaled_scores": scaled,
                      "weights": weights, "weighted_sum": out})
        outs.append(out)
    concat = np.concatenate(outs, axis=1)
    output = concat @ np.array(w_o, dtype=float) if w_o is not None else concat
    return {"target_tokens": t_words, "source_tokens": s_words, "x_target": x_t, "x_source": x_s,
            "heads": heads, "concat": concat, "output": output}


def jsonable(value):
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [jsonable(v) for v in value]
    return value


def main(argv):
    out_path = os.path.join(HERE, "fixtures", "cross_attention.json")
    if len(argv) == 3 and argv[1] == "-o":
        out_path = argv[2]
    cases = []
    for name, target, source in CASES:
        with open(os.path.join(LESSONS, name + ".json"), encoding="utf-8") as f:
            lesson = json.load(f)
        case = {"lesson": name, "target": target, "source": source}
        case.update(cross_attention(lesson, target, source))
        cases.append(jsonable(case))
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump({"generator": "tests/reference/reference_cross_attention.py (numpy %s)" % np.__version__,
                   "cases": cases}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv)
