#!/usr/bin/env python3
"""Independent reference for head ablation (issue 14 §1): Hugging Face's head_mask semantics.

Its own BERT and GPT-2 forward passes in plain torch, written from the transformers sources
(BertSelfAttention / GPT2Attention: `attention_probs = attention_probs * head_mask` right after the
softmax, before `attention_probs @ value`), sharing no code with core/ nor with
make_model_fixtures.py. It reads the tiny fixtures' safetensors files and config.json itself
(tests/reference/models/bert-tiny, gpt2-tiny) and a two-layer, two-head lesson it writes itself.

For every case it records the attention weights of every layer and head of the ablated run (the
weights each head computed: HF returns them after the mask, i.e. zero for an ablated head; the
Trace keeps them before it, so they are stored before), each layer's attention output (after
W_O) and, for the models, the top-k predictions. Output: tests/reference/fixtures/ablation.json
and tests/reference/fixtures/ablation-lesson.json (the lesson). Run with /usr/bin/python3
(Debian's python3-torch); the C++ test (tests/core/test_ablation.cpp, [ablation]) needs no Python.
"""
import json
import math
import os
import struct

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, "models")
FIXTURES = os.path.join(HERE, "fixtures")
TOP_K = 5
MASK_ID = 4  # [MASK] in the tiny BERT vocabulary

torch.set_default_dtype(torch.float64)  # the reference computes in double; core runs float32


# ---------------------------------------------------------------- reading the fixtures

def float64_array(raw, dtype):
    """F32, F16 or BF16 (the upper half of a float32) little-endian bytes → float64."""
    if dtype == "BF16":
        return (np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return np.frombuffer(raw, dtype={"F32": "<f4", "F16": "<f2"}[dtype]).astype(np.float64)


def read_safetensors(path):
    """name → float64 tensor, from F32, F16 or BF16 (what the tiny fixtures hold)."""
    with open(path, "rb") as f:
        blob = f.read()
    (n,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + n])
    base = 8 + n
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        array = float64_array(blob[base + start:base + end], info["dtype"])
        out[name] = torch.from_numpy(array.reshape(info["shape"]).copy())
    return out


def read_model(name):
    folder = os.path.join(MODELS, name)
    with open(os.path.join(folder, "config.json")) as f:
        config = json.load(f)
    return config, read_safetensors(os.path.join(folder, "model.safetensors"))


def head_mask_of(ablate, layers, heads):
    """HF's head_mask: L×H, 1 to keep a head, 0 to switch it off. ablate: [layer, head] from 1."""
    mask = torch.ones(layers, heads)
    for layer, head in ablate:
        mask[layer - 1, head - 1] = 0.0
    return mask


def norm(x, w, prefix, eps):
    """LayerNorm with either weight/bias or the old TensorFlow gamma/beta names."""
    gamma = w.get(prefix + ".weight", w.get(prefix + ".gamma"))
    beta = w.get(prefix + ".bias", w.get(prefix + ".beta"))
    return F.layer_norm(x, (x.shape[-1],), gamma, beta, eps)


def attention(q, k, v, mask_row, causal):
    """q, k, v: H×T×d_k. Returns (weights before head_mask, context H×T×d_k)."""
    T, dk = q.shape[1], q.shape[2]
    scores = q @ k.transpose(-1, -2) / math.sqrt(dk)
    if causal:
        scores = scores.masked_fill(~torch.tril(torch.ones(T, T, dtype=torch.bool)), float("-inf"))
    probs = torch.softmax(scores, dim=-1)
    masked = probs * mask_row.view(-1, 1, 1)  # head_mask, broadcast over T×T
    return probs, masked @ v


# ---------------------------------------------------------------- BERT (BertForMaskedLM)

