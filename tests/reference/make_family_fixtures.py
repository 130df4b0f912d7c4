#!/usr/bin/python3
"""Writes tiny random-weight checkpoints of the RoPE decoder families and their reference outputs.

    /usr/bin/python3 tests/reference/make_family_fixtures.py      (Debian's python3-torch)

Writes, for each model below:
    tests/reference/models/<name>/config.json
    tests/reference/models/<name>/model.safetensors, or model-0000i-of-00002.safetensors and
        model.safetensors.index.json (the sharded one)
    tests/reference/fixtures/family-<name>.json

The forward pass here is float64 torch written from the semantics of transformers' published
modeling code (LlamaForCausalLM, MistralForCausalLM, Qwen2ForCausalLM, Qwen3ForCausalLM,
Gemma3ForCausalLM) in eval mode on one unpadded sequence, sharing no code with core/. The weights
are the real layouts (model.layers.N.self_attn.q_proj.weight, …) with config.json shapes scaled
down. A BF16 checkpoint's weights are rounded to bfloat16 first, and the forward pass uses the
rounded values (the engine computes in float32 from the same numbers).

Semantics, per family (what the C++ engine must match):
  llama    RMSNorm x/√(mean x² + eps)·w; RoPE with rotate_half pairing (i, i + d_k/2) and
           rope_scaling "llama3"; grouped-query attention (query head h reads key/value head
           h // (H / H_kv)); SwiGLU down(silu(gate(x))·up(x)); tied or separate lm_head.
  mistral  llama + a causal sliding window: key j visible to query i when i − W < j ≤ i.
  qwen2    llama + biases on q/k/v (not o).
  qwen3    llama + head_dim from the config (H·d_k ≠ d) and RMSNorm over d_k on each head's
           q and k before RoPE.
  gemma3   embeddings × √d; RMSNorm x̂·(1 + w); GeGLU (gelu tanh); q/k norm; norms after
           attention and after the MLP too; layers sliding (local RoPE base, window) or global
           (rope_theta with rope_scaling); scores × query_pre_attn_scalar^-½; final logits
           cap·tanh(logits/cap).
Head ablation is Hugging Face's head_mask: the query head's probabilities × 0.

Fixture format (family-<name>.json):
    {"model": "tests/reference/models/<name>", "dtype": "F32" | "BF16",
     "runs": [{"ids": [...], "ablate": [[layer, head], ...] (0-based),
               "attentions": [L][H][T][T], "logits": [V] (after the last token)}]}
"""

import json
import math
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_model_fixtures import write_safetensors  # noqa: E402  (the same file layout as the model fixtures)

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, "models")
FIXTURES = os.path.join(HERE, "fixtures")

VOCAB = 64
RUNS = [[1, 7, 19, 33, 5, 60, 12, 41, 2], [1, 50, 3, 3, 28]]
ABLATE = [[0, 1], [1, 3]]  # a run of RUNS[0] with these heads switched off

COMMON = {"vocab_size": VOCAB, "hidden_size": 32, "intermediate_size": 48, "num_hidden_layers": 2,
          "num_attention_heads": 4, "max_position_embeddings": 64, "rms_norm_eps": 1e-6,
          "initializer_range": 0.02, "bos_token_id": 1, "eos_token_id": 2, "torch_dtype": "float32"}

