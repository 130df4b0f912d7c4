#!/usr/bin/python3
"""Writes tiny random-weight Hugging Face checkpoints and their reference outputs.

    /usr/bin/python3 tests/reference/make_model_fixtures.py

Writes, for each model below:
    tests/reference/models/<name>/config.json
    tests/reference/models/<name>/model.safetensors   (written by hand: no safetensors package)
    tests/reference/fixtures/model-<name>.json        (reference outputs)

The reference forward pass is plain torch (float32), written from the published model
definitions and sharing no code with core/. tests/core/test_models.cpp compares the engine with
these files and needs no Python. Everything is seeded, so rerunning reproduces the same bytes.

Fixture format (model-<name>.json):
    {"model": "tests/reference/models/<name>", "runs": [
        {"ids": [...],
         "hidden_states": [L+1][T][d]     entering each layer, then the final output
                                          (GPT-2: the last one is after ln_f, as in transformers)
         "attentions":   [L][H][T][T]     softmax weights of every head
         "predictions":  [{"position": p, "logits": [vocab], "top": [[id, probability], ...]}]}]}
BERT, DistilBERT and RoBERTa predict at every [MASK] / <mask> (id 4 in these tiny vocabularies);
GPT-2 after the last token. model-roberta-tiny.json also holds "long_run": a 40-token input that
fills the position table (position ids 2…41), kept small: {"ids", "last_hidden_rows": [L+1][d]
(the last token's row of each hidden state), "predictions"}.
"""

import json
import math
import os
import struct

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, "models")
FIXTURES = os.path.join(HERE, "fixtures")

MASK_ID = 4  # [PAD]=0 [UNK]=1 [CLS]=2 [SEP]=3 [MASK]=4 in the tiny BERT vocabulary
TOP_K = 5

BERT_CONFIG = {
    "architectures": ["BertForMaskedLM"], "model_type": "bert", "vocab_size": 100,
    "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4,
    "intermediate_size": 64, "hidden_act": "gelu", "max_position_embeddings": 32,
    "type_vocab_size": 2, "layer_norm_eps": 1e-12, "pad_token_id": 0,
    "hidden_dropout_prob": 0.1, "attention_probs_dropout_prob": 0.1, "initializer_range": 0.02,
}
GPT2_CONFIG = {
    "architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "vocab_size": 100, "n_embd": 32,
    "n_layer": 2, "n_head": 4, "n_positions": 32, "n_ctx": 32, "n_inner": None,
    "activation_function": "gelu_new", "layer_norm_epsilon": 1e-5, "bos_token_id": 99,
    "eos_token_id": 99,
}

DISTILBERT_CONFIG = {
    "architectures": ["DistilBertForMaskedLM"], "model_type": "distilbert", "vocab_size": 100,
    "dim": 32, "n_layers": 2, "n_heads": 4, "hidden_dim": 64, "activation": "gelu",
    "max_position_embeddings": 40, "sinusoidal_pos_embds": False, "pad_token_id": 0,
    "dropout": 0.1, "attention_dropout": 0.1, "initializer_range": 0.02, "tie_weights_": True,
}
DISTILBERT_LN_EPS = 1e-12  # fixed in transformers' modeling_distilbert.py, not in the config
# RoBERTa's vocabulary starts <s>=0 <pad>=1 </s>=2 <unk>=3; here <mask>=4 as in the BERT ones.
ROBERTA_PAD_ID = 1
ROBERTA_CONFIG = {
    "architectures": ["RobertaForMaskedLM"], "model_type": "roberta", "vocab_size": 100,
    "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4,
    "intermediate_size": 64, "hidden_act": "gelu", "max_position_embeddings": 42,
    "type_vocab_size": 1, "layer_norm_eps": 1e-5, "pad_token_id": ROBERTA_PAD_ID,
    "bos_token_id": 0, "eos_token_id": 2, "hidden_dropout_prob": 0.1,
    "attention_probs_dropout_prob": 0.1, "initializer_range": 0.02,
}

BERT_RUNS = [
    [2, 17, MASK_ID, 42, 3],
    [2, 11, 23, MASK_ID, 35, 47, MASK_ID, 59, 3],
    [2, 5, 66, 71, 8, 90, 13, MASK_ID, 27, 31, 44, 3],
]
GPT2_RUNS = [
    [10, 20, 30],
    [5, 61, 17, 88, 42, 7, 99, 3],
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
]

