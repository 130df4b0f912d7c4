#!/usr/bin/python3
"""Writes a random-weight decoder checkpoint in a real Hugging Face layout for the benchmarks.

    /usr/bin/python3 bench/make_decoder_checkpoint.py SHAPE OUT_DIR [--seed N]

SHAPE is qwen2.5-0.5b (Qwen2ForCausalLM: d 896, 24 layers, 14 heads, 2 key/value heads, head_dim 64,
d_ff 4864, V 151936, q/k/v biases, rope_theta 1e6) or llama-3.2-1b (LlamaForCausalLM: d 2048,
16 layers, 32 heads, 8 key/value heads, head_dim 64, d_ff 8192, V 128256, rope_scaling llama3
factor 32, rope_theta 5e5); both tie the output head to the embeddings.
OUT_DIR gets config.json (the published model's keys), model.safetensors (BF16, the published
tensor names, written tensor by tensor so the float32 weights are never all in memory) and a
byte-level tokenizer.json with the 256 byte symbols and no merges: every ASCII character of a
sentence is one token whose id is its byte value, so a sentence of T letters is T tokens.
Weights N(0, 0.02²) (small enough that the activations stay finite), RMSNorm weights
1 + N(0, 0.02²), biases N(0, 0.02²). Needs Debian's python3-torch only.
"""
import json
import os
import struct
import sys

import torch

SHAPES = {
    "qwen2.5-0.5b": {
        "architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "hidden_act": "silu",
        "hidden_size": 896, "intermediate_size": 4864, "num_hidden_layers": 24,
        "num_attention_heads": 14, "num_key_value_heads": 2, "vocab_size": 151936,
        "max_position_embeddings": 32768, "rope_theta": 1000000.0, "rms_norm_eps": 1e-6,
        "tie_word_embeddings": True, "use_sliding_window": False, "sliding_window": 32768,
        "max_window_layers": 24, "rope_scaling": None, "attention_dropout": 0.0,
        "bos_token_id": 151643, "eos_token_id": 151643, "torch_dtype": "bfloat16"},
    "llama-3.2-1b": {
        "architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_act": "silu",
        "hidden_size": 2048, "intermediate_size": 8192, "num_hidden_layers": 16,
        "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 64, "vocab_size": 128256,
        "max_position_embeddings": 131072, "rope_theta": 500000.0, "rms_norm_eps": 1e-5,
        "rope_scaling": {"rope_type": "llama3", "factor": 32.0, "low_freq_factor": 1.0,
                         "high_freq_factor": 4.0, "original_max_position_embeddings": 8192},
        "tie_word_embeddings": True, "attention_bias": False, "mlp_bias": False,
        "bos_token_id": 128000, "eos_token_id": 128001, "torch_dtype": "bfloat16"},
}
STD = 0.02


def tensor_shapes(c):
    """(name, shape, kind) in the published files' order; kind: weight, norm or bias."""
    d, ff, dk = c["hidden_size"], c["intermediate_size"], c["hidden_size"] // c["num_attention_heads"]
    q, kv = c["num_attention_heads"] * dk, c["num_key_value_heads"] * dk
    out = [("model.embed_tokens.weight", [c["vocab_size"], d], "weight")]
    for n in range(c["num_hidden_layers"]):
        p = f"model.layers.{n}."
        out.append((p + "input_layernorm.weight", [d], "norm"))
        out += [(p + "mlp.down_proj.weight", [d, ff], "weight"), (p + "mlp.gate_proj.weight", [ff, d], "weight"),
                (p + "mlp.up_proj.weight", [ff, d], "weight")]
        out.append((p + "post_attention_layernorm.weight", [d], "norm"))
        for x, width in (("q", q), ("k", kv), ("v", kv)):
            if c["model_type"] == "qwen2":
                out.append((p + f"self_attn.{x}_proj.bias", [width], "bias"))
            out.append((p + f"self_attn.{x}_proj.weight", [width, d], "weight"))
        out.append((p + "self_attn.o_proj.weight", [d, q], "weight"))
    out.append(("model.norm.weight", [d], "norm"))
    return out


def random_bf16(shape, kind, gen):
    t = torch.randn(*shape, generator=gen, dtype=torch.float32) * STD
    if kind == "norm":
        t += 1
    return t.to(torch.bfloat16).contiguous().view(torch.int16).numpy().astype("<i2").tobytes()


def write_safetensors(path, shapes, gen):
    """The header first (offsets from the shapes), then each tensor as it is drawn; padded with
    spaces to a multiple of 8 bytes, as the safetensors library does."""
    header, offset = {"__metadata__": {"format": "pt"}}, 0
    for name, shape, _ in shapes:
        size = 2 * torch.Size(shape).numel()
        header[name] = {"dtype": "BF16", "shape": shape, "data_offsets": [offset, offset + size]}
        offset += size
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path + ".part", "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for _, shape, kind in shapes:
            f.write(random_bf16(shape, kind, gen))
    os.replace(path + ".part", path)


def byte_symbols():
    """GPT-2's bytes_to_unicode: printable bytes as themselves, the rest shifted past 255."""
    keep = set(range(ord("!"), ord("~") + 1)) | set(range(ord("¡"), ord("¬") + 1)) | set(range(ord("®"), ord("ÿ") + 1))
    chars, extra = [], 0
    for b in range(256):
        chars.append(chr(b) if b in keep else chr(256 + extra))
        extra += b not in keep
    return chars


def tokenizer():
    byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}
    return {"version": "1.0", "truncation": None, "padding": None, "added_tokens": [], "normalizer": None,
            "pre_tokenizer": byte_level, "post_processor": None, "decoder": byte_level,
            "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": "",
                      "end_of_word_suffix": "", "fuse_unk": False, "byte_fallback": False,
                      "vocab": {s: i for i, s in enumerate(byte_symbols())}, "merges": []}}


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in SHAPES:
        sys.exit(__doc__)
    shape, out = sys.argv[1], sys.argv[2]
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 1234
    config = SHAPES[shape]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
        f.write("\n")
    with open(os.path.join(out, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(tokenizer(), f, ensure_ascii=False)
    path = os.path.join(out, "model.safetensors")
    write_safetensors(path, tensor_shapes(config), torch.Generator().manual_seed(seed))
    print(f"wrote {path} ({os.path.getsize(path)} bytes)")


if __name__ == "__main__":
    main()
