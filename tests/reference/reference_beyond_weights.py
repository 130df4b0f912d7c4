#!/usr/bin/python3
"""Independent reference for issue 30 §2, "beyond raw weights": norm-based attention, the logit
lens and direct logit attribution, in float64 torch.

    /usr/bin/python3 tests/reference/reference_beyond_weights.py      (Debian's python3-torch)

Its own forward passes (BERT as BertForMaskedLM, GPT-2 as GPT2LMHeadModel, the RoPE decoders as
LlamaForCausalLM / Qwen2ForCausalLM / Gemma3ForCausalLM in eval mode), written from the
transformers sources and sharing no code with core/; the RoPE arithmetic (frequencies, rotation,
which layers slide) is taken from make_family_fixtures.py, the reference that wrote those
checkpoints, and its MLP; reference_ablation.py reads the tiny checkpoints (F32, F16, BF16).

For every case it records:
  norm_weighted  [L][H][T][T]  ‖α_ij · f(x_j)‖, f(x_j) = (x_j·W_V + b_V)·W_O^h (Kobayashi et al. 2020:
                 the value bias included, b_O not; Gemma 3: before its post-attention norm)
  lens           [L+1][positions][k] of [id, probability]: the stream entering layer 1 (row 0) and
                 after each layer, through the final norm and the output head (BERT: its MLM head)
  attribution    (decoders) the predicted token at the last position, its logit, and each head's
                 output there through W_O, the final norm with its scale frozen at the real stream
                 (Gemma 3: also its post-attention norm, frozen), and the token's output-head row;
                 (BERT) at the first [MASK]: the first-order share, torch autograd's gradient of the
                 logit along the residual route with every LayerNorm's σ frozen (bert_attribution)
                 dotted with each head's output, where core multiplies the readouts out by hand.
Beside the cases: second_sentences (a second example-gpt sentence's norm_weighted, for the Compare
tab's test tests/gui/test_compare_tab.cpp) and word_level (the example models on a sentence with a
word of several pieces: the pieces, their words read from the vocabulary's marks, and every
head's weight × ‖value‖ shares between words, word_norm_shares [L][H][W][W]; see word_groups and
word_level_shares).
Output: tests/reference/fixtures/beyond_weights.json; the C++ tests are
tests/core/test_beyond_weights.cpp and test_word_norms.cpp ([beyond-weights]) and need no Python.
"""
import json
import math
import os
import sys

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from make_family_fixtures import apply_rope, feed_forward, inverse_frequencies, layer_slides  # noqa: E402
from reference_ablation import read_model, read_safetensors  # noqa: E402  (reads F32, F16 and BF16 safetensors)

FIXTURES = os.path.join(HERE, "fixtures")
EXAMPLES = os.path.join(HERE, "..", "..", "resources", "models")  # the example models AttnScope ships
TOP_K = 3
MASK_ID = 4  # [MASK] in the tiny BERT vocabulary

torch.set_default_dtype(torch.float64)


def layer_norm(x, gamma, beta, eps):
    return F.layer_norm(x, (x.shape[-1],), gamma, beta, eps)


def rms(x, eps):
    return torch.sqrt((x * x).mean(-1, keepdim=True) + eps)


def norm_weighted(probs, v, wo_slices):
    """probs H×T×T, v H×T×d_v (each query head's values), wo_slices H×d_v×d → H×T×T of α_ij‖f(x_j)‖."""
    f = torch.linalg.norm(v @ wo_slices, dim=-1)  # H×T
    return probs * f[:, None, :]


def top(logits, k=TOP_K):
    p = torch.softmax(logits, dim=-1)
    values, ids = torch.topk(p, k)
    return [[int(i), float(v)] for v, i in zip(values, ids)]


# ---------------------------------------------------------------- BERT

