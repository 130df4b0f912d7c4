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

}  // namespace attnscope
