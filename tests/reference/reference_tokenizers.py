#!/usr/bin/python3
"""Independent reference tokenizers; writes tests/reference/fixtures/tokenizers.json.

    /usr/bin/python3 tests/reference/reference_tokenizers.py          # rewrite the fixture
    /usr/bin/python3 tests/reference/reference_tokenizers.py --check  # exit 1 if it is stale

Written from the published algorithms, not from the C++ code:
  * BERT: Hugging Face's BasicTokenizer + WordpieceTokenizer (clean text, CJK isolation,
    str.lower(), NFD + drop Mn, punctuation split, greedy longest-match-first WordPiece),
    using Python's unicodedata directly.
  * GPT-2: OpenAI's encoder.py (bytes_to_unicode, the pre-tokenization pattern run by the
    `regex` module, bpe() merging the lowest-ranked pair until none is left).
Dev-time only: needs the real files in ../shared/tokenizers and `regex` (Debian python3-regex).
The C++ test (tests/core/test_tokenizers.cpp, tag [tokenizer-real]) reads the committed fixture.
"""

import json
import os
import random
import sys
import unicodedata

import regex

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared", "tokenizers"))
OUT = os.path.join(HERE, "fixtures", "tokenizers.json")


# ---- BERT (uncased) --------------------------------------------------------------------------

def is_whitespace(ch):
    return ch in " \t\n\r" or unicodedata.category(ch) == "Zs"


def is_control(ch):
    return ch not in "\t\n\r" and unicodedata.category(ch).startswith("C")


def is_punctuation(ch):
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def is_chinese_char(cp):
    return any(a <= cp <= b for a, b in [
        (0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
        (0x2B740, 0x2B81F), (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F)])


def bert_basic_tokenize(text):
    cleaned = []
    for ch in text:
        if ord(ch) == 0 or ord(ch) == 0xFFFD or is_control(ch):
            continue
        cleaned.append(" " if is_whitespace(ch) else ch)
    spaced = []
    for ch in cleaned:
        spaced.append(f" {ch} " if is_chinese_char(ord(ch)) else ch)
    words = []
    for token in "".join(spaced).split():
        token = token.lower()
        token = "".join(c for c in unicodedata.normalize("NFD", token) if unicodedata.category(c) != "Mn")
        current = ""
        for ch in token:
            if is_punctuation(ch):
                if current:
                    words.append(current)
                words.append(ch)
                current = ""
            else:
                current += ch
        if current:
            words.append(current)
    return words


def wordpiece(word, vocab, unk="[UNK]", max_chars=100):
    if len(word) > max_chars:
        return [unk]
    pieces, start = [], 0
    while start < len(word):
        end, found = len(word), None
        while start < end:
            sub = ("##" if start > 0 else "") + word[start:end]
            if sub in vocab:
                found = sub
                break
            end -= 1
        if found is None:
            return [unk]
        pieces.append(found)
        start = end
    return pieces


class Bert:
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]

    def __init__(self, folder):
        with open(os.path.join(folder, "vocab.txt"), encoding="utf-8") as f:
            self.vocab = {line.rstrip("\n"): i for i, line in enumerate(f)}

    def encode_plain(self, text, words, out):
        for word in bert_basic_tokenize(text):
            for piece in wordpiece(word, self.vocab):
                out.append((piece, self.vocab[piece], len(words)))
            words.append(word)


# ---- GPT-2 ------------------------------------------------------------------------------------

def bytes_to_unicode():
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))


PATTERN = regex.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")


def get_pairs(word):
    return {(word[i], word[i + 1]) for i in range(len(word) - 1)}


