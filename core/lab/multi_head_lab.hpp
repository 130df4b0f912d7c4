#pragma once
// Multi-head attention step by step (issue 5 §4): ONE set of weights W_Q, W_K, W_V, W_O (d×d
// each) whatever the head count H; head h uses columns h·d_k … (h+1)·d_k − 1 of W_Q, W_K, W_V,
// with d_k = d / H. So the parameter count 4d² does not change with H — only the split does:
//   X T×d → Q_h = X·W_Q[:, h] T×d_k → S_h = Q_h·K_hᵀ T×T → softmax(S_h/√d_k) T×T → ·V_h T×d_k
//   → concat [head_1 | … | head_H] T×d → ·W_O d×d → T×d.
// The raw scores of the heads add up to the single-head scores, Σ_h Q_h·K_hᵀ = Q·Kᵀ (the column
// blocks of Q·Kᵀ = Σ_c q_c k_cᵀ grouped by head): what H heads buy is H separate softmaxes, each
// over a narrower dot product divided by a smaller √d_k.
//
// Shape legend: T tokens, d model width, H heads, d_k = d / H head width.
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/matrix.hpp"
#include "core/base/result.hpp"
#include "core/text/language.hpp"
#include "core/trace/kv_cost.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

struct MultiHeadWeights {
    Mat wq, wk, wv, wo;  // d×d each
};
// W_Q, W_K, W_V, W_O drawn in that order, each row by row, from N(0, 1/d) by LabRandom(seed):
// LabRandom's normals divided by √d, so projected numbers stay near the size of X's.
MultiHeadWeights drawMultiHeadWeights(int d, std::uint64_t seed);

// A seeded stand-in for a sentence's layer input when the lesson's d has few divisors: T×d
// entries N(0, 1) from LabRandom(seed).
Mat randomLabInput(int T, int d, std::uint64_t seed);

// The head counts that split d evenly: every divisor of d, ascending (d = 12 → 1 2 3 4 6 12).
std::vector<int> headCountsFor(int d);

// Head h's slice of the weights: columns h·d_k … (h+1)·d_k − 1 of W_Q, W_K, W_V (d×d_k each).
// Error naming H and d when H does not divide d.
Result<std::vector<HeadWeights>> splitHeads(const MultiHeadWeights& weights, int heads);

struct MultiHeadRun {
    int heads = 0;       // H
    int headWidth = 0;   // d_k = d / H
    Trace trace;         // one layer: H HeadTraces, concat T×d, W_O d×d, output T×d
    Mat singleScores;    // T×T  Q·Kᵀ with the whole Q = X·W_Q and K = X·W_K
    double identityDifference = 0;  // largest |Σ_h Q_h·K_hᵀ − Q·Kᵀ|
};
// Runs X (T×d) through H heads of `weights` with runAttentionLayer (the pipeline's steps:
// projection, scores, ÷√d_k, softmax, weighted sum, concat, W_O). `tokens` label the rows
// (may be empty). Error naming H and d when H does not divide d or the shapes disagree.
Result<MultiHeadRun> runMultiHead(const Mat& X, int heads, const MultiHeadWeights& weights,
                                  const std::vector<Token>& tokens = {});
// The same with drawMultiHeadWeights(d, seed).
Result<MultiHeadRun> runMultiHead(const Mat& X, int heads, std::uint64_t seed,
                                  const std::vector<Token>& tokens = {});

// One row of the per-H table: shapes and what the split does to the numbers on this X.
struct HeadCountSummary {
    int heads = 0;            // H
    int headWidth = 0;        // d_k
    double scale = 0;         // 1/√d_k
    int parameters = 0;       // 4d², the same for every H
    double rawScoreStd = 0;     // mean over heads of the (population) std of Q_h·K_hᵀ's T² entries
    double scaledScoreStd = 0;  // the same for Q_h·K_hᵀ/√d_k
    double meanEntropy = 0;     // mean over heads and rows of −Σ w ln w (nats)
};
HeadCountSummary summarize(const MultiHeadRun& run);
// One row per divisor of d, ascending H; X T×d, the same weights for every row.
Result<std::vector<HeadCountSummary>> headCountTable(const Mat& X, const MultiHeadWeights& weights);

// Grouped-query attention (issue 29 §3): H query heads share H_kv key/value heads (H_kv divides
// H). Query head h reads key/value head g = h / (H / H_kv): consecutive query heads form a group,
// as Llama's repeat_kv does. W_Q and W_O stay d×d; W_K and W_V keep only their first H_kv·d_k
// columns (d×(H_kv·d_k)), key/value head g using columns g·d_k … (g+1)·d_k − 1. H_kv = H is
// multi-head attention, H_kv = 1 multi-query attention.
struct KeyValueSharing {
    int heads = 0, kvHeads = 0, headWidth = 0;  // H, H_kv, d_k
    std::vector<int> kvHeadOf;                   // H: the key/value head each query head reads
    long long parameters = 0;                    // d·d (W_Q) + 2·d·H_kv·d_k (W_K, W_V) + d·d (W_O): keyValueCost
    long long kvPerToken = 0;                    // 2·H_kv·d_k numbers a token keeps in the K/V cache per layer
};
// Error naming H_kv and H when H_kv does not divide H, or H and d as splitHeads.
Result<KeyValueSharing> keyValueSharing(int d, int heads, int kvHeads);
// kvHeadChoices (H_kv = H, H/2, 1) is core/trace/kv_cost's, as the counts above are.

struct GroupedQueryRun {
    KeyValueSharing sharing;
    Trace trace;  // one layer with H HeadTraces; LayerTrace::kvHeadOf says which K and V each read
};
// X (T×d) through H query heads and H_kv key/value heads of `weights` (the columns above), with
// runAttentionLayer. Query heads of one group get the same K and V.
Result<GroupedQueryRun> runGroupedQuery(const Mat& X, int heads, int kvHeads, const MultiHeadWeights& weights,
                                        const std::vector<Token>& tokens = {});

// "X 3×4 → Q_h, K_h, V_h 3×2 (each of 2 heads) → Q_h·K_hᵀ 3×3 → softmax(·/√2) 3×3 → ·V_h 3×2
//  → concat 3×4 → ·W_O 4×4 → 3×4"
std::string multiHeadShapes(int T, int d, int heads, Language language = Language::English);

}  // namespace attnscope
