#!/usr/bin/python3
"""Independent reference for tests/core/test_attention_kernel.cpp: one small multi-head attention,
computed from the textbook definition in plain Python (math module only, no numpy, no code shared
with core/), printed as C++ initialisers for the test.

    /usr/bin/python3 tests/reference/reference_kernel.py

Q, K, V: 3 tokens × d = 4, two heads of d_k = 2 (head h: columns 2h, 2h+1). Per head:
    S = Q_h·K_hᵀ,  S' = S/√2,  S'' = S' + mask (causal: −∞ above the diagonal, else 0),
    A = softmax of each row of S'' (exp(−∞) = 0),  out_h = A·V_h;  context = [out_1 | out_2].
"""
import math

Q = [[1, 0, 2, 1], [0, 1, 1, 0], [1, 1, 0, 2]]
K = [[1, 1, 0, 1], [2, 0, 1, 1], [0, 1, 1, 0]]
V = [[1, 0, 0, 2], [0, 1, 1, 0], [1, 1, 2, 1]]
T, HEADS, DK = 3, 2, 2


def head(h, causal):
    cols = range(h * DK, (h + 1) * DK)
    weights, out = [], []
    for i in range(T):
        scaled = [sum(Q[i][c] * K[j][c] for c in cols) / math.sqrt(DK) for j in range(T)]
        allowed = [not (causal and j > i) for j in range(T)]
        top = max(s for s, ok in zip(scaled, allowed) if ok)
        e = [math.exp(s - top) if ok else 0.0 for s, ok in zip(scaled, allowed)]
        row = [x / sum(e) for x in e]
        weights.append(row)
        out.append([sum(row[j] * V[j][c] for j in range(T)) for c in cols])
    return weights, out


def show(name, m):
    print(f"    const Mat {name} = rows({{" + ", ".join(
        "{" + ", ".join(f"{x:.17g}" for x in r) + "}" for r in m) + "});")


for causal in (False, True):
    print(f"// causal = {str(causal).lower()}")
    context = [[0.0] * (HEADS * DK) for _ in range(T)]
    for h in range(HEADS):
        w, o = head(h, causal)
        show(f"weights{h}", w)
        for i in range(T):
            context[i][h * DK:(h + 1) * DK] = o[i]
    show("context", context)
