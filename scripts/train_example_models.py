#!/usr/bin/python3
"""Trains AttnScope's three example models on the King James Bible and writes them, ready to ship.

    /usr/bin/python3 scripts/train_example_models.py                 # tokenizers, all models, report
    /usr/bin/python3 scripts/train_example_models.py --only gpt       # one model
    /usr/bin/python3 scripts/train_example_models.py --report-only    # keep the weights, redo checks + card

Needs Debian's python3-torch, python3-numpy, bible-kjv (the `bible` reader) and bible-kjv-text
(the text); ./dev.sh test needs none of them, since the trained folders are committed.

Writes, for each of example-gpt (a GPT-2-style causal LM), example-bert (a BERT-style masked LM) and
example-llama (a Llama-style causal LM: RoPE, grouped-query attention, RMSNorm, SwiGLU; it reads
example-gpt's tokenizer, so train gpt first or keep its folder):
    resources/models/<name>/config.json, model.safetensors (F32, Hugging Face tensor names),
    tokenizer.json (learned here: byte-level BPE / WordPiece), training.json (curve and figures),
    MODEL_CARD.md (written by the report step, which also checks AttnScope's forward pass).

Everything is seeded and runs on the CPU with a fixed number of steps, so a rerun on the same
torch version reproduces the same weights (floating-point summation order aside).

The tokenizers reimplement exactly the rules core/tokenizers/ applies (GPT-2's pre-tokenisation
pattern and byte mapping, lowest-rank-first merges; BERT's basic tokenizer and greedy longest-match
WordPiece), so that the ids the models were trained on are the ids AttnScope feeds them;
tests/core/test_example_models.cpp checks that on held-out verses against a committed fixture.
"""

import argparse
import collections
import heapq
import json
import math
import os
import re
import subprocess
import sys
import time
import unicodedata

import torch
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = os.path.join(ROOT, "resources", "models")
FIXTURE = os.path.join(ROOT, "tests", "reference", "fixtures", "example-models.json")
sys.path.insert(0, os.path.join(ROOT, "tests", "reference"))
from make_model_fixtures import gelu_new, write_safetensors  # noqa: E402  (shared with the test fixtures)

SEED = 15
VOCAB_SIZE = 4096
HELD_OUT_EVERY = 25  # every 25th verse (4 %) is never trained on
CONTEXT = 64
WIDTH, LAYERS, HEADS, FEED_FORWARD = 128, 4, 4, 512
# example-llama: two key/value heads shared by the four query heads (GQA), and a SwiGLU MLP whose
# three matrices hold about as many numbers as GPT's two (2/3 of 512, rounded to a multiple of 32).
KV_HEADS, GATED_FEED_FORWARD, ROPE_THETA = 2, 352, 10000.0
BERT_SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
GPT_END = "<|endoftext|>"

# ---------------------------------------------------------------- the text


def read_kjv():
    """The verses of the King James Bible, in order, as printed by bible-kjv's reader."""
    out = subprocess.run(["bible", "-l100000", "gen1:1-rev22:21"], capture_output=True, text=True, check=True).stdout
    verses = [m.group(1).strip() for m in re.finditer(r"(?m)^[ \t]+\d+ (.*)$", out)]
    if len(verses) != 31102:
        sys.exit(f"expected the 31,102 verses of the KJV from `bible`, found {len(verses)}")
    return verses


def split_verses(verses):
    train = [v for i, v in enumerate(verses) if i % HELD_OUT_EVERY != 0]
    held = [v for i, v in enumerate(verses) if i % HELD_OUT_EVERY == 0]
    return train, held


# ---------------------------------------------------------------- byte-level BPE (GPT-2 rules)


def bytes_to_unicode():
    """GPT-2's byte → visible character table (core/tokenizers/byte_level_bpe.cpp's ByteTable)."""
    table, extra = {}, 256
    for b in range(256):
        printable = 33 <= b <= 126 or 161 <= b <= 172 or b >= 174
        table[b] = chr(b) if printable else chr(extra)
        extra += 0 if printable else 1
    return table


BYTE_CHAR = bytes_to_unicode()


def _letter(c):
    return unicodedata.category(c)[0] == "L"


def _number(c):
    return unicodedata.category(c)[0] == "N"


def _other(c):
    return not (c.isspace() or _letter(c) or _number(c))


def _run_end(p, i, cls):
    while i < len(p) and cls(p[i]):
        i += 1
    return i


def _chunk_end(p, i):
    """GPT-2's pattern 's|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+"""
    if p[i] == "'" and i + 1 < len(p):
        if p[i + 1] in "stmd":
            return i + 2
        if p[i + 1:i + 3] in ("re", "ve", "ll"):
            return i + 3
    space_first = p[i] == " " and i + 1 < len(p)
    for cls in (_letter, _number, _other):
        if space_first and cls(p[i + 1]):
            return _run_end(p, i + 1, cls)
        if cls(p[i]):
            return _run_end(p, i, cls)
    end = _run_end(p, i, str.isspace)
    if end < len(p) and end - i >= 2:
        return end - 1
    return max(end, i + 1)


def gpt2_chunks(text):
    chunks, i = [], 0
    while i < len(text):
        end = _chunk_end(text, i)
        chunks.append(text[i:end])
        i = end
    return chunks


def byte_level(chunk):
    return "".join(BYTE_CHAR[b] for b in chunk.encode("utf-8"))


def learn_merges(word_counts, split, join, vocab, target):
    """Greedy pair merging (the BPE trainer) until the vocabulary holds `target` pieces. Ties go to
    the smallest pair, so the result does not depend on dictionary order."""
    words = [split(w) for w in word_counts]
    counts = list(word_counts.values())
    pairs, where = collections.Counter(), collections.defaultdict(set)
    for idx, syms in enumerate(words):
        for pair in zip(syms, syms[1:]):
            pairs[pair] += counts[idx]
            where[pair].add(idx)
    heap = [(-c, p) for p, c in pairs.items()]
    heapq.heapify(heap)
    merges, known = [], set(vocab)
    while len(vocab) < target and heap:
        negative, pair = heapq.heappop(heap)
        if pairs.get(pair, 0) != -negative or negative == 0:
            continue  # stale entry
        merged = join(*pair)
        merges.append(pair)
        if merged not in known:
            known.add(merged)
            vocab.append(merged)
        touched = set()
        for idx in sorted(where.pop(pair)):
            syms, c = words[idx], counts[idx]
            for p in zip(syms, syms[1:]):
                pairs[p] -= c
                touched.add(p)
            out, j = [], 0
            while j < len(syms):
                if j + 1 < len(syms) and (syms[j], syms[j + 1]) == pair:
                    out.append(merged)
                    j += 2
                else:
                    out.append(syms[j])
                    j += 1
            words[idx] = out
            for p in zip(out, out[1:]):
                pairs[p] += c
                where[p].add(idx)
                touched.add(p)
        for p in touched:
            if pairs[p] > 0:
                heapq.heappush(heap, (-pairs[p], p))
    return merges