DISTILBERT_RUNS = [
    [2, 17, MASK_ID, 42, 3],
    [2, 11, 23, MASK_ID, 35, 47, MASK_ID, 59, 3],
]
ROBERTA_RUNS = [
    [0, 17, MASK_ID, 42, 2],
    [0, 11, 23, MASK_ID, 35, 47, 88, MASK_ID, 59, 2],
]
# The longest input the position table covers (max_position_embeddings - padding_idx - 1 = 40
# tokens, position ids 2…41); no <pad> (1) in it. Only its last row is kept in the fixture.
ROBERTA_LONG_RUN = [0] + [5 + (13 * i) % 95 for i in range(36)] + [MASK_ID, 77, 2]


# ---------------------------------------------------------------- random weights (HF layouts)

def randn(gen, *shape, std=0.3):
    return torch.randn(*shape, generator=gen) * std


def ln_params(gen, d):
    return 1.0 + randn(gen, d, std=0.1), randn(gen, d, std=0.1)


def bert_weights(seed):
    """Plain dict of BertForMaskedLM tensors, keys without the `bert.` prefix, LN as weight/bias."""
    c = BERT_CONFIG
    gen = torch.Generator().manual_seed(seed)
    d, i, v = c["hidden_size"], c["intermediate_size"], c["vocab_size"]
    w = {
        "embeddings.word_embeddings.weight": randn(gen, v, d, std=1.0),
        "embeddings.position_embeddings.weight": randn(gen, c["max_position_embeddings"], d, std=0.5),
        "embeddings.token_type_embeddings.weight": randn(gen, c["type_vocab_size"], d, std=0.5),
    }
    w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"] = ln_params(gen, d)
    for n in range(c["num_hidden_layers"]):
        p = f"encoder.layer.{n}."
        for name in ("attention.self.query", "attention.self.key", "attention.self.value",
                     "attention.output.dense"):
            w[p + name + ".weight"] = randn(gen, d, d)  # Linear: [out, in]
            w[p + name + ".bias"] = randn(gen, d, std=0.1)
        w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"] = ln_params(gen, d)
        w[p + "intermediate.dense.weight"] = randn(gen, i, d)
        w[p + "intermediate.dense.bias"] = randn(gen, i, std=0.1)
        w[p + "output.dense.weight"] = randn(gen, d, i, std=0.2)
        w[p + "output.dense.bias"] = randn(gen, d, std=0.1)
        w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"] = ln_params(gen, d)
    w["pooler.dense.weight"] = randn(gen, d, d)
    w["pooler.dense.bias"] = randn(gen, d, std=0.1)
    w["cls.predictions.transform.dense.weight"] = randn(gen, d, d)
    w["cls.predictions.transform.dense.bias"] = randn(gen, d, std=0.1)
    w["cls.predictions.transform.LayerNorm.weight"], w["cls.predictions.transform.LayerNorm.bias"] = ln_params(gen, d)
    w["cls.predictions.bias"] = randn(gen, v, std=0.1)
    return w


def gpt2_weights(seed):
    """Plain dict of GPT2LMHeadModel tensors, keys without the `transformer.` prefix."""
    c = GPT2_CONFIG
    gen = torch.Generator().manual_seed(seed)
    d, v, n = c["n_embd"], c["vocab_size"], c["n_positions"]
    w = {"wte.weight": randn(gen, v, d, std=1.0), "wpe.weight": randn(gen, n, d, std=0.5)}
    for layer in range(c["n_layer"]):
        p = f"h.{layer}."
        w[p + "ln_1.weight"], w[p + "ln_1.bias"] = ln_params(gen, d)
        w[p + "attn.c_attn.weight"] = randn(gen, d, 3 * d)  # Conv1D: [in, out]
        w[p + "attn.c_attn.bias"] = randn(gen, 3 * d, std=0.1)
        w[p + "attn.c_proj.weight"] = randn(gen, d, d)
        w[p + "attn.c_proj.bias"] = randn(gen, d, std=0.1)
        w[p + "ln_2.weight"], w[p + "ln_2.bias"] = ln_params(gen, d)
        w[p + "mlp.c_fc.weight"] = randn(gen, d, 4 * d)
        w[p + "mlp.c_fc.bias"] = randn(gen, 4 * d, std=0.1)
        w[p + "mlp.c_proj.weight"] = randn(gen, 4 * d, d, std=0.2)
        w[p + "mlp.c_proj.bias"] = randn(gen, d, std=0.1)
    w["ln_f.weight"], w["ln_f.bias"] = ln_params(gen, d)
    return w


