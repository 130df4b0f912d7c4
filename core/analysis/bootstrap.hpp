#pragma once
// Percentile bootstrap intervals for accuracies measured over examples: the per-example scores
// (1 correct / 0 wrong, or an expected score such as 1/#candidates) are resampled with
// replacement, the model is never rerun. Every column is resampled with the same draws, so two
// columns' difference (a head minus a baseline) has a paired interval too.
// Reference: tests/reference/reference_bootstrap.py (NumPy, no shared code) wrote the fixture
// tests/reference/fixtures/bootstrap.json that tests/core/test_bootstrap.cpp compares with.
//
// Shape legend: n examples, K columns (heads, baselines), B resamples.
#include <cstdint>
#include <vector>

#include "core/trace/trace.hpp"

namespace attnscope {

struct BootstrapSettings {
    int resamples = 1000;        // B; documented in docs/coreference.md ("Uncertainty")
    std::uint32_t seed = 1;      // std::mt19937's seed: the same seed gives the same intervals
    double level = 0.95;         // central interval: percentiles (1 − level)/2 and (1 + level)/2
};

struct Interval {
    double low = 0, high = 0;
    bool operator==(const Interval&) const = default;
};

// B×K: row b = the column means over resample b. Resample b draws n example indices, each
// mt19937() % n, in order (resample 0's n draws first). n×K in; n = 0 gives B×K zeros.
Mat resampledMeans(const Mat& perExample, const BootstrapSettings& settings);

// The central `level` interval of `values` (percentiles by linear interpolation between the
// sorted values: position p·(B − 1), NumPy's default).
Interval percentileInterval(std::vector<double> values, double level);

// percentileInterval of column `k` of resampledMeans' result, and of column a − column b.
Interval columnInterval(const Mat& means, Eigen::Index k, double level);
Interval differenceInterval(const Mat& means, Eigen::Index a, Eigen::Index b, double level);

}  // namespace attnscope
