#!/usr/bin/python3
"""PyTorch reference timing of the BERT or GPT-2 forward pass on the SAME safetensors weights.

    /usr/bin/python3 bench/torch_forward.py MODEL_DIR [--threads N] [--tokens T] [--runs R]
                                            [--warmup W] [--attention bmm|mm] [--compare FILE]

Reads MODEL_DIR/config.json and model.safetensors by hand (8-byte LE header length, JSON header,
raw data; there is no safetensors or transformers package) into torch tensors that share the
memory-mapped file, then runs transformers' BertModel computation in eval mode written with
torch.nn.functional (the same float32 operations: linear, exact-erf GELU, post-LayerNorm,
softmax(QKᵀ/√d_k)·V); for GPT-2 (model_type "gpt2") transformers' GPT2Model computation: Conv1D
as torch.addmm(b, x, W), pre-LayerNorm, the causal mask applied with torch.where and the dtype's
minimum, gelu_new written as transformers' NewGELUActivation, ln_f at the end. No code is shared
with core/. Input: the same T ids as attnscope_forward_bench. Prints its thread settings and the
OpenBLAS kernels asked for, one "time torch <ms>" line per timed run, then the median.
--attention bmm (default): the heads as one batched matmul, as transformers' BertSelfAttention
  does (torch.matmul on H×T×d_k → aten::bmm);
--attention mm: one 2-D matmul per head (aten::mm, which goes to BLAS). Debian's torch 1.13 has no
  BLAS batched GEMM (BLAS_INFO=generic), so its bmm is far slower; "mm" is the stronger baseline.
  Its timing lines say "torch-mm".
--compare FILE: a T×d float32 final hidden state written by attnscope_forward_bench --dump;
prints the largest absolute difference.
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


# Debian's torch does its GEMMs in OpenBLAS (pthreads), whose thread count torch.set_num_threads
# does not set: left alone it starts one thread per core and small products (the per-head ones)
# slow down ~100x from its threads spinning against torch's. So both pools get N, before import.
for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ[var] = str(arg("--threads", 1))

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402


def load_safetensors(path):
    f = open(path, "rb")
    mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    (n,) = struct.unpack("<Q", mm[:8])
    header = json.loads(mm[8:8 + n])
    base = 8 + n
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        assert info["dtype"] == "F32", (name, info["dtype"])
        begin, end = info["data_offsets"]
        count = (end - begin) // 4
        # frombuffer wants a writable buffer; a read-only mmap works but warns, so silence it.
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t = torch.frombuffer(mm, dtype=torch.float32, count=count, offset=base + begin)
        out[name] = t.view(info["shape"])
    return out, mm


def bench_ids(T, vocab, bert):
    ids = [5 + (1000003 * i + 12345) % (vocab - 5) for i in range(T)]
    if not bert:
        return ids
    ids[0] = 2
    if T > 1:
        ids[-1] = 3
    return ids


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    folder = sys.argv[1]
    threads, T, runs, warmup = arg("--threads", 1), arg("--tokens", 128), arg("--runs", 5), arg("--warmup", 1)
    per_head = arg("--attention", "bmm") == "mm"
    label = "torch-mm" if per_head else "torch"
    torch.set_num_threads(threads)
    cfg = json.load(open(folder + "/config.json"))
    W, _mm = load_safetensors(folder + "/model.safetensors")
    gpt2 = cfg.get("model_type") == "gpt2"
    if gpt2:
        d, H, L = cfg["n_embd"], cfg["n_head"], cfg["n_layer"]
        eps, positions = cfg.get("layer_norm_epsilon", 1e-5), cfg["n_positions"]
    else:
        d, H, L = cfg["hidden_size"], cfg["num_attention_heads"], cfg["num_hidden_layers"]
        eps, positions = cfg.get("layer_norm_eps", 1e-12), cfg["max_position_embeddings"]
    dk = d // H
    T = min(T, positions)
    p = "bert." if "bert.embeddings.word_embeddings.weight" in W else ""
    ids = torch.tensor(bench_ids(T, cfg["vocab_size"], not gpt2))
    print(f"threads: torch.get_num_threads()={torch.get_num_threads()}, OPENBLAS_NUM_THREADS="
          f"{os.environ.get('OPENBLAS_NUM_THREADS')}, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS')}; "
          f"kernels: OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE', 'unset')}", flush=True)

    def ln(x, name):
        return F.layer_norm(x, (d,), W[name + ".weight"], W[name + ".bias"], eps)

    def lin(x, name):
        return F.linear(x, W[name + ".weight"], W[name + ".bias"])

    def bert_forward():
        e = p + "embeddings."
        x = W[e + "word_embeddings.weight"][ids] + W[e + "token_type_embeddings.weight"][0] \
            + W[e + "position_embeddings.weight"][:T]
        x = ln(x, e + "LayerNorm")
        for n in range(L):
            q = p + f"encoder.layer.{n}."
            if per_head:
                Q, K, V = (lin(x, q + "attention.self." + s) for s in ("query", "key", "value"))  # T×d
                parts = []
                for h in range(H):
                    c = slice(h * dk, (h + 1) * dk)
                    probs = torch.softmax(torch.mm(Q[:, c], K[:, c].t()) / math.sqrt(dk), dim=-1)
                    parts.append(torch.mm(probs, V[:, c]))
                context = torch.cat(parts, dim=1)
            else:
                heads = lambda t: t.view(T, H, dk).transpose(0, 1)  # H×T×d_k
                Q, K, V = (heads(lin(x, q + "attention.self." + s)) for s in ("query", "key", "value"))
                scores = torch.matmul(Q, K.transpose(-1, -2)) / math.sqrt(dk)
                probs = torch.softmax(scores, dim=-1)
                context = torch.matmul(probs, V).transpose(0, 1).reshape(T, d)
            a = ln(lin(context, q + "attention.output.dense") + x, q + "attention.output.LayerNorm")
            inner = F.gelu(lin(a, q + "intermediate.dense"))
            x = ln(lin(inner, q + "output.dense") + a, q + "output.LayerNorm")
        return x

    def gelu_new(x):  # transformers' NewGELUActivation
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))

    def conv1d(x, name):  # transformers' Conv1D: weight [in, out]
        return torch.addmm(W[name + ".bias"], x, W[name + ".weight"])

    causal = torch.tril(torch.ones(T, T, dtype=torch.bool)).view(1, T, T)
    minimum = torch.tensor(torch.finfo(torch.float32).min)

    def gpt2_forward():
        g = "transformer." if "transformer.wte.weight" in W else ""
        x = W[g + "wte.weight"][ids] + W[g + "wpe.weight"][:T]
        for n in range(L):
            q = g + f"h.{n}."
            a = F.layer_norm(x, (d,), W[q + "ln_1.weight"], W[q + "ln_1.bias"], eps)
            Q, K, V = conv1d(a, q + "attn.c_attn").split(d, dim=1)
            heads = lambda t: t.view(T, H, dk).transpose(0, 1)  # H×T×d_k
            scores = torch.matmul(heads(Q), heads(K).transpose(-1, -2)) / math.sqrt(dk)
            probs = torch.softmax(torch.where(causal, scores, minimum), dim=-1)
            context = torch.matmul(probs, heads(V)).transpose(0, 1).reshape(T, d)
            x = x + conv1d(context, q + "attn.c_proj")
            m = F.layer_norm(x, (d,), W[q + "ln_2.weight"], W[q + "ln_2.bias"], eps)
            x = x + conv1d(gelu_new(conv1d(m, q + "mlp.c_fc")), q + "mlp.c_proj")
        return F.layer_norm(x, (d,), W[g + "ln_f.weight"], W[g + "ln_f.bias"], eps)

    forward = gpt2_forward if gpt2 else bert_forward
    times = []
    with torch.inference_mode():
        for i in range(warmup + runs):
            start = time.perf_counter()
            out = forward()
            ms = (time.perf_counter() - start) * 1000
            if i >= warmup:
                times.append(ms)
                print(f"time {label} {ms:.3f}", flush=True)
    print(f"{label}: torch {torch.__version__}, {torch.get_num_threads()} thread(s), T={T}: median {statistics.median(times):.1f} ms")
    if "--compare" in sys.argv:
        import array
        other = array.array("f")
        with open(arg("--compare", ""), "rb") as f:
            other.frombytes(f.read())
        ours = torch.tensor(other.tolist(), dtype=torch.float32).view(T, d)
        print(f"final hidden state vs attnscope: max |diff| {(ours - out).abs().max().item():.3g}")


if __name__ == "__main__":
    main()
