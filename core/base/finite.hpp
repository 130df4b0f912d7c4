#pragma once
// Finding a NaN or ±∞ quickly in long runs of floats: weights at load, attention weights after a run.
#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <optional>

namespace attnscope {

// The index of the first NaN or ±∞ among n values, if any. x·0 is 0 for every finite x and NaN for
// NaN and ±∞, so a block's sum of x·0 is 0 exactly when the block is finite: one vectorised pass
// (Eigen packets), memory-bound. Only a bad block is searched element by element.
template <typename Scalar>
std::optional<Eigen::Index> firstNonFinite(const Scalar* data, Eigen::Index n) {
    constexpr Eigen::Index kBlock = 4096;
    for (Eigen::Index start = 0; start < n; start += kBlock) {
        const Eigen::Index size = std::min(kBlock, n - start);
        const Eigen::Map<const Eigen::Array<Scalar, Eigen::Dynamic, 1>> block(data + start, size);
        if ((block * Scalar(0)).sum() == Scalar(0)) continue;
        for (Eigen::Index i = 0; i < size; ++i)
            if (!std::isfinite(block[i])) return start + i;
    }
    return std::nullopt;
}

}  // namespace attnscope
