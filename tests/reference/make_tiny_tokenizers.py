#!/usr/bin/python3
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


def main():
    text = json.dumps(tokenizer_json(), ensure_ascii=False, indent=1) + "\n"
    for name in NAMES:
        with open(os.path.join(MODELS, name, "tokenizer.json"), "w", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    main()
