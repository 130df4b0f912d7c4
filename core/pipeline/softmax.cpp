// Row softmax.  Shapes: T tokens (query rows) × T tokens (key columns).
// One definition for lessons (double) and real models (float); see steps.hpp.
#include <cmath>
#include <limits>
#include <type_traits>

#include "core/pipeline/steps.hpp"
#include "core/text/message_id.hpp"

namespace attnscope {

namespace {

// The notice `named` about row i by its token's name, or `numbered` by its number past the names.
Notice rowNotice(MessageId named, MessageId numbered, const std::vector<std::string>& names, Eigen::Index i) {
    if (i < static_cast<Eigen::Index>(names.size())) return Notice{named, {names[i]}};
    return Notice{numbered, {std::to_string(i + 1)}};
}

// Softmax of one row whose maximum is finite: shift by the maximum so exp never overflows.
// A masked token (−∞) must get exactly zero weight.
template <typename Scalar>
void softmaxFiniteRow(Eigen::Ref<RowVecOf<Scalar>> row, Scalar rowMax) {
    if constexpr (std::is_same_v<Scalar, float>) {
        // Models: T² exponentials per head, so Eigen's vectorised exp; it maps −∞ to a denormal
        // (2.9e-39) instead of 0, which the select puts right.
        const Scalar blocked = -std::numeric_limits<Scalar>::infinity();
        row = (row.array() == blocked).select(Scalar(0), (row.array() - rowMax).exp());
    } else {
        // Lessons: std::exp, exact to the last bit the reference traces are checked to.
        row = row.unaryExpr([rowMax](Scalar s) { return std::exp(s - rowMax); });
    }
    row /= row.sum();  // the maximum contributes exp(0) = 1, so sum ≥ 1
}

}  // namespace

template <typename Scalar>
void softmaxRowsInPlace(MatOf<Scalar>& weights, std::vector<Notice>* notices,
                        const std::vector<std::string>& rowNames) {
    const Scalar inf = std::numeric_limits<Scalar>::infinity();  // weights: T×T
    for (Eigen::Index i = 0; i < weights.rows(); ++i) {
        auto row = weights.row(i);
        const Scalar rowMax = row.template maxCoeff<Eigen::PropagateNaN>();  // NaN if any score is
        if (std::isnan(rowMax)) {
            row.setConstant(std::numeric_limits<Scalar>::quiet_NaN());
            if (notices) notices->push_back(rowNotice(MessageId::NoticeRowNaN, MessageId::NoticeRowNaNNumbered, rowNames, i));
            continue;
        }
        if (rowMax == -inf) {
            row.setZero();
            if (notices) notices->push_back(rowNotice(MessageId::NoticeRowMasked, MessageId::NoticeRowMaskedNumbered, rowNames, i));
        } else if (rowMax == inf) {
            row = (row.array() == inf).template cast<Scalar>();
            row /= row.sum();
            if (notices)
                notices->push_back(rowNotice(MessageId::NoticeRowInfinite, MessageId::NoticeRowInfiniteNumbered, rowNames, i));
        } else {
            softmaxFiniteRow<Scalar>(row, rowMax);
        }
    }
}
template void softmaxRowsInPlace(Mat&, std::vector<Notice>*, const std::vector<std::string>&);
template void softmaxRowsInPlace(MatOf<float>&, std::vector<Notice>*, const std::vector<std::string>&);

Mat softmaxRows(const Mat& scores, std::vector<Notice>* notices,
                const std::vector<std::string>& rowNames) {
    Mat weights = scores;  // T×T
    softmaxRowsInPlace(weights, notices, rowNames);
    return weights;
}

}  // namespace attnscope