class Gpt2:
    specials = ["<|endoftext|>"]

    def __init__(self, folder):
        with open(os.path.join(folder, "vocab.json"), encoding="utf-8") as f:
            self.vocab = json.load(f)
        with open(os.path.join(folder, "merges.txt"), encoding="utf-8") as f:
            lines = f.read().split("\n")[1:-1]
        self.ranks = {tuple(line.split()): i for i, line in enumerate(lines)}
        self.byte_encoder = bytes_to_unicode()

    def bpe(self, token):
        word = tuple(token)
        pairs = get_pairs(word)
        while pairs:
            bigram = min(pairs, key=lambda p: self.ranks.get(p, float("inf")))
            if bigram not in self.ranks:
                break
            first, second = bigram
            merged, i = [], 0
            while i < len(word):
                try:
                    j = word.index(first, i)
                except ValueError:
                    merged.extend(word[i:])
                    break
                merged.extend(word[i:j])
                i = j
                if word[i] == first and i < len(word) - 1 and word[i + 1] == second:
                    merged.append(first + second)
                    i += 2
                else:
                    merged.append(word[i])
                    i += 1
            word = tuple(merged)
            pairs = get_pairs(word)
        return word

    def encode_plain(self, text, words, out):
        for chunk in PATTERN.findall(text):
            mapped = "".join(self.byte_encoder[b] for b in chunk.encode("utf-8"))
            for piece in self.bpe(mapped):
                out.append((piece, self.vocab[piece], len(words)))
            words.append(chunk)


def encode(tokenizer, text):
    """Special-token strings in the text become those tokens, as Hugging Face's added tokens do."""
    out, words = [], []
    pos = 0
    while True:
        hits = [(text.find(s, pos), -len(s), s) for s in tokenizer.specials if text.find(s, pos) >= 0]
        if not hits:
            tokenizer.encode_plain(text[pos:], words, out)
            return out
        at, _, special = min(hits)
        tokenizer.encode_plain(text[pos:at], words, out)
        out.append((special, tokenizer.vocab[special], len(words)))
        words.append(special)
        pos = at + len(special)


# ---- cases ------------------------------------------------------------------------------------

def long_text(seed, length=10_000):
    rng = random.Random(seed)
    parts = ["the", "capital", "of", "France", "is", "Paris", "unaffable", "café", "naïve", "didn't",
             "it's", "3.14159", "2024", "wait...!!?", "我的笔记本", "🙂", "Straße", "ÅNGSTRÖM", "안녕",
             "\n", "  ", "\t", "(x)", "e-mail", "you'll", "We've", "—", "«quoted»"]
    text = ""
    while len(text) < length:
        text += rng.choice(parts) + rng.choice([" ", " ", " ", "", "\n"])
    return text[:length]


CASES = [
    ("hello", "Hello world"),
    ("capital", "The capital of France is"),
    ("unaffable", "unaffable"),
    ("accents", "Héllo café naïve"),
    ("punctuation-run", "wait...!!?"),
    ("numbers", "3.14159 and 2024"),
    ("cjk", "我的笔记本"),
    ("emoji", "I 🙂 you"),
    ("spaces", "  two  spaces  "),
    ("empty", ""),
    ("apostrophes", "didn't it's we'll they're I'd you've I'm don’t"),
    ("control-chars", "a\x00b\u200bc\x07d\te\u00adf\ufffdg"),
    ("newlines", "line one\n\nline two\r\n  indented\n"),
    ("hangul", "안녕하세요 세계"),
    ("greek-turkish-german", "ΣΟΦΙΑ İstanbul Straße ÅNGSTRÖM"),
    ("combining", "e\u0301te\u0301 Ω"),
    ("special-in-text", "[CLS] hello [MASK] world [SEP] <|endoftext|>"),
    ("long-mixed", long_text(7)),
    ("long-one-word", "abcdefghij" * 1000),
]


def fixture():
    tokenizers = {"bert-base-uncased": Bert(os.path.join(SHARED, "bert-base-uncased")),
                  "gpt2": Gpt2(os.path.join(SHARED, "gpt2"))}
    result = {"note": "generated by tests/reference/reference_tokenizers.py; do not edit", "cases": []}
    for name, text in CASES:
        entry = {"name": name, "text": text}
        for key, tokenizer in tokenizers.items():
            tokens = encode(tokenizer, text)
            entry[key] = {"ids": [t[1] for t in tokens], "words": [t[2] for t in tokens]}
            if len(tokens) < 100:  # pieces only where a reader would look at them
                entry[key]["pieces"] = [t[0] for t in tokens]
        result["cases"].append(entry)
    cases = ",\n".join(json.dumps(case, ensure_ascii=False) for case in result["cases"])
    return '{"note": %s,\n"cases": [\n%s\n]}\n' % (json.dumps(result["note"]), cases)


def main():
    text = fixture()
    if "--check" in sys.argv:
        with open(OUT, encoding="utf-8") as f:
            stale = f.read() != text
        print("stale" if stale else "up to date")
        sys.exit(1 if stale else 0)
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
