#!/usr/bin/python3
"""Independent reference implementation of an AttnScope lesson run.

Written from the lesson-format specification (docs/lesson-format.md), sharing no code with the
C++ engine in core/. Uses only the Python standard library (json, math, struct, fractions, sys)
so that a teacher or a reviewer can run it anywhere:

    /usr/bin/python3 tests/reference/reference_attention.py LESSON.json \
        [--sentence "text"] [--hand-rounding N] [-o expected.json]

The output is an "expected trace":
    {"lesson", "sentence", "hand_rounding": null | N, "tokens", "in_table",
     "embedding", "positional", "x",
     "heads": [{"q", "k", "v", "scores", "scaled_scores", "masked_scores", "weights",
                "weighted_sum"}],
     "concat", "output"}
For a lesson with "layers" (format version 2) "x", "heads", "concat" and "output" move into
    "layers": [{"x", "heads", "concat", "output"}, ...]
one entry per layer, where "x" of layer l+1 is x + output of layer l (the residual connection).
Matrices are lists of rows; minus infinity is written as the string "-inf".

With "block" (format version 6) the trace gains
    "block": {"residual_attention", "norm": {"mean", "variance" | "mean_square", "output"},
              "ffn": {"gate", "hidden", "activated", "output"}, "residual_ffn",
              "final_norm": {...}, "vocabulary", "logits", "probabilities"}
(each only when the lesson has that part; see run_block() for the order).

With "positional_encoding": "rope" (format version 5) nothing is added to the embeddings; each
head's Q and K are turned pair by pair (see rope() below) and the heads also hold
"q_before_rope" and "k_before_rope".
Conventions (row vectors): Q = X·W_Q (+ b_Q) with W_Q of shape d_model×d_k; scores = Q·Kᵀ;
scaled = scores / √d_k; the causal mask adds -inf above the diagonal; softmax per row after
subtracting the row maximum (a row of only -inf gives zeros); weighted sum = A·V; heads are
concatenated in order; output = concat·W_O (+ b_O), W_O absent meaning the identity. With
"layers", each layer does all of this on its own x, and the next layer's x is x + output (no
LayerNorm); hand-rounding rounds that sum too.
"""

import json
import math
import struct
import sys
from fractions import Fraction

NEG_INF = float("-inf")


class LessonError(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# Small matrix helpers on lists of lists (rows).

def matmul(a, b):
    """(n×m)·(m×p): plain left-to-right sums, as on paper."""
    if not a:
        return []
    m = len(b)
    if any(len(row) != m for row in a):
        raise LessonError("matmul: inner dimensions differ")
    p = len(b[0]) if b else 0
    out = []
    for row in a:
        out_row = []
        for j in range(p):
            total = Fraction(0)
            for t in range(m):
                total += row[t] * b[t][j]
            out_row.append(total)
        out.append(out_row)
    return out


def transpose(a):
    return [list(col) for col in zip(*a)] if a else []


def add_row(a, bias):
    if bias is None:
        return [list(r) for r in a]
    return [[x + y for x, y in zip(r, bias)] for r in a]


def identity(n):
    return [[Fraction(1 if i == j else 0) for j in range(n)] for i in range(n)]


def num(x):
    """A lesson number as an exact Fraction (JSON numbers are read as Fractions already)."""
    return x if isinstance(x, Fraction) else Fraction(x)


def as_matrix(rows):
    return [[num(x) for x in r] for r in rows]


def as_vector(values):
    return [num(x) for x in values]


# ---------------------------------------------------------------------------------------------
# Hand-rounding: half away from zero.
# A student works with exact decimals: once X is rounded, Q = X·W_Q + b_Q, the scores, the
# weighted sums and the output are sums of products of decimals and therefore exact decimals
# too. So this reference keeps every number that is rational as an exact Fraction (lesson
# numbers are read from their decimal text, not from binary floating point) and only the
# transcendental steps (sin, cos, √ of a non-square, exp) use floats. Rounding then decides
# halves exactly: 1.8·(−0.75) + 2 is 0.65 and rounds to 0.7, even though in binary floating
# point it comes out as 0.64999999999999991.

def round_half_away(x, decimals):
    if isinstance(x, float) and (math.isinf(x) or math.isnan(x)):
        return x
    exact = Fraction(x)                      # a float converts exactly (its binary value)
    scale = 10 ** decimals
    units = math.floor(abs(exact) * scale + Fraction(1, 2))
    return Fraction(-units if exact < 0 else units, scale)


def rounded(m, decimals):
    if decimals is None:
        return m
    return [[round_half_away(x, decimals) for x in r] for r in m]


# ---------------------------------------------------------------------------------------------
# Tokenizer (docs/lesson-format.md, "Tokenizer").

def is_cjk(cp):
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF
            or 0x2A700 <= cp <= 0x2CEAF or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F
            or 0x3040 <= cp <= 0x30FF)


