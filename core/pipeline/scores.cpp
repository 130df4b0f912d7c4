// Attention scores.  Shapes: T tokens, d_k query/key width.
#include <cmath>

#include "core/pipeline/steps.hpp"

namespace attnscope {

Mat attentionScores(const Mat& Q, const Mat& K) {
    return Q * K.transpose();  // T×d_k · d_k×T → T×T; entry (i,j) = q_i · k_j
}

template <typename Scalar>
MatOf<Scalar> scaleScores(const MatOf<Scalar>& scores, Scalar divisor) {
    return scores / divisor;  // T×T
}
template Mat scaleScores(const Mat&, double);
template MatOf<float> scaleScores(const MatOf<float>&, float);

template <typename Scalar>
void scaleScores(const MatOf<Scalar>& scores, Scalar divisor, MatOf<Scalar>& out) {
    out = scores / divisor;  // T×T
}
template void scaleScores(const Mat&, double, Mat&);
template void scaleScores(const MatOf<float>&, float, MatOf<float>&);

double sqrtOf(int dK) { return std::sqrt(static_cast<double>(dK)); }

}  // namespace attnscope
