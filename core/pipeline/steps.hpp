#pragma once
// The attention pipeline as small free functions, one idea each. Each lives in its own .cpp file
// with the shape legend at its top:
//   T tokens, d model width, H heads, d_k query/key width, d_v value width.
// Every function is pure: same inputs, same outputs, no hidden state.
#include <string>
#include <vector>

#include "core/base/matrix.hpp"

namespace attnscope {

// positional.cpp — PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(pos / 10000^(2i/d))
Mat sinusoidalEncoding(int T, int d);  // T×d

// projection.cpp — X·W + b (b may be empty)
Mat project(const Mat& X, const Mat& W, const RowVec& b);  // T×d · d×d_k → T×d_k

// scores.cpp — Q·Kᵀ and the scaling: each score divided by √d_k, as written on the board
Mat attentionScores(const Mat& Q, const Mat& K);     // T×d_k · d_k×T → T×T
Mat scaleScores(const Mat& scores, double divisor);  // T×T
double sqrtOf(int dK);

// mask.cpp — additive masks: 0 keeps a score, -inf removes it
Mat causalMask(int T);  // T×T, -inf above the diagonal (token i sees tokens 0..i)
Mat noMask(int T);      // T×T zeros
Mat paddingMask(int T, int realTokens);  // T×T, -inf in the columns of tokens realTokens…T−1 (padding)
Mat applyMask(const Mat& scores, const Mat& mask);  // T×T

// softmax.cpp — numerically stable row softmax. A row whose entries are all -inf has no
// distribution: its weights are all 0 and a notice says so. A row with +inf entries splits its
// weight evenly among them (the limit of softmax). NaN scores make the row NaN, with a notice.
Mat softmaxRows(const Mat& scores, std::vector<std::string>* notices,
                const std::vector<std::string>& rowNames = {});  // T×T

// weighted_sum.cpp — A·V: each output row is the attention-weighted mix of value rows
Mat weightedSum(const Mat& weights, const Mat& V);  // T×T · T×d_v → T×d_v

// heads.cpp — [head_1 | … | head_H] and the output projection
Mat concatHeads(const std::vector<Mat>& headOutputs);  // H × (T×d_v) → T×(H·d_v)
Mat outputProjection(const Mat& concat, const Mat& wo, const RowVec& bo);  // → T×d

// rounding.cpp — hand-rounding: round half away from zero to a number of decimals, as a
// calculator does; ±inf and NaN pass through unchanged.
double roundTo(double value, int decimals);
Mat roundTo(const Mat& m, int decimals);

}  // namespace attnscope