class BpeTokenizer:
    def __init__(self, vocab, merges):
        self.vocab = {piece: i for i, piece in enumerate(vocab)}
        self.merges = [tuple(m) for m in merges]
        self.ranks = {m: r for r, m in enumerate(self.merges)}
        self.cache = {}

    def chunk_ids(self, chunk):
        if chunk not in self.cache:
            syms = list(byte_level(chunk))
            while len(syms) > 1:  # the lowest-ranked pair first, every occurrence left to right
                pair = min(zip(syms, syms[1:]), key=lambda p: self.ranks.get(p, math.inf))
                if pair not in self.ranks:
                    break
                out, j = [], 0
                while j < len(syms):
                    if j + 1 < len(syms) and (syms[j], syms[j + 1]) == pair:
                        out.append(syms[j] + syms[j + 1])
                        j += 2
                    else:
                        out.append(syms[j])
                        j += 1
                syms = out
            self.cache[chunk] = [self.vocab[s] for s in syms]
        return self.cache[chunk]

    def encode(self, text):
        return [i for chunk in gpt2_chunks(text) for i in self.chunk_ids(chunk)]

    def to_json(self):
        return {
            "version": "1.0", "truncation": None, "padding": None,
            "added_tokens": [{"id": self.vocab[GPT_END], "content": GPT_END, "single_word": False, "lstrip": False,
                              "rstrip": False, "normalized": True, "special": True}],
            "normalizer": None,
            "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True},
            "post_processor": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": False, "use_regex": True},
            "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
            "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": "",
                      "end_of_word_suffix": "", "fuse_unk": False, "byte_fallback": False,
                      "vocab": self.vocab, "merges": [a + " " + b for a, b in self.merges]},
        }


def train_bpe(verses):
    # Verse by verse, so the first word comes unspaced as it does at the start of a sentence typed
    # into AttnScope ("The", not only " The").
    counts = collections.Counter(chunk for v in verses for chunk in gpt2_chunks(v))
    vocab = [BYTE_CHAR[b] for b in sorted(BYTE_CHAR, key=lambda b: (ord(BYTE_CHAR[b]) >= 256, b))]
    word_counts = collections.Counter()
    for chunk, c in counts.items():
        word_counts[byte_level(chunk)] += c
    merges = learn_merges(word_counts, list, lambda a, b: a + b, vocab, VOCAB_SIZE - 1)
    vocab.append(GPT_END)
    return BpeTokenizer(vocab, merges)


# ---------------------------------------------------------------- WordPiece (BERT rules, lowercased)


def _bert_punctuation(c):
    o = ord(c)
    return 33 <= o <= 47 or 58 <= o <= 64 or 91 <= o <= 96 or 123 <= o <= 126 or unicodedata.category(c)[0] == "P"


def bert_words(text):
    """BERT's basic tokenizer (clean, lowercase, strip accents, split on spaces and punctuation)."""
    cleaned = []
    for c in text:
        if c in "\t\n\r" or unicodedata.category(c) == "Zs":
            cleaned.append(" ")
        elif ord(c) == 0 or ord(c) == 0xFFFD or unicodedata.category(c).startswith("C"):
            continue
        else:
            cleaned.append(c)
    words = []
    for word in "".join(cleaned).split():
        word = "".join(c for c in unicodedata.normalize("NFD", word.lower()) if unicodedata.category(c) != "Mn")
        current = ""
        for c in word:
            if _bert_punctuation(c):
                words += [current, c] if current else [c]
                current = ""
            else:
                current += c
        if current:
            words.append(current)
    return words


class WordPieceTokenizer:
    def __init__(self, vocab):
        self.vocab = {piece: i for i, piece in enumerate(vocab)}

    def word_ids(self, word):
        ids, start = [], 0
        while start < len(word):
            for end in range(len(word), start, -1):
                piece = ("##" if start > 0 else "") + word[start:end]
                if piece in self.vocab:
                    ids.append(self.vocab[piece])
                    break
            else:
                return [self.vocab["[UNK]"]]
            start = end
        return ids

    def encode(self, text):
        return [i for w in bert_words(text) for i in self.word_ids(w)]

    def to_json(self):
        special = [{"id": self.vocab[t], "content": t, "single_word": False, "lstrip": False, "rstrip": False,
                    "normalized": False, "special": True} for t in BERT_SPECIALS]
        cls, sep = self.vocab["[CLS]"], self.vocab["[SEP]"]
        return {
            "version": "1.0", "truncation": None, "padding": None, "added_tokens": special,
            "normalizer": {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
                           "strip_accents": None, "lowercase": True},
            "pre_tokenizer": {"type": "BertPreTokenizer"},
            "post_processor": {
                "type": "TemplateProcessing",
                "single": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                           {"SpecialToken": {"id": "[SEP]", "type_id": 0}}],
                "pair": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                         {"SpecialToken": {"id": "[SEP]", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}},
                         {"SpecialToken": {"id": "[SEP]", "type_id": 1}}],
                "special_tokens": {"[CLS]": {"id": "[CLS]", "ids": [cls], "tokens": ["[CLS]"]},
                                   "[SEP]": {"id": "[SEP]", "ids": [sep], "tokens": ["[SEP]"]}}},
            "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
            "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                      "max_input_chars_per_word": 100, "vocab": self.vocab},
        }


def train_wordpiece(verses):
    word_counts = collections.Counter(w for v in verses for w in bert_words(v))
    split = lambda w: [w[0]] + ["##" + c for c in w[1:]]  # noqa: E731
    alphabet = sorted({s for w in word_counts for s in split(w)})
    vocab = BERT_SPECIALS + alphabet
    learn_merges(word_counts, split, lambda a, b: a + b[2:], vocab, VOCAB_SIZE)
    return WordPieceTokenizer(vocab)


def load_tokenizer(kind, folder):
    with open(os.path.join(folder, "tokenizer.json")) as f:
        model = json.load(f)["model"]
    if kind in CAUSAL:
        vocab = sorted(model["vocab"], key=model["vocab"].get)
        return BpeTokenizer(vocab, [m.split(" ") for m in model["merges"]])
    return WordPieceTokenizer(sorted(model["vocab"], key=model["vocab"].get))


