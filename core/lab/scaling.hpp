#pragma once
// Why scale by 1/√d_k: the classic experiment. A query q and n keys drawn from N(0, 1) in
// dimension d have dot products of standard deviation √d; unscaled, the softmax of those scores
// saturates as d grows and its Jacobian diag(y) − yᵀy — the gradient that trains the model —
// collapses towards 0. Divided by √d, the scores keep standard deviation 1 at every d.
//
// Shape legend: d dimension of q and the keys, n keys.
#include <cstdint>
#include <vector>

#include "core/base/matrix.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

// One draw: q (1×d) then the n keys (n×d, row by row) from LabRandom(seed).
struct ScalingRun {
    int dimension = 0;
    bool scaled = false;
    std::uint64_t seed = 0;
    RowVec scores;    // 1×n  q·kᵢ, divided by √d when scaled
    RowVec weights;   // 1×n  softmax of the scores
    double largestGradient = 0;  // largest |entry| of softmaxJacobian(weights)
};
ScalingRun scalingRun(int dimension, int keys, bool scaled, std::uint64_t seed);

// The softmax Jacobian ∂yᵢ/∂sⱼ = yᵢ(δᵢⱼ − yⱼ) = diag(y) − yᵀy.  n×n
Mat softmaxJacobian(const RowVec& weights);

// Every (dimension, scaled) pair, `runs` draws each. Run r of dimension d uses the seed
// seed + 1000003·d + r for both the scaled and the unscaled setting, so the two see the same q
// and keys and differ only by the division.
struct ScalingSetting {
    int dimension = 0;
    bool scaled = false;
    std::vector<double> largestGradients;  // one per run
    double median = 0;
};
std::uint64_t scalingSeed(std::uint64_t seed, int dimension, int run);
std::vector<ScalingSetting> scalingSweep(const std::vector<int>& dimensions, int runs, int keys,
                                         std::uint64_t seed);

// 2, 4, 8, …, 4096: the sweep the lab plots.
std::vector<int> powersOfTwoDimensions(int largest = 4096);

// −Σ w·ln w of each row (nats; 0·ln 0 = 0): how spread out each row's attention is.  T×1
Mat rowEntropies(const Mat& weights);

// A head's rows with and without the division by √d_k, whatever the lesson chose: softmax of
// (Q·Kᵀ/√d_k + mask) and of (Q·Kᵀ + mask), and the entropy of each row. T×T, T×1.
struct ScalingComparison {
    double divisor = 1;  // √d_k
    Mat scaledWeights, unscaledWeights;
    Mat scaledEntropies, unscaledEntropies;
};
ScalingComparison compareScaling(const HeadTrace& head);

// Equal-width bins over [lowest, highest] of the values (the last bin includes `highest`).
struct Histogram {
    double lowest = 0, width = 1;
    std::vector<int> counts;
    double centre(int bin) const { return lowest + (bin + 0.5) * width; }
};
Histogram histogram(const std::vector<double>& values, double lowest, double highest, int bins);
// The same over the values' own span (one bin of width 1 around a single value).
Histogram histogram(const std::vector<double>& values, int bins);

// The q·k values of every run of one setting of scalingSweep (runs × keys of them).
std::vector<double> sweepScores(int dimension, bool scaled, int runs, int keys, std::uint64_t seed);

}  // namespace attnscope
