#!/usr/bin/python3
"""Writes a bert-base-shaped BertForMaskedLM checkpoint with random weights for the benchmarks.

    /usr/bin/python3 bench/make_bert_base.py OUT_DIR [--seed N]

OUT_DIR gets config.json, model.safetensors (F32, ~440 MB) and a vocab.txt of 30522 entries
([PAD] [UNK] [CLS] [SEP] [MASK], the ASCII letters and digits, then synthetic words) so the
folder also loads as a model *with* its tokenizer. Shapes: 12 layers, d 768, 12 heads, d_ff 3072,
V 30522, P 512, 2 token types; weights N(0, 0.02²), LayerNorm γ = 1 + N(0, 0.02²), β small.

The safetensors file is written by hand (8-byte little-endian header length, JSON header padded
with spaces to a multiple of 8, raw little-endian data), as tests/reference/make_model_fixtures.py
does: there is no safetensors package. Needs numpy only.
"""
import json
import os
import struct
import sys

import numpy as np

LAYERS, D, HEADS, FF, VOCAB, POS, TYPES = 12, 768, 12, 3072, 30522, 512, 2


def tensors(rng):
    """(name, array) in a fixed order: the tensors a BertForMaskedLM checkpoint stores."""
    def w(*shape):
        return (rng.standard_normal(shape, dtype=np.float32) * np.float32(0.02)).astype("<f4")

    def ln(prefix):
        return [(prefix + ".weight", (1 + w(D)).astype("<f4")), (prefix + ".bias", w(D))]

    out = [("bert.embeddings.word_embeddings.weight", w(VOCAB, D)),
           ("bert.embeddings.position_embeddings.weight", w(POS, D)),
           ("bert.embeddings.token_type_embeddings.weight", w(TYPES, D))]
    out += ln("bert.embeddings.LayerNorm")
    for n in range(LAYERS):
        p = f"bert.encoder.layer.{n}."
        for name, o, i in [("attention.self.query", D, D), ("attention.self.key", D, D),
                           ("attention.self.value", D, D), ("attention.output.dense", D, D)]:
            out += [(p + name + ".weight", w(o, i)), (p + name + ".bias", w(o))]
        out += ln(p + "attention.output.LayerNorm")
        out += [(p + "intermediate.dense.weight", w(FF, D)), (p + "intermediate.dense.bias", w(FF))]
        out += [(p + "output.dense.weight", w(D, FF)), (p + "output.dense.bias", w(D))]
        out += ln(p + "output.LayerNorm")
    out += [("cls.predictions.transform.dense.weight", w(D, D)), ("cls.predictions.transform.dense.bias", w(D))]
    out += ln("cls.predictions.transform.LayerNorm")
    out += [("cls.predictions.bias", w(VOCAB))]  # decoder tied to the word embeddings
    return out


def write_safetensors(path, items):
    header, offset = {}, 0
    for name, a in items:
        header[name] = {"dtype": "F32", "shape": list(a.shape), "data_offsets": [offset, offset + a.nbytes]}
        offset += a.nbytes
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    tmp = str(path) + ".part"
    with open(tmp, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for _, a in items:
            f.write(np.ascontiguousarray(a).tobytes())
    os.replace(tmp, path)


SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "po", "da", "gu", "be", "fi", "ho", "ja"]


def syllable_word(i):
    """The i-th distinct synthetic word: i's base-16 digits spelled as syllables (also make_gpt2_small.py)."""
    n, s = i, ""
    while True:
        s += SYLLABLES[n % 16]
        n //= 16
        if n == 0:
            return s


def vocab():
    words = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    words += list("abcdefghijklmnopqrstuvwxyz0123456789.,!?'")
    i = 0
    while len(words) < VOCAB:
        words.append(syllable_word(i) if i % 3 else "##" + syllable_word(i))  # words, then ## pieces
        i += 1
    return words[:VOCAB]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 1234
    os.makedirs(out, exist_ok=True)
    config = {"architectures": ["BertForMaskedLM"], "model_type": "bert", "vocab_size": VOCAB,
              "hidden_size": D, "num_hidden_layers": LAYERS, "num_attention_heads": HEADS,
              "intermediate_size": FF, "hidden_act": "gelu", "max_position_embeddings": POS,
              "type_vocab_size": TYPES, "layer_norm_eps": 1e-12, "pad_token_id": 0}
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
    with open(os.path.join(out, "vocab.txt"), "w") as f:
        f.write("\n".join(vocab()) + "\n")
    with open(os.path.join(out, "tokenizer_config.json"), "w") as f:
        json.dump({"do_lower_case": True, "model_max_length": POS}, f)
    write_safetensors(os.path.join(out, "model.safetensors"), tensors(np.random.default_rng(seed)))
    print(f"wrote {out}/model.safetensors ({os.path.getsize(os.path.join(out, 'model.safetensors'))} bytes)")


if __name__ == "__main__":
    main()
