#include "core/analysis/bootstrap.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace attnscope {

Mat resampledMeans(const Mat& perExample, const BootstrapSettings& settings) {
    const Eigen::Index n = perExample.rows(), columns = perExample.cols();
    Mat means = Mat::Zero(settings.resamples, columns);
    if (n == 0) return means;
    std::mt19937 draws(settings.seed);
    RowVec counts(n);  // how often each example is drawn in this resample
    for (int b = 0; b < settings.resamples; ++b) {
        counts.setZero();
        for (Eigen::Index i = 0; i < n; ++i) counts(static_cast<Eigen::Index>(draws() % static_cast<std::uint32_t>(n))) += 1;
        means.row(b) = counts * perExample / static_cast<double>(n);
    }
    return means;
}

Interval percentileInterval(std::vector<double> values, double level) {
    if (values.empty()) return {};
    std::sort(values.begin(), values.end());
    const auto at = [&](double p) {
        const double position = p * static_cast<double>(values.size() - 1);
        const auto below = static_cast<std::size_t>(std::floor(position));
        const std::size_t above = std::min(below + 1, values.size() - 1);
        return values[below] + (position - static_cast<double>(below)) * (values[above] - values[below]);
    };
    return {at((1 - level) / 2), at((1 + level) / 2)};
}

Interval columnInterval(const Mat& means, Eigen::Index k, double level) {
    std::vector<double> values(static_cast<std::size_t>(means.rows()));
    for (Eigen::Index b = 0; b < means.rows(); ++b) values[static_cast<std::size_t>(b)] = means(b, k);
    return percentileInterval(std::move(values), level);
}

Interval differenceInterval(const Mat& means, Eigen::Index a, Eigen::Index b, double level) {
    std::vector<double> values(static_cast<std::size_t>(means.rows()));
    for (Eigen::Index r = 0; r < means.rows(); ++r) values[static_cast<std::size_t>(r)] = means(r, a) - means(r, b);
    return percentileInterval(std::move(values), level);
}

}  // namespace attnscope
