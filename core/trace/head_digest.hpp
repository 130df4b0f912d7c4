#pragma once
// What a long run keeps of a head instead of its T_q×T_k weights (core/model/long_run.hpp): a
// thumbnail of at most kThumbnailSide × kThumbnailSide pooled weights for the model view, and the
// sums the head statistics are made of (core/analysis/head_stats.hpp), both computed from the full
// weights while they exist. 64 KB a head, against 67 MB for the weights at 4,096 tokens.
//
// Shape legend: T_q query rows, T_k key columns, r = min(T_q, kThumbnailSide), c = min(T_k, kThumbnailSide).
#include <vector>

#include "core/model/blas_kernels.hpp"
#include "core/trace/attention_weights.hpp"

namespace attnscope {

inline constexpr int kThumbnailSide = 128;

struct HeadDigest {
    MatF thumbnail;  // r×c: cell (a, b) is the mean weight of rows poolBounds(T_q)[a]… × columns poolBounds(T_k)[b]…
    int rows = 0, cols = 0;  // T_q, T_k of the weights it was made from (0: no digest)
    // Means over the rows (queries), as HeadStatistics reports them.
    double entropy = 0;            // −Σ w·log₂ w, bits
    double normalizedEntropy = 0;  // entropy / log₂(tokens seen), rows seeing ≥ 2 tokens
    double previousShare = 0, nextShare = 0, selfShare = 0, firstShare = 0;
    std::vector<double> columnMass;  // T_k: Σ_i w(i, j), what key j receives (delimiter share = Σ over delimiters / T_q)

    bool empty() const { return rows == 0; }
};

// A long run's digests, [layer][head] (ModelRun::digests).
using RunDigests = std::vector<std::vector<HeadDigest>>;

// n+1 boundaries of the `parts` blocks n items are pooled into (parts = min(n, side)): block b
// covers [bounds[b], bounds[b+1]), bounds[b] = ⌊b·n / parts⌋. n ≤ side: one item a block.
std::vector<int> poolBounds(int n, int side = kThumbnailSide);

// The mean of each block (poolBounds of rows and of columns): r×c.
MatF poolWeights(GridRef weights, int side = kThumbnailSide);

// The statistics' running sums over the rows (head_digest.cpp).
struct HeadStatisticSums {
    double entropy = 0, normalized = 0, previous = 0, next = 0, self = 0, first = 0;
    Eigen::Index normalizedRows = 0;
    std::vector<double> mass;  // T_k
};

// A float head's digest from its rows given in order, a block of rows at a time while they are
// still in the cache: a long run's attention kernel (core/model/attention.cpp) digests each block
// as it computes it, and digestOf reads a whole matrix through it, so both give the same bits.
// Row i's entries from `n` on are 0 (a causal row past its token); only row[0..n) is read.
// side 0: the statistics alone, no thumbnail.
class HeadDigestBuilder {
public:
    HeadDigestBuilder(Eigen::Index rows, Eigen::Index cols, bool causal, int side = kThumbnailSide);
    void addRow(Eigen::Index i, const float* row, Eigen::Index n);  // rows 0, 1, … in turn
    HeadDigest finish();  // after the last row

private:
    HeadDigest digest_;  // the size and, filled block by block, the thumbnail
    bool causal_;
    bool thumbnail_;
    SimdLevel level_;  // once a head, not once a row
    HeadStatisticSums sums_;
    std::vector<int> rowBounds_, colBounds_;  // the thumbnail's blocks (poolBounds)
    std::vector<float> rowSum_;               // T_k: the current block of rows added up
    std::size_t rowBlock_ = 0;
};

// The digest of one head's weights; `causal`: row i sees tokens 0…i (normalised entropy); side 0:
// no thumbnail.
HeadDigest digestOf(GridRef weights, bool causal, int side = kThumbnailSide);
// The same without the thumbnail, for statistics read from weights the run kept (no pooling pass).
HeadDigest statisticsDigestOf(GridRef weights, bool causal);

}  // namespace attnscope
