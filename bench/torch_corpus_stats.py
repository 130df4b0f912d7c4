#!/usr/bin/python3
"""PyTorch side of the corpus-statistics benchmark (bench/run_corpus_bench.sh).

    /usr/bin/python3 bench/torch_corpus_stats.py MODEL_DIR CORPUS [--threads N] [--out FILE]

For every line of CORPUS (blank lines skipped) runs the BERT encoder in float32 with
torch.nn.functional (as bench/torch_forward.py: linear, erf GELU, post-LayerNorm, batched
softmax(QKᵀ/√d_k)) and accumulates, per layer × head, the statistics of
core/analysis/corpus_stats.hpp (first, last, punctuation, same token, entropy, uniform entropy,
offsets −8…+8), vectorised over heads. Tokenizing: the benchmark's corpora hold whole words of
MODEL_DIR/vocab.txt only, so a line's ids are [CLS], each word's id, [SEP] (what BERT's
tokenizer gives for them). Writes the statistics as attnscope's JSON ("heads": layer, head from 0)
to --out, so the script can compare them, and prints "sentences N seconds S" on stdout.
"""
import json
import math
import os
import sys
import time


def arg(name, default):
    return type(default)(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):  # see torch_forward.py
    os.environ[var] = str(arg("--threads", 1))

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_forward import load_safetensors  # noqa: E402

K = 8
PUNCT = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def main():
    folder, corpus = sys.argv[1], sys.argv[2]
    torch.set_num_threads(arg("--threads", 1))
    start = time.perf_counter()
    cfg = json.load(open(folder + "/config.json"))
    W, _mm = load_safetensors(folder + "/model.safetensors")
    vocab = {w: i for i, w in enumerate(open(folder + "/vocab.txt", encoding="utf-8").read().split("\n"))}
    d, H, L = cfg["hidden_size"], cfg["num_attention_heads"], cfg["num_hidden_layers"]
    eps, dk = cfg.get("layer_norm_eps", 1e-12), d // (cfg["num_attention_heads"])
    p = "bert." if "bert.embeddings.word_embeddings.weight" in W else ""

    def ln(x, name):
        gamma, beta = W.get(name + ".weight", W.get(name + ".gamma")), W.get(name + ".bias", W.get(name + ".beta"))
        return F.layer_norm(x, (d,), gamma, beta, eps)

    def lin(x, name):
        return F.linear(x, W[name + ".weight"], W[name + ".bias"])

    def attention_probs(ids):
        T = len(ids)
        e = p + "embeddings."
        x = ln(W[e + "word_embeddings.weight"][ids] + W[e + "token_type_embeddings.weight"][0]
               + W[e + "position_embeddings.weight"][:T], e + "LayerNorm")
        out = []
        for n in range(L):
            q = p + f"encoder.layer.{n}."
            heads = lambda t: t.view(T, H, dk).transpose(0, 1)
            Q, Kt, V = (heads(lin(x, q + "attention.self." + s)) for s in ("query", "key", "value"))
            probs = torch.softmax(torch.matmul(Q, Kt.transpose(-1, -2)) / math.sqrt(dk), dim=-1)
            out.append(probs)
            context = torch.matmul(probs, V).transpose(0, 1).reshape(T, d)
            a = ln(lin(context, q + "attention.output.dense") + x, q + "attention.output.LayerNorm")
            x = ln(lin(F.gelu(lin(a, q + "intermediate.dense")), q + "output.dense") + a, q + "output.LayerNorm")
        return torch.stack(out).double()  # L×H×T×T

    names = ["first", "last", "punctuation", "same_token", "entropy", "uniform_entropy"]
    sums = {n: torch.zeros(L, H, dtype=torch.float64) for n in names}
    offsets = torch.zeros(L, H, 2 * K + 1, dtype=torch.float64)
    offset_queries = [0] * (2 * K + 1)
    queries = sentences = 0
    with torch.inference_mode():
        for line in open(corpus, encoding="utf-8"):
            words = line.split()
            if not words:
                continue
            texts = ["[CLS]"] + words + ["[SEP]"]
            ids = torch.tensor([vocab[w] for w in texts])
            T = len(texts)
            w = attention_probs(ids)
            punct = torch.tensor([0.0 if t in ("[CLS]", "[SEP]") else float(all(c in PUNCT for c in t)) for t in texts],
                                 dtype=torch.float64)
            same = (ids[:, None] == ids[None, :]).double() - torch.eye(T, dtype=torch.float64)
            sums["first"] += w[..., 0].sum(-1)
            sums["last"] += w[..., T - 1].sum(-1)
            sums["punctuation"] += (w @ punct).sum(-1)
            sums["same_token"] += (w * same).sum((-1, -2))
            sums["entropy"] += -(torch.where(w > 0, w * torch.log2(w), torch.zeros_like(w))).sum((-1, -2))
            sums["uniform_entropy"] += T * math.log2(T)
            for o in range(-K, K + 1):
                if abs(o) < T:
                    offsets[..., o + K] += torch.diagonal(w, offset=o, dim1=-2, dim2=-1).sum(-1)
                    offset_queries[o + K] += T - abs(o)
            queries += T
            sentences += 1
    seconds = time.perf_counter() - start
    heads = []
    for l in range(L):
        for h in range(H):
            row = {"layer": l, "head": h}
            row.update({n: float(sums[n][l, h] / queries) for n in names})
            row["offsets"] = [float(offsets[l, h, k] / q) if q else 0.0 for k, q in enumerate(offset_queries)]
            heads.append(row)
    if "--out" in sys.argv:
        with open(arg("--out", ""), "w") as f:
            json.dump({"sentences": sentences, "queries": queries, "heads": heads}, f)
    print(f"sentences {sentences} seconds {seconds:.3f}")


if __name__ == "__main__":
    main()
