#pragma once
// The rest of a transformer block after attention, as a lesson runs it (the readable path, in
// double; real models run core/model/blocks.*, the float fast path, and a test checks that the
// two agree): the residual connection, LayerNorm or RMSNorm, the feed-forward network (ReLU, GELU
// or SwiGLU), and the output head whose softmax gives the next word's probabilities.
// Order, as "Attention Is All You Need" draws it (Add & Norm after each sublayer):
//   R = X + attention(X)      N = norm(R)      F = FFN(N)      R₂ = N + F      Y = final_norm(R₂)
//   logits = Y·W_vocab + b    P = softmax of each row of logits
//
// Shape legend: T tokens, d model width, d_ff feed-forward width, V vocabulary size.
#include <optional>
#include <string>
#include <vector>

#include "core/base/matrix.hpp"
#include "core/text/notice.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

// X + sublayer(X): each token keeps what it was and adds what the sublayer found.
Mat addResidual(const Mat& X, const Mat& sublayerOutput);  // T×d + T×d → T×d

// LayerNorm of each row: μ = mean(x), σ² = mean((x − μ)²), y = (x − μ)/√(σ² + ε)·γ + β.
// Fills norm.mean, norm.variance (T×1) and norm.output (T×d); γ, β and ε are read from `norm`.
void layerNormRows(const Mat& X, NormTrace& norm);  // T×d → T×d
// RMSNorm of each row: y = x/√(mean(x²) + ε)·γ. norm.variance holds mean(x²) (T×1).
void rmsNormRows(const Mat& X, NormTrace& norm);    // T×d → T×d
void normRows(const Mat& X, NormTrace& norm);       // whichever norm.kind says

// The activations, cell by cell.
double reluOf(double x);  // max(0, x)
double geluOf(double x);  // x·Φ(x) = ½x(1 + erf(x/√2)), the exact GELU
double siluOf(double x);  // x·σ(x) = x/(1 + e^−x), SwiGLU's gate
Mat activateCells(const Mat& H, BlockFfn kind);  // T×d_ff → T×d_ff (ReLU or GELU)

// The feed-forward network on N (T×d), weights and kind read from `ffn`; fills its gate (SwiGLU),
// hidden, activated (T×d_ff) and output (T×d). ReLU/GELU: act(N·W_1 + b_1)·W_2 + b_2.
// SwiGLU: (SiLU(N·W_gate) ⊙ N·W_up)·W_down (+ b_2). `round` is applied to each intermediate.
void feedForward(const Mat& N, FeedForwardTrace& ffn, const std::optional<int>& round);

// The whole block on X (the last attention layer's input, T×d) and its attention output (T×d),
// weights from `block`; every intermediate recorded in it, each hand-rounded when `round` is set.
// A row of logits that is not finite becomes a row without a distribution, with a notice.
void runBlock(const Mat& X, const Mat& attentionOutput, BlockTrace& block, const std::optional<int>& round,
              const std::vector<std::string>& tokenNames, std::vector<Notice>* notices);

}  // namespace attnscope
