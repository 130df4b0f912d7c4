#!/usr/bin/env python3
"""Independent reference for queries and keys in one picture (issue 14 §2, AttentionViz).

numpy only, sharing no code with core/: its own BERT forward pass (written from transformers'
BertModel: embeddings + LayerNorm, then per layer self-attention, W_O, residual + LayerNorm, GELU
feed-forward, residual + LayerNorm) on the tiny fixture tests/reference/models/bert-tiny, and the
two-heads lesson's Q = X·W_Q, K = X·W_K read from resources/lessons/two-heads.json.

For one head: the query rows and key rows; keys translated by c = mean(q) − mean(k); queries ×a,
keys ×1/a with a = sqrt(mean‖k + c‖ / mean‖q‖); PCA of the joint set by SVD of the centred points
(core uses the covariance's eigenvectors: a different route to the same axes, equal up to sign).
Writes tests/reference/fixtures/qk_bert-tiny.json and qk_two-heads.json: each case's sentences,
points (kind, sentence, token, text, x, y) and explained variance. Run with /usr/bin/python3.
The C++ tests ([qk-reference] in core_tests, cli.qk_* in tests/cli/qk_test.sh) need no Python.
"""
import json
import math
import os
import struct

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
FIXTURES = os.path.join(HERE, "fixtures")


# ---------------------------------------------------------------- the normalisation and PCA

def qk_plane(sentences):
    """sentences: [(q T_q×d_k, k T_k×d_k)]. Returns (points N×2 in core's order, explained[2])."""
    queries = np.vstack([q for q, _ in sentences])
    keys = np.vstack([k for _, k in sentences])
    c = queries.mean(axis=0) - keys.mean(axis=0)
    q_norm = np.linalg.norm(queries, axis=1).mean()
    k_norm = np.linalg.norm(keys + c, axis=1).mean()
    a = math.sqrt(k_norm / q_norm)
    rows = []
    for q, k in sentences:  # each sentence's queries, then its keys
        rows.append(q * a)
        rows.append((k + c) / a)
    points = np.vstack(rows)
    centred = points - points.mean(axis=0)
    u, s, vt = np.linalg.svd(centred, full_matrices=False)
    variance = s ** 2
    explained = (variance[:2] / variance.sum()).tolist()
    coords = centred @ vt[:2].T
    if coords.shape[1] < 2:
        coords = np.hstack([coords, np.zeros((coords.shape[0], 1))])
        explained.append(0.0)
    return coords, explained, a


def case(name, layer, head, sentences, tokens):
    """tokens: per sentence, (query texts, key texts)."""
    coords, explained, a = qk_plane(sentences)
    points, row = [], 0
    for s, (q_texts, k_texts) in enumerate(tokens):
        for kind, texts in (("query", q_texts), ("key", k_texts)):
            for t, text in enumerate(texts):
                points.append({"kind": kind, "sentence": s, "token": t, "text": text,
                               "x": float(coords[row, 0]), "y": float(coords[row, 1])})
                row += 1
    return {"name": name, "layer": layer, "head": head, "scale": a, "explained_variance": explained,
            "points": points}


# ---------------------------------------------------------------- the tiny BERT

def read_safetensors(path):
    with open(path, "rb") as f:
        blob = f.read()
    (n,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + n])
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        dtype = {"F32": "<f4", "F16": "<f2"}[info["dtype"]]
        start, end = info["data_offsets"]
        array = np.frombuffer(blob[8 + n + start:8 + n + end], dtype=dtype).astype(np.float64)
        out[name.removeprefix("bert.")] = array.reshape(info["shape"])
    return out


def layer_norm(x, w, prefix, eps):
    gamma = w.get(prefix + ".weight", w.get(prefix + ".gamma"))
    beta = w.get(prefix + ".bias", w.get(prefix + ".beta"))
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def gelu(x):
    return 0.5 * x * (1.0 + np.vectorize(math.erf)(x / math.sqrt(2.0)))


def softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def bert_query_key(folder, ids, layer, head):
    """Q and K (T×d_k) of `head` in `layer` (both from 0)."""
    with open(os.path.join(folder, "config.json")) as f:
        config = json.load(f)
    w = read_safetensors(os.path.join(folder, "model.safetensors"))
    eps, H, d = config["layer_norm_eps"], config["num_attention_heads"], config["hidden_size"]
    T, dk = len(ids), d // H
    x = (w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:T]
         + w["embeddings.token_type_embeddings.weight"][0])
    x = layer_norm(x, w, "embeddings.LayerNorm", eps)
    for n in range(layer + 1):
        L = f"encoder.layer.{n}."
        dense = lambda name, inp: inp @ w[L + name + ".weight"].T + w[L + name + ".bias"]
        q, k, v = (dense("attention.self." + p, x) for p in ("query", "key", "value"))
        if n == layer:
            cols = slice(head * dk, (head + 1) * dk)
            return q[:, cols], k[:, cols]
        context = np.hstack([softmax(q[:, h * dk:(h + 1) * dk] @ k[:, h * dk:(h + 1) * dk].T / math.sqrt(dk))
                             @ v[:, h * dk:(h + 1) * dk] for h in range(H)])
        a = layer_norm(dense("attention.output.dense", context) + x, w, L + "attention.output.LayerNorm", eps)
        x = layer_norm(dense("output.dense", gelu(dense("intermediate.dense", a))) + a, w, L + "output.LayerNorm", eps)
    raise ValueError("no such layer")


def bert_ids(folder, sentence):
    """[CLS] + each (whole, lower-case) word's vocabulary id + [SEP]; every word must be in the vocabulary."""
    with open(os.path.join(folder, "vocab.txt")) as f:
        vocab = {line.rstrip("\n"): i for i, line in enumerate(f)}
    words = sentence.lower().split()
    return [vocab["[CLS]"]] + [vocab[word] for word in words] + [vocab["[SEP]"]], ["[CLS]"] + words + ["[SEP]"]


def bert_cases():
    folder = os.path.join(HERE, "models", "bert-tiny")
    sentence = "the dog sat on the mat"
    ids, texts = bert_ids(folder, sentence)
    out = []
    for layer, head in ((1, 3), (2, 2)):  # counted from 1
        q, k = bert_query_key(folder, ids, layer - 1, head - 1)
        c = case(f"bert-tiny layer {layer} head {head}", layer, head, [(q, k)], [(texts, texts)])
        c.update({"model": "bert-tiny", "sentences": [sentence], "ids": [ids]})
        out.append(c)
    return out


# ---------------------------------------------------------------- the two-heads lesson

def lesson_cases():
    with open(os.path.join(ROOT, "resources", "lessons", "two-heads.json")) as f:
        lesson = json.load(f)
    out = []
    for sentences in (["cats chase mice"], ["cats chase mice", "mice chase cats chase mice"]):
        for head in (1, 2):
            hw = lesson["heads_weights"][head - 1]
            data, texts = [], []
            for sentence in sentences:
                words = sentence.split()
                X = np.array([lesson["embeddings"][w] for w in words], dtype=np.float64)
                data.append((X @ np.array(hw["W_Q"], dtype=np.float64), X @ np.array(hw["W_K"], dtype=np.float64)))
                texts.append((words, words))
            c = case(f"two-heads head {head}, {len(sentences)} sentence(s)", 1, head, data, texts)
            c.update({"lesson": "two-heads", "sentences": sentences})
            out.append(c)
    return out


def main():
    for name, cases in (("qk_bert-tiny.json", bert_cases()), ("qk_two-heads.json", lesson_cases())):
        with open(os.path.join(FIXTURES, name), "w") as f:
            json.dump({"generator": "tests/reference/reference_qk.py", "cases": cases}, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
