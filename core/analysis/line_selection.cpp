#include "core/analysis/line_selection.hpp"

#include <algorithm>
#include <functional>

namespace attnscope {

std::vector<double> rowLineThresholds(GridRef weights, const LineFilter& filter) {
    std::vector<double> out(static_cast<std::size_t>(weights.rows()), filter.minWeight);
    const int k = std::min<int>(filter.topK, static_cast<int>(weights.cols()));
    if (k <= 0) return out;
    std::vector<double> row(static_cast<std::size_t>(weights.cols()));
    for (Eigen::Index r = 0; r < weights.rows(); ++r) {
        for (Eigen::Index c = 0; c < weights.cols(); ++c) {
            const double w = weights(r, c);
            row[static_cast<std::size_t>(c)] = w == w ? w : -1.0;  // NaN sorts last, never drawn
        }
        std::nth_element(row.begin(), row.begin() + (k - 1), row.end(), std::greater<>());
        out[static_cast<std::size_t>(r)] = std::min(filter.minWeight, row[static_cast<std::size_t>(k - 1)]);
    }
    return out;
}

}  // namespace attnscope
