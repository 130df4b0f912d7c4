#pragma once
// Summaries of attention weights for the multi-head views (model view, head view): averages and
// maxima over heads, hiding tokens, colour-scale maxima. The views render what these return;
// they never compute a number themselves.
//
// Shape legend: T tokens, H heads, K kept (visible) tokens.
//
// Hiding tokens selects rows AND columns, so a kept row no longer sums to 1 (the weight that
// went to the hidden tokens is simply not shown). Nothing here renormalises silently:
// renormalizeRows is an explicit option, and views that use it label the picture "renormalised".
#include <utility>
#include <vector>

#include "core/trace/trace.hpp"

namespace attnscope {

// True when every head of the layer kept its T×T weights (real models may drop intermediates,
// never weights — but an empty layer or empty matrix must not crash a view).
bool hasWeights(const LayerTrace& layer);
// Every head's weights are there, of any shape (cross-attention's T_q×T_k too): false for a long
// run's layer not rebuilt, whose heads keep only their digests.
bool weightsComputed(const LayerTrace& layer);
// Whether `layer` holds what a drawing of `head` reads: that head's weights, or with `everyHead`
// (an average or maximum over heads) every head's. A run still going hands the window only the
// heads it draws of a long run's shown layer (RunControl::onDetailLayer).
bool weightsComputedFor(const LayerTrace& layer, int head, bool everyHead);

// Cell-wise mean / maximum of the heads' weights (T×T). `heads` selects heads (empty: all).
// Empty Mat when the layer has no heads or a selected head has no weights.
Mat averageOverHeads(const LayerTrace& layer, const std::vector<int>& heads = {});
Mat maxOverHeads(const LayerTrace& layer, const std::vector<int>& heads = {});

// Token indices shown, in order: all of them, or every token that is not special when hiding.
std::vector<int> visibleTokens(const Trace& trace, bool hideSpecial);

// weights(keep, keep): K×K, rows and columns in the order of `keep`. Rows then sum to ≤ 1.
Mat selectTokens(GridRef weights, const std::vector<int>& keep);

// Each row divided by its sum; a row summing to 0 stays 0. Only on explicit request.
Mat renormalizeRows(const Mat& weights);

// What a view shows of one T_q×T_k matrix: which tokens, and whether rows are renormalised.
struct WeightSelection {
    std::vector<int> keep;  // from visibleTokens: the rows, and the columns of self-attention
    bool renormalize = false;
    std::vector<int> keepKeys{};  // cross-attention: the columns (visibleKeyTokens); empty: `keep`
    // A causal Trace's self-attention (`keep` ascending, as visibleTokens gives it): a row's
    // weights past its token are 0 unless a non-finite weight spread through the row, and are not
    // read then (shownWeightsInto).
    bool causal = false;
    const std::vector<int>& columns() const { return keepKeys.empty() ? keep : keepKeys; }
};
// Key tokens shown (Trace::columnTokens), as visibleTokens: the source's under cross-attention.
std::vector<int> visibleKeyTokens(const Trace& trace, bool hideSpecial);
// The selection a view shows of `trace`'s weights: its queries, and its keys when they are the source's.
WeightSelection selectionOf(const Trace& trace, bool hideSpecial, bool renormalize);
// weights(keep, columns()) (K×K, or K×K_k under cross-attention), then renormalizeRows when
// asked. Empty in → empty out; so is a matrix that is not square without keepKeys.
Mat shownWeights(GridRef weights, const WeightSelection& selection);
// The same into `out`, whose storage is reused when its size is right: a heat map shown again at
// 4,096 tokens faults in no 128 MiB of fresh pages (issue 31).
void shownWeightsInto(GridRef weights, const WeightSelection& selection, Mat& out);
// Its size (rows, columns): (0, 0) where shownWeights is empty.
std::pair<Eigen::Index, Eigen::Index> shownShape(GridRef weights, const WeightSelection& selection);
// The same into storage of exactly shownShape's size that someone else owns (a heat map's cells),
// holding numbers: a 0 is not written over a 0, so cells left zeros as pages given back stay so.
void shownWeightsInto(GridRef weights, const WeightSelection& selection, Eigen::Ref<Mat> out);

// What a heatmap's colours map (the view only maps these onto its gradient):
// each row divided by its own largest entry, so every row's strongest cell is 1 (a row of
// zeros stays 0) …
Mat rowMaxNormalized(const Mat& weights);
// … or every weight raised to at least `floor` (> 0), for a logarithmic scale from floor to 1:
// a weight of 0 (masked) gets the floor's colour instead of −∞.
constexpr double kLogColourFloor = 1e-4;
Mat flooredWeights(const Mat& weights, double floor = kLogColourFloor);

// Largest entry (0 for an empty matrix) — the colour-scale maximum.
double maxWeight(GridRef weights);
// Largest weight over every head of one layer / of the whole trace (all layers), as shown
// under `selection` (hidden tokens excluded, renormalised when asked). Heads with no weights
// are skipped; 0 when nothing is left. An aggregate (mean or max over heads) never exceeds it.
double maxWeight(const Trace& trace, int layer, const WeightSelection& selection);
double maxWeight(const Trace& trace, const WeightSelection& selection);
// The same over the raw weights (all tokens, no renormalising).
double maxWeight(const Trace& trace, int layer);

}  // namespace attnscope
