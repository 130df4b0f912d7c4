// A head's digest (see head_digest.hpp). Every pass reads the T_q×T_k weights row by row, once:
// in a long run this happens for every head of every layer (L·H·T² weights).
//
// Shape legend: T_q query rows, T_k key columns, r×c the thumbnail.
#include "core/trace/head_digest.hpp"

#include "core/model/simd_kernels.hpp"

#include <algorithm>
#include <cmath>

namespace attnscope {

std::vector<int> poolBounds(int n, int side) {
    const int parts = std::max(1, std::min(n, side));
    std::vector<int> bounds(static_cast<std::size_t>(parts) + 1);
    for (int b = 0; b <= parts; ++b)
        bounds[static_cast<std::size_t>(b)] = static_cast<int>(static_cast<long long>(b) * n / parts);
    return bounds;
}

namespace {

// −Σ w·ln w of one row (0·ln 0 = 0), and each weight added to its column's mass: lessons'
// double rows exactly; a model's float rows in one vectorised pass (core/model/simd_kernels.hpp),
// the cost that matters at L·H·T² weights (a fifth of a 4,096-token run through Eigen's SSE log).
double entropyAndMass(const double* row, Eigen::Index n, double* mass, SimdLevel /*lessons: exact*/) {
    double h = 0;
    for (Eigen::Index c = 0; c < n; ++c) {
        mass[c] += row[c];
        if (row[c] > 0) h -= row[c] * std::log(row[c]);
    }
    return h;
}

double entropyAndMass(const float* row, Eigen::Index n, double* mass, SimdLevel level) {
    const float h = entropyAndMassRow(level, row, static_cast<std::size_t>(n), mass);
    if (!std::isnan(h)) return -static_cast<double>(h);
    // A NaN, ±∞ or negative weight: only the positive ones count, as the kernel's own steps do.
    const Eigen::Map<const Eigen::ArrayXf> w(row, n);
    return -static_cast<double>((w > 0.0f).select(w * w.max(1e-38f).log(), 0.0f).sum());
}

// Adds one row's block sums to `sums` (c entries): Σ over each column block.
template <typename Scalar>
void addBlockSums(const Scalar* row, const std::vector<int>& colBounds, std::vector<double>& sums) {
    for (std::size_t b = 0; b + 1 < colBounds.size(); ++b) {
        const Eigen::Map<const Eigen::Array<Scalar, Eigen::Dynamic, 1>> block(row + colBounds[b], colBounds[b + 1] - colBounds[b]);
        sums[b] += static_cast<double>(block.sum());
    }
}

template <typename Matrix>  // Mat (lessons), row-major; MatF below
MatF pooled(const Matrix& w, int side) {
    static_assert(Matrix::IsRowMajor, "rows are read through a pointer");
    const std::vector<int> rowBounds = poolBounds(static_cast<int>(w.rows()), side);
    const std::vector<int> colBounds = poolBounds(static_cast<int>(w.cols()), side);
    MatF out(static_cast<Eigen::Index>(rowBounds.size() - 1), static_cast<Eigen::Index>(colBounds.size() - 1));  // r×c
    std::vector<double> sums(colBounds.size() - 1);
    for (std::size_t a = 0; a + 1 < rowBounds.size(); ++a) {
        std::fill(sums.begin(), sums.end(), 0.0);
        for (int i = rowBounds[a]; i < rowBounds[a + 1]; ++i) addBlockSums(w.data() + static_cast<Eigen::Index>(i) * w.cols(), colBounds, sums);
        const double rows = rowBounds[a + 1] - rowBounds[a];
        for (std::size_t b = 0; b < sums.size(); ++b)
            out(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(b)) =
                static_cast<float>(sums[b] / (rows * (colBounds[b + 1] - colBounds[b])));
    }
    return out;
}

// A model's float weights: each block of rows added up first (vectorised adds in float, at most
// ⌈T_q/128⌉ rows of weights ≤ 1 a block), then each column block of that sum in double; the
// per-row block sums above were a twentieth of a 4,096-token run.
MatF pooled(const MatF& w, int side) {
    const std::vector<int> rowBounds = poolBounds(static_cast<int>(w.rows()), side);
    const std::vector<int> colBounds = poolBounds(static_cast<int>(w.cols()), side);
    MatF out(static_cast<Eigen::Index>(rowBounds.size() - 1), static_cast<Eigen::Index>(colBounds.size() - 1));  // r×c
    std::vector<float> rowSum(static_cast<std::size_t>(w.cols()));
    const SimdLevel level = activeSimdLevel();
    for (std::size_t a = 0; a + 1 < rowBounds.size(); ++a) {
        std::fill(rowSum.begin(), rowSum.end(), 0.0f);
        for (int i = rowBounds[a]; i < rowBounds[a + 1]; ++i) addInPlace(level, rowSum.data(), &w(i, 0), rowSum.size());
        const double rows = rowBounds[a + 1] - rowBounds[a];
        for (std::size_t b = 0; b + 1 < colBounds.size(); ++b) {
            double sum = 0;
            for (int c = colBounds[b]; c < colBounds[b + 1]; ++c) sum += rowSum[static_cast<std::size_t>(c)];
            out(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(b)) = static_cast<float>(sum / (rows * (colBounds[b + 1] - colBounds[b])));
        }
    }
    return out;
}

double mean(double sum, Eigen::Index count) { return count > 0 ? sum / static_cast<double>(count) : 0; }

// The statistics' sums, row by row (the shares as head_stats.hpp defines them).
template <typename Matrix>
void addStatistics(const Matrix& w, bool causal, HeadDigest& d) {
    const Eigen::Index T = w.rows(), Tk = w.cols();
    double entropy = 0, normalized = 0, previous = 0, next = 0, self = 0, first = 0;
    Eigen::Index normalizedRows = 0;
    Eigen::Matrix<double, Eigen::Dynamic, 1> mass = Eigen::Matrix<double, Eigen::Dynamic, 1>::Zero(Tk);
    const SimdLevel level = activeSimdLevel();  // once a head, not once a row
    for (Eigen::Index i = 0; i < T; ++i) {
        const auto* row = w.data() + i * Tk;
        const Eigen::Index seen = causal ? std::min(i + 1, Tk) : Tk;  // a causal row is 0 past i
        const double h = entropyAndMass(row, seen, mass.data(), level) / std::log(2.0);
        entropy += h;
        if (seen >= 2) normalized += h / std::log2(static_cast<double>(seen)), ++normalizedRows;
        if (i >= 1 && i - 1 < Tk) previous += row[i - 1];
        if (i >= 1) first += row[0];
        if (i + 1 < Tk) next += row[i + 1];
        if (i < Tk) self += row[i];
    }
    d.entropy = mean(entropy, T);
    d.normalizedEntropy = mean(normalized, normalizedRows);
    d.previousShare = mean(previous, T - 1);
    d.nextShare = mean(next, T - 1);
    d.selfShare = mean(self, T);
    d.firstShare = mean(first, T - 1);
    d.columnMass.assign(mass.data(), mass.data() + Tk);
}

}  // namespace

MatF poolWeights(GridRef weights, int side) {
    return weights.visit([side](const auto& m) { return pooled(m, side); });
}

HeadDigest statisticsDigestOf(GridRef weights, bool causal) {
    HeadDigest d;
    if (weights.size() == 0) return d;
    d.rows = static_cast<int>(weights.rows());
    d.cols = static_cast<int>(weights.cols());
    weights.visit([&](const auto& m) { addStatistics(m, causal, d); });
    return d;
}

HeadDigest digestOf(GridRef weights, bool causal, int side) {
    HeadDigest d = statisticsDigestOf(weights, causal);
    if (!d.empty()) d.thumbnail = poolWeights(weights, side);
    return d;
}

}  // namespace attnscope
