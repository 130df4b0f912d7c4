// Shape legend: d dimension of q and the keys, n keys.
#include "core/lab/scaling.hpp"

#include <algorithm>
#include <cmath>

#include "core/lab/random.hpp"
#include "core/pipeline/steps.hpp"

namespace attnscope {

ScalingRun scalingRun(int dimension, int keys, bool scaled, std::uint64_t seed) {
    LabRandom random(seed);
    const Mat q = random.normalMatrix(1, dimension);        // 1×d
    const Mat K = random.normalMatrix(keys, dimension);     // n×d
    ScalingRun run{dimension, scaled, seed, {}, {}, 0};
    const Mat scores = attentionScores(q, K);               // 1×n
    run.scores = scaled ? scaleScores(scores, std::sqrt(static_cast<double>(dimension))) : scores;
    run.weights = softmaxRows(run.scores, nullptr);         // 1×n
    run.largestGradient = softmaxJacobian(run.weights).cwiseAbs().maxCoeff();
    return run;
}

Mat softmaxJacobian(const RowVec& weights) {
    Mat jacobian = -weights.transpose() * weights;          // n×n  −yᵀy
    jacobian.diagonal() += weights.transpose();             // + diag(y)
    return jacobian;
}

std::uint64_t scalingSeed(std::uint64_t seed, int dimension, int run) {
    return seed + 1000003ULL * static_cast<std::uint64_t>(dimension) + static_cast<std::uint64_t>(run);
}

std::vector<ScalingSetting> scalingSweep(const std::vector<int>& dimensions, int runs, int keys,
                                         std::uint64_t seed) {
    std::vector<ScalingSetting> settings;
    for (int d : dimensions)
        for (bool scaled : {false, true}) {
            ScalingSetting s{d, scaled, {}, 0};
            for (int r = 0; r < runs; ++r)
                s.largestGradients.push_back(scalingRun(d, keys, scaled, scalingSeed(seed, d, r)).largestGradient);
            std::vector<double> sorted = s.largestGradients;
            std::sort(sorted.begin(), sorted.end());
            const std::size_t n = sorted.size();
            s.median = n == 0 ? 0 : n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
            settings.push_back(std::move(s));
        }
    return settings;
}

std::vector<int> powersOfTwoDimensions(int largest) {
    std::vector<int> dims;
    for (int d = 2; d <= largest; d *= 2) dims.push_back(d);
    return dims;
}

Mat rowEntropies(const Mat& weights) {
    Mat entropy(weights.rows(), 1);  // T×1
    for (Eigen::Index r = 0; r < weights.rows(); ++r) {
        double h = 0;
        for (Eigen::Index c = 0; c < weights.cols(); ++c)
            if (weights(r, c) > 0) h -= weights(r, c) * std::log(weights(r, c));
        entropy(r, 0) = h;
    }
    return entropy;
}

ScalingComparison compareScaling(const HeadTrace& head) {
    ScalingComparison c;
    c.divisor = sqrtOf(static_cast<int>(head.q.cols()));
    c.scaledWeights = softmaxRows(applyMask(scaleScores(head.scores, c.divisor), head.mask), nullptr);
    c.unscaledWeights = softmaxRows(applyMask(head.scores, head.mask), nullptr);
    c.scaledEntropies = rowEntropies(c.scaledWeights);
    c.unscaledEntropies = rowEntropies(c.unscaledWeights);
    return c;
}

Histogram histogram(const std::vector<double>& values, double lowest, double highest, int bins) {
    Histogram h;
    h.lowest = lowest;
    h.width = highest > lowest && bins > 0 ? (highest - lowest) / bins : 1;
    h.counts.assign(std::max(bins, 0), 0);
    for (const double v : values) {
        if (!(v >= lowest && v <= highest) || h.counts.empty()) continue;
        const int bin = std::min(static_cast<int>((v - lowest) / h.width), bins - 1);
        ++h.counts[bin];
    }
    return h;
}

Histogram histogram(const std::vector<double>& values, int bins) {
    if (values.empty()) return histogram(values, 0, 1, bins);
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    if (*low == *high) return histogram(values, *low - 0.5, *high + 0.5, bins);
    return histogram(values, *low, *high, bins);
}

std::vector<double> sweepScores(int dimension, bool scaled, int runs, int keys, std::uint64_t seed) {
    std::vector<double> scores;
    for (int r = 0; r < runs; ++r) {
        const ScalingRun run = scalingRun(dimension, keys, scaled, scalingSeed(seed, dimension, r));
        scores.insert(scores.end(), run.scores.data(), run.scores.data() + run.scores.size());
    }
    return scores;
}

}  // namespace attnscope
