#include "core/analysis/head_stats.hpp"

#include <algorithm>
#include <cmath>

#include "core/text/error_messages.hpp"
#include "core/text/messages.hpp"


namespace attnscope {

namespace {

// One row's −Σ w·log₂ w (0·log 0 taken as 0), read through a pointer where the Trace stores it
// (float or double): a model's statistics cover L·H·T² weights, 38 million for bert-base at 512 tokens.
template <class Scalar>
double entropyBits(const Scalar* row, Eigen::Index n) {
    double h = 0;
    for (Eigen::Index c = 0; c < n; ++c) {
        const auto w = static_cast<double>(row[c]);
        if (w > 0) h -= w * std::log2(w);
    }
    return h;
}

}  // namespace

double rowEntropyBits(GridRef w, Eigen::Index row) {
    return w.visit([row](const auto& m) { return entropyBits(m.data() + row * m.cols(), m.cols()); });
}

Eigen::Index tokensSeen(const Trace& trace, Eigen::Index row, Eigen::Index T) { return trace.causal ? row + 1 : T; }

namespace {

// The columns of special tokens and punctuation: the source's in cross-attention.
std::vector<Eigen::Index> delimiterColumns(const Trace& trace) {
    const std::vector<Token>& columns = trace.columnTokens();
    std::vector<Eigen::Index> out;
    for (std::size_t j = 0; j < columns.size(); ++j)
        if (columns[j].special || isPunctuationToken(columns[j])) out.push_back(static_cast<Eigen::Index>(j));
    return out;
}

// Cross-attention: a decoder row's "previous" or "self" column is a source word at the same index,
// a coincidence of numbering, so those shares are dropped rather than shown.
void dropPositionalShares(HeadStatistics& s) {
    s.positional = false;
    s.previousShare = s.nextShare = s.selfShare = s.firstShare = 0;
}

double mean(double sum, Eigen::Index count) { return count > 0 ? sum / static_cast<double>(count) : 0; }

// The statistics from a head's digest (core/trace/head_digest.hpp): the run's own in a long run,
// else made from the weights here. The delimiter share is the attention the delimiter columns receive.
HeadStatistics statisticsOf(const HeadDigest& d, const std::vector<Eigen::Index>& delimiters) {
    HeadStatistics s;
    double delim = 0;
    for (Eigen::Index j : delimiters)
        if (j < static_cast<Eigen::Index>(d.columnMass.size())) delim += d.columnMass[static_cast<std::size_t>(j)];
    s.entropy = d.entropy;
    s.normalizedEntropy = d.normalizedEntropy;
    s.delimiterShare = mean(delim, d.rows);
    s.previousShare = d.previousShare;
    s.nextShare = d.nextShare;
    s.selfShare = d.selfShare;
    s.firstShare = d.firstShare;
    return s;
}

// The digest a long run kept of the head, else its T×T weights' (empty: neither). The run's comes
// first: the layer a long run shows is rebuilt bit-equal, and its own digest spares a pass over
// every T×T weight of the layer each time another layer is shown.
HeadDigest digestFor(const Trace& trace, const RunDigests& digests, const HeadRef& ref) {
    const auto layer = static_cast<std::size_t>(ref.layer), head = static_cast<std::size_t>(ref.head);
    if (layer < digests.size() && head < digests[layer].size()) return digests[layer][head];
    const GridRef w = trace.layers[layer].heads[head].weights;
    return w.size() > 0 ? statisticsDigestOf(w, trace.causal) : HeadDigest{};  // no thumbnail: the statistics alone
}

}  // namespace

std::string patternLabel(const HeadStatistics& s, const HeadLabelThresholds& t) {
    if (s.delimiterShare >= t.delimiter) return "delimiter sink";
    if (s.positional && s.previousShare >= t.previous) return "previous-token";
    if (s.positional && s.nextShare >= t.next) return "next-token";
    if (s.positional && s.selfShare >= t.self) return "self";
    if (s.normalizedEntropy >= t.broadEntropy) return "broad";
    return "mixed";
}

std::string headLabelText(const std::string& label, Language language) {
    static const std::pair<std::string_view, MessageId> kLabels[] = {
        {"delimiter sink", MessageId::HeadLabelDelimiterSink}, {"previous-token", MessageId::HeadLabelPreviousToken},
        {"next-token", MessageId::HeadLabelNextToken},         {"self", MessageId::HeadLabelSelf},
        {"broad", MessageId::HeadLabelBroad},                  {"mixed", MessageId::HeadLabelMixed},
        {"coreference", MessageId::HeadLabelCoreference}, {"attention sink", MessageId::HeadLabelAttentionSink}};
    for (const auto& [key, id] : kLabels)
        if (label == key) return std::string(message(id, language));
    return label;
}

bool tracksCoreference(const CorefEvaluation& evaluation, const HeadRef& head) {
    if (evaluation.evaluated == 0 || head.layer >= evaluation.accuracy.rows() || head.head >= evaluation.accuracy.cols())
        return false;
    const double accuracy = evaluation.accuracy(head.layer, head.head);
    return accuracy > 0 && accuracy >= std::max(evaluation.nearestAccuracy(), evaluation.ruleAccuracy());
}

Result<std::vector<HeadStatistics>> headStatistics(const Trace& trace, const CorefEvaluation* evaluation,
                                                   const HeadLabelThresholds& thresholds) {
    return headStatistics(trace, RunDigests{}, evaluation, thresholds);
}

Result<std::vector<HeadStatistics>> headStatistics(const Trace& trace, const RunDigests& digests,
                                                   const CorefEvaluation* evaluation, const HeadLabelThresholds& thresholds) {
    const int T = trace.tokenCount(), Tk = trace.keyCount();
    if (evaluation && (evaluation->layers != static_cast<int>(trace.layers.size()) ||
                       evaluation->headsPerLayer != trace.headCount()))
        return Error{ErrorId::WhereHeadStatistics,
                     errorText(ErrorId::ExpectedFound, errorText(ErrorId::AnEvaluationOf, trace.layers.size(), trace.headCount()),
                               std::to_string(evaluation->layers) + " × " + std::to_string(evaluation->headsPerLayer))};
    const std::vector<Eigen::Index> delimiters = delimiterColumns(trace);
    std::vector<HeadStatistics> out;
    for (const HeadRef& ref : allHeads(trace)) {
        const HeadDigest digest = digestFor(trace, digests, ref);
        if (digest.rows != T || digest.cols != Tk)
            return Error{errorText(ErrorId::WhereHeadStatisticsHead, ref.layer + 1, ref.head + 1),
                         errorText(ErrorId::ExpectedFound, errorText(ErrorId::TxTWeights, T, Tk),
                                   std::to_string(digest.rows) + "×" + std::to_string(digest.cols))};
        HeadStatistics s = statisticsOf(digest, delimiters);
        s.head = ref;
        if (trace.isCrossAttention()) dropPositionalShares(s);
        s.labels.push_back(patternLabel(s, thresholds));
        if (s.positional && T >= 2 && s.firstShare >= thresholds.sink) s.labels.push_back("attention sink");
        if (evaluation) {
            s.corefAccuracy = evaluation->accuracy(ref.layer, ref.head);
            if (tracksCoreference(*evaluation, ref)) s.labels.push_back("coreference");
        }
        out.push_back(std::move(s));
    }
    return out;
}

void addNormFirstShares(std::vector<HeadStatistics>& stats, const Trace& normWeighted) {
    for (HeadStatistics& s : stats) {
        if (!s.positional) continue;  // cross-attention has no first token of its own
        if (s.head.layer >= normWeighted.layerCount() || s.head.head >= normWeighted.headCount()) continue;
        const GridRef w = normWeighted.layers[static_cast<std::size_t>(s.head.layer)]
                              .heads[static_cast<std::size_t>(s.head.head)].weights;
        if (w.size() > 0) s.normFirstShare = statisticsDigestOf(w, normWeighted.causal).firstShare;
    }
}

}  // namespace attnscope
