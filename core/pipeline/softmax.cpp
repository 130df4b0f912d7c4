// Row softmax.  Shapes: T tokens (query rows) × T tokens (key columns).
#include <cmath>
#include <limits>

#include "core/pipeline/steps.hpp"

namespace attnscope {

namespace {

std::string rowName(const std::vector<std::string>& names, Eigen::Index i) {
    return i < static_cast<Eigen::Index>(names.size()) ? "\"" + names[i] + "\""
                                                       : "row " + std::to_string(i + 1);
}

// Softmax of one row whose maximum is finite: shift by the maximum so exp never overflows.
void softmaxFiniteRow(Eigen::Ref<RowVec> row, double rowMax) {
    // std::exp, not Eigen's vectorised exp: the latter clamps −∞ to a denormal instead of 0,
    // and a masked token must get exactly zero weight.
    row = row.unaryExpr([rowMax](double s) { return std::exp(s - rowMax); });
    row /= row.sum();                     // the maximum contributes exp(0) = 1, so sum ≥ 1
}

}  // namespace

Mat softmaxRows(const Mat& scores, std::vector<std::string>* notices,
                const std::vector<std::string>& rowNames) {
    Mat weights = scores;  // T×T
    const double inf = std::numeric_limits<double>::infinity();
    for (Eigen::Index i = 0; i < weights.rows(); ++i) {
        auto row = weights.row(i);
        if (row.array().isNaN().any()) {
            row.setConstant(std::numeric_limits<double>::quiet_NaN());
            if (notices) notices->push_back("scores of " + rowName(rowNames, i) +
                                            " contain NaN: its weights are undefined");
            continue;
        }
        const double rowMax = row.maxCoeff();
        if (rowMax == -inf) {
            row.setZero();
            if (notices) notices->push_back("every score of " + rowName(rowNames, i) +
                                            " is masked: it attends to nothing (weights 0)");
        } else if (rowMax == inf) {
            row = (row.array() == inf).cast<double>();
            row /= row.sum();
            if (notices) notices->push_back("scores of " + rowName(rowNames, i) +
                                            " contain +inf: the weight is split among those");
        } else {
            softmaxFiniteRow(row, rowMax);
        }
    }
    return weights;
}

}  // namespace attnscope