def bert(config, w, ids):
    p = "bert."
    eps, H, d = config["layer_norm_eps"], config["num_attention_heads"], config["hidden_size"]
    T, dk = len(ids), d // H
    ln = lambda x, name: layer_norm(x, w.get(name + ".weight", w.get(name + ".gamma")),
                                    w.get(name + ".bias", w.get(name + ".beta")), eps)  # the old TF names too
    x = (w[p + "embeddings.word_embeddings.weight"][ids] + w[p + "embeddings.position_embeddings.weight"][:T]
         + w[p + "embeddings.token_type_embeddings.weight"][0])
    x = ln(x, p + "embeddings.LayerNorm")
    streams, norms, route = [x], [], []
    for n in range(config["num_hidden_layers"]):
        L = f"{p}encoder.layer.{n}."
        dense = lambda name, inp: inp @ w[L + name + ".weight"].T + w[L + name + ".bias"]
        split = lambda t: t.reshape(T, H, dk).permute(1, 0, 2)
        q, k, v = (split(dense("attention.self." + s, x)) for s in ("query", "key", "value"))
        probs = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(dk), dim=-1)
        wo = w[L + "attention.output.dense.weight"].T.reshape(H, dk, d)  # rows h·d_k… of W_O (x·W_O convention)
        norms.append(norm_weighted(probs, v, wo))
        attended = dense("attention.output.dense", (probs @ v).permute(1, 0, 2).reshape(T, d))
        a = ln(attended + x, L + "attention.output.LayerNorm")
        inner = dense("intermediate.dense", a)
        ffn = dense("output.dense", 0.5 * inner * (1.0 + torch.erf(inner / math.sqrt(2.0))))
        route.append({"stream": x, "attended": attended, "ffn": ffn, "heads": (probs @ v) @ wo, "prefix": L})
        x = ln(ffn + a, L + "output.LayerNorm")
        streams.append(x)

    def head(h):
        t = h @ w["cls.predictions.transform.dense.weight"].T + w["cls.predictions.transform.dense.bias"]
        t = ln(0.5 * t * (1.0 + torch.erf(t / math.sqrt(2.0))), "cls.predictions.transform.LayerNorm")
        return t @ w[p + "embeddings.word_embeddings.weight"].T + w["cls.predictions.bias"]

    positions = [i for i, t in enumerate(ids) if t == MASK_ID]
    lens = [[top(head(s[i])) for i in positions] for s in streams]
    return {"norm_weighted": norms, "lens_positions": positions, "lens": lens,
            "attribution": bert_attribution(w, eps, route, head(streams[-1][positions[0]]), streams[-1], positions[0])}


def bert_attribution(w, eps, route, logits, last, position):
    """First-order direct logit attribution at the first [MASK] (docs/models.md): the logit as a
    function of a change δ added to layer n's attention output at `position`, along the residual
    route only (every feed-forward and later attention output held at the run's value), every
    LayerNorm's σ held at the run's value, the MLM head as it is; torch autograd gives its gradient
    at δ = 0 (GELU's slope at the run's point), dotted with each head's output there (b_O apart)."""
    token = int(torch.argmax(logits))

    gamma = lambda name: w.get(name + ".weight", w.get(name + ".gamma"))  # the old TF names too
    beta = lambda name: w.get(name + ".bias", w.get(name + ".beta"))

    def frozen_ln(s, sigma, name):
        return (s - s.mean()) / sigma * gamma(name) + beta(name)

    def sigma_of(s):
        return torch.sqrt(((s - s.mean()) ** 2).mean() + eps).detach()

    gelu = lambda t: 0.5 * t * (1.0 + torch.erf(t / math.sqrt(2.0)))
    transform = lambda x: x @ w["cls.predictions.transform.dense.weight"].T + w["cls.predictions.transform.dense.bias"]
    head_sigma = sigma_of(gelu(transform(last[position])))

    def head(x):  # the MLM head with its LayerNorm's σ frozen at the run; its GELU as it is
        u = frozen_ln(gelu(transform(x)), head_sigma, "cls.predictions.transform.LayerNorm")
        return u @ w["bert.embeddings.word_embeddings.weight"].T + w["cls.predictions.bias"]

    def logit_with(delta, n):
        x = None
        for m in range(n, len(route)):
            r, L = route[m], route[m]["prefix"]
            s1 = r["attended"][position] + (route[m]["stream"][position] if x is None else x) + (delta if m == n else 0)
            a = frozen_ln(s1, sigma_of(r["attended"][position] + r["stream"][position]), L + "attention.output.LayerNorm")
            norm = L + "attention.output.LayerNorm"
            a_run = layer_norm(r["attended"][position] + r["stream"][position], gamma(norm), beta(norm), eps)
            s2 = r["ffn"][position] + a
            x = frozen_ln(s2, sigma_of(r["ffn"][position] + a_run), L + "output.LayerNorm")
        return head(x)[token]

    heads = []
    for n, r in enumerate(route):
        delta = torch.zeros(last.shape[-1], requires_grad=True)
        with torch.enable_grad():
            (gradient,) = torch.autograd.grad(logit_with(delta, n), delta)
        heads.append([float(gradient @ r["heads"][h][position]) for h in range(r["heads"].shape[0])])
    return {"position": position, "token": token, "logit": float(logits[token]), "heads": heads}


