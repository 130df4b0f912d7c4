#!/usr/bin/python3
"""PyTorch reference timing of the Qwen2 / Llama forward pass on the SAME BF16 safetensors weights.

    /usr/bin/python3 bench/torch_decoder_forward.py MODEL_DIR [--threads N] [--tokens T] [--runs R]
                                                    [--warmup W] [--compare FILE]

Reads MODEL_DIR/config.json and model.safetensors by hand (8-byte LE header length, JSON header,
raw data; there is no safetensors or transformers package), widens each BF16 tensor once to
float32 at load, then runs transformers' Qwen2/Llama computation in float32 under
torch.inference_mode: RMSNorm (x·rsqrt(mean x² + eps)·w), q/k/v projections (Qwen2's biases),
RoPE with rotate_half (rope_theta; rope_scaling "llama3" as transformers computes its inverse
frequencies), grouped-query attention (query head h reads key/value head h // (H / H_kv), as
repeat_kv), causal softmax(QKᵀ/√d_k)·V, o_proj, SwiGLU MLP, the final norm and the last token's
logits through the tied embeddings. The heads are one 2-D matmul each (aten::mm goes to OpenBLAS;
Debian's torch has no BLAS batched GEMM, so bmm would be a weaker baseline). No code is shared
with core/. Input ids: T letters a, b, c, … as the byte-level tokenizer of
make_decoder_checkpoint.py makes them (id = byte value), the sentence bench/run_decoder_bench.sh
gives attnscope. Prints "load <ms>", one "time torch <ms>" line per timed run, the median, and the
top-5 ids with their logits.
--compare FILE: attnscope's `--print --format json` of the same sentence; prints the largest
difference between its top-k logits and ours at the same ids, and both top-5 lists.
--keep-attentions: every head's weights are held until the forward pass returns, as
output_attentions returns them (by default each is dropped after its A·V: a stronger baseline,
and the only one that fits in memory at 4,096 tokens).
"""
import json
import math
import mmap
import os
import statistics
import struct
import sys
import time


def arg(name, default):
    return type(default)(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


# OpenBLAS's own pool (which torch.set_num_threads does not set) and torch's get the same N.
for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ[var] = str(arg("--threads", 1))

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402


def load_bf16_as_float(path):
    """Every tensor widened once to a float32 copy; the mapping is closed after."""
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        (n,) = struct.unpack("<Q", mm[:8])
        header = json.loads(mm[8:8 + n])
        out = {}
        for name, info in header.items():
            if name == "__metadata__":
                continue
            assert info["dtype"] == "BF16", (name, info["dtype"])
            begin, end = info["data_offsets"]
            raw = bytearray(mm[8 + n + begin:8 + n + end])
            words = torch.frombuffer(raw, dtype=torch.int16)
            out[name] = words.view(torch.bfloat16).float().view(info["shape"])
        return out


def inverse_frequencies(c, dim):
    inv = 1.0 / (c["rope_theta"] ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
    s = c.get("rope_scaling") or {}
    if s.get("rope_type", s.get("type")) != "llama3":
        return inv
    factor, low, high = s["factor"], s["low_freq_factor"], s["high_freq_factor"]
    old = s["original_max_position_embeddings"]
    wavelen = 2 * math.pi / inv
    scaled = torch.where(wavelen > old / low, inv / factor, inv)
    smooth = (old / wavelen - low) / (high - low)
    smoothed = (1 - smooth) * scaled / factor + smooth * scaled
    medium = ~(wavelen < old / high) * ~(wavelen > old / low)
    return torch.where(medium, smoothed, scaled)


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def make_forward(c, W, keep_attentions=False):
    d, H, Hkv = c["hidden_size"], c["num_attention_heads"], c["num_key_value_heads"]
    dk = c.get("head_dim") or d // H
    group, eps = H // Hkv, c["rms_norm_eps"]

    def rms(x, name):
        return W[name] * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps))

    def lin(x, name):
        bias = W.get(name + ".bias")
        return F.linear(x, W[name + ".weight"], bias)

    def forward(ids):
        T = len(ids)
        freqs = torch.outer(torch.arange(T, dtype=torch.int64).float(), inverse_frequencies(c, dk))
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos(), emb.sin()
        mask = torch.full((T, T), torch.finfo(torch.float32).min).triu(1)
        x = W["model.embed_tokens.weight"][torch.tensor(ids)]
        attentions = []  # with keep_attentions: every head's T×T weights, as output_attentions returns them
        for n in range(c["num_hidden_layers"]):
            p = f"model.layers.{n}."
            h = rms(x, p + "input_layernorm.weight")
            q = lin(h, p + "self_attn.q_proj").view(T, H, dk).transpose(0, 1)      # H × T × d_k
            k = lin(h, p + "self_attn.k_proj").view(T, Hkv, dk).transpose(0, 1)    # H_kv × T × d_k
            v = lin(h, p + "self_attn.v_proj").view(T, Hkv, dk).transpose(0, 1)
            q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
            heads = []
            for i in range(H):
                scores = torch.mm(q[i], k[i // group].t()) / math.sqrt(dk) + mask
                weights = torch.softmax(scores, dim=-1)
                if keep_attentions:
                    attentions.append(weights)
                heads.append(torch.mm(weights, v[i // group]))
            x = x + lin(torch.cat(heads, dim=-1), p + "self_attn.o_proj")
            h = rms(x, p + "post_attention_layernorm.weight")
            x = x + lin(F.silu(lin(h, p + "mlp.gate_proj")) * lin(h, p + "mlp.up_proj"), p + "mlp.down_proj")
        last = rms(x[-1:], "model.norm.weight")
        head = W.get("lm_head.weight", W["model.embed_tokens.weight"])
        return F.linear(last, head)[0], attentions

    return forward


def compare(path, logits):
    with open(path) as f:
        ours = json.load(f)["predictions"][-1]["top"]
    diff = max(abs(t["logit"] - float(logits[t["id"]])) for t in ours)
    print("top-5 attnscope:", [t["id"] for t in ours[:5]])
    print("top-5 torch:    ", torch.topk(logits, 5).indices.tolist())
    print(f"largest logit difference over attnscope's top-{len(ours)}: {diff:.3g}")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    folder = sys.argv[1]
    threads, T = arg("--threads", 1), arg("--tokens", 128)
    torch.set_num_threads(threads)
    with open(os.path.join(folder, "config.json")) as f:
        c = json.load(f)
    start = time.perf_counter()
    W = load_bf16_as_float(os.path.join(folder, "model.safetensors"))
    print(f"load {1000 * (time.perf_counter() - start):.1f}")
    forward = make_forward(c, W, "--keep-attentions" in sys.argv)
    ids = [ord("a") + i % 26 for i in range(T)]
    times = []
    with torch.inference_mode():
        for r in range(arg("--warmup", 0) + arg("--runs", 1)):
            start = time.perf_counter()
            logits, attentions = forward(ids)
            elapsed = 1000 * (time.perf_counter() - start)
            del attentions  # untimed: output_attentions hands them to the caller
            if r >= arg("--warmup", 0):
                times.append(elapsed)
                print(f"time torch {times[-1]:.1f}")
    print(f"median torch {statistics.median(times):.1f} ms (threads {threads}, T {T})")
    top = torch.topk(logits, 5)
    print("top-5:", [(i, round(float(v), 4)) for i, v in zip(top.indices.tolist(), top.values)])
    if "--compare" in sys.argv:
        compare(arg("--compare", ""), logits)


if __name__ == "__main__":
    main()