def is_space(cp):
    return (cp == 0x20 or 0x09 <= cp <= 0x0D or cp in (0xA0, 0x3000, 0x2028, 0x2029, 0x202F,
                                                      0x205F, 0xFEFF)
            or 0x2000 <= cp <= 0x200B)


def is_punctuation(cp):
    ascii_punct = (0x21 <= cp <= 0x2F or 0x3A <= cp <= 0x40 or 0x5B <= cp <= 0x60
                   or 0x7B <= cp <= 0x7E)
    return (ascii_punct or 0x2000 <= cp <= 0x206F or 0x3000 <= cp <= 0x303F
            or 0xFF01 <= cp <= 0xFF0F or 0xFF1A <= cp <= 0xFF20 or 0xFF3B <= cp <= 0xFF40
            or 0xFF5B <= cp <= 0xFF65 or cp in (0xA1, 0xBF, 0xAB, 0xBB))


def is_letter_like(cp):
    return not is_space(cp) and not is_punctuation(cp) and not is_cjk(cp)


def tokenize(sentence, lowercase):
    if isinstance(sentence, bytes):
        sentence = sentence.decode("utf-8")  # strict: invalid UTF-8 raises
    points = [ord(ch) for ch in sentence]
    tokens = []
    word = []

    def flush():
        if word:
            tokens.append("".join(word))
            word.clear()

    for i, cp in enumerate(points):
        if is_space(cp) or cp < 0x20 or cp == 0x7F:
            flush()
            continue
        inner_apostrophe = (cp in (0x27, 0x2019) and 0 < i < len(points) - 1
                            and is_letter_like(points[i - 1]) and is_letter_like(points[i + 1]))
        if (is_punctuation(cp) and not inner_apostrophe) or is_cjk(cp):
            flush()
            tokens.append(chr(cp))
            continue
        if lowercase and 0x41 <= cp <= 0x5A:
            cp += 0x20
        word.append(chr(cp))
    flush()
    return tokens


# ---------------------------------------------------------------------------------------------
# Embeddings and the hash rule.

FNV_OFFSET = 2166136261
FNV_PRIME = 16777619


def fnv1a32(data):
    h = FNV_OFFSET
    for byte in data:
        h ^= byte
        h = (h * FNV_PRIME) & 0xFFFFFFFF
    return h


def hashed_embedding(token, d_model):
    """Component c = (FNV-1a-32(UTF-8 bytes of token, then the single byte c) mod 5) − 2."""
    base = token.encode("utf-8")
    return [Fraction(fnv1a32(base + struct.pack("B", c % 256)) % 5 - 2) for c in range(d_model)]


def sinusoidal(T, d):
    pe = []
    for pos in range(T):
        row = []
        for c in range(d):
            i = c // 2
            angle = pos / (10000.0 ** ((2 * i) / d))
            row.append(math.sin(angle) if c % 2 == 0 else math.cos(angle))
        pe.append(row)
    return pe


# ---------------------------------------------------------------------------------------------
# Lesson reading (only what a run needs; the C++ parser is the validating one).

