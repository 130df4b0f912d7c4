#pragma once
// What a long run keeps of a head instead of its T_q×T_k weights (core/model/long_run.hpp): a
// thumbnail of at most kThumbnailSide × kThumbnailSide pooled weights for the model view, and the
// sums the head statistics are made of (core/analysis/head_stats.hpp), both computed from the full
// weights while they exist. 64 KB a head, against 67 MB for the weights at 4,096 tokens.
//
// Shape legend: T_q query rows, T_k key columns, r = min(T_q, kThumbnailSide), c = min(T_k, kThumbnailSide).
#include <vector>

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

// The digest of one head's weights; `causal`: row i sees tokens 0…i (normalised entropy).
HeadDigest digestOf(GridRef weights, bool causal, int side = kThumbnailSide);
// The same without the thumbnail, for statistics read from weights the run kept (no pooling pass).
HeadDigest statisticsDigestOf(GridRef weights, bool causal);

}  // namespace attnscope