def bert(config, w, ids, head_mask):
    p = "bert." if any(k.startswith("bert.") for k in w) else ""
    eps, H, d = config["layer_norm_eps"], config["num_attention_heads"], config["hidden_size"]
    T, dk = len(ids), d // H
    ids_t = torch.tensor(ids)
    x = (w[p + "embeddings.word_embeddings.weight"][ids_t] + w[p + "embeddings.position_embeddings.weight"][:T]
         + w[p + "embeddings.token_type_embeddings.weight"][0])
    x = norm(x, w, p + "embeddings.LayerNorm", eps)
    weights, outputs = [], []
    for n in range(config["num_hidden_layers"]):
        L = f"{p}encoder.layer.{n}."
        dense = lambda name, inp: inp @ w[L + name + ".weight"].T + w[L + name + ".bias"]
        split = lambda t: t.reshape(T, H, dk).permute(1, 0, 2)
        probs, context = attention(split(dense("attention.self.query", x)), split(dense("attention.self.key", x)),
                                   split(dense("attention.self.value", x)), head_mask[n], causal=False)
        attended = dense("attention.output.dense", context.permute(1, 0, 2).reshape(T, d))
        weights.append(probs)
        outputs.append(attended)
        a = norm(attended + x, w, L + "attention.output.LayerNorm", eps)
        inner = dense("intermediate.dense", a)
        inner = 0.5 * inner * (1.0 + torch.erf(inner / math.sqrt(2.0)))
        x = norm(dense("output.dense", inner) + a, w, L + "output.LayerNorm", eps)
    t = x @ w["cls.predictions.transform.dense.weight"].T + w["cls.predictions.transform.dense.bias"]
    t = norm(0.5 * t * (1.0 + torch.erf(t / math.sqrt(2.0))), w, "cls.predictions.transform.LayerNorm", eps)
    decoder = w.get("cls.predictions.decoder.weight", w[p + "embeddings.word_embeddings.weight"])
    logits = t @ decoder.T + w["cls.predictions.bias"]
    return weights, outputs, logits, [i for i, t in enumerate(ids) if t == MASK_ID]


# ---------------------------------------------------------------- GPT-2 (GPT2LMHeadModel)

def gpt2(config, w, ids, head_mask):
    eps, H, d = config["layer_norm_epsilon"], config["n_head"], config["n_embd"]
    T, dk = len(ids), d // H
    x = w["wte.weight"][torch.tensor(ids)] + w["wpe.weight"][:T]
    weights, outputs = [], []
    for n in range(config["n_layer"]):
        L = f"h.{n}."
        conv = lambda name, inp: inp @ w[L + name + ".weight"] + w[L + name + ".bias"]
        qkv = conv("attn.c_attn", norm(x, w, L + "ln_1", eps))
        q, k, v = (qkv[:, i * d:(i + 1) * d].reshape(T, H, dk).permute(1, 0, 2) for i in range(3))
        probs, context = attention(q, k, v, head_mask[n], causal=True)
        attended = conv("attn.c_proj", context.permute(1, 0, 2).reshape(T, d))
        weights.append(probs)
        outputs.append(attended)
        x = x + attended
        inner = conv("mlp.c_fc", norm(x, w, L + "ln_2", eps))
        inner = 0.5 * inner * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (inner + 0.044715 * inner ** 3)))
        x = x + conv("mlp.c_proj", inner)
    x = norm(x, w, "ln_f", eps)
    return weights, outputs, x @ w["wte.weight"].T, [T - 1]


# ---------------------------------------------------------------- a lesson: 2 layers × 2 heads

def ablation_lesson():
    """Two residual layers of two heads on the eight features of the coreference lessons: each
    layer's second head differs from the first, so switching one off changes what layer 2 reads."""
    with open(os.path.join(HERE, "..", "..", "resources", "lessons", "two-layers.json")) as f:
        lesson = json.load(f)
    lesson["title"] = "Ablation test lesson: two layers of two heads"
    lesson["description"] = "Written by tests/reference/reference_ablation.py."
    lesson["heads"] = 2
    lesson["scale"] = True
    for n, layer in enumerate(lesson["layers"]):
        first = layer["heads_weights"][0]
        # the second head: the first's W_Q/W_K swapped in role, its own W_V
        second = {"W_Q": first["W_K"], "W_K": first["W_Q"],
                  "W_V": [[(r + c + n) % 3 - 1 for c in range(2)] for r in range(8)]}
        layer["heads_weights"] = [first, second]
        layer["W_O"] = layer["W_O"] + [[((r + 2 * c + n) % 5 - 2) / 2 for c in range(8)] for r in range(2)]
    return lesson