def load_lesson(path):
    with open(path, "rb") as f:
        # Numbers are read from their decimal text as exact Fractions: 0.1 is one tenth.
        doc = json.loads(f.read().decode("utf-8"), parse_float=Fraction, parse_int=Fraction)
    if doc.get("format") != "attnscope-lesson":
        raise LessonError("format must be \"attnscope-lesson\"")
    version = doc.get("version")
    # Version 3 only lets texts (title, description, features) be given in several languages;
    # a run reads none of them. Version 4 adds "unknown_words", version 5 "rope".
    # Version 6 adds "block", version 7 "kv_heads" (grouped-query attention).
    if version not in (1, 2, 3, 4, 5, 6, 7):
        raise LessonError("this reference reads lesson format versions 1 to 7")
    d = int(doc["d_model"])
    lesson = {
        "sentence": doc.get("sentence", ""),
        "d_model": d,
        "heads": int(doc.get("heads", 1)),
        "lowercase": doc.get("lowercase", True),
        "projections": doc.get("projections", True),
        "scale": doc.get("scale", True),
        "causal_mask": doc.get("causal_mask", False),
        "unknown_words": doc.get("unknown_words", "hash"),
        "embeddings": {tok: as_vector(vec) for tok, vec in doc["embeddings"].items()},
    }
    hand_rounding = (doc.get("display") or {}).get("hand_rounding")
    lesson["hand_rounding"] = None if hand_rounding is None else int(hand_rounding)
    lesson["kv_heads"] = int(doc.get("kv_heads", lesson["heads"]))
    if "kv_heads" in doc and version < 7:
        raise LessonError("kv_heads needs version 7")
    if lesson["kv_heads"] < 1 or lesson["heads"] % lesson["kv_heads"]:
        raise LessonError("kv_heads: expected a divisor of heads")
    lesson["d_k"] = int(doc.get("d_k", d))
    lesson["d_v"] = int(doc.get("d_v", lesson["d_k"]))
    for tok, vec in lesson["embeddings"].items():
        if len(vec) != d:
            raise LessonError("embeddings.%s: expected %d numbers" % (tok, d))

    pe = doc.get("positional_encoding", "none")
    if pe == "rope" or (isinstance(pe, dict) and "rope" in pe):
        if version < 5:
            raise LessonError("positional_encoding: rope needs version 5")
        options = pe["rope"] if isinstance(pe, dict) else {}
        lesson["positional"] = "rope"
        lesson["rope_base"] = float(options.get("base", 10000))
        lesson["rope_pairing"] = options.get("pairing", "half")
        if lesson["rope_pairing"] not in ("half", "interleaved"):
            raise LessonError("positional_encoding.rope.pairing: half or interleaved")
        if lesson["d_k"] % 2:
            raise LessonError("positional_encoding: rope needs an even d_k")
    elif pe == "none" or pe == "sinusoidal":
        lesson["positional"] = pe
    elif isinstance(pe, dict) and "table" in pe:
        lesson["positional"] = "table"
        lesson["positional_table"] = as_matrix(pe["table"])
    else:
        raise LessonError("positional_encoding: expected none, sinusoidal or {table}")

    lesson["block"] = read_block(doc.get("block"), lesson, version)
    if "layers" in doc:
        if version < 2:
            raise LessonError("layers: needs version 2")
        lesson["residual"] = True
        lesson["layers"] = [read_layer(layer, lesson) for layer in doc["layers"]]
    else:
        lesson["residual"] = False
        lesson["layers"] = [read_layer(doc, lesson)]
    return lesson


def read_norm(obj, d):
    """{"kind": "layernorm" | "rmsnorm", "gamma", "beta", "eps"}: γ = 1, β = 0, ε = 1e-5 unless given."""
    if obj is None:
        return None
    if obj["kind"] not in ("layernorm", "rmsnorm"):
        raise LessonError("norm.kind: layernorm or rmsnorm")
    eps = num(obj.get("eps", Fraction(1, 100000)))
    if eps <= 0:
        raise LessonError("norm.eps: a positive number")
    return {"kind": obj["kind"], "eps": eps,
            "gamma": as_vector(obj["gamma"]) if "gamma" in obj else [Fraction(1)] * d,
            "beta": as_vector(obj["beta"]) if "beta" in obj else [Fraction(0)] * d}


