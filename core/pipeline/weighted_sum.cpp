// Weighted sum of values.  Shapes: T tokens, d_v value width.
#include "core/pipeline/steps.hpp"

namespace attnscope {

Mat weightedSum(const Mat& weights, const Mat& V) {
    return weights * V;  // T×T · T×d_v → T×d_v; row i = Σ_j a_ij · v_j
}

}  // namespace attnscope
