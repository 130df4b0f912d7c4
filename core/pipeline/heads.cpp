// Combining heads.  Shapes: T tokens, H heads, d_v value width, d model width.
#include "core/pipeline/steps.hpp"

namespace attnscope {

Mat concatHeads(const std::vector<Mat>& headOutputs) {
    if (headOutputs.empty()) return Mat();
    const Eigen::Index T = headOutputs.front().rows();
    Eigen::Index width = 0;
    for (const Mat& h : headOutputs) width += h.cols();
    Mat concat(T, width);  // T×(H·d_v)
    Eigen::Index at = 0;
    for (const Mat& h : headOutputs) {
        concat.middleCols(at, h.cols()) = h;  // head h fills columns [h·d_v, (h+1)·d_v)
        at += h.cols();
    }
    return concat;
}

Mat outputProjection(const Mat& concat, const Mat& wo, const RowVec& bo) {
    return project(concat, wo, bo);  // T×(H·d_v) · (H·d_v)×d → T×d
}

}  // namespace attnscope