def read_block(obj, lesson, version):
    """The block after attention (version 6): residual, norm, ffn, final_norm, output_head."""
    if obj is None:
        return None
    if version < 6:
        raise LessonError("block: needs version 6")
    d = lesson["d_model"]
    block = {"residual": bool(obj.get("residual", False)), "norm": read_norm(obj.get("norm"), d),
             "final_norm": read_norm(obj.get("final_norm"), d), "ffn": None, "head": None}
    ffn = obj.get("ffn")
    if ffn is not None:
        kind = ffn["kind"]
        if kind == "swiglu":
            block["ffn"] = {"kind": kind, "W_gate": as_matrix(ffn["W_gate"]), "W_in": as_matrix(ffn["W_up"]),
                            "b_in": None, "W_out": as_matrix(ffn["W_down"]), "b_out": None}
        elif kind in ("relu", "gelu"):
            block["ffn"] = {"kind": kind, "W_in": as_matrix(ffn["W_1"]),
                            "b_in": as_vector(ffn["b_1"]) if "b_1" in ffn else None,
                            "W_out": as_matrix(ffn["W_2"]),
                            "b_out": as_vector(ffn["b_2"]) if "b_2" in ffn else None}
        else:
            raise LessonError("ffn.kind: relu, gelu or swiglu")
    head = obj.get("output_head")
    if head is not None:
        words = list(lesson["embeddings"].keys())
        if head.get("tied", False):
            weights = transpose([lesson["embeddings"][w] for w in words])   # d×V: column v is word v
        else:
            weights = as_matrix(head["W_vocab"])
        block["head"] = {"vocabulary": words, "W": weights,
                         "b": as_vector(head["b_vocab"]) if "b_vocab" in head else None}
    return block


