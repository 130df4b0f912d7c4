// Attention masks.  Shapes: T tokens.
#include <algorithm>
#include <limits>

#include "core/pipeline/steps.hpp"

namespace attnscope {

template <typename Scalar>
MatOf<Scalar> causalMask(int T) {
    MatOf<Scalar> mask = MatOf<Scalar>::Zero(T, T);  // T×T
    const Scalar blocked = -std::numeric_limits<Scalar>::infinity();
    for (int i = 0; i < T; ++i)
        for (int j = i + 1; j < T; ++j) mask(i, j) = blocked;  // the future is hidden
    return mask;
}
template Mat causalMask<double>(int);
template MatOf<float> causalMask<float>(int);

Mat noMask(int T) { return Mat::Zero(T, T); }

Mat paddingMask(int T, int realTokens) {
    Mat mask = Mat::Zero(T, T);  // T×T
    const int first = std::clamp(realTokens, 0, T);
    mask.rightCols(T - first).setConstant(-std::numeric_limits<double>::infinity());  // no query sees a [PAD]
    return mask;
}

template <typename Scalar>
MatOf<Scalar> applyMask(const MatOf<Scalar>& scores, const MatOf<Scalar>& mask) {
    return scores + mask;  // T×T; -inf + finite = -inf
}
template Mat applyMask(const Mat&, const Mat&);
template MatOf<float> applyMask(const MatOf<float>&, const MatOf<float>&);

template <typename Scalar>
void applyMaskInPlace(MatOf<Scalar>& scores, const MatOf<Scalar>& mask) {
    scores += mask;  // T×T
}
template void applyMaskInPlace(Mat&, const Mat&);
template void applyMaskInPlace(MatOf<float>&, const MatOf<float>&);

}  // namespace attnscope
