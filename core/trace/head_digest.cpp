// A head's digest (see head_digest.hpp). Every pass reads the T_q×T_k weights row by row, once:
// in a long run this happens for every head of every layer (L·H·T² weights).
//
// Shape legend: T_q query rows, T_k key columns, r×c the thumbnail.
#include "core/trace/head_digest.hpp"

#include "core/model/simd_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

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
void addBlockSums(const double* row, const std::vector<int>& colBounds, std::vector<double>& sums) {
    for (std::size_t b = 0; b + 1 < colBounds.size(); ++b) {
        const Eigen::Map<const Eigen::ArrayXd> block(row + colBounds[b], colBounds[b + 1] - colBounds[b]);
        sums[b] += block.sum();
    }
}

// Lessons' double weights (a model's float weights: HeadDigestBuilder).
MatF pooled(const Mat& w, int side) {
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

double mean(double sum, Eigen::Index count) { return count > 0 ? sum / static_cast<double>(count) : 0; }

// Row i's contribution to the statistics' sums (the shares as head_stats.hpp defines them):
// row[0..seen) is what it can see; entries from n on are 0 and never read.
template <typename Scalar>
void addRowStatistics(const Scalar* row, Eigen::Index i, Eigen::Index n, Eigen::Index Tk, bool causal, SimdLevel level,
                      HeadStatisticSums& s) {
    const Eigen::Index seen = std::min(causal ? std::min(i + 1, Tk) : Tk, n);  // a causal row is 0 past i
    const double h = entropyAndMass(row, seen, s.mass.data(), level) / std::log(2.0);
    s.entropy += h;
    if (seen >= 2) s.normalized += h / std::log2(static_cast<double>(seen)), ++s.normalizedRows;
    const auto at = [&](Eigen::Index j) { return j < n ? static_cast<double>(row[j]) : 0.0; };
    if (i >= 1 && i - 1 < Tk) s.previous += at(i - 1);
    if (i >= 1) s.first += at(0);
    if (i + 1 < Tk) s.next += at(i + 1);
    if (i < Tk) s.self += at(i);
}

void putStatistics(const HeadStatisticSums& s, Eigen::Index T, HeadDigest& d) {
    d.entropy = mean(s.entropy, T);
    d.normalizedEntropy = mean(s.normalized, s.normalizedRows);
    d.previousShare = mean(s.previous, T - 1);
    d.nextShare = mean(s.next, T - 1);
    d.selfShare = mean(s.self, T);
    d.firstShare = mean(s.first, T - 1);
    d.columnMass = s.mass;
}

// Lessons' double weights, row by row.
HeadDigest exactDigestOf(const Mat& w, bool causal, int side) {
    HeadDigest d;
    d.rows = static_cast<int>(w.rows());
    d.cols = static_cast<int>(w.cols());
    HeadStatisticSums sums;
    sums.mass.assign(static_cast<std::size_t>(w.cols()), 0.0);
    for (Eigen::Index i = 0; i < w.rows(); ++i)
        addRowStatistics(w.data() + i * w.cols(), i, w.cols(), w.cols(), causal, SimdLevel::Sse2, sums);
    putStatistics(sums, w.rows(), d);
    if (side > 0) d.thumbnail = pooled(w, side);
    return d;
}

}  // namespace

HeadDigestBuilder::HeadDigestBuilder(Eigen::Index rows, Eigen::Index cols, bool causal, int side)
    : causal_(causal),
      thumbnail_(side > 0),
      level_(activeSimdLevel()),
      rowBounds_(poolBounds(static_cast<int>(rows), side)),
      colBounds_(poolBounds(static_cast<int>(cols), side)),
      rowSum_(static_cast<std::size_t>(cols), 0.0f) {
    digest_.rows = static_cast<int>(rows);
    digest_.cols = static_cast<int>(cols);
    if (thumbnail_) digest_.thumbnail.resize(static_cast<Eigen::Index>(rowBounds_.size() - 1), static_cast<Eigen::Index>(colBounds_.size() - 1));  // r×c
    else rowSum_.clear();
    sums_.mass.assign(static_cast<std::size_t>(cols), 0.0);
}

// The thumbnail: each block of rows added up in float (vectorised adds, at most ⌈T_q/128⌉ rows of
// weights ≤ 1), then each column block of that sum in double, when the block's last row is in.
void HeadDigestBuilder::addRow(Eigen::Index i, const float* row, Eigen::Index n) {
    addRowStatistics(row, i, n, digest_.cols, causal_, level_, sums_);
    if (!thumbnail_) return;
    addInPlace(level_, rowSum_.data(), row, static_cast<std::size_t>(n));
    if (i + 1 < rowBounds_[rowBlock_ + 1]) return;
    const double rows = rowBounds_[rowBlock_ + 1] - rowBounds_[rowBlock_];
    for (std::size_t b = 0; b + 1 < colBounds_.size(); ++b) {
        double sum = 0;
        for (int c = colBounds_[b]; c < colBounds_[b + 1]; ++c) sum += rowSum_[static_cast<std::size_t>(c)];
        digest_.thumbnail(static_cast<Eigen::Index>(rowBlock_), static_cast<Eigen::Index>(b)) =
            static_cast<float>(sum / (rows * (colBounds_[b + 1] - colBounds_[b])));
    }
    std::fill(rowSum_.begin(), rowSum_.end(), 0.0f);
    ++rowBlock_;
}

HeadDigest HeadDigestBuilder::finish() {
    putStatistics(sums_, digest_.rows, digest_);
    return std::move(digest_);
}

MatF poolWeights(GridRef weights, int side) { return digestOf(weights, false, side).thumbnail; }

HeadDigest statisticsDigestOf(GridRef weights, bool causal) { return digestOf(weights, causal, 0); }

HeadDigest digestOf(GridRef weights, bool causal, int side) {
    if (weights.size() == 0) return {};
    return weights.visit([&](const auto& m) {
        if constexpr (std::is_same_v<std::decay_t<decltype(m)>, Mat>) {
            return exactDigestOf(m, causal, side);
        } else {
            HeadDigestBuilder builder(m.rows(), m.cols(), causal, side);
            for (Eigen::Index i = 0; i < m.rows(); ++i) builder.addRow(i, m.data() + i * m.cols(), m.cols());
            return builder.finish();
        }
    });
}

}  // namespace attnscope
