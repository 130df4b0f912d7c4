#!/usr/bin/python3
"""Independent reference for corpus statistics (issue 14 §3, after Clark et al. 2019).

For the tiny BERT and GPT-2 fixtures (tests/reference/models) and the committed corpus
tests/reference/fixtures/corpus-tiny.txt (one sentence a line, blank lines skipped), computes per
head the mean over every query of every sentence of: attention to the first token, to the last
token, to punctuation tokens (not special ones), to identical tokens elsewhere (same text, not
itself), the row entropy in bits and a uniform row's entropy over the tokens the query may see,
and the offset profile w(i, i+o) for o in [-8, 8], each offset averaged over the queries where
i+o is a token. Definitions as in core/analysis/corpus_stats.hpp, written here from that text,
not from the C++.

The forward passes are reference_ablation.py's (plain torch, float64, no head masked), the
tokenizers reference_tokenizers.py's (Hugging Face's BERT BasicTokenizer + WordPiece, OpenAI's
GPT-2 byte-level BPE); nothing comes from core. Output: tests/reference/fixtures/corpus_stats.json.
Run with /usr/bin/python3 (needs python3-torch and python3-regex); the C++ test
(tests/core/test_corpus_stats.cpp, [corpus]) reads the committed fixture and needs no Python.
"""
import json
import math
import os
import unicodedata

import numpy as np
import torch

from reference_ablation import bert, gpt2, read_model, MODELS, FIXTURES, head_mask_of
from reference_tokenizers import Bert, Gpt2, encode

MAX_OFFSET = 8
CORPUS = os.path.join(FIXTURES, "corpus-tiny.txt")
BERT_PUNCT = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def sentences():
    with open(CORPUS, encoding="utf-8") as f:
        return [line.rstrip("\r\n") for line in f if line.strip(" \t\r\n")]


def is_punctuation(piece):
    """The piece without its space marker ('Ġ') and leading spaces is punctuation or blank."""
    text = piece[1:] if piece.startswith("Ġ") else piece
    text = text.lstrip(" ")
    return all(ch in BERT_PUNCT or unicodedata.category(ch).startswith("P") or ch.isspace() for ch in text)


def tokens_of(family, tokenizer, text):
    """(piece, id, special) for the model's input: BERT gets [CLS] … [SEP], GPT-2 the pieces alone."""
    pieces = [(p, i, False) for p, i, _ in encode(tokenizer, text)]
    if family == "bert":
        return [("[CLS]", tokenizer.vocab["[CLS]"], True)] + pieces + [("[SEP]", tokenizer.vocab["[SEP]"], True)]
    return pieces


class Sums:
    def __init__(self, layers, heads):
        shape = (layers, heads)
        self.names = ["first", "last", "punctuation", "same_token", "entropy", "uniform_entropy"]
        self.sums = {n: np.zeros(shape) for n in self.names}
        self.offsets = np.zeros(shape + (2 * MAX_OFFSET + 1,))
        self.offset_queries = np.zeros(2 * MAX_OFFSET + 1, dtype=np.int64)
        self.queries = 0

    def add(self, weights, tokens, causal):
        T = len(tokens)
        punct = np.array([not s and is_punctuation(p) for p, _, s in tokens], dtype=float)
        texts = [p for p, _, _ in tokens]
        same = np.array([[1.0 if j != i and texts[j] == texts[i] else 0.0 for j in range(T)] for i in range(T)])
        seen = np.array([i + 1 if causal else T for i in range(T)], dtype=float)
        for l, layer in enumerate(weights):
            for h in range(layer.shape[0]):
                w = layer[h].numpy()
                logs = np.where(w > 0, np.log2(np.where(w > 0, w, 1.0)), 0.0)
                self.sums["first"][l, h] += w[:, 0].sum()
                self.sums["last"][l, h] += w[:, T - 1].sum()
                self.sums["punctuation"][l, h] += (w @ punct).sum()
                self.sums["same_token"][l, h] += (w * same).sum()
                self.sums["entropy"][l, h] += -(w * logs).sum()
                self.sums["uniform_entropy"][l, h] += np.log2(seen).sum()
                for o in range(-MAX_OFFSET, MAX_OFFSET + 1):
                    self.offsets[l, h, o + MAX_OFFSET] += sum(w[i, i + o] for i in range(T) if 0 <= i + o < T)
        for o in range(-MAX_OFFSET, MAX_OFFSET + 1):
            self.offset_queries[o + MAX_OFFSET] += max(0, T - abs(o))
        self.queries += T

    def heads(self):
        out = []
        L, H = self.offsets.shape[:2]
        for l in range(L):
            for h in range(H):
                row = {"layer": l, "head": h}
                for n in self.names:
                    row[n] = float(self.sums[n][l, h] / self.queries)
                row["offsets"] = [float(self.offsets[l, h, k] / q) if q else 0.0
                                  for k, q in enumerate(self.offset_queries)]
                out.append(row)
        return out


def model_case(name, family):
    config, w = read_model(name)
    layers = config.get("num_hidden_layers", config.get("n_layer"))
    heads = config.get("num_attention_heads", config.get("n_head"))
    folder = os.path.join(MODELS, name)
    tokenizer = Bert(folder) if family == "bert" else Gpt2(folder)
    forward = bert if family == "bert" else gpt2
    sums = Sums(layers, heads)
    ids = []
    for text in sentences():
        tokens = tokens_of(family, tokenizer, text)
        ids.append([i for _, i, _ in tokens])
        weights = forward(config, w, ids[-1], head_mask_of([], layers, heads))[0]
        sums.add(weights, tokens, causal=family == "gpt2")
    return {"model": name, "ids": ids, "sentences": len(ids), "queries": sums.queries,
            "offset_queries": [int(q) for q in sums.offset_queries], "heads": sums.heads()}


def main():
    torch.set_default_dtype(torch.float64)
    doc = {"generator": "tests/reference/reference_corpus_stats.py", "corpus": "corpus-tiny.txt",
           "max_offset": MAX_OFFSET, "models": [model_case("bert-tiny", "bert"), model_case("gpt2-tiny", "gpt2")]}
    with open(os.path.join(FIXTURES, "corpus_stats.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