CONFIGS = {
    # Llama 3.2-like: rope_scaling llama3 (original context 16, so every branch is taken at d_k 8),
    # 2 key/value heads for 4 query heads, tied embeddings.
    "llama-tiny": dict(COMMON, architectures=["LlamaForCausalLM"], model_type="llama", hidden_act="silu",
                       num_key_value_heads=2, rope_theta=10000.0, tie_word_embeddings=True, attention_bias=False,
                       rope_scaling={"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                                     "high_freq_factor": 4.0, "original_max_position_embeddings": 16}),
    # Mistral-like, sharded in two files: multi-query (1 key/value head), a window of 3, linear
    # rope scaling, a separate lm_head.
    "mistral-tiny": dict(COMMON, architectures=["MistralForCausalLM"], model_type="mistral", hidden_act="silu",
                         num_key_value_heads=1, rope_theta=1000.0, sliding_window=3, tie_word_embeddings=False,
                         rope_scaling={"type": "linear", "factor": 2.0}),
    # Qwen2.5-like in BF16: q/k/v biases, tied.
    "qwen2-tiny": dict(COMMON, architectures=["Qwen2ForCausalLM"], model_type="qwen2", hidden_act="silu",
                       num_key_value_heads=2, rope_theta=1000000.0, tie_word_embeddings=True,
                       use_sliding_window=False, sliding_window=4, max_window_layers=2, rope_scaling=None,
                       torch_dtype="bfloat16"),
    # Qwen3-like: head_dim 16 with 4 heads on a width of 32, q/k RMSNorm.
    "qwen3-tiny": dict(COMMON, architectures=["Qwen3ForCausalLM"], model_type="qwen3", hidden_act="silu",
                       num_key_value_heads=2, head_dim=16, rope_theta=1000000.0, tie_word_embeddings=False,
                       attention_bias=False, rope_scaling=None),
    # Gemma 3-like: layer 0 local (window 3, base 10000), layer 1 global (1e6, linear ×2).
    "gemma3-tiny": dict(COMMON, architectures=["Gemma3ForCausalLM"], model_type="gemma3_text",
                        hidden_activation="gelu_pytorch_tanh", num_key_value_heads=1, head_dim=8,
                        rope_theta=1000000.0, rope_local_base_freq=10000.0, sliding_window=3,
                        sliding_window_pattern=2, query_pre_attn_scalar=12, final_logit_softcapping=5.0,
                        attn_logit_softcapping=None, tie_word_embeddings=True,
                        rope_scaling={"rope_type": "linear", "factor": 2.0}),
}
DTYPES = {"qwen2-tiny": "BF16"}
SHARDED = {"mistral-tiny"}


# ---------------------------------------------------------------- weights

def head_dim(c):
    return c.get("head_dim") or c["hidden_size"] // c["num_attention_heads"]


def make_weights(name, c, seed):
    gen = torch.Generator().manual_seed(seed)
    randn = lambda *shape, std: torch.randn(*shape, generator=gen, dtype=torch.float64) * std
    d, ff, H, Hkv, dk = c["hidden_size"], c["intermediate_size"], c["num_attention_heads"], \
        c["num_key_value_heads"], head_dim(c)
    gemma = c["model_type"] == "gemma3_text"
    norm = (lambda n: randn(n, std=0.1)) if gemma else (lambda n: 1 + randn(n, std=0.1))
    w = {"model.embed_tokens.weight": randn(VOCAB, d, std=1.0 if not gemma else 0.2),
         "model.norm.weight": norm(d)}
    for n in range(c["num_hidden_layers"]):
        p = f"model.layers.{n}."
        w[p + "input_layernorm.weight"] = norm(d)
        w[p + "post_attention_layernorm.weight"] = norm(d)
        w[p + "self_attn.q_proj.weight"] = randn(H * dk, d, std=0.4)
        w[p + "self_attn.k_proj.weight"] = randn(Hkv * dk, d, std=0.4)
        w[p + "self_attn.v_proj.weight"] = randn(Hkv * dk, d, std=0.3)
        w[p + "self_attn.o_proj.weight"] = randn(d, H * dk, std=0.3)
        if c["model_type"] == "qwen2":
            for x, width in (("q", H * dk), ("k", Hkv * dk), ("v", Hkv * dk)):
                w[p + f"self_attn.{x}_proj.bias"] = randn(width, std=0.3)
        if c["model_type"] in ("qwen3", "gemma3_text"):
            w[p + "self_attn.q_norm.weight"] = norm(dk)
            w[p + "self_attn.k_norm.weight"] = norm(dk)
        if gemma:
            w[p + "pre_feedforward_layernorm.weight"] = norm(d)
            w[p + "post_feedforward_layernorm.weight"] = norm(d)
        w[p + "mlp.gate_proj.weight"] = randn(ff, d, std=0.3)
        w[p + "mlp.up_proj.weight"] = randn(ff, d, std=0.3)
        w[p + "mlp.down_proj.weight"] = randn(d, ff, std=0.3)
    if not c["tie_word_embeddings"]:
        w["lm_head.weight"] = randn(VOCAB, d, std=0.3)
    if DTYPES.get(name) == "BF16":
        w = {k: t.to(torch.bfloat16).to(torch.float64) for k, t in w.items()}
    return w


# ---------------------------------------------------------------- the forward pass, float64

def rms_norm(x, weight, eps, plus_one):
    y = x / torch.sqrt((x * x).mean(-1, keepdim=True) + eps)
    return y * (1 + weight) if plus_one else y * weight


def inverse_frequencies(dim, base, scaling):
    """transformers' ROPE_INIT_FUNCTIONS for "default", "linear" and "llama3"."""
    inv = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.float64) / dim))
    kind = (scaling or {}).get("rope_type", (scaling or {}).get("type", "default"))
    if kind == "linear":
        return inv / scaling["factor"]
    if kind == "llama3":
        factor, low, high = scaling["factor"], scaling["low_freq_factor"], scaling["high_freq_factor"]
        old = scaling["original_max_position_embeddings"]
        low_wavelen, high_wavelen = old / low, old / high
        wavelen = 2 * math.pi / inv
        scaled = torch.where(wavelen > low_wavelen, inv / factor, inv)
        smooth = (old / wavelen - low) / (high - low)
        smoothed = (1 - smooth) * scaled / factor + smooth * scaled
        medium = ~(wavelen < high_wavelen) & ~(wavelen > low_wavelen)
        return torch.where(medium, smoothed, scaled)
    return inv


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def apply_rope(x, inv_freq):
    """x: heads×T×d_k."""
    T = x.shape[-2]
    freqs = torch.arange(T, dtype=torch.float64)[:, None] * inv_freq[None, :]
    emb = torch.cat((freqs, freqs), dim=-1)
    return x * emb.cos() + rotate_half(x) * emb.sin()


