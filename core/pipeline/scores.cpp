// Attention scores.  Shapes: T tokens, d_k query/key width.
#include <cmath>

#include "core/pipeline/steps.hpp"

namespace attnscope {

Mat attentionScores(const Mat& Q, const Mat& K) {
    return Q * K.transpose();  // T×d_k · d_k×T → T×T; entry (i,j) = q_i · k_j
}

Mat scaleScores(const Mat& scores, double divisor) {
    return scores / divisor;  // T×T
}

double sqrtOf(int dK) { return std::sqrt(static_cast<double>(dK)); }

}  // namespace attnscope