def distilbert_weights(seed):
    """Plain dict of DistilBertForMaskedLM tensors, keys without the `distilbert.` prefix; the
    vocab_projector weight is tied to the word embeddings (absent), its bias stored."""
    c = DISTILBERT_CONFIG
    gen = torch.Generator().manual_seed(seed)
    d, i, v = c["dim"], c["hidden_dim"], c["vocab_size"]
    w = {
        "embeddings.word_embeddings.weight": randn(gen, v, d, std=1.0),
        "embeddings.position_embeddings.weight": randn(gen, c["max_position_embeddings"], d, std=0.5),
    }
    w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"] = ln_params(gen, d)
    for n in range(c["n_layers"]):
        p = f"transformer.layer.{n}."
        for name in ("attention.q_lin", "attention.k_lin", "attention.v_lin", "attention.out_lin"):
            w[p + name + ".weight"] = randn(gen, d, d)  # Linear: [out, in]
            w[p + name + ".bias"] = randn(gen, d, std=0.1)
        w[p + "sa_layer_norm.weight"], w[p + "sa_layer_norm.bias"] = ln_params(gen, d)
        w[p + "ffn.lin1.weight"] = randn(gen, i, d)
        w[p + "ffn.lin1.bias"] = randn(gen, i, std=0.1)
        w[p + "ffn.lin2.weight"] = randn(gen, d, i, std=0.2)
        w[p + "ffn.lin2.bias"] = randn(gen, d, std=0.1)
        w[p + "output_layer_norm.weight"], w[p + "output_layer_norm.bias"] = ln_params(gen, d)
    w["vocab_transform.weight"] = randn(gen, d, d)
    w["vocab_transform.bias"] = randn(gen, d, std=0.1)
    w["vocab_layer_norm.weight"], w["vocab_layer_norm.bias"] = ln_params(gen, d)
    w["vocab_projector.bias"] = randn(gen, v, std=0.1)
    return w


def roberta_weights(seed):
    """Plain dict of RobertaForMaskedLM tensors, keys without the `roberta.` prefix; the
    lm_head decoder weight is tied to the word embeddings (absent), lm_head.bias stored."""
    c = ROBERTA_CONFIG
    gen = torch.Generator().manual_seed(seed)
    d, i, v = c["hidden_size"], c["intermediate_size"], c["vocab_size"]
    w = {
        "embeddings.word_embeddings.weight": randn(gen, v, d, std=1.0),
        "embeddings.position_embeddings.weight": randn(gen, c["max_position_embeddings"], d, std=0.5),
        "embeddings.token_type_embeddings.weight": randn(gen, c["type_vocab_size"], d, std=0.5),
    }
    # nn.Embedding(padding_idx=1) starts those rows at zero; no real token ever reads them.
    w["embeddings.word_embeddings.weight"][ROBERTA_PAD_ID] = 0.0
    w["embeddings.position_embeddings.weight"][ROBERTA_PAD_ID] = 0.0
    w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"] = ln_params(gen, d)
    for n in range(c["num_hidden_layers"]):
        p = f"encoder.layer.{n}."
        for name in ("attention.self.query", "attention.self.key", "attention.self.value",
                     "attention.output.dense"):
            w[p + name + ".weight"] = randn(gen, d, d)
            w[p + name + ".bias"] = randn(gen, d, std=0.1)
        w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"] = ln_params(gen, d)
        w[p + "intermediate.dense.weight"] = randn(gen, i, d)
        w[p + "intermediate.dense.bias"] = randn(gen, i, std=0.1)
        w[p + "output.dense.weight"] = randn(gen, d, i, std=0.2)
        w[p + "output.dense.bias"] = randn(gen, d, std=0.1)
        w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"] = ln_params(gen, d)
    w["lm_head.dense.weight"] = randn(gen, d, d)
    w["lm_head.dense.bias"] = randn(gen, d, std=0.1)
    w["lm_head.layer_norm.weight"], w["lm_head.layer_norm.bias"] = ln_params(gen, d)
    w["lm_head.bias"] = randn(gen, v, std=0.1)
    return w


