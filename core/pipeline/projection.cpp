// Linear projections Q = X·W_Q + b_Q (and K, V, the output W_O alike).
// Shapes: T tokens, d model width, d_k projected width.
#include "core/pipeline/steps.hpp"

namespace attnscope {

Mat project(const Mat& X, const Mat& W, const RowVec& b) {
    Mat out = X * W;  // T×d · d×d_k → T×d_k
    if (b.size() > 0) out.rowwise() += b;  // b: 1×d_k, added to every token's row
    return out;
}

}  // namespace attnscope