def layer_slides(c, n):
    kind = c["model_type"]
    if kind == "gemma3_text":
        return (n + 1) % c["sliding_window_pattern"] != 0
    if kind == "mistral":
        return c.get("sliding_window") is not None
    if kind in ("qwen2", "qwen3"):
        return bool(c.get("use_sliding_window")) and n >= c.get("max_window_layers", 0)
    return False


def feed_forward(x, w, p, norm, act, gemma):
    """The stream after layer p's gated MLP: down(act(gate(h))·up(h)) on the normed stream h, added
    back (Gemma 3: its own norm before the MLP, and one after)."""
    h = norm(x, p + ("pre_feedforward_layernorm.weight" if gemma else "post_attention_layernorm.weight"))
    m = (act(h @ w[p + "mlp.gate_proj.weight"].T) * (h @ w[p + "mlp.up_proj.weight"].T)) @ w[p + "mlp.down_proj.weight"].T
    if gemma:
        m = norm(m, p + "post_feedforward_layernorm.weight")
    return x + m


def forward(c, w, ids, ablate=()):
    kind = c["model_type"]
    gemma = kind == "gemma3_text"
    d, H, Hkv, dk, eps = c["hidden_size"], c["num_attention_heads"], c["num_key_value_heads"], head_dim(c), \
        c["rms_norm_eps"]
    norm = lambda x, name: rms_norm(x, w[name], eps, gemma)
    act = (lambda x: torch.nn.functional.gelu(x, approximate="tanh")) if gemma else torch.nn.functional.silu
    x = w["model.embed_tokens.weight"][ids]
    if gemma:
        x = x * math.sqrt(d)
    T = len(ids)
    attentions = []
    for n in range(c["num_hidden_layers"]):
        p = f"model.layers.{n}."
        h = norm(x, p + "input_layernorm.weight")
        proj = lambda name, heads: (h @ w[p + name + ".weight"].T + w.get(p + name + ".bias", 0)) \
            .view(T, heads, dk).transpose(0, 1)
        q, k, v = proj("self_attn.q_proj", H), proj("self_attn.k_proj", Hkv), proj("self_attn.v_proj", Hkv)
        if p + "self_attn.q_norm.weight" in w:
            q, k = norm(q, p + "self_attn.q_norm.weight"), norm(k, p + "self_attn.k_norm.weight")
        slides = layer_slides(c, n)
        if gemma and slides:
            inv = inverse_frequencies(dk, c["rope_local_base_freq"], None)
        else:
            inv = inverse_frequencies(dk, c["rope_theta"], c.get("rope_scaling"))
        q, k = apply_rope(q, inv), apply_rope(k, inv)
        k, v = k.repeat_interleave(H // Hkv, dim=0), v.repeat_interleave(H // Hkv, dim=0)  # repeat_kv
        scaling = c["query_pre_attn_scalar"] ** -0.5 if gemma else dk ** -0.5
        scores = q @ k.transpose(-1, -2) * scaling  # H×T×T
        i, j = torch.arange(T)[:, None], torch.arange(T)[None, :]
        visible = j <= i
        if slides:
            visible = visible & (j > i - c["sliding_window"])
        scores = scores.masked_fill(~visible, float("-inf"))
        probs = torch.softmax(scores, dim=-1)
        attentions.append(probs.clone())
        for layer, head in ablate:
            if layer == n:
                probs[head] = probs[head] * 0  # head_mask
        o = (probs @ v).transpose(0, 1).reshape(T, H * dk) @ w[p + "self_attn.o_proj.weight"].T
        if gemma:
            o = norm(o, p + "post_attention_layernorm.weight")
        x = feed_forward(x + o, w, p, norm, act, gemma)
    x = norm(x, "model.norm.weight")
    head = w["model.embed_tokens.weight"] if c["tie_word_embeddings"] else w["lm_head.weight"]
    logits = x[-1] @ head.T
    cap = c.get("final_logit_softcapping")
    if cap:
        logits = torch.tanh(logits / cap) * cap
    return attentions, logits


# ---------------------------------------------------------------- files

def write_checkpoint(folder, w, dtype, sharded):
    tensors = sorted(w.items())
    if not sharded:
        write_safetensors(os.path.join(folder, "model.safetensors"), tensors, dtype)
        return
    half = len(tensors) // 2
    parts = [tensors[:half], tensors[half:]]
    weight_map, total = {}, 0
    for i, part in enumerate(parts):
        file = f"model-{i + 1:05d}-of-{len(parts):05d}.safetensors"
        total += write_safetensors(os.path.join(folder, file), part, dtype)
        weight_map.update({name: file for name, _ in part})
    with open(os.path.join(folder, "model.safetensors.index.json"), "w") as f:
        json.dump({"metadata": {"total_size": total}, "weight_map": weight_map}, f, indent=2)
        f.write("\n")


def rounded(t):
    if t.dim() == 0:
        return float(f"{float(t):.10g}")
    return [rounded(row) for row in t]


def main():
    os.makedirs(FIXTURES, exist_ok=True)
    torch.set_grad_enabled(False)
    for seed, (name, config) in enumerate(CONFIGS.items(), start=11):
        folder = os.path.join(MODELS, name)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "config.json"), "w") as f:
            json.dump(config, f, indent=2)
            f.write("\n")
        w = make_weights(name, config, seed)
        dtype = DTYPES.get(name, "F32")
        write_checkpoint(folder, w, dtype, name in SHARDED)
        runs = [(ids, []) for ids in RUNS] + [(RUNS[0], ABLATE)]
        fixture = {"model": "tests/reference/models/" + name, "dtype": dtype, "runs": []}
        for ids, ablate in runs:
            attentions, logits = forward(config, w, ids, ablate)
            fixture["runs"].append({"ids": ids, "ablate": ablate, "attentions": [rounded(a) for a in attentions],
                                    "logits": rounded(logits)})
        with open(os.path.join(FIXTURES, f"family-{name}.json"), "w") as f:
            json.dump(fixture, f, separators=(",", ":"))
            f.write("\n")


if __name__ == "__main__":
    main()