# ---------------------------------------------------------------- the models (HF tensor names)


def gpt_config(vocab):
    return {"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "vocab_size": vocab, "n_embd": WIDTH,
            "n_layer": LAYERS, "n_head": HEADS, "n_inner": FEED_FORWARD, "n_positions": CONTEXT, "n_ctx": CONTEXT,
            "activation_function": "gelu_new", "layer_norm_epsilon": 1e-5, "bos_token_id": vocab - 1,
            "eos_token_id": vocab - 1, "tie_word_embeddings": True}


def llama_config(vocab):
    return {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "vocab_size": vocab, "hidden_size": WIDTH,
            "num_hidden_layers": LAYERS, "num_attention_heads": HEADS, "num_key_value_heads": KV_HEADS,
            "head_dim": WIDTH // HEADS, "intermediate_size": GATED_FEED_FORWARD, "hidden_act": "silu",
            "max_position_embeddings": CONTEXT, "rms_norm_eps": 1e-5, "rope_theta": ROPE_THETA, "rope_scaling": None,
            "attention_bias": False, "mlp_bias": False, "bos_token_id": vocab - 1, "eos_token_id": vocab - 1,
            "tie_word_embeddings": True, "torch_dtype": "float32"}


def bert_config(vocab):
    return {"architectures": ["BertForMaskedLM"], "model_type": "bert", "vocab_size": vocab, "hidden_size": WIDTH,
            "num_hidden_layers": LAYERS, "num_attention_heads": HEADS, "intermediate_size": FEED_FORWARD,
            "hidden_act": "gelu", "max_position_embeddings": CONTEXT, "type_vocab_size": 1, "layer_norm_eps": 1e-12,
            "pad_token_id": 0, "position_embedding_type": "absolute", "tie_word_embeddings": True}


def _normal(gen, *shape, std=0.02):
    return (torch.randn(*shape, generator=gen) * std).requires_grad_()


def _ones(n):
    return torch.ones(n).requires_grad_()


def _zeros(*shape):
    return torch.zeros(*shape).requires_grad_()


def init_gpt(vocab, gen):
    """GPT2LMHeadModel's tensors (Conv1D weights are [in, out]); lm_head is tied to wte."""
    d, ff, out_std = WIDTH, FEED_FORWARD, 0.02 / math.sqrt(2 * LAYERS)
    w = {"transformer.wte.weight": _normal(gen, vocab, d), "transformer.wpe.weight": _normal(gen, CONTEXT, d, std=0.01)}
    for n in range(LAYERS):
        p = f"transformer.h.{n}."
        w.update({p + "ln_1.weight": _ones(d), p + "ln_1.bias": _zeros(d),
                  p + "attn.c_attn.weight": _normal(gen, d, 3 * d), p + "attn.c_attn.bias": _zeros(3 * d),
                  p + "attn.c_proj.weight": _normal(gen, d, d, std=out_std), p + "attn.c_proj.bias": _zeros(d),
                  p + "ln_2.weight": _ones(d), p + "ln_2.bias": _zeros(d),
                  p + "mlp.c_fc.weight": _normal(gen, d, ff), p + "mlp.c_fc.bias": _zeros(ff),
                  p + "mlp.c_proj.weight": _normal(gen, ff, d, std=out_std), p + "mlp.c_proj.bias": _zeros(d)})
    w["transformer.ln_f.weight"], w["transformer.ln_f.bias"] = _ones(d), _zeros(d)
    return w


def init_llama(vocab, gen):
    """LlamaForCausalLM's tensors (Linear weights are [out, in], no biases); lm_head is tied to embed_tokens."""
    d, ff, kv, out_std = WIDTH, GATED_FEED_FORWARD, KV_HEADS * (WIDTH // HEADS), 0.02 / math.sqrt(2 * LAYERS)
    w = {"model.embed_tokens.weight": _normal(gen, vocab, d), "model.norm.weight": _ones(d)}
    for n in range(LAYERS):
        p = f"model.layers.{n}."
        w.update({p + "input_layernorm.weight": _ones(d), p + "post_attention_layernorm.weight": _ones(d),
                  p + "self_attn.q_proj.weight": _normal(gen, d, d), p + "self_attn.k_proj.weight": _normal(gen, kv, d),
                  p + "self_attn.v_proj.weight": _normal(gen, kv, d),
                  p + "self_attn.o_proj.weight": _normal(gen, d, d, std=out_std),
                  p + "mlp.gate_proj.weight": _normal(gen, ff, d), p + "mlp.up_proj.weight": _normal(gen, ff, d),
                  p + "mlp.down_proj.weight": _normal(gen, d, ff, std=out_std)})
    return w


def init_bert(vocab, gen):
    """BertForMaskedLM's tensors (Linear weights are [out, in]); the decoder is tied to the word embeddings."""
    d, ff = WIDTH, FEED_FORWARD
    e = "bert.embeddings."
    w = {e + "word_embeddings.weight": _normal(gen, vocab, d), e + "position_embeddings.weight": _normal(gen, CONTEXT, d),
         e + "token_type_embeddings.weight": _normal(gen, 1, d), e + "LayerNorm.weight": _ones(d),
         e + "LayerNorm.bias": _zeros(d)}
    for n in range(LAYERS):
        p = f"bert.encoder.layer.{n}."
        for name, (rows, cols) in {"attention.self.query": (d, d), "attention.self.key": (d, d),
                                   "attention.self.value": (d, d), "attention.output.dense": (d, d),
                                   "intermediate.dense": (ff, d), "output.dense": (d, ff)}.items():
            w[p + name + ".weight"], w[p + name + ".bias"] = _normal(gen, rows, cols), _zeros(rows)
        for norm in ("attention.output.LayerNorm", "output.LayerNorm"):
            w[p + norm + ".weight"], w[p + norm + ".bias"] = _ones(d), _zeros(d)
    c = "cls.predictions."
    w.update({c + "transform.dense.weight": _normal(gen, d, d), c + "transform.dense.bias": _zeros(d),
              c + "transform.LayerNorm.weight": _ones(d), c + "transform.LayerNorm.bias": _zeros(d),
              c + "bias": _zeros(vocab)})
    return w


def _heads(t):
    B, T, d = t.shape
    return t.view(B, T, HEADS, d // HEADS).transpose(1, 2)  # B×H×T×d_k


def _attend(q, k, v, causal):
    T, dk = q.shape[2], q.shape[3]
    scores = q @ k.transpose(-1, -2) / math.sqrt(dk)
    if causal:
        scores = scores.masked_fill(~torch.tril(torch.ones(T, T, dtype=torch.bool)), float("-inf"))
    probs = torch.softmax(scores, dim=-1)  # B×H×T×T
    B = q.shape[0]
    return (probs @ v).transpose(1, 2).reshape(B, T, -1), probs


def gpt_forward(w, ids):
    """GPT2LMHeadModel in eval mode (no dropout): pre-LN blocks, causal mask, tied head. ids: B×T."""
    B, T = ids.shape
    eps, d = 1e-5, WIDTH
    x = w["transformer.wte.weight"][ids] + w["transformer.wpe.weight"][:T]
    attentions = []
    for n in range(LAYERS):
        p = f"transformer.h.{n}."
        conv1d = lambda name, inp: inp @ w[p + name + ".weight"] + w[p + name + ".bias"]  # noqa: E731
        h = F.layer_norm(x, (d,), w[p + "ln_1.weight"], w[p + "ln_1.bias"], eps)
        q, k, v = conv1d("attn.c_attn", h).split(d, dim=-1)
        context, probs = _attend(_heads(q), _heads(k), _heads(v), causal=True)
        attentions.append(probs)
        x = x + conv1d("attn.c_proj", context)
        h = F.layer_norm(x, (d,), w[p + "ln_2.weight"], w[p + "ln_2.bias"], eps)
        x = x + conv1d("mlp.c_proj", gelu_new(conv1d("mlp.c_fc", h)))
    x = F.layer_norm(x, (d,), w["transformer.ln_f.weight"], w["transformer.ln_f.bias"], eps)
    return x @ w["transformer.wte.weight"].T, attentions  # B×T×V


def rms_norm(x, weight, eps=1e-5):
    """LlamaRMSNorm: x / √(mean(x²) + ε) · w."""
    return weight * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps))