def lesson_forward(lesson, sentence, head_mask):
    words = sentence.lower().split()  # the test sentence has no punctuation
    X = torch.tensor([lesson["embeddings"][t] for t in words], dtype=torch.float64)
    weights, outputs = [], []
    for n, layer in enumerate(lesson["layers"]):
        heads = []
        for h, hw in enumerate(layer["heads_weights"]):
            q, k, v = (X @ torch.tensor(hw[name], dtype=torch.float64) for name in ("W_Q", "W_K", "W_V"))
            probs, context = attention(q[None], k[None], v[None], head_mask[n][h:h + 1], causal=False)
            heads.append((probs[0], context[0]))
        weights.append(torch.stack([p for p, _ in heads]))
        out = torch.cat([c for _, c in heads], dim=1) @ torch.tensor(layer["W_O"], dtype=torch.float64)
        outputs.append(out)
        X = X + out
    return weights, outputs, words


# ---------------------------------------------------------------- writing

def short(x):
    return float(f"{x:.10g}")


def rounded(t):
    return [rounded(r) for r in t] if t.dim() > 1 else [short(float(x)) for x in t]


def model_case(name, forward, ids, ablate):
    config, w = read_model(name)
    layers = config.get("num_hidden_layers", config.get("n_layer"))
    heads = config.get("num_attention_heads", config.get("n_head"))
    weights, outputs, logits, positions = forward(config, w, ids, head_mask_of(ablate, layers, heads))
    predictions = []
    for p in positions:
        top = torch.topk(torch.softmax(logits[p], dim=-1), TOP_K)
        predictions.append({"position": p, "top": [[int(i), short(float(v))] for v, i in zip(top.values, top.indices)]})
    return {"model": name, "ids": ids, "ablate": ablate, "weights": [rounded(a) for a in weights],
            "attention_outputs": [rounded(o) for o in outputs], "predictions": predictions}


def head_effects(name, forward, ids, position):
    """Issue 14 §1's "most important heads": at prediction `position`, the probability of the
    unablated run's top token, then that token's probability with each single head switched off
    (layers and heads from 1), and the ablated run's own top token."""
    config, w = read_model(name)
    layers = config.get("num_hidden_layers", config.get("n_layer"))
    heads = config.get("num_attention_heads", config.get("n_head"))
    probs = lambda ablate: torch.softmax(forward(config, w, ids, head_mask_of(ablate, layers, heads))[2][position], -1)
    before = probs([])
    token = int(torch.argmax(before))
    effects = []
    for layer in range(1, layers + 1):
        for head in range(1, heads + 1):
            after = probs([[layer, head]])
            effects.append({"head": [layer, head], "after": short(float(after[token])), "top_after": int(torch.argmax(after))})
    return {"model": name, "ids": ids, "position": position, "token": token, "before": short(float(before[token])),
            "effects": effects}


def main():
    effects = [head_effects("bert-tiny", bert, [2, 17, MASK_ID, 42, 3], 2),
               head_effects("gpt2-tiny", gpt2, [5, 17, 42, 8, 90, 13, 27], 6)]
    cases = [
        model_case("bert-tiny", bert, [2, 11, 23, MASK_ID, 35, 47, MASK_ID, 59, 3], [[1, 2], [2, 4]]),
        model_case("bert-tiny", bert, [2, 17, MASK_ID, 42, 3], [[1, 1], [1, 2], [1, 3], [1, 4]]),
        model_case("gpt2-tiny", gpt2, [5, 17, 42, 8, 90, 13, 27], [[1, 1], [2, 3]]),
        model_case("gpt2-tiny", gpt2, [31, 44, 9, 60], [[2, 1], [2, 2]]),
    ]
    lesson = ablation_lesson()
    sentence = "the animal didn't cross the street because it was too tired"
    ablate = [[1, 2]]
    weights, outputs, words = lesson_forward(lesson, sentence, head_mask_of(ablate, 2, 2))
    lesson_case = {"lesson": "ablation-lesson.json", "sentence": sentence, "tokens": words, "ablate": ablate,
                   "weights": [rounded(a) for a in weights], "attention_outputs": [rounded(o) for o in outputs]}
    with open(os.path.join(FIXTURES, "ablation-lesson.json"), "w") as f:
        json.dump(lesson, f, indent=1)
        f.write("\n")
    with open(os.path.join(FIXTURES, "ablation.json"), "w") as f:
        json.dump({"generator": "tests/reference/reference_ablation.py", "top_k": TOP_K,
                   "models": cases, "lesson": lesson_case,
                   "head_effects": effects}, f)
        f.write("\n")


if __name__ == "__main__":
    main()