# ---------------------------------------------------------------- GPT-2

def gpt2(config, w, ids):
    eps, H, d = config["layer_norm_epsilon"], config["n_head"], config["n_embd"]
    T, dk = len(ids), d // H
    ln = lambda x, name: layer_norm(x, w[name + ".weight"], w[name + ".bias"], eps)
    x = w["wte.weight"][ids] + w["wpe.weight"][:T]
    streams, norms, head_outputs = [x], [], []
    for n in range(config["n_layer"]):
        L = f"h.{n}."
        conv = lambda name, inp: inp @ w[L + name + ".weight"] + w[L + name + ".bias"]
        qkv = conv("attn.c_attn", ln(x, L + "ln_1"))
        q, k, v = (qkv[:, i * d:(i + 1) * d].reshape(T, H, dk).permute(1, 0, 2) for i in range(3))
        scores = (q @ k.transpose(-1, -2) / math.sqrt(dk)).masked_fill(~torch.tril(torch.ones(T, T, dtype=torch.bool)), float("-inf"))
        probs = torch.softmax(scores, dim=-1)
        wo = w[L + "attn.c_proj.weight"].reshape(H, dk, d)  # Conv1D: [in, out], rows h·d_k… are head h's
        norms.append(norm_weighted(probs, v, wo))
        head_outputs.append((probs @ v) @ wo)  # H×T×d, what each head writes (b_O apart)
        x = x + conv("attn.c_proj", (probs @ v).permute(1, 0, 2).reshape(T, d))
        inner = conv("mlp.c_fc", ln(x, L + "ln_2"))
        inner = 0.5 * inner * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (inner + 0.044715 * inner ** 3)))
        x = x + conv("mlp.c_proj", inner)
        streams.append(x)
    unembed = w["wte.weight"]
    final = lambda s: ln(s, "ln_f") @ unembed.T
    lens = [[top(final(s[i])) for i in range(T)] for s in streams]

    def frozen_readout(x_last, token):  # LayerNorm frozen at x_last: (c − mean c)/σ · γ · W_U[token]
        sigma = torch.sqrt(((x_last - x_last.mean()) ** 2).mean() + eps)
        return lambda c: float(((c - c.mean()) / sigma * w["ln_f.weight"]) @ unembed[token])

    return {"norm_weighted": norms, "lens_positions": list(range(T)), "lens": lens,
            "attribution": attribution(streams[-1][-1], final(streams[-1][-1]), head_outputs, frozen_readout)}


def attribution(x_last, logits, head_outputs, frozen_readout):
    token = int(torch.argmax(logits))
    readout = frozen_readout(x_last, token)
    return {"position": len(head_outputs[0][0]) - 1, "token": token, "logit": float(logits[token]),
            "heads": [[readout(o[h][-1]) for h in range(o.shape[0])] for o in head_outputs]}


# ---------------------------------------------------------------- the RoPE decoders

