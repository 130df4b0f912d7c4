#pragma once
// Exact t-SNE (van der Maaten & Hinton 2008) to 2-D, O(N²) per iteration: for the Queries & keys
// picture, up to kMaxTsnePoints points. Reproducible: the start is drawn from LabRandom(seed)
// (core/lab/random.hpp, the same numbers on any machine), then plain gradient descent with the
// paper's schedule: early exaggeration 12 and momentum 0.5 for the first 250 iterations, then
// momentum 0.8; per-coordinate gains (Jacobs 1988); learning rate max(N / 48, 50) (as sklearn's
// "auto").
//
// Shape legend: N points of width d.
#include <atomic>
#include <cstdint>

#include "core/base/result.hpp"
#include "core/base/matrix.hpp"

namespace attnscope {

inline constexpr int kMaxTsnePoints = 2000;

struct TsneOptions {
    double perplexity = 30;  // the effective number of neighbours; at most (N − 1) / 3
    std::uint64_t seed = 1;
    int iterations = 1000;
};

// The largest perplexity N points allow: (N − 1) / 3.
double largestPerplexity(int points);

// Row i: p(j | i) = exp(−β_i‖x_i − x_j‖²) / Σ, β_i found by bisection so that the row's
// perplexity 2^H (H in bits) equals `perplexity` (to 1e-5 in H). N×N, zero diagonal.
Mat tsneConditionalRows(const Mat& points, double perplexity);

// N×2. An error when N > kMaxTsnePoints, N < 4 or the perplexity is outside [1, (N − 1) / 3];
// a cancelled run (flag set) returns an Error saying so.
Result<Mat> tsne(const Mat& points, const TsneOptions& options, const std::atomic<bool>* cancel = nullptr);

}  // namespace attnscope
