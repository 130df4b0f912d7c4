#!/usr/bin/python3
"""Independent reference for issue 29 §5, "what attention did to each word", in float64 torch.

    /usr/bin/python3 tests/reference/reference_token_movement.py      (Debian's python3-torch)

Its own forward passes of the example GPT-2-style and BERT-style models AttnScope ships
(resources/models), written from the transformers sources (GPT2Model, BertModel in eval mode) and
sharing no code with core/; reference_ablation.py reads the safetensors files. For each case:
  states        the residual stream entering each layer and leaving the last, as transformers'
                hidden_states (GPT-2's last one after ln_f); not stored, only what follows
  distance      [L][T]  ‖y_i − x_i‖ over one layer (x: entering layer l, y: entering l+1)
  cosine        [L][T]  cos(x_i, y_i)
  sources       [L][T][T]  ‖c_ij‖, c_ij = Σ_h α^h_ij · v^h_j · W_O^h (b_O left out: it belongs to no source)
  last_vectors  [T][d]  c_ij of layer 1 for the last query token i, every j
  stack_distance, stack_cosine [T]  the whole stack: entering layer 1 to leaving layer L
  same_word     [L+1]  cos of token token_a of ids_a and token token_b of ids_b (0-based) in each state
The sentences beside their ids are for tests/cli/movement_test.sh, which runs them through attnscope.
Output: tests/reference/fixtures/token_movement.json; the C++ test is
tests/core/test_token_movement.cpp ([token-movement]) and needs no Python.
"""
import json
import math
import os
import sys

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from reference_ablation import read_safetensors  # noqa: E402  (reads F32, F16 and BF16 safetensors)
from reference_beyond_weights import rounded  # noqa: E402  (10 significant digits, as every fixture)

EXAMPLES = os.path.join(HERE, "..", "..", "resources", "models")
torch.set_default_dtype(torch.float64)


def gelu_tanh(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


def gelu_erf(x):
    return 0.5 * x * (1.0 + torch.erf(x / math.sqrt(2.0)))


def gpt2(c, w, ids):
    """hidden states (L+1)×T×d and per layer (probs H×T×T, values H×T×d_k, W_O slices H×d_k×d)."""
    d, H, eps = c["n_embd"], c["n_head"], c["layer_norm_epsilon"]
    T, dk = len(ids), d // H
    ln = lambda x, n: F.layer_norm(x, (d,), w[n + ".weight"], w[n + ".bias"], eps)
    x = w["wte.weight"][ids] + w["wpe.weight"][:T]
    states, layers = [x], []
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool))
    for n in range(c["n_layer"]):
        p = f"h.{n}."
        lin = lambda name, inp: inp @ w[p + name + ".weight"] + w[p + name + ".bias"]  # Conv1D [in, out]
        q, k, v = lin("attn.c_attn", ln(x, p + "ln_1")).split(d, dim=-1)
        q, k, v = (t.reshape(T, H, dk).transpose(0, 1) for t in (q, k, v))
        probs = torch.softmax((q @ k.transpose(1, 2) / math.sqrt(dk)).masked_fill(~causal, float("-inf")), dim=-1)
        layers.append((probs, v, w[p + "attn.c_proj.weight"].reshape(H, dk, d)))
        x = x + lin("attn.c_proj", (probs @ v).transpose(0, 1).reshape(T, d))
        x = x + lin("mlp.c_proj", gelu_tanh(lin("mlp.c_fc", ln(x, p + "ln_2"))))
        states.append(x)
    states[-1] = ln(x, "ln_f")
    return states, layers


def bert(c, w, ids):
    d, H, eps = c["hidden_size"], c["num_attention_heads"], c["layer_norm_eps"]
    T, dk = len(ids), d // H
    ln = lambda x, n: F.layer_norm(x, (d,), w[n + ".weight"], w[n + ".bias"], eps)
    e = "bert.embeddings."
    x = ln(w[e + "word_embeddings.weight"][ids] + w[e + "position_embeddings.weight"][:T]
           + w[e + "token_type_embeddings.weight"][0], e + "LayerNorm")
    states, layers = [x], []
    for n in range(c["num_hidden_layers"]):
        p = f"bert.encoder.layer.{n}."
        lin = lambda name, inp: F.linear(inp, w[p + name + ".weight"], w[p + name + ".bias"])  # [out, in]
        q, k, v = (lin("attention.self." + s, x).reshape(T, H, dk).transpose(0, 1) for s in ("query", "key", "value"))
        probs = torch.softmax(q @ k.transpose(1, 2) / math.sqrt(dk), dim=-1)
        layers.append((probs, v, w[p + "attention.output.dense.weight"].T.reshape(H, dk, d)))
        a = ln(x + lin("attention.output.dense", (probs @ v).transpose(0, 1).reshape(T, d)), p + "attention.output.LayerNorm")
        x = ln(a + lin("output.dense", gelu_erf(lin("intermediate.dense", a))), p + "output.LayerNorm")
        states.append(x)
    return states, layers


def contributions(probs, v, wo):
    """T×T×d: c_ij = Σ_h α^h_ij · (v^h_j · W_O^h)."""
    f = v @ wo                                   # H×T×d
    return torch.einsum("hij,hjd->ijd", probs, f)


def distance_cosine(x, y):
    return torch.linalg.norm(y - x, dim=-1), F.cosine_similarity(x, y, dim=-1)


def case(name, forward, sentence_a, ids_a, sentence_b, ids_b, token_a, token_b):
    folder = os.path.join(EXAMPLES, name)
    with open(os.path.join(folder, "config.json")) as f:
        config = json.load(f)
    w = {k.removeprefix("transformer."): v for k, v in read_safetensors(os.path.join(folder, "model.safetensors")).items()}
    states, layers = forward(config, w, ids_a)
    states_b, _ = forward(config, w, ids_b)
    moves = [distance_cosine(states[l], states[l + 1]) for l in range(len(layers))]
    sources = [contributions(*layer) for layer in layers]
    stack = distance_cosine(states[0], states[-1])
    return {"model": name, "sentence_a": sentence_a, "sentence_b": sentence_b, "ids_a": ids_a, "ids_b": ids_b, "token_a": token_a, "token_b": token_b,
            "distance": [m[0] for m in moves], "cosine": [m[1] for m in moves],
            "sources": [torch.linalg.norm(c, dim=-1) for c in sources],
            "last_vectors": sources[0][-1],
            "stack_distance": stack[0], "stack_cosine": stack[1],
            "same_word": [float(F.cosine_similarity(a[token_a], b[token_b], dim=0)) for a, b in zip(states, states_b)]}


# AttnScope's tokenization of sentence A and B (the command line's test runs the sentences; it checks
# nothing else of the tokenizer): "LORD" (GPT-2: " LORD", BERT: "lord") in two contexts, token 0-based.
CASES = [("example-gpt", gpt2, "The LORD is my shepherd", [449, 340, 335, 377, 2352],
          "I know the LORD is good", [40, 595, 258, 340, 335, 684], 1, 3),
         ("example-bert", bert, "The LORD is my [MASK].", [2, 67, 119, 104, 159, 4, 37, 3],
          "i know the lord is my [MASK].", [2, 49, 358, 67, 119, 104, 159, 4, 37, 3], 2, 4)]


def main():
    torch.set_grad_enabled(False)
    cases = [rounded(case(*c)) for c in CASES]
    with open(os.path.join(HERE, "fixtures", "token_movement.json"), "w") as f:
        json.dump({"generator": "tests/reference/reference_token_movement.py", "cases": cases}, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
