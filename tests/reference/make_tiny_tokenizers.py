#!/usr/bin/env python3
"""Writes a tiny tokenizer.json beside each RoPE family's random-weight checkpoint, so the folders
open like a downloaded model (window, command line) without a real tokenizer of 100k+ tokens.

    python3 tests/reference/make_tiny_tokenizers.py

Writes tests/reference/models/<name>/tokenizer.json for the models of make_family_fixtures.py.
The checkpoints have 64 ids, so the vocabulary has 64 tokens: <unk> <s> </s> (ids 0, 1, 2, as the
configs' bos_token_id 1 and eos_token_id 2), the letters a–z, "Ġ" (a space, byte-level), "." and
",", and the merges that spell a few words of the example sentences. It is a byte-level BPE (as
GPT-2's and Llama 3's) whose post-processor puts <s> first (as Llama's and Qwen's chat-less
templates add a BOS token), so the first token of every run is a real BOS: the place attention
sinks park their attention. Characters outside the vocabulary become <unk>.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference_tokenizers import bytes_to_unicode  # noqa: E402  (GPT-2's byte symbols; needs `regex`)

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, "models")
NAMES = ["llama-tiny", "mistral-tiny", "qwen2-tiny", "qwen3-tiny", "gemma3-tiny"]
VOCAB_SIZE = 64

SPECIALS = ["<unk>", "<s>", "</s>"]
LETTERS = [chr(c) for c in range(ord("a"), ord("z") + 1)]
WORDS = ["Ġthe", "Ġcat", "Ġsat", "Ġon", "Ġmat", "Ġit", "Ġwas", "Ġdog", "Ġran", "Ġand", "the"]


def merges_and_tokens():
    """Left-to-right merges building each word from its characters: "Ġ t" → "Ġt", "Ġt h" → "Ġth", …"""
    merges, tokens = [], []
    for word in WORDS:
        pieces = ["Ġ", *word[1:]] if word.startswith("Ġ") else list(word)
        left = pieces[0]
        for right in pieces[1:]:
            merged = left + right
            if merged not in tokens:
                merges.append(f"{left} {right}")
                tokens.append(merged)
            left = merged
    return merges, tokens


def tokenizer_json():
    merges, merged = merges_and_tokens()
    order = SPECIALS + LETTERS + ["Ġ", ".", ","] + merged
    assert len(order) <= VOCAB_SIZE, len(order)
    vocab = {token: i for i, token in enumerate(order)}
    added = [{"id": i, "content": t, "single_word": False, "lstrip": False, "rstrip": False, "normalized": False,
              "special": True} for i, t in enumerate(SPECIALS)]
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": None,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
            "pair": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                     {"Sequence": {"id": "B", "type_id": 1}}],
            "special_tokens": {"<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}},
        },
        "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
        "model": {"type": "BPE", "dropout": None, "unk_token": "<unk>", "continuing_subword_prefix": None,
                  "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
                  "vocab": vocab, "merges": merges},
    }


QWEN_SPLIT = ("(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|"
              "\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+")
CHINESE_SENTENCE = "马路很宽，它很长。"
CHINESE_WHOLE = "马路很它长，。"  # 宽 is left as two pieces


def chinese_tokenizer_json():
    symbol = bytes_to_unicode()
    bytes_used = []
    for b in CHINESE_SENTENCE.encode("utf-8"):
        if symbol[b] not in bytes_used:
            bytes_used.append(symbol[b])
    merges, merged = [], []
    for ch in CHINESE_SENTENCE:
        b = [symbol[x] for x in ch.encode("utf-8")]
        pairs = [(b[0], b[1])] + ([(b[0] + b[1], b[2])] if ch in CHINESE_WHOLE else [])
        for left, right in pairs:
            if left + right not in merged:
                merges.append(f"{left} {right}")
                merged.append(left + right)
    order = SPECIALS + ["Ġ"] + bytes_used + merged
    assert len(order) <= VOCAB_SIZE, len(order)
    spec = tokenizer_json()
    spec["normalizer"] = {"type": "NFC"}
    spec["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": QWEN_SPLIT}, "behavior": "Isolated", "invert": False},
        {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False}]}
    spec["post_processor"] = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False}
    spec["decoder"] = dict(spec["post_processor"])
    spec["model"].update(vocab={token: i for i, token in enumerate(order)}, merges=merges)
    return spec


def write_json(path, spec):
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(spec, ensure_ascii=False, indent=1) + "\n")


def main():
    for name in NAMES:
        write_json(os.path.join(MODELS, name, "tokenizer.json"), tokenizer_json())
    write_json(os.path.join(HERE, "fixtures", "tokenizer-zh-tiny.json"), chinese_tokenizer_json())


if __name__ == "__main__":
    main()