def decoder(c, w, ids):
    kind = c["model_type"]
    gemma = kind == "gemma3_text"
    d, H, Hkv, eps = c["hidden_size"], c["num_attention_heads"], c["num_key_value_heads"], c["rms_norm_eps"]
    dk = c.get("head_dim") or d // H
    norm = lambda x, name: x / rms(x, eps) * ((1 + w[name]) if gemma else w[name])
    act = (lambda x: F.gelu(x, approximate="tanh")) if gemma else F.silu
    x = w["model.embed_tokens.weight"][ids] * (math.sqrt(d) if gemma else 1.0)
    T = len(ids)
    streams, norms, head_outputs = [x], [], []
    for n in range(c["num_hidden_layers"]):
        p = f"model.layers.{n}."
        h = norm(x, p + "input_layernorm.weight")
        proj = lambda name, heads: (h @ w[p + name + ".weight"].T + w.get(p + name + ".bias", 0)).view(T, heads, dk).transpose(0, 1)
        q, k, v = proj("self_attn.q_proj", H), proj("self_attn.k_proj", Hkv), proj("self_attn.v_proj", Hkv)
        if p + "self_attn.q_norm.weight" in w:
            q, k = norm(q, p + "self_attn.q_norm.weight"), norm(k, p + "self_attn.k_norm.weight")
        slides = layer_slides(c, n)
        base, scaling = (c["rope_local_base_freq"], None) if gemma and slides else (c["rope_theta"], c.get("rope_scaling"))
        inv = inverse_frequencies(dk, base, scaling)
        q, k = apply_rope(q, inv), apply_rope(k, inv)
        k, v = k.repeat_interleave(H // Hkv, dim=0), v.repeat_interleave(H // Hkv, dim=0)
        scale = c["query_pre_attn_scalar"] ** -0.5 if gemma else dk ** -0.5
        i, j = torch.arange(T)[:, None], torch.arange(T)[None, :]
        visible = (j <= i) & ((j > i - c["sliding_window"]) if slides else True)
        probs = torch.softmax((q @ k.transpose(-1, -2) * scale).masked_fill(~visible, float("-inf")), dim=-1)
        wo = w[p + "self_attn.o_proj.weight"].T.reshape(H, dk, d)
        norms.append(norm_weighted(probs, v, wo))
        per_head = (probs @ v) @ wo  # H×T×d
        o = per_head.sum(0)
        if gemma:  # the post-attention norm, its scale frozen at the whole output o
            per_head = per_head / rms(o, eps) * (1 + w[p + "post_attention_layernorm.weight"])
            o = norm(o, p + "post_attention_layernorm.weight")
        head_outputs.append(per_head)
        x = feed_forward(x + o, w, p, norm, act, gemma)
        streams.append(x)
    unembed = w["model.embed_tokens.weight"] if c["tie_word_embeddings"] else w["lm_head.weight"]
    cap = c.get("final_logit_softcapping")

    def final(s):
        logits = norm(s, "model.norm.weight") @ unembed.T
        return torch.tanh(logits / cap) * cap if cap else logits

    gamma = (1 + w["model.norm.weight"]) if gemma else w["model.norm.weight"]

    def frozen_readout(x_last, token):  # RMSNorm frozen at x_last; the soft cap belongs to no head
        return lambda contribution: float((contribution / rms(x_last, eps) * gamma) @ unembed[token])

    return {"norm_weighted": norms, "lens_positions": list(range(T)), "lens": [[top(final(s[i])) for i in range(T)] for s in streams],
            "attribution": attribution(streams[-1][-1], final(streams[-1][-1]), head_outputs, frozen_readout)}


# ---------------------------------------------------------------- writing

def short(x):
    return float(f"{x:.10g}")


def rounded(value):
    if isinstance(value, torch.Tensor):
        return rounded(value.tolist())
    if isinstance(value, list):
        return [rounded(v) for v in value]
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    return short(value) if isinstance(value, float) else value


CASES = [("bert-tiny", bert, [2, 11, MASK_ID, 35, 47, MASK_ID, 59, 3]),
         ("gpt2-tiny", gpt2, [5, 17, 42, 8, 90, 13, 27]),
         ("llama-tiny", decoder, [1, 7, 19, 33, 5, 60, 12, 41]),
         ("qwen2-tiny", decoder, [1, 50, 3, 3, 28, 9]),
         ("gemma3-tiny", decoder, [1, 7, 19, 33, 5, 60])]


# The shipped example models, for the window's tests (tests/gui/test_beyond_window.cpp): the ids are
# AttnScope's tokenization of "The LORD is my shepherd" and "The LORD is my [MASK]." (inputs; the
# test checks the window's run has these ids before it compares numbers).
EXAMPLE_CASES = [("example-gpt", gpt2, [449, 340, 335, 377, 2352]),
                 ("example-bert", bert, [2, 67, 119, 104, 159, MASK_ID, 37, 3])]


# A second sentence for the Compare tab's test (tests/gui/test_compare_tab.cpp): AttnScope's
# tokenization of "The LORD is my light", as many tokens as "The LORD is my shepherd" above, so the
# tab aligns the two by position.
SECOND_SENTENCES = [("example-gpt", gpt2, [449, 340, 335, 377, 1045])]

# Attention between words under weight × ‖value‖ (tests/core/test_word_norms.cpp): AttnScope's
# tokenization of "The shepherds unfolded their tents" (BERT: "… their [MASK]"; its forward reads
# a [MASK]), whose "unfolded" is several pieces.
WORD_CASES = [("example-gpt", gpt2, [449, 3562, 310, 69, 3118, 282, 391, 2632]),
              ("example-bert", bert, [2, 67, 3074, 103, 3912, 80, 177, MASK_ID, 3])]


def pieces_of(name, ids):
    """The vocabulary pieces of `ids`, read from the model's tokenizer.json."""
    with open(os.path.join(EXAMPLES, name, "tokenizer.json"), encoding="utf-8") as f:
        tokenizer = json.load(f)
    vocab = {i: piece for piece, i in tokenizer["model"]["vocab"].items()}
    vocab.update({t["id"]: t["content"] for t in tokenizer.get("added_tokens", [])})
    return [vocab[i] for i in ids]


def word_groups(pieces):
    """Which word each piece belongs to, from the pieces' own marks: in GPT-2's vocabulary a piece
    that starts with "Ġ" (a space) starts a word and any other continues the word before; in
    BERT's (its first piece is [CLS]) a piece that starts with "##" continues the word before and
    any other starts one, so [CLS] and [SEP] are words alone. (Enough for these sentences: no
    punctuation, no character split over byte pieces.)"""
    bert = pieces[0] == "[CLS]"
    groups = []
    for n, piece in enumerate(pieces):
        starts = not piece.startswith("##") if bert else n == 0 or piece.startswith("Ġ")
        groups.append(len(set(groups)) if starts else groups[-1])
    return groups


def word_level_shares(norms, groups):
    """L×H×W×W: each piece row's norm-weighted shares (α_ij‖f(x_j)‖ over its row's sum), then
    between words by Clark et al. 2019: a word's row is the mean of its pieces' rows, a word's
    column the sum of its pieces' columns."""
    member = torch.zeros(len(groups), max(groups) + 1)
    member[torch.arange(len(groups)), torch.tensor(groups)] = 1.0  # T×W
    out = []
    for layer in norms:  # H×T×T
        shares = layer / layer.sum(-1, keepdim=True)
        out.append((member.T @ shares @ member) / member.sum(0)[:, None])
    return out


def read_example(name):
    """An example model's config and tensors; GPT-2's without the "transformer." prefix."""
    folder = os.path.join(EXAMPLES, name)
    with open(os.path.join(folder, "config.json")) as f:
        config = json.load(f)
    w = read_safetensors(os.path.join(folder, "model.safetensors"))
    return config, {k.removeprefix("transformer."): v for k, v in w.items()}


def main():
    torch.set_grad_enabled(False)
    cases = []
    for name, forward, ids in CASES + EXAMPLE_CASES:
        config, w = read_example(name) if name.startswith("example-") else read_model(name)
        cases.append(dict({"model": name, "ids": ids}, **rounded(forward(config, w, ids))))
    second = [{"model": name, "ids": ids, "norm_weighted": rounded(forward(*read_example(name), ids)["norm_weighted"])}
              for name, forward, ids in SECOND_SENTENCES]
    words = []
    for name, forward, ids in WORD_CASES:
        pieces = pieces_of(name, ids)
        groups = word_groups(pieces)
        norms = forward(*read_example(name), ids)["norm_weighted"]
        words.append({"model": name, "ids": ids, "pieces": pieces, "groups": groups,
                      "word_norm_shares": rounded(word_level_shares(norms, groups))})
    with open(os.path.join(FIXTURES, "beyond_weights.json"), "w") as f:
        json.dump({"generator": "tests/reference/reference_beyond_weights.py", "top_k": TOP_K, "cases": cases,
                   "second_sentences": second, "word_level": words}, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