def rotate(x, T):
    """RoPE as Hugging Face's Llama applies it: rotate_half pairs dimension i with i + d_k/2."""
    dk = x.shape[-1]
    inv_freq = 1.0 / ROPE_THETA ** (torch.arange(0, dk, 2, dtype=torch.float32) / dk)
    angles = torch.outer(torch.arange(T, dtype=torch.float32), inv_freq)  # T×d_k/2: m·θ_i
    cos, sin = torch.cat([angles, angles], -1).cos(), torch.cat([angles, angles], -1).sin()
    half = dk // 2
    rotated = torch.cat([-x[..., half:], x[..., :half]], -1)
    return x * cos + rotated * sin


def llama_forward(w, ids):
    """LlamaForCausalLM in eval mode: pre-RMSNorm blocks, RoPE, grouped-query causal attention, SwiGLU."""
    B, T = ids.shape
    dk = WIDTH // HEADS
    x = w["model.embed_tokens.weight"][ids]
    attentions = []
    for n in range(LAYERS):
        p = f"model.layers.{n}."
        lin = lambda name, inp: F.linear(inp, w[p + name + ".weight"])  # noqa: E731
        h = rms_norm(x, w[p + "input_layernorm.weight"])
        q = lin("self_attn.q_proj", h).view(B, T, HEADS, dk).transpose(1, 2)
        k = lin("self_attn.k_proj", h).view(B, T, KV_HEADS, dk).transpose(1, 2)
        v = lin("self_attn.v_proj", h).view(B, T, KV_HEADS, dk).transpose(1, 2)
        q, k = rotate(q, T), rotate(k, T)
        # repeat_kv: key/value head j serves query heads j·H/H_kv … (j + 1)·H/H_kv − 1
        k, v = k.repeat_interleave(HEADS // KV_HEADS, dim=1), v.repeat_interleave(HEADS // KV_HEADS, dim=1)
        context, probs = _attend(q, k, v, causal=True)
        attentions.append(probs)
        x = x + lin("self_attn.o_proj", context)
        h = rms_norm(x, w[p + "post_attention_layernorm.weight"])
        x = x + lin("mlp.down_proj", F.silu(lin("mlp.gate_proj", h)) * lin("mlp.up_proj", h))
    x = rms_norm(x, w["model.norm.weight"])
    return x @ w["model.embed_tokens.weight"].T, attentions  # B×T×V


def bert_encode(w, ids):
    """BertForMaskedLM in eval mode (no dropout): post-LN blocks, erf GELU, token type 0, tied decoder."""
    B, T = ids.shape
    eps, d, e = 1e-12, WIDTH, "bert.embeddings."
    x = w[e + "word_embeddings.weight"][ids] + w[e + "position_embeddings.weight"][:T] + w[e + "token_type_embeddings.weight"][0]
    x = F.layer_norm(x, (d,), w[e + "LayerNorm.weight"], w[e + "LayerNorm.bias"], eps)
    attentions = []
    for n in range(LAYERS):
        p = f"bert.encoder.layer.{n}."
        lin = lambda name, inp: F.linear(inp, w[p + name + ".weight"], w[p + name + ".bias"])  # noqa: E731
        context, probs = _attend(_heads(lin("attention.self.query", x)), _heads(lin("attention.self.key", x)),
                                 _heads(lin("attention.self.value", x)), causal=False)
        attentions.append(probs)
        a = F.layer_norm(lin("attention.output.dense", context) + x, (d,),
                         w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"], eps)
        x = F.layer_norm(lin("output.dense", F.gelu(lin("intermediate.dense", a))) + a, (d,),
                         w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"], eps)
    return x, attentions


def bert_head(w, x):
    """The masked-LM head on rows of the last hidden state."""
    c, d = "cls.predictions.", WIDTH
    t = F.gelu(F.linear(x, w[c + "transform.dense.weight"], w[c + "transform.dense.bias"]))
    t = F.layer_norm(t, (d,), w[c + "transform.LayerNorm.weight"], w[c + "transform.LayerNorm.bias"], 1e-12)
    return F.linear(t, w["bert.embeddings.word_embeddings.weight"], w[c + "bias"])


def bert_forward(w, ids):
    x, attentions = bert_encode(w, ids)
    return bert_head(w, x), attentions


# ---------------------------------------------------------------- batches and losses


class Corpus:
    """Token ids of every verse, as the start of a text (first) and after a space (cont)."""

    def __init__(self, tokenizer, verses, kind):
        self.kind = kind
        self.first = [tokenizer.encode(v) for v in verses]
        self.cont = [tokenizer.encode(" " + v) for v in verses] if kind in CAUSAL else self.first

    def window(self, start, length):
        """Consecutive verses from `start`, the first one unspaced, cut to `length` ids."""
        ids, i = list(self.first[start]), start + 1
        while len(ids) < length and i < len(self.cont):
            ids += self.cont[i]
            i += 1
        return ids[:length]


def gpt_batch(corpus, gen, batch):
    starts = torch.randint(0, len(corpus.first) - 8, (batch,), generator=gen).tolist()
    rows = [corpus.window(s, CONTEXT + 1) for s in starts]
    rows = [r for r in rows if len(r) == CONTEXT + 1]
    t = torch.tensor(rows)
    return t[:, :-1], t[:, 1:]


def mask_tokens(ids, gen, vocab, specials, rate=0.15):
    """BERT's recipe: 15 % of the ordinary tokens are predicted; 80 % of those become [MASK],
    10 % a random token, 10 % stay. Returns (inputs, targets with -100 where nothing is predicted)."""
    ordinary = torch.ones_like(ids, dtype=torch.bool)
    for s in specials:
        ordinary &= ids != s
    chosen = (torch.rand(ids.shape, generator=gen) < rate) & ordinary
    targets = torch.where(chosen, ids, torch.full_like(ids, -100))
    roll = torch.rand(ids.shape, generator=gen)
    inputs = ids.clone()
    inputs[chosen & (roll < 0.8)] = BERT_SPECIALS.index("[MASK]")
    swap = chosen & (roll >= 0.8) & (roll < 0.9)
    inputs[swap] = torch.randint(len(BERT_SPECIALS), vocab, (int(swap.sum()),), generator=gen)
    return inputs, targets


def bert_batch(corpus, gen, batch, vocab):
    length = int(torch.randint(12, CONTEXT + 1, (1,), generator=gen))  # one length per batch: no padding
    starts = torch.randint(0, len(corpus.first) - 8, (batch,), generator=gen).tolist()
    cls, sep = BERT_SPECIALS.index("[CLS]"), BERT_SPECIALS.index("[SEP]")
    rows = [[cls] + corpus.window(s, length - 2) + [sep] for s in starts]
    rows = [r for r in rows if len(r) == length]
    return mask_tokens(torch.tensor(rows), gen, vocab, (cls, sep))


def held_out_gpt(w, corpus, limit=None, forward=None):
    """Mean next-token cross-entropy and accuracy over held-out verses, each on its own."""
    forward = forward or gpt_forward
    total, right, count = 0.0, 0, 0
    with torch.no_grad():
        for ids in corpus.first[:limit]:
            ids = torch.tensor([ids[:CONTEXT]])
            if ids.shape[1] < 2:
                continue
            logits, _ = forward(w, ids[:, :-1])
            target = ids[0, 1:]
            total += float(F.cross_entropy(logits[0], target, reduction="sum"))
            right += int((logits[0].argmax(-1) == target).sum())
            count += len(target)
    return total / count, right / count


def held_out_bert(w, corpus, vocab, limit=None):
    """Masked-token cross-entropy and accuracy over held-out verses ([CLS] verse [SEP]), masked with a fixed seed."""
    gen = torch.Generator().manual_seed(SEED + 1)
    total, right, count, targets_seen = 0.0, 0, 0, []
    cls, sep = BERT_SPECIALS.index("[CLS]"), BERT_SPECIALS.index("[SEP]")
    with torch.no_grad():
        for ids in corpus.first[:limit]:
            ids = torch.tensor([[cls] + ids[:CONTEXT - 2] + [sep]])
            inputs, targets = mask_tokens(ids, gen, vocab, (cls, sep))
            chosen = targets[0] != -100
            if not chosen.any():
                continue
            logits, _ = bert_forward(w, inputs)
            total += float(F.cross_entropy(logits[0][chosen], targets[0][chosen], reduction="sum"))
            right += int((logits[0][chosen].argmax(-1) == targets[0][chosen]).sum())
            count += int(chosen.sum())
            targets_seen += targets[0][chosen].tolist()
    return total / count, right / count, targets_seen


def unigram_baseline(train_ids, targets, vocab):
    """Cross-entropy and accuracy of always predicting the training-set token frequencies."""
    freq = torch.bincount(torch.tensor(train_ids), minlength=vocab).double() + 1  # add-one smoothing
    logp = (freq / freq.sum()).log()
    t = torch.tensor(targets)
    return float(-logp[t].mean()), float((t == int(freq.argmax())).double().mean())


# ---------------------------------------------------------------- training


def train(kind, w, step_loss, evaluate, steps, lr):
    decay = [t for t in w.values() if t.dim() >= 2]
    rest = [t for t in w.values() if t.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01}, {"params": rest, "weight_decay": 0.0}],
                            lr=lr, betas=(0.9, 0.98), eps=1e-6)
    warmup = max(1, steps // 20)
    schedule = lambda s: s / warmup if s < warmup else 0.1 + 0.45 * (1 + math.cos(math.pi * (s - warmup) / (steps - warmup)))  # noqa: E731
    sched = torch.optim.lr_scheduler.LambdaLR(opt, schedule)
    curve, running, started = [], [], time.time()
    for step in range(1, steps + 1):
        loss = step_loss()
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(w.values(), 1.0)
        opt.step()
        sched.step()
        running.append(float(loss))
        if step % max(1, steps // 10) == 0 or step == steps or step == 20:
            point = {"step": step, "minutes": round((time.time() - started) / 60, 2),
                     "train_loss": round(sum(running) / len(running), 4), "held_out_loss": round(evaluate(), 4)}
            curve.append(point)
            running = []
            print(f"{kind} {point}", flush=True)
    return curve, time.time() - started


def train_model(kind, tokenizer, verses, held, steps, batch, lr):
    gen = torch.Generator().manual_seed(SEED + {"gpt": 0, "bert": 100, "llama": 200}[kind])
    torch.manual_seed(SEED)
    vocab = len(tokenizer.vocab)
    corpus, held_corpus = Corpus(tokenizer, verses, kind), Corpus(tokenizer, held, kind)
    if kind in CAUSAL:
        w = (init_gpt if kind == "gpt" else init_llama)(vocab, gen)
        forward = FORWARD[kind]

        def step_loss():
            x, y = gpt_batch(corpus, gen, batch)
            return F.cross_entropy(forward(w, x)[0].reshape(-1, vocab), y.reshape(-1))

        evaluate = lambda: held_out_gpt(w, held_corpus, 200, forward)[0]  # noqa: E731
    else:
        w = init_bert(vocab, gen)

        def step_loss():
            x, y = bert_batch(corpus, gen, batch, vocab)
            chosen = y != -100  # the head only where a token is predicted: most of the cost otherwise
            return F.cross_entropy(bert_head(w, bert_encode(w, x)[0][chosen]), y[chosen])

        evaluate = lambda: held_out_bert(w, held_corpus, vocab, 200)[0]  # noqa: E731
    curve, seconds = train(kind, w, step_loss, evaluate, steps, lr)
    w = {k: t.detach() for k, t in w.items()}
    figures = {"steps": steps, "batch": batch, "learning_rate": lr, "seconds": round(seconds),
               "torch": torch.__version__, "threads": torch.get_num_threads(), "curve": curve}
    train_ids = [i for ids in corpus.first for i in ids]
    figures["train_tokens"] = len(train_ids)
    figures["held_out_verses"], figures["train_verses"] = len(held), len(verses)
    if kind in CAUSAL:
        loss, acc = held_out_gpt(w, held_corpus, None, FORWARD[kind])
        targets = [i for ids in held_corpus.first for i in ids[1:CONTEXT]]
    else:
        loss, acc, targets = held_out_bert(w, held_corpus, vocab)
    base_loss, base_acc = unigram_baseline(train_ids, targets, vocab)
    figures.update({"held_out_loss": round(loss, 4), "held_out_perplexity": round(math.exp(loss), 2),
                    "held_out_accuracy": round(acc, 4), "unigram_loss": round(base_loss, 4),
                    "unigram_perplexity": round(math.exp(base_loss), 2), "unigram_accuracy": round(base_acc, 4),
                    "held_out_predictions": len(targets)})
    return w, figures


def write_folder(name, config, tokenizer, weights, figures):
    folder = os.path.join(MODELS, name)
    os.makedirs(folder, exist_ok=True)
    for file, content in (("config.json", config), ("tokenizer.json", tokenizer.to_json()), ("training.json", figures)):
        with open(os.path.join(folder, file), "w", encoding="utf-8") as f:
            json.dump(content, f, indent=None if file == "tokenizer.json" else 2, ensure_ascii=False)
            f.write("\n")
    write_safetensors(os.path.join(folder, "model.safetensors"), sorted(weights.items()), "F32")


MODEL_NAMES = {"gpt": "example-gpt", "bert": "example-bert", "llama": "example-llama"}
CAUSAL = ("gpt", "llama")
FORWARD = {"gpt": gpt_forward, "bert": bert_forward, "llama": llama_forward}

# ---------------------------------------------------------------- checks against AttnScope, the card

ROLLOUT_SENTENCE = "The animal didn't cross the street because it was too tired."
EXTRA_SENTENCES = [ROLLOUT_SENTENCE, "The teacher praised the student because she had worked hard.",
                   "Café owners in Zürich don't open before 9 o'clock, do they?"]
COREF_SET = os.path.join(ROOT, "resources", "coref", "english.jsonl")
PROMPTS = {"gpt": ["In the beginning God created the", "The LORD is my shepherd", "And Moses said unto the",
                   "The animal didn't cross the street because it was too"],
           "llama": ["In the beginning God created the", "The LORD is my shepherd", "And Moses said unto the",
                     "The animal didn't cross the street because it was too"],
           "bert": ["In the beginning God created the heaven and the [MASK].", "The LORD is my [MASK]; I shall not want.",
                    "And God said, Let there be [MASK]: and there was light.",
                    "The animal didn't cross the [MASK] because it was too tired."]}


def check_sentences(kind, tokenizer, held):
    """Eight held-out verses spread over the book whose tokens fit the 64 positions, and EXTRA_SENTENCES."""
    short = [v for v in held if len(model_ids(kind, tokenizer, v)) <= CONTEXT]
    return short[::len(short) // 8][:8] + EXTRA_SENTENCES


def attnscope(binary, *args):
    done = subprocess.run([binary, *args], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"attnscope {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def model_ids(kind, tokenizer, sentence):
    ids = tokenizer.encode(sentence)
    return ids if kind in CAUSAL else [BERT_SPECIALS.index("[CLS]")] + ids + [BERT_SPECIALS.index("[SEP]")]


def load_weights(folder):
    """model.safetensors (F32, as written above) → {name: tensor}."""
    with open(os.path.join(folder, "model.safetensors"), "rb") as f:
        data = f.read()
    size = int.from_bytes(data[:8], "little")
    header = json.loads(data[8:8 + size])
    header.pop("__metadata__", None)
    out = {}
    for name, info in header.items():
        begin, end = info["data_offsets"]
        raw = bytearray(data[8 + size + begin:8 + size + end])
        out[name] = torch.frombuffer(raw, dtype=torch.float32).reshape(info["shape"])
    return out


def verify(kind, folder, binary, sentences):
    """AttnScope's ids and attention weights against this script's tokenizer and forward pass."""
    tokenizer, w = load_tokenizer(kind, folder), load_weights(folder)
    forward = FORWARD[kind]
    worst, fixture = 0.0, []
    for sentence in sentences:
        trace = json.loads(attnscope(binary, "--model", folder, "--sentence", sentence, "--print", "--format", "json"))
        ids = [t["id"] for t in trace["token_info"]]
        mine = model_ids(kind, tokenizer, sentence)
        if ids != mine:
            sys.exit(f"{folder}: AttnScope's ids differ from the script's on {sentence!r}:\n{ids}\n{mine}")
        fixture.append({"sentence": sentence, "ids": tokenizer.encode(sentence)})
        with torch.no_grad():
            _, attentions = forward(w, torch.tensor([ids]))
        for layer, traced in zip(attentions, trace["layers"]):
            for h, head in enumerate(traced["heads"]):
                worst = max(worst, float((torch.tensor(head["weights"]) - layer[0, h]).abs().max()))
    if worst > 1e-5:
        sys.exit(f"{folder}: AttnScope's attention differs from PyTorch's by {worst:.2e} (> 1e-5)")
    return worst, fixture


def head_labels(folder, binary, sentences):
    """Per head: the label AttnScope's head statistics give on each sentence, and the mean shares."""
    heads = {}
    for sentence in sentences:
        stats = json.loads(attnscope(binary, "heads", "--model", folder, "--stats", "--sentence", sentence,
                                     "--format", "json"))["head_stats"]["heads"]
        for s in stats:
            entry = heads.setdefault((s["layer"] + 1, s["head"] + 1), {"labels": collections.Counter(), "shares": []})
            entry["labels"][s["labels"][0]] += 1
            entry["shares"].append([s["previous"], s["next"], s["delimiter"], s["self"], s["normalized_entropy"]])
    return heads


def coref_evaluation(folder, binary):
    return json.loads(attnscope(binary, "heads", "--model", folder, "--coref-set", COREF_SET, "--format", "json"))["evaluation"]


def percent(x):
    return f"{100 * x:.1f} %"


def card_heads(heads, sentences, causal):
    lines = [f"Labels from AttnScope's head statistics (`attnscope heads --stats`, default thresholds) on "
             f"{len(sentences)} sentences (eight held-out verses and three modern sentences); shares are means "
             "over those sentences." + (" The causal mask forbids attending to the next token, hence its zeros."
                                         if causal else ""), "",
             "| head | labels (sentences) | previous | next | delimiter | self | norm. entropy |",
             "|---|---|---|---|---|---|---|"]
    for (layer, head), e in sorted(heads.items()):
        labels = ", ".join(f"{label} ({n})" for label, n in e["labels"].most_common())
        means = [sum(col) / len(col) for col in zip(*e["shares"])]
        lines.append(f"| {layer}:{head} | {labels} | " + " | ".join(f"{m:.2f}" for m in means) + " |")
    totals = collections.Counter()
    for e in heads.values():
        totals.update(e["labels"])
    n = sum(totals.values())
    lines += ["", "Share of (head, sentence) pairs per label: " +
              ", ".join(f"{label} {percent(c / n)}" for label, c in totals.most_common()) + "."]
    return lines


def card_coref(e):
    best = e["ranking"][:3]
    lines = [f"`attnscope heads --coref-set resources/coref/english.jsonl`: {e['evaluated']} of {e['examples']} "
             f"examples evaluated ({len(e['skipped'])} skipped: mention or antecedent not found as a word).", "",
             "| scorer | accuracy |", "|---|---|",
             f"| baseline: nearest mention | {percent(e['baselines']['nearest']['accuracy'])} |",
             f"| baseline: rule-based | {percent(e['baselines']['rule']['accuracy'])} |",
             f"| attention rollout | {percent(e['rollout']['accuracy'])} |"]
    for r in best:
        lines.append(f"| head {r['layer'] + 1}:{r['head'] + 1} | {percent(r['accuracy'])} ({r['correct']}/{e['evaluated']}) |")
    lines += ["", "The best heads are chosen on the same set they are scored on (the best of "
              f"{e['layers'] * e['heads']}), so their accuracy is an optimistic estimate."]
    return lines


def card_predictions(kind, folder, binary):
    """What the model predicts on a few prompts, as `attnscope --print` reports it."""
    lines = ["| input | top 3 (probability) |", "|---|---|"]
    for prompt in PROMPTS[kind]:
        out = attnscope(binary, "--model", folder, "--sentence", prompt, "--print", "--top-k", "3")
        prediction = out.splitlines()[1].split(": ", 1)[1]  # after the header: "next token after …: a 0.1, …"
        lines.append(f"| {prompt.replace('|', '/')} | {prediction} |")
    return lines


CARD_KIND = {  # kind → (what it is, HF class, its blocks, its tokenizer)
    "gpt": ("A GPT-2-style causal language model", "GPT2LMHeadModel",
            "pre-LayerNorm, tanh GELU (`gelu_new`), LayerNorm ε 1e-5, output tied to the token embeddings.",
            "learned by the script: byte-level BPE with GPT-2's pre-tokenisation, "),
    "bert": ("A BERT-style masked-language model", "BertForMaskedLM",
             "post-LayerNorm, erf GELU, LayerNorm ε 1e-12, one token type, decoder tied to the word embeddings, "
             "no pooler or next-sentence head.",
             "learned by the script: WordPiece (lower-cased, BERT's basic tokenizer), "),
    "llama": ("A Llama-style causal language model (the blocks of Llama 3, Qwen and Mistral)", "LlamaForCausalLM",
              f"pre-RMSNorm (ε 1e-5), rotary positions (RoPE, θ = {ROPE_THETA:g}, Hugging Face's rotate_half pairing), "
              f"grouped-query attention ({HEADS} query heads share {KV_HEADS} key/value heads: query heads 1–2 read "
              "key/value head 1, 3–4 read head 2), SwiGLU feed-forward, no biases, output tied to the token "
              "embeddings.",
              "example-gpt's (byte-level BPE with GPT-2's pre-tokenisation, learned by the script), "),
}


def write_card(kind, folder, figures, worst, heads, sentences, coref, rollout, predictions):
    name = MODEL_NAMES[kind]
    size = sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder))
    params = sum(t.numel() for t in load_weights(folder).values())
    is_gpt = kind in CAUSAL  # gpt and llama: next-token models
    task = "next-token" if is_gpt else "masked-token"
    curve = ["| step | minutes | training loss | held-out loss |", "|---|---|---|---|"] + [
        f"| {p['step']} | {p['minutes']} | {p['train_loss']} | {p['held_out_loss']} |" for p in figures["curve"]]
    lines = [
        f"# {name}", "",
        CARD_KIND[kind][0] +
        f" trained by `scripts/train_example_models.py` so that AttnScope can show learned attention without a "
        "download. It is a teaching toy: "
        f"{params:,} parameters, trained for {figures['seconds'] // 60} minutes (wall clock, one thread on a shared "
        "2-core machine) on a single 400-year-old book. Do not rely on what it predicts.", "",
        "## Data and licence", "",
        "The King James Version of the Bible (1611), as packaged by Debian in `bible-kjv-text` and printed verse by "
        f"verse by `bible-kjv`'s reader: {figures['train_verses'] + figures['held_out_verses']:,} verses, every "
        f"{HELD_OUT_EVERY}th held out ({figures['held_out_verses']:,} verses, never trained on). Licence: outside the "
        "United Kingdom the text is in the public domain; Debian's copyright file for bible-kjv-text says \"The "
        "copyright for the King James Version text of the Bible is expired since the translation was done in 1611\". "
        "In the UK the KJV remains under the Crown's perpetual rights (letters patent, administered by Cambridge "
        "University Press); the weights below are derived from the text. These weights, like the rest of AttnScope, "
        "carry the project's "
        "licence.", "",
        "Why this text: it is public domain, packaged by Debian (so the training is reproducible offline), long "
        "(about 800,000 words) and narrative, full of pronouns and of who-did-what-to-whom, which is what the "
        "coreference and head views are about. Its English is archaic (thee, thou, hath), which the numbers below "
        "reflect on modern sentences.", "",
        "## Model", "",
        f"- {CARD_KIND[kind][1]} layout, Hugging Face tensor names, F32 safetensors; "
        f"{LAYERS} layers × {HEADS} heads, width {WIDTH}, "
        f"feed-forward {GATED_FEED_FORWARD if kind == 'llama' else FEED_FORWARD}, {CONTEXT} positions, "
        + CARD_KIND[kind][2],
        "- Tokenizer: " + CARD_KIND[kind][3]
        + f"{len(json.load(open(os.path.join(folder, 'tokenizer.json')))['model']['vocab'])} entries.",
        f"- Folder size {size / 1e6:.1f} MB; {params:,} parameters.", "",
        "## Training", "",
        f"{figures['steps']} steps of {figures['batch']} sequences"
        + (f" of {CONTEXT} tokens (consecutive verses from a random verse)" if is_gpt else
           " of one random length from 12 to 64 tokens ([CLS] consecutive verses [SEP]), 15 % of the tokens "
           "predicted (80 % [MASK], 10 % random, 10 % kept)")
        + f"; AdamW, peak learning rate {figures['learning_rate']}, warm-up then cosine decay, seed {SEED}, "
        f"{figures['threads']} thread, torch {figures['torch']}: {figures['seconds'] // 60} min "
        f"{figures['seconds'] % 60} s. Held-out loss in the curve is on the first 200 held-out verses.", "",
        *curve, "",
        "## Held-out figures", "",
        f"On all {figures['held_out_verses']:,} held-out verses, each read on its own "
        f"({figures['held_out_predictions']:,} {task} predictions):", "",
        "| | loss (nats) | perplexity | " + task + " accuracy |", "|---|---|---|---|",
        f"| {name} | {figures['held_out_loss']} | {figures['held_out_perplexity']} | {percent(figures['held_out_accuracy'])} |",
        f"| unigram baseline (training frequencies) | {figures['unigram_loss']} | {figures['unigram_perplexity']} | "
        f"{percent(figures['unigram_accuracy'])} |", "",
        f"AttnScope's forward pass matches the script's PyTorch forward pass: the largest difference in any attention "
        f"weight over {len(sentences)} sentences is {worst:.1e} (the script stops above 1e-5), and AttnScope's token "
        "ids equal the script's (tests/core/test_example_models.cpp keeps checking that).", "",
        "## Predictions", "",
        ("The next token after each input" if is_gpt else "The token at each [MASK]") +
        " (`attnscope --model " + name + " --sentence … --print --top-k 3`). The KJV inputs are verses or verse beginnings (Genesis "
        "1:1 is held out; the others occur in the training text); the last input is modern English.", "",
        *predictions, "",
        "## What the heads do", "", *card_heads(heads, sentences, is_gpt), "",
        "## Coreference", "", *card_coref(coref), "",
        "## Rollout", "",
        f"`attnscope coref --model {name} --sentence \"{ROLLOUT_SENTENCE}\" --rollout`:", "", "```", rollout.strip(), "```", "",
        "## Limitations", "",
        "A tiny model trained for minutes on one archaic book: it knows KJV vocabulary and phrasing, splits modern "
        "words into pieces, reads at most 64 tokens, and its predictions are often wrong. Its heads are real learned "
        "heads, which is the point, but they are not those of the models it imitates.", ""]
    with open(os.path.join(folder, "MODEL_CARD.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


def report(kinds, held, binary):
    if not os.access(binary, os.X_OK):
        sys.exit(f"{binary}: build attnscope first (cmake --build build --target attnscope), or give --attnscope")
    fixture = {}
    if os.path.exists(FIXTURE):
        with open(FIXTURE) as f:
            fixture = json.load(f)
    for kind in kinds:
        name = MODEL_NAMES[kind]
        folder = os.path.join(MODELS, name)
        with open(os.path.join(folder, "training.json")) as f:
            figures = json.load(f)
        sentences = check_sentences(kind, load_tokenizer(kind, folder), held)
        worst, fixture[name] = verify(kind, folder, binary, sentences)
        print(f"{name}: attention matches AttnScope's within {worst:.1e}", flush=True)
        heads = head_labels(folder, binary, sentences)
        coref = coref_evaluation(folder, binary)
        rollout = attnscope(binary, "coref", "--model", folder, "--sentence", ROLLOUT_SENTENCE, "--rollout")
        write_card(kind, folder, figures, worst, heads, sentences, coref, rollout.replace(folder, name),
                   card_predictions(kind, folder, binary))
        print(f"{name}: MODEL_CARD.md written", flush=True)
    with open(FIXTURE, "w", encoding="utf-8") as f:  # one sentence per line: readable diffs
        models = [f'"{name}": [\n' + ",\n".join("  " + json.dumps(row, ensure_ascii=False) for row in rows) + "\n]"
                  for name, rows in sorted(fixture.items())]
        f.write("{\n" + ",\n".join(models) + "\n}\n")


def learn_tokenizer(kind, verses):
    """example-llama reads example-gpt's pieces (trained first), so the two causal models can be compared id for id."""
    if kind == "llama":
        return load_tokenizer("gpt", os.path.join(MODELS, MODEL_NAMES["gpt"]))
    return train_bpe(verses) if kind == "gpt" else train_wordpiece(verses)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=["gpt", "bert", "llama"], help="train one model only")
    parser.add_argument("--report-only", action="store_true", help="keep the weights; redo the checks and the cards")
    parser.add_argument("--steps", type=int, default=None, help="training steps (default: gpt 2000, bert and llama 3000)")
    parser.add_argument("--batch", type=int, default=None, help="sequences per step (default: gpt 32, bert 64)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--attnscope", default=os.path.join(ROOT, "build", "app", "attnscope"))
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    kinds = [args.only] if args.only else ["gpt", "bert", "llama"]
    verses, held = split_verses(read_kjv())
    if not args.report_only:
        for kind in kinds:
            name = MODEL_NAMES[kind]
            started = time.time()
            tokenizer = learn_tokenizer(kind, verses)
            print(f"{name}: tokenizer of {len(tokenizer.vocab)} pieces in {time.time() - started:.0f} s", flush=True)
            steps = args.steps or {"gpt": 2000, "bert": 3000, "llama": 3000}[kind]
            lr = 1e-3 if kind in CAUSAL else 7e-4  # post-LN BERT is the touchier one
            batch = args.batch or (32 if kind in CAUSAL else 64)  # BERT predicts 15 % of its tokens: larger batches
            weights, figures = train_model(kind, tokenizer, verses, held, steps, batch, lr)
            figures["tokenizer_seconds"] = round(time.time() - started - figures["seconds"])
            config = {"gpt": gpt_config, "bert": bert_config, "llama": llama_config}[kind](len(tokenizer.vocab))
            write_folder(name, config, tokenizer, weights, figures)
            print(f"{name}: written, {figures}", flush=True)
    report(kinds, held, args.attnscope)


if __name__ == "__main__":
    main()
