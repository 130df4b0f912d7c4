#pragma once
// The attention pipeline as small free functions, one idea each. Each lives in its own .cpp file
// with the shape legend at its top:
//   T tokens, d model width, H heads, d_k query/key width, d_v value width.
// Every function is pure: same inputs, same outputs, no hidden state.
// The steps the attention kernel (attention_kernel.hpp) runs for lessons (double) and real models
// (float) are templates on the scalar, defined in their .cpp and instantiated there for both.
#include <string>
#include <vector>

#include "core/base/matrix.hpp"
#include "core/text/notice.hpp"

namespace attnscope {

// positional.cpp — PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(pos / 10000^(2i/d))
Mat sinusoidalEncoding(int T, int d);  // T×d

// projection.cpp — X·W + b (b may be empty)
Mat project(const Mat& X, const Mat& W, const RowVec& b);  // T×d · d×d_k → T×d_k

// scores.cpp — Q·Kᵀ and the scaling: each score divided by √d_k, as written on the board
Mat attentionScores(const Mat& Q, const Mat& K);     // T×d_k · d_k×T → T×T
template <typename Scalar>
MatOf<Scalar> scaleScores(const MatOf<Scalar>& scores, Scalar divisor);  // T×T
template <typename Scalar>  // the same into `out`, reusing its storage (the kernel's T×T buffer)
void scaleScores(const MatOf<Scalar>& scores, Scalar divisor, MatOf<Scalar>& out);  // T×T
double sqrtOf(int dK);

// mask.cpp — additive masks: 0 keeps a score, -inf removes it
template <typename Scalar = double>
MatOf<Scalar> causalMask(int T);  // T×T, -inf above the diagonal (token i sees tokens 0..i)
Mat noMask(int T);      // T×T zeros
Mat paddingMask(int T, int realTokens);  // T×T, -inf in the columns of tokens realTokens…T−1 (padding)
template <typename Scalar>
MatOf<Scalar> applyMask(const MatOf<Scalar>& scores, const MatOf<Scalar>& mask);  // T×T
template <typename Scalar>  // scores += mask, in place
void applyMaskInPlace(MatOf<Scalar>& scores, const MatOf<Scalar>& mask);  // T×T

// softmax.cpp — numerically stable row softmax. A row whose entries are all -inf has no
// distribution: its weights are all 0 and a notice says so. A row with +inf entries splits its
// weight evenly among them (the limit of softmax). NaN scores make the row NaN, with a notice.
Mat softmaxRows(const Mat& scores, std::vector<Notice>* notices,
                const std::vector<std::string>& rowNames = {});  // T×T
template <typename Scalar>  // the same, in place (the kernel reuses its T×T buffer)
void softmaxRowsInPlace(MatOf<Scalar>& scores, std::vector<Notice>* notices,
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