def half_rounded(weights):
    """The float32 values an F16 file really holds."""
    return {k: t.to(torch.float16).to(torch.float32) for k, t in weights.items()}


# ---------------------------------------------------------------- reference forward passes

def bert_forward(w, ids):
    """BertForMaskedLM, eval mode, one unpadded sentence, token type 0 everywhere."""
    c = BERT_CONFIG
    eps, H = c["layer_norm_eps"], c["num_attention_heads"]
    T, d = len(ids), c["hidden_size"]
    dk = d // H
    ids_t = torch.tensor(ids)
    x = (w["embeddings.word_embeddings.weight"][ids_t]
         + w["embeddings.position_embeddings.weight"][torch.arange(T)]
         + w["embeddings.token_type_embeddings.weight"][torch.zeros(T, dtype=torch.long)])
    x = F.layer_norm(x, (d,), w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)
    hidden, attentions = [x], []
    for n in range(c["num_hidden_layers"]):
        p = f"encoder.layer.{n}."
        lin = lambda name, inp: F.linear(inp, w[p + name + ".weight"], w[p + name + ".bias"])
        heads = lambda t: t.view(T, H, dk).transpose(0, 1)  # H×T×d_k
        q = heads(lin("attention.self.query", x))
        k = heads(lin("attention.self.key", x))
        v = heads(lin("attention.self.value", x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(dk)
        probs = torch.softmax(scores, dim=-1)  # H×T×T
        attentions.append(probs)
        context = torch.matmul(probs, v).transpose(0, 1).reshape(T, d)
        a = F.layer_norm(lin("attention.output.dense", context) + x, (d,),
                         w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"], eps)
        inner = F.gelu(lin("intermediate.dense", a))  # exact erf GELU
        x = F.layer_norm(lin("output.dense", inner) + a, (d,),
                         w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"], eps)
        hidden.append(x)
    logits = None
    if "cls.predictions.bias" in w:
        t = F.gelu(F.linear(x, w["cls.predictions.transform.dense.weight"],
                            w["cls.predictions.transform.dense.bias"]))
        t = F.layer_norm(t, (d,), w["cls.predictions.transform.LayerNorm.weight"],
                         w["cls.predictions.transform.LayerNorm.bias"], eps)
        decoder = w.get("cls.predictions.decoder.weight", w["embeddings.word_embeddings.weight"])
        logits = F.linear(t, decoder, w["cls.predictions.bias"])  # T×vocab
    positions = [i for i, t in enumerate(ids) if t == MASK_ID]
    return hidden, attentions, logits, positions


def distilbert_forward(w, ids):
    """DistilBertForMaskedLM, eval mode, one unpadded sentence (modeling_distilbert.py):
    embeddings = LayerNorm(word + position), no token types; MultiHeadSelfAttention scales q by
    1/sqrt(d_k) before q·kᵀ; post-LN blocks; head: vocab_transform → activation →
    vocab_layer_norm → vocab_projector (tied to the word embeddings). LayerNorm eps 1e-12."""
    c = DISTILBERT_CONFIG
    eps, H = DISTILBERT_LN_EPS, c["n_heads"]
    T, d = len(ids), c["dim"]
    dk = d // H
    act = {"gelu": F.gelu, "relu": F.relu}[c["activation"]]
    x = w["embeddings.word_embeddings.weight"][torch.tensor(ids)] + \
        w["embeddings.position_embeddings.weight"][torch.arange(T)]
    x = F.layer_norm(x, (d,), w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)
    hidden, attentions = [x], []
    for n in range(c["n_layers"]):
        p = f"transformer.layer.{n}."
        lin = lambda name, inp: F.linear(inp, w[p + name + ".weight"], w[p + name + ".bias"])
        shape = lambda t: t.view(T, H, dk).transpose(0, 1)  # H×T×d_k
        q = shape(lin("attention.q_lin", x)) / math.sqrt(dk)
        k = shape(lin("attention.k_lin", x))
        v = shape(lin("attention.v_lin", x))
        scores = torch.matmul(q, k.transpose(-1, -2))
        weights = torch.softmax(scores, dim=-1)
        attentions.append(weights)
        context = torch.matmul(weights, v).transpose(0, 1).reshape(T, d)
        sa = F.layer_norm(lin("attention.out_lin", context) + x, (d,),
                          w[p + "sa_layer_norm.weight"], w[p + "sa_layer_norm.bias"], eps)
        ffn = lin("ffn.lin2", act(lin("ffn.lin1", sa)))
        x = F.layer_norm(ffn + sa, (d,), w[p + "output_layer_norm.weight"], w[p + "output_layer_norm.bias"], eps)
        hidden.append(x)
    t = act(F.linear(x, w["vocab_transform.weight"], w["vocab_transform.bias"]))
    t = F.layer_norm(t, (d,), w["vocab_layer_norm.weight"], w["vocab_layer_norm.bias"], eps)
    projector = w.get("vocab_projector.weight", w["embeddings.word_embeddings.weight"])
    logits = F.linear(t, projector, w["vocab_projector.bias"])
    positions = [i for i, t in enumerate(ids) if t == MASK_ID]
    return hidden, attentions, logits, positions


def roberta_position_ids(ids, padding_idx):
    """create_position_ids_from_input_ids: cumsum(mask)·mask + padding_idx."""
    mask = (torch.tensor(ids) != padding_idx).long()
    return torch.cumsum(mask, dim=0) * mask + padding_idx


def roberta_forward(w, ids):
    """RobertaForMaskedLM, eval mode, one sentence, no padding (modeling_roberta.py): BERT's
    encoder, position ids from padding_idx + 1, token type 0 (type_vocab_size 1); head:
    lm_head.dense → erf GELU (always, whatever hidden_act says) → layer_norm → decoder (tied to
    the word embeddings) + lm_head.bias."""
    c = ROBERTA_CONFIG
    eps, H = c["layer_norm_eps"], c["num_attention_heads"]
    T, d = len(ids), c["hidden_size"]
    dk = d // H
    act = {"gelu": F.gelu, "relu": F.relu}[c["hidden_act"]]
    x = (w["embeddings.word_embeddings.weight"][torch.tensor(ids)]
         + w["embeddings.token_type_embeddings.weight"][torch.zeros(T, dtype=torch.long)]
         + w["embeddings.position_embeddings.weight"][roberta_position_ids(ids, c["pad_token_id"])])
    x = F.layer_norm(x, (d,), w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)
    hidden, attentions = [x], []
    for n in range(c["num_hidden_layers"]):
        p = f"encoder.layer.{n}."
        lin = lambda name, inp: F.linear(inp, w[p + name + ".weight"], w[p + name + ".bias"])
        heads = lambda t: t.view(T, H, dk).transpose(0, 1)
        q = heads(lin("attention.self.query", x))
        k = heads(lin("attention.self.key", x))
        v = heads(lin("attention.self.value", x))
        probs = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(dk), dim=-1)
        attentions.append(probs)
        context = torch.matmul(probs, v).transpose(0, 1).reshape(T, d)
        a = F.layer_norm(lin("attention.output.dense", context) + x, (d,),
                         w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"], eps)
        x = F.layer_norm(lin("output.dense", act(lin("intermediate.dense", a))) + a, (d,),
                         w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"], eps)
        hidden.append(x)
    t = F.gelu(F.linear(x, w["lm_head.dense.weight"], w["lm_head.dense.bias"]))
    t = F.layer_norm(t, (d,), w["lm_head.layer_norm.weight"], w["lm_head.layer_norm.bias"], eps)
    decoder = w.get("lm_head.decoder.weight", w["embeddings.word_embeddings.weight"])
    logits = F.linear(t, decoder, w["lm_head.bias"])
    positions = [i for i, t in enumerate(ids) if t == MASK_ID]
    return hidden, attentions, logits, positions


def gelu_new(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


def gpt2_forward(w, ids):
    """GPT2LMHeadModel, eval mode: pre-LN blocks, causal mask, LM head tied to wte."""
    c = GPT2_CONFIG
    eps, H = c["layer_norm_epsilon"], c["n_head"]
    T, d = len(ids), c["n_embd"]
    dk = d // H
    x = w["wte.weight"][torch.tensor(ids)] + w["wpe.weight"][torch.arange(T)]
    hidden, attentions = [x], []
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool))
    for n in range(c["n_layer"]):
        p = f"h.{n}."
        conv1d = lambda name, inp: inp @ w[p + name + ".weight"] + w[p + name + ".bias"]
        h = F.layer_norm(x, (d,), w[p + "ln_1.weight"], w[p + "ln_1.bias"], eps)
        q, k, v = conv1d("attn.c_attn", h).split(d, dim=-1)
        q, k, v = (t.view(T, H, dk).transpose(0, 1) for t in (q, k, v))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(dk)
        scores = scores.masked_fill(~causal, float("-inf"))
        probs = torch.softmax(scores, dim=-1)
        attentions.append(probs)
        context = torch.matmul(probs, v).transpose(0, 1).reshape(T, d)
        x = x + conv1d("attn.c_proj", context)
        h = F.layer_norm(x, (d,), w[p + "ln_2.weight"], w[p + "ln_2.bias"], eps)
        x = x + conv1d("mlp.c_proj", gelu_new(conv1d("mlp.c_fc", h)))
        if n + 1 < c["n_layer"]:
            hidden.append(x)
    x = F.layer_norm(x, (d,), w["ln_f.weight"], w["ln_f.bias"], eps)
    hidden.append(x)
    logits = x @ w["wte.weight"].T  # T×vocab
    return hidden, attentions, logits, [T - 1]


# ---------------------------------------------------------------- files

def tensor_bytes(t, dtype):
    """A tensor's little-endian bytes as dtype "F32", "F16" or "BF16" (numpy has no bfloat16: its bits as int16)."""
    if dtype == "BF16":
        return t.to(torch.bfloat16).contiguous().view(torch.int16).numpy().astype("<i2").tobytes()
    array = t.to({"F32": torch.float32, "F16": torch.float16}[dtype]).contiguous().numpy()
    return array.astype(array.dtype.newbyteorder("<")).tobytes()


def write_safetensors(path, tensors, dtype):
    """tensors: ordered (name, tensor) pairs; dtype "F32", "F16" or "BF16". The header is padded
    with spaces to a multiple of 8 bytes, as the safetensors library does. Returns the data's size."""
    header, blobs, offset = {"__metadata__": {"format": "pt"}}, [], 0
    for name, t in tensors:
        data = tensor_bytes(t, dtype)
        header[name] = {"dtype": dtype, "shape": list(t.shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for b in blobs:
            f.write(b)
    return offset


def short(x):
    """8 significant digits: float32 precision, a third of the characters of repr."""
    return float(f"{x:.8g}")


def rounded(t):
    if t.dim() == 0:
        return short(float(t))
    return [rounded(row) for row in t] if t.dim() > 1 else [short(float(x)) for x in t]


def fixture_run(ids, forward_result):
    hidden, attentions, logits, positions = forward_result
    run = {"ids": ids, "hidden_states": [rounded(h) for h in hidden],
           "attentions": [rounded(a) for a in attentions], "predictions": []}
    if logits is not None:
        for p in positions:
            probs = torch.softmax(logits[p], dim=-1)
            top = torch.topk(probs, TOP_K)
            run["predictions"].append({
                "position": p, "logits": rounded(logits[p]),
                "top": [[int(i), short(float(pr))] for pr, i in zip(top.values, top.indices)]})
    return run


def write_model(name, config, tensors, dtype, weights, forward, runs, extra=None):
    folder = os.path.join(MODELS, name)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
        f.write("\n")
    write_safetensors(os.path.join(folder, "model.safetensors"), tensors, dtype)
    fixture = {"model": "tests/reference/models/" + name, "dtype": dtype,
               "runs": [fixture_run(ids, forward(weights, ids)) for ids in runs]}
    fixture.update(extra or {})
    with open(os.path.join(FIXTURES, f"model-{name}.json"), "w") as f:
        json.dump(fixture, f, separators=(",", ":"))
        f.write("\n")


def main():
    os.makedirs(FIXTURES, exist_ok=True)
    torch.set_grad_enabled(False)

    # 1. bert-tiny: `bert.` prefix, old gamma/beta LayerNorm names, decoder tied (absent).
    bw = bert_weights(seed=1)
    old = lambda k: k.replace("LayerNorm.weight", "LayerNorm.gamma").replace("LayerNorm.bias", "LayerNorm.beta")
    tensors = [(old(k if k.startswith("cls.") else "bert." + k), bw[k]) for k in sorted(bw)
               if not k.startswith("pooler.")]
    write_model("bert-tiny", BERT_CONFIG, tensors, "F32", bw, bert_forward, BERT_RUNS)

    # 2. bert-tiny-f16: the same weights in half precision, new names, explicit decoder weight.
    bh = half_rounded(bw)
    bh["cls.predictions.decoder.weight"] = bh["embeddings.word_embeddings.weight"].clone()
    tensors = [(k if k.startswith("cls.") else "bert." + k, bh[k]) for k in sorted(bh)
               if not k.startswith("pooler.")]
    config = dict(BERT_CONFIG, torch_dtype="float16")
    write_model("bert-tiny-f16", config, tensors, "F16", bh, bert_forward, BERT_RUNS[:2])

    # 3. bert-tiny-noprefix: a bare BertModel (no prefix, pooler, no MLM head), other weights.
    bn = {k: t for k, t in bert_weights(seed=2).items() if not k.startswith("cls.")}
    config = dict(BERT_CONFIG, architectures=["BertModel"])
    write_model("bert-tiny-noprefix", config, sorted(bn.items()), "F32", bn, bert_forward, BERT_RUNS[1:2])

    # 4. gpt2-tiny: the published layout: no prefix, causal-mask buffers stored as tensors.
    gw = gpt2_weights(seed=3)
    n = GPT2_CONFIG["n_positions"]
    tensors = sorted(gw.items())
    for layer in range(GPT2_CONFIG["n_layer"]):
        tensors.append((f"h.{layer}.attn.bias", torch.tril(torch.ones(n, n)).view(1, 1, n, n)))
        tensors.append((f"h.{layer}.attn.masked_bias", torch.tensor(-1e4)))
    write_model("gpt2-tiny", GPT2_CONFIG, sorted(tensors), "F32", gw, gpt2_forward, GPT2_RUNS)

    # 5. gpt2-tiny-f16: the same weights in half precision, GPT2LMHeadModel names with the
    #    `transformer.` prefix and the tied lm_head.weight stored explicitly.
    gh = half_rounded(gw)
    tensors = [("transformer." + k, t) for k, t in sorted(gh.items())]
    tensors.append(("lm_head.weight", gh["wte.weight"].clone()))
    config = dict(GPT2_CONFIG, torch_dtype="float16")
    write_model("gpt2-tiny-f16", config, tensors, "F16", gh, gpt2_forward, GPT2_RUNS[:2])

    # 6. distilbert-tiny: DistilBertForMaskedLM, `distilbert.` prefix, projector tied (absent).
    dw = distilbert_weights(seed=4)
    tensors = [(k if k.startswith("vocab_") else "distilbert." + k, dw[k]) for k in sorted(dw)]
    write_model("distilbert-tiny", DISTILBERT_CONFIG, tensors, "F32", dw, distilbert_forward, DISTILBERT_RUNS)

    # 7. roberta-tiny: RobertaForMaskedLM, `roberta.` prefix, decoder
    #    tied (absent) but lm_head.decoder.bias stored (a second name of lm_head.bias). The long
    #    run fills the position table; only its last token's rows are kept.
    rw = roberta_weights(seed=5)
    tensors = [(k if k.startswith("lm_head.") else "roberta." + k, rw[k]) for k in sorted(rw)]
    tensors.append(("lm_head.decoder.bias", rw["lm_head.bias"].clone()))
    hidden, _, logits, positions = roberta_forward(rw, ROBERTA_LONG_RUN)
    long_run = fixture_run(ROBERTA_LONG_RUN, (hidden, [], logits, positions))
    long_run = {"ids": ROBERTA_LONG_RUN, "last_hidden_rows": [rounded(h[-1]) for h in hidden],
                "predictions": long_run["predictions"]}
    write_model("roberta-tiny", ROBERTA_CONFIG, sorted(tensors), "F32", rw, roberta_forward, ROBERTA_RUNS,
                extra={"long_run": long_run})


if __name__ == "__main__":
    main()
