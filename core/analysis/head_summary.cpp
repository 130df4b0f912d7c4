#include "core/analysis/head_summary.hpp"

#include <algorithm>
#include <cmath>
#include <cassert>

namespace attnscope {

namespace {

bool isSquareNonEmpty(GridRef m) { return m.rows() > 0 && m.rows() == m.cols(); }

std::vector<int> allHeadsIfEmpty(const LayerTrace& layer, const std::vector<int>& heads) {
    if (!heads.empty()) return heads;
    std::vector<int> all(layer.heads.size());
    for (std::size_t h = 0; h < all.size(); ++h) all[h] = static_cast<int>(h);
    return all;
}

// The selected heads' weights, or nothing when one is missing or the shapes disagree.
std::vector<GridRef> selectedWeights(const LayerTrace& layer, const std::vector<int>& heads) {
    std::vector<GridRef> out;
    for (const int h : allHeadsIfEmpty(layer, heads)) {
        if (h < 0 || h >= static_cast<int>(layer.heads.size())) return {};
        const GridRef w = layer.heads[static_cast<std::size_t>(h)].weights;
        if (!isSquareNonEmpty(w) || (!out.empty() && w.rows() != out.front().rows())) return {};
        out.push_back(w);
    }
    return out;
}

// Largest shown entry of one matrix without building the K×K copy (called for L·H heads).
double maxShown(GridRef w, const WeightSelection& selection) {
    double best = 0;
    for (const int r : selection.keep) {
        double rowMax = 0, rowSum = 0;
        for (const int c : selection.keep) {
            rowMax = std::max(rowMax, w(r, c));
            rowSum += w(r, c);
        }
        if (selection.renormalize) rowMax = rowSum > 0 ? rowMax / rowSum : 0;
        best = std::max(best, rowMax);
    }
    return best;
}

bool keepFits(GridRef w, const std::vector<int>& keep) {
    return std::all_of(keep.begin(), keep.end(), [&](int i) { return i >= 0 && i < w.rows(); });
}

bool columnsFit(GridRef w, const WeightSelection& selection) {
    if (selection.keepKeys.empty()) return w.cols() == w.rows();  // self-attention: the same tokens
    return std::all_of(selection.keepKeys.begin(), selection.keepKeys.end(), [&](int i) { return i >= 0 && i < w.cols(); });
}

}  // namespace

bool hasWeights(const LayerTrace& layer) {
    if (layer.heads.empty()) return false;
    return std::all_of(layer.heads.begin(), layer.heads.end(),
                       [](const HeadTrace& h) { return isSquareNonEmpty(h.weights); });
}

bool weightsComputed(const LayerTrace& layer) {
    return !layer.heads.empty() &&
           std::none_of(layer.heads.begin(), layer.heads.end(), [](const HeadTrace& h) { return h.weights.rows() == 0; });
}

bool weightsComputedFor(const LayerTrace& layer, int head, bool everyHead) {
    if (everyHead) return weightsComputed(layer);
    return head >= 0 && static_cast<std::size_t>(head) < layer.heads.size() && layer.heads[static_cast<std::size_t>(head)].weights.rows() > 0;
}

Mat averageOverHeads(const LayerTrace& layer, const std::vector<int>& heads) {
    const std::vector<GridRef> ws = selectedWeights(layer, heads);
    if (ws.empty()) return {};
    Mat sum = ws.front().toMat();  // summed in double, whatever the heads' precision
    for (std::size_t i = 1; i < ws.size(); ++i) ws[i].visit([&](const auto& w) { sum += w.template cast<double>(); });
    return sum / static_cast<double>(ws.size());
}

Mat maxOverHeads(const LayerTrace& layer, const std::vector<int>& heads) {
    const std::vector<GridRef> ws = selectedWeights(layer, heads);
    if (ws.empty()) return {};
    Mat best = ws.front().toMat();
    for (std::size_t i = 1; i < ws.size(); ++i)
        ws[i].visit([&](const auto& w) { best = best.cwiseMax(w.template cast<double>()); });
    return best;
}

namespace {

std::vector<int> visibleOf(const std::vector<Token>& tokens, bool hideSpecial) {
    std::vector<int> keep;
    for (std::size_t i = 0; i < tokens.size(); ++i)
        if (!hideSpecial || !tokens[i].special) keep.push_back(static_cast<int>(i));
    return keep;
}

}  // namespace

std::vector<int> visibleTokens(const Trace& trace, bool hideSpecial) { return visibleOf(trace.tokens, hideSpecial); }

std::vector<int> visibleKeyTokens(const Trace& trace, bool hideSpecial) {
    return visibleOf(trace.columnTokens(), hideSpecial);
}

WeightSelection selectionOf(const Trace& trace, bool hideSpecial, bool renormalize) {
    WeightSelection selection{visibleTokens(trace, hideSpecial), renormalize};
    if (trace.isCrossAttention()) selection.keepKeys = visibleKeyTokens(trace, hideSpecial);
    selection.causal = trace.causal && !trace.isCrossAttention();
    return selection;
}

Mat selectTokens(GridRef weights, const std::vector<int>& keep) {
    Mat kept;
    shownWeightsInto(weights, WeightSelection{keep, false}, kept);
    return kept;
}

namespace {

// Each row divided by what `of` says of it; a row whose divisor is not positive stays as it is.
template <class M, class RowDivisor>
void divideRowsInPlace(M& out, RowDivisor of) {
    for (Eigen::Index r = 0; r < out.rows(); ++r) {
        const double divisor = of(out.row(r));
        if (divisor > 0) out.row(r) /= divisor;
    }
}

template <class RowDivisor>
Mat dividedRows(const Mat& weights, RowDivisor of) {
    Mat out = weights;
    divideRowsInPlace(out, of);
    return out;
}

}  // namespace

Mat renormalizeRows(const Mat& weights) {
    return dividedRows(weights, [](const auto& row) { return row.sum(); });
}

Mat rowMaxNormalized(const Mat& weights) {
    return dividedRows(weights, [](const auto& row) { return row.maxCoeff(); });
}

Mat flooredWeights(const Mat& weights, double floor) { return weights.cwiseMax(floor); }

Mat shownWeights(GridRef weights, const WeightSelection& selection) {
    Mat out;
    shownWeightsInto(weights, selection, out);
    return out;
}

std::pair<Eigen::Index, Eigen::Index> shownShape(GridRef weights, const WeightSelection& selection) {
    if (weights.size() == 0 || !keepFits(weights, selection.keep) || !columnsFit(weights, selection)) return {0, 0};
    return {static_cast<Eigen::Index>(selection.keep.size()), static_cast<Eigen::Index>(selection.columns().size())};
}

void shownWeightsInto(GridRef weights, const WeightSelection& selection, Eigen::Ref<Mat> out) {
    assert(out.rows() == shownShape(weights, selection).first && out.cols() == shownShape(weights, selection).second);
    if (out.size() == 0) return;
    // Rows in the order of keep, columns in the order of columns(). A 0 is not written over a 0:
    // a heat map's cells start as zeros given back as pages (ui/common/color_map_plot), and a
    // causal head's hidden half, written, would be 64 MB resident at 4,096 tokens. Nor is that
    // half read where it is known to be 0: a kept head gave its pages back (core/kernels/zero_pages),
    // and reading them faulted in 6,000 zero pages a Llama-3.2-1B heatmap at 4,096 tokens.
    const std::vector<int>& columns = selection.columns();
    weights.visit([&](const auto& w) {
        for (Eigen::Index r = 0; r < out.rows(); ++r) {
            const int query = selection.keep[static_cast<std::size_t>(r)];
            const auto from = w.row(query);
            const auto show = [&](Eigen::Index c, double value) {
                if (value != 0.0 || out(r, c) != 0.0) out(r, c) = value;
            };
            // The columns ascend: a causal row's hidden keys are those from `seen` on.
            const auto seen = static_cast<Eigen::Index>(
                selection.causal ? std::upper_bound(columns.begin(), columns.end(), query) - columns.begin() : out.cols());
            bool finite = true;
            for (Eigen::Index c = 0; c < seen; ++c) {
                const auto value = static_cast<double>(from(columns[static_cast<std::size_t>(c)]));
                finite = finite && std::isfinite(value);
                show(c, value);
            }
            for (Eigen::Index c = seen; c < out.cols(); ++c)
                show(c, finite ? 0.0 : static_cast<double>(from(columns[static_cast<std::size_t>(c)])));
        }
    });
    if (selection.renormalize) divideRowsInPlace(out, [](const auto& row) { return row.sum(); });
}

void shownWeightsInto(GridRef weights, const WeightSelection& selection, Mat& out) {
    const auto [rows, cols] = shownShape(weights, selection);
    if (out.rows() != rows || out.cols() != cols) out.setZero(rows, cols);  // numbers, as the cells' version reads them
    shownWeightsInto(weights, selection, Eigen::Ref<Mat>(out));
}

double maxWeight(GridRef weights) {
    return weights.size() == 0 ? 0.0 : weights.visit([](const auto& w) { return std::max(0.0, double(w.maxCoeff())); });
}

double maxWeight(const Trace& trace, int layer, const WeightSelection& selection) {
    if (layer < 0 || layer >= static_cast<int>(trace.layers.size())) return 0;
    double best = 0;
    for (const HeadTrace& head : trace.layers[static_cast<std::size_t>(layer)].heads)
        if (isSquareNonEmpty(head.weights) && keepFits(head.weights, selection.keep))
            best = std::max(best, maxShown(head.weights, selection));
    return best;
}

double maxWeight(const Trace& trace, const WeightSelection& selection) {
    double best = 0;
    for (int l = 0; l < static_cast<int>(trace.layers.size()); ++l)
        best = std::max(best, maxWeight(trace, l, selection));
    return best;
}

double maxWeight(const Trace& trace, int layer) {
    if (layer < 0 || layer >= static_cast<int>(trace.layers.size())) return 0;
    double best = 0;
    for (const HeadTrace& head : trace.layers[static_cast<std::size_t>(layer)].heads)
        best = std::max(best, maxWeight(head.weights));
    return best;
}

}  // namespace attnscope
