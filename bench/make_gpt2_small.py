#!/usr/bin/python3
"""Writes a gpt2-shaped (124M) GPT2LMHeadModel checkpoint with random weights for the benchmarks.

    /usr/bin/python3 bench/make_gpt2_small.py OUT_DIR [--seed N]

OUT_DIR gets config.json, model.safetensors (F32, ~498 MB, the tensor names and [in, out] Conv1D
layouts of the published "gpt2" file, lm_head tied to wte) and a byte-level BPE tokenizer
(vocab.json: the 256 byte symbols, synthetic "Ġword" entries up to 50256, <|endoftext|>; merges.txt
without merges), so the folder opens in the app and every character of a sentence is one token.
Shapes: 12 layers, d 768, 12 heads, d_ff 3072, V 50257, P 1024; weights N(0, 0.02²), LayerNorm
γ = 1 + N(0, 0.02²). Needs numpy only; the safetensors writer is make_bert_base.py's.
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_bert_base import syllable_word, write_safetensors  # noqa: E402

LAYERS, D, HEADS, FF, VOCAB, POS = 12, 768, 12, 3072, 50257, 1024


def tensors(rng):
    """(name, array) in the order of the published gpt2 checkpoint (no prefix, no mask buffers)."""
    def w(*shape):
        return (rng.standard_normal(shape, dtype=np.float32) * np.float32(0.02)).astype("<f4")

    def ln(prefix):
        return [(prefix + ".weight", (1 + w(D)).astype("<f4")), (prefix + ".bias", w(D))]

    out = [("wte.weight", w(VOCAB, D)), ("wpe.weight", w(POS, D))]
    for n in range(LAYERS):
        p = f"h.{n}."
        out += ln(p + "ln_1")
        out += [(p + "attn.c_attn.weight", w(D, 3 * D)), (p + "attn.c_attn.bias", w(3 * D))]
        out += [(p + "attn.c_proj.weight", w(D, D)), (p + "attn.c_proj.bias", w(D))]
        out += ln(p + "ln_2")
        out += [(p + "mlp.c_fc.weight", w(D, FF)), (p + "mlp.c_fc.bias", w(FF))]
        out += [(p + "mlp.c_proj.weight", w(FF, D)), (p + "mlp.c_proj.bias", w(D))]
    out += ln("ln_f")
    return out


def byte_symbols():
    """GPT-2's bytes_to_unicode: printable bytes as themselves, the rest shifted past 255."""
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    chars, extra = {}, 0
    for b in range(256):
        if b in keep:
            chars[b] = chr(b)
        else:
            chars[b] = chr(256 + extra)
            extra += 1
    return [chars[b] for b in range(256)]


def vocab():
    words = byte_symbols()
    seen = set(words)
    i = 0
    while len(words) < VOCAB - 1:
        word = "\u0120" + syllable_word(i)  # "Ġ": a word after a space
        if word not in seen:
            words.append(word)
            seen.add(word)
        i += 1
    words.append("<|endoftext|>")
    return {word: index for index, word in enumerate(words)}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 1234
    os.makedirs(out, exist_ok=True)
    config = {"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "vocab_size": VOCAB, "n_embd": D,
              "n_layer": LAYERS, "n_head": HEADS, "n_positions": POS, "n_ctx": POS, "n_inner": None,
              "activation_function": "gelu_new", "layer_norm_epsilon": 1e-5,
              "bos_token_id": VOCAB - 1, "eos_token_id": VOCAB - 1}
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
    with open(os.path.join(out, "vocab.json"), "w", encoding="utf-8") as f:
        json.dump(vocab(), f, ensure_ascii=False)
    with open(os.path.join(out, "merges.txt"), "w", encoding="utf-8") as f:
        f.write("#version: 0.2\n")
    write_safetensors(os.path.join(out, "model.safetensors"), tensors(np.random.default_rng(seed)))
    print(f"wrote {out}/model.safetensors ({os.path.getsize(os.path.join(out, 'model.safetensors'))} bytes)")


if __name__ == "__main__":
    main()