def read_layer(obj, lesson):
    """heads_weights, W_O and b_O of one layer (the top level of a version 1 file)."""
    d = lesson["d_model"]
    heads = []
    if lesson["projections"]:
        if len(obj["heads_weights"]) != lesson["heads"]:
            raise LessonError("heads_weights: expected %d heads" % lesson["heads"])
        # Grouped-query attention (version 7): W_K, W_V (b_K, b_V) come from kv_heads_weights,
        # query head h reading key/value head h // (heads / kv_heads) -- Hugging Face's repeat_kv,
        # which repeats each key/value head heads / kv_heads times in a row.
        shared = lesson["kv_heads"] < lesson["heads"]
        kv_list = obj["kv_heads_weights"] if shared else obj["heads_weights"]
        if len(kv_list) != lesson["kv_heads"]:
            raise LessonError("kv_heads_weights: expected %d key/value heads" % lesson["kv_heads"])
        group = lesson["heads"] // lesson["kv_heads"]
        for index, h in enumerate(obj["heads_weights"]):
            kv = kv_list[index // group]
            heads.append({
                "W_Q": as_matrix(h["W_Q"]), "W_K": as_matrix(kv["W_K"]),
                "W_V": as_matrix(kv["W_V"]),
                "b_Q": as_vector(h["b_Q"]) if "b_Q" in h else None,
                "b_K": as_vector(kv["b_K"]) if "b_K" in kv else None,
                "b_V": as_vector(kv["b_V"]) if "b_V" in kv else None,
            })
    else:
        if lesson["d_k"] != d or lesson["d_v"] != d:
            raise LessonError("without projections d_k and d_v must equal d_model")
        eye = identity(d)
        heads = [{"W_Q": eye, "W_K": eye, "W_V": eye, "b_Q": None, "b_K": None, "b_V": None}
                 for _ in range(lesson["heads"])]
    return {"heads_weights": heads,
            "W_O": as_matrix(obj["W_O"]) if "W_O" in obj else None,
            "b_O": as_vector(obj["b_O"]) if "b_O" in obj else None}


# ---------------------------------------------------------------------------------------------
# The run.

def softmax_row(row):
    row = [float(x) for x in row]           # exp is transcendental: floating point from here
    top = max(row) if row else NEG_INF
    if top == NEG_INF:
        return [0.0 for _ in row]           # every key hidden: attends to nothing
    if math.isnan(top) or top == float("inf"):
        raise LessonError("scores must be finite or -inf")
    exps = [math.exp(x - top) if x != NEG_INF else 0.0 for x in row]
    total = 0.0
    for e in exps:
        total += e
    return [e / total for e in exps]


def run(lesson, sentence, hand_rounding):
    """hand_rounding: None for exact arithmetic, else a number of decimals."""
    r = lambda m: rounded(m, hand_rounding)
    d = lesson["d_model"]
    tokens = tokenize(sentence, lesson["lowercase"])
    T = len(tokens)
    in_table = [tok in lesson["embeddings"] for tok in tokens]
    missing = [tok for tok, known in zip(tokens, in_table) if not known]
    if missing and lesson["unknown_words"] == "ask":
        raise LessonError("not in the embedding table: " + ", ".join(missing))
    made_up = (lambda tok: [Fraction(0)] * d) if lesson["unknown_words"] == "zeros" else \
        (lambda tok: hashed_embedding(tok, d))
    embedding = [list(lesson["embeddings"][tok]) if known else made_up(tok)
                 for tok, known in zip(tokens, in_table)]

    if lesson["positional"] == "sinusoidal":
        positional = sinusoidal(T, d)
    elif lesson["positional"] == "table":
        table = lesson["positional_table"]
        positional = [list(table[p]) if p < len(table) else [Fraction(0)] * d
                      for p in range(T)]
    else:
        positional = [[Fraction(0)] * d for _ in range(T)]

    x = r([[e + p for e, p in zip(er, pr)] for er, pr in zip(embedding, positional)])

    layers = []
    for number, layer in enumerate(lesson["layers"]):
        if number > 0:
            # Residual connection: the layer before's input plus its output, no LayerNorm.
            before = layers[-1]
            if len(before["output"][0] if before["output"] else []) not in (0, d):
                raise LessonError("layer %d: the output is not d_model wide" % number)
            x = r([[a + b for a, b in zip(xr, outr)] for xr, outr in zip(before["x"], before["output"])])
        layers.append(run_layer(lesson, layer, x, T, r))

    result = {"tokens": tokens, "in_table": in_table, "embedding": embedding,
              "positional": positional, "layers": layers}
    if lesson["block"] is not None:
        result["block"] = run_block(lesson["block"], layers[-1]["x"], layers[-1]["output"], r)
    result.update(layers[0])  # "x", "heads", "concat", "output" of the first layer
    return result


def rope_pairs(d_k, pairing):
    """Pair i: the two columns turned together, (i, i + d_k/2) or, interleaved, (2i, 2i + 1)."""
    half = d_k // 2
    if pairing == "interleaved":
        return [(2 * i, 2 * i + 1) for i in range(half)]
    return [(i, i + half) for i in range(half)]


def rope(rows, base, pairing):
    """Row m's pair i (a, b) becomes (a·cos mθ_i − b·sin mθ_i, b·cos mθ_i + a·sin mθ_i),
    θ_i = 1 / base^(2i/d_k): RoFormer's rotation of two coordinates by the angle mθ_i."""
    out = []
    for m, row in enumerate(rows):
        d_k = len(row)
        new = list(row)
        for i, (first, second) in enumerate(rope_pairs(d_k, pairing)):
            theta = 1.0 / math.pow(base, (2 * i) / d_k)
            c, s = math.cos(m * theta), math.sin(m * theta)
            a, b = float(row[first]), float(row[second])
            new[first] = a * c - b * s
            new[second] = b * c + a * s
        out.append(new)
    return out


def run_layer(lesson, layer, x, T, r):
    heads_out = []
    for w in layer["heads_weights"]:
        q = r(add_row(matmul(x, w["W_Q"]), w["b_Q"]))
        k = r(add_row(matmul(x, w["W_K"]), w["b_K"]))
        turned = {}
        if lesson["positional"] == "rope":
            turned = {"q_before_rope": q, "k_before_rope": k}
            q = r(rope(q, lesson["rope_base"], lesson["rope_pairing"]))
            k = r(rope(k, lesson["rope_base"], lesson["rope_pairing"]))
        v = r(add_row(matmul(x, w["W_V"]), w["b_V"]))
        scores = r(matmul(q, transpose(k)))
        d_k = len(w["W_Q"][0])
        root = math.isqrt(d_k)
        if not lesson["scale"]:
            divisor = Fraction(1)
        elif root * root == d_k:
            divisor = Fraction(root)         # √4 = 2 exactly: the quotient stays a decimal
        else:
            divisor = math.sqrt(d_k)         # irrational: the correctly rounded double
        scaled = r([[s / divisor for s in row] for row in scores])
        masked = [[NEG_INF if (lesson["causal_mask"] and j > i) else s
                   for j, s in enumerate(row)] for i, row in enumerate(scaled)]
        weights = r([softmax_row(row) for row in masked])
        weighted = r(matmul(weights, v))
        heads_out.append(dict(turned, q=q, k=k, v=v, scores=scores, scaled_scores=scaled,
                              masked_scores=masked, weights=weights, weighted_sum=weighted))

    concat = [sum((h["weighted_sum"][t] for h in heads_out), []) for t in range(T)]
    width = len(concat[0]) if concat else len(heads_out) * lesson["d_v"]
    w_o = layer["W_O"] if layer["W_O"] is not None else identity(width)
    if layer["b_O"] is not None and len(layer["b_O"]) != len(w_o[0]):
        raise LessonError("b_O has %d numbers but the output has %d columns"
                          % (len(layer["b_O"]), len(w_o[0])))
    output = r(add_row(matmul(concat, w_o), layer["b_O"]))
    return {"x": x, "heads": heads_out, "concat": concat, "output": output}


def norm_rows(rows, norm):
    """LayerNorm: μ = mean(x), σ² = mean((x − μ)²) (exact fractions), y = (x − μ)/√(σ² + ε)·γ + β.
    RMSNorm: y = x/√(mean(x²) + ε)·γ. Returns the statistics and y."""
    means, spreads, out = [], [], []
    for row in rows:
        d = len(row)
        if norm["kind"] == "layernorm":
            mu = sum(row, Fraction(0)) / d
            spread = sum(((x - mu) ** 2 for x in row), Fraction(0)) / d
        else:
            mu = Fraction(0)
            spread = sum((x * x for x in row), Fraction(0)) / d
        root = math.sqrt(spread + norm["eps"])
        y = [float(x - mu) / root * float(g) for x, g in zip(row, norm["gamma"])]
        if norm["kind"] == "layernorm":
            y = [v + float(b) for v, b in zip(y, norm["beta"])]
        means.append(mu)
        spreads.append(spread)
        out.append(y)
    stats = {"mean": means, "variance": spreads} if norm["kind"] == "layernorm" else {"mean_square": spreads}
    return stats, out


def gelu(x):
    return 0.5 * float(x) * (1.0 + math.erf(float(x) / math.sqrt(2.0)))


def silu(x):
    return float(x) / (1.0 + math.exp(-float(x)))


def run_block(block, x, attention, r):
    """Add & Norm, the feed-forward network, Add & Norm, the output head, in this order:
    R = X + attention; N = norm(R); F = FFN(N); R2 = N + F; Y = final_norm(R2);
    logits = Y·W_vocab + b; probabilities = softmax of each row. Each part only when given;
    every intermediate hand-rounded like the attention steps."""
    out = {}
    current = attention
    if block["residual"]:
        current = out["residual_attention"] = r([[a + b for a, b in zip(xr, ar)] for xr, ar in zip(x, attention)])
    def normed(rows, key):  # a norm's statistics and hand-rounded output, kept under `key`
        stats, y = norm_rows(rows, block[key])
        out[key] = dict(stats, output=r(y))
        return out[key]["output"]

    if block["norm"] is not None:
        current = normed(current, "norm")
    ffn = block["ffn"]
    if ffn is not None:
        n = current
        f = {}
        if ffn["kind"] == "swiglu":
            f["gate"] = r(matmul(n, ffn["W_gate"]))
            f["hidden"] = r(matmul(n, ffn["W_in"]))
            f["activated"] = r([[silu(g) * float(u) for g, u in zip(gr, ur)]
                                for gr, ur in zip(f["gate"], f["hidden"])])
        else:
            f["hidden"] = r(add_row(matmul(n, ffn["W_in"]), ffn["b_in"]))
            act = (lambda v: v if v > 0 else Fraction(0)) if ffn["kind"] == "relu" else gelu
            f["activated"] = r([[act(v) for v in row] for row in f["hidden"]])
        f["output"] = r(add_row(matmul(f["activated"], ffn["W_out"]), ffn["b_out"]))
        out["ffn"] = f
        current = f["output"]
        if block["residual"]:
            current = out["residual_ffn"] = r([[a + b for a, b in zip(nr, fr)] for nr, fr in zip(n, f["output"])])
    if block["final_norm"] is not None:
        current = normed(current, "final_norm")
    head = block["head"]
    if head is not None:
        out["vocabulary"] = head["vocabulary"]
        out["logits"] = r(add_row(matmul(current, head["W"]), head["b"]))
        out["probabilities"] = r([softmax_row(row) for row in out["logits"]])
    return out


# ---------------------------------------------------------------------------------------------
# Writing: one matrix row per line, -inf as the string "-inf", floats in round-trip form.

def number_text(v):
    if v == NEG_INF:
        return '"-inf"'
    if math.isinf(v) or math.isnan(v):
        raise LessonError("cannot write %r" % v)
    return repr(float(v))


def matrix_text(m, indent):
    if not m:
        return "[]"
    pad = " " * (indent + 2)
    rows = ",\n".join(pad + "[" + ", ".join(number_text(v) for v in row) + "]" for row in m)
    return "[\n" + rows + "\n" + " " * indent + "]"


def layer_lines(layer, indent):
    """x, heads, concat and output of one layer as JSON members, `indent` spaces deep."""
    pad = " " * indent
    head_texts = []
    for h in layer["heads"]:
        keys = [key for key in ("q_before_rope", "k_before_rope") if key in h]
        keys += ["q", "k", "v", "scores", "scaled_scores", "masked_scores", "weights", "weighted_sum"]
        parts = ['%s    "%s": %s' % (pad, key, matrix_text(h[key], indent + 4)) for key in keys]
        head_texts.append(pad + "  {\n" + ",\n".join(parts) + "\n" + pad + "  }")
    return ['%s"x": %s,' % (pad, matrix_text(layer["x"], indent)),
            '%s"heads": [\n' % pad + ",\n".join(head_texts) + "\n" + pad + "],",
            '%s"concat": %s,' % (pad, matrix_text(layer["concat"], indent)),
            '%s"output": %s' % (pad, matrix_text(layer["output"], indent))]


def block_text(block):
    """The "block" member: matrices one row per line, the norms' statistics as lists."""
    members = []
    column = lambda values: "[" + ", ".join(number_text(v) for v in values) + "]"
    for key in ("residual_attention", "norm", "ffn", "residual_ffn", "final_norm", "vocabulary", "logits",
                "probabilities"):
        if key not in block:
            continue
        value = block[key]
        if key == "vocabulary":
            members.append('    "vocabulary": %s' % json.dumps(value, ensure_ascii=False))
        elif isinstance(value, dict):
            inner = []
            for name, part in value.items():
                text = matrix_text(part, 6) if part and isinstance(part[0], list) else column(part)
                inner.append('      "%s": %s' % (name, text))
            members.append('    "%s": {\n' % key + ",\n".join(inner) + "\n    }")
        else:
            members.append('    "%s": %s' % (key, matrix_text(value, 4)))
    return '  "block": {\n' + ",\n".join(members) + "\n  }"


def trace_text(meta, result, several_layers):
    dump = lambda v: json.dumps(v, ensure_ascii=False)
    lines = ["{"]
    for key in ("lesson", "sentence", "hand_rounding"):
        lines.append('  %s: %s,' % (dump(key), dump(meta[key])))
    lines.append('  "tokens": %s,' % dump(result["tokens"]))
    lines.append('  "in_table": %s,' % dump(result["in_table"]))
    for key in ("embedding", "positional"):
        lines.append('  "%s": %s,' % (key, matrix_text(result[key], 2)))
    if not several_layers:
        lines.extend(layer_lines(result["layers"][0], 2))
    else:
        layer_texts = ["    {\n" + "\n".join(layer_lines(layer, 6)) + "\n    }"
                       for layer in result["layers"]]
        lines.append('  "layers": [\n' + ",\n".join(layer_texts) + "\n  ]")
    if "block" in result:
        lines[-1] += ","
        lines.append(block_text(result["block"]))
    lines.append("}")
    return "\n".join(lines) + "\n"


def expected_trace(lesson_path, lesson_name, sentence=None, hand_rounding=None):
    lesson = load_lesson(lesson_path)
    if sentence is None:
        sentence = lesson["sentence"]
    result = run(lesson, sentence, hand_rounding)
    meta = {"lesson": lesson_name, "sentence": sentence, "hand_rounding": hand_rounding}
    text = trace_text(meta, result, lesson["residual"])
    json.loads(text)  # what we write must be valid JSON
    return text, result


def main(argv):
    args = list(argv[1:])
    if not args or args[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if args else 2
    lesson_path = args.pop(0)
    sentence, hand_rounding, out = None, None, None
    while args:
        flag = args.pop(0)
        if flag == "--sentence":
            sentence = args.pop(0)
        elif flag == "--hand-rounding":
            hand_rounding = int(args.pop(0))
        elif flag == "-o":
            out = args.pop(0)
        else:
            print("unknown argument %r" % flag, file=sys.stderr)
            return 2
    text, _ = expected_trace(lesson_path, lesson_path, sentence, hand_rounding)
    if out:
        with open(out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
