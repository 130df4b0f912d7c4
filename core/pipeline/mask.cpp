// Attention masks.  Shapes: T tokens.
#include <algorithm>
#include <limits>

#include "core/pipeline/steps.hpp"

namespace attnscope {

Mat causalMask(int T) {
    Mat mask = Mat::Zero(T, T);  // T×T
    const double blocked = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < T; ++i)
        for (int j = i + 1; j < T; ++j) mask(i, j) = blocked;  // the future is hidden
    return mask;
}

Mat noMask(int T) { return Mat::Zero(T, T); }

Mat paddingMask(int T, int realTokens) {
    Mat mask = Mat::Zero(T, T);  // T×T
    const int first = std::clamp(realTokens, 0, T);
    mask.rightCols(T - first).setConstant(-std::numeric_limits<double>::infinity());  // no query sees a [PAD]
    return mask;
}

Mat applyMask(const Mat& scores, const Mat& mask) {
    return scores + mask;  // T×T; -inf + finite = -inf
}

}  // namespace attnscope
