#include "core/analysis/head_stats.hpp"

#include <algorithm>
#include <cmath>

#include "core/text/error_messages.hpp"
#include "core/text/messages.hpp"


namespace attnscope {

double rowEntropyBits(GridRef w, Eigen::Index row) {
    double h = 0;
    for (Eigen::Index c = 0; c < w.cols(); ++c)
        if (w(row, c) > 0) h -= w(row, c) * std::log2(w(row, c));
    return h;
}

Eigen::Index tokensSeen(const Trace& trace, Eigen::Index row, Eigen::Index T) { return trace.causal ? row + 1 : T; }

namespace {

std::vector<bool> delimiterTokens(const Trace& trace) {
    std::vector<bool> out;
    for (const Token& t : trace.tokens) out.push_back(t.special || isPunctuationToken(t));
    return out;
}

double mean(double sum, Eigen::Index count) { return count > 0 ? sum / static_cast<double>(count) : 0; }

HeadStatistics statisticsOf(const Trace& trace, GridRef w, const std::vector<bool>& delimiter) {
    HeadStatistics s;
    const Eigen::Index T = w.rows();
    double entropy = 0, normalized = 0, delim = 0, previous = 0, next = 0, self = 0;
    Eigen::Index normalizedRows = 0;
    for (Eigen::Index i = 0; i < T; ++i) {
        const double h = rowEntropyBits(w, i);
        entropy += h;
        if (const Eigen::Index seen = tokensSeen(trace, i, T); seen >= 2)
            normalized += h / std::log2(static_cast<double>(seen)), ++normalizedRows;
        for (Eigen::Index j = 0; j < T; ++j)
            if (delimiter[static_cast<std::size_t>(j)]) delim += w(i, j);
        if (i >= 1) previous += w(i, i - 1);
        if (i + 1 < T) next += w(i, i + 1);
        self += w(i, i);
    }
    s.entropy = mean(entropy, T);
    s.normalizedEntropy = mean(normalized, normalizedRows);
    s.delimiterShare = mean(delim, T);
    s.previousShare = mean(previous, T - 1);
    s.nextShare = mean(next, T - 1);
    s.selfShare = mean(self, T);
    return s;
}

}  // namespace

std::string patternLabel(const HeadStatistics& s, const HeadLabelThresholds& t) {
    if (s.delimiterShare >= t.delimiter) return "delimiter sink";
    if (s.previousShare >= t.previous) return "previous-token";
    if (s.nextShare >= t.next) return "next-token";
    if (s.selfShare >= t.self) return "self";
    if (s.normalizedEntropy >= t.broadEntropy) return "broad";
    return "mixed";
}

std::string headLabelText(const std::string& label, Language language) {
    static const std::pair<std::string_view, MessageId> kLabels[] = {
        {"delimiter sink", MessageId::HeadLabelDelimiterSink}, {"previous-token", MessageId::HeadLabelPreviousToken},
        {"next-token", MessageId::HeadLabelNextToken},         {"self", MessageId::HeadLabelSelf},
        {"broad", MessageId::HeadLabelBroad},                  {"mixed", MessageId::HeadLabelMixed},
        {"coreference", MessageId::HeadLabelCoreference}};
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
    const int T = trace.tokenCount();
    if (evaluation && (evaluation->layers != static_cast<int>(trace.layers.size()) ||
                       evaluation->headsPerLayer != trace.headCount()))
        return Error{ErrorId::WhereHeadStatistics,
                     errorText(ErrorId::ExpectedFound, errorText(ErrorId::AnEvaluationOf, trace.layers.size(), trace.headCount()),
                               std::to_string(evaluation->layers) + " × " + std::to_string(evaluation->headsPerLayer))};
    const std::vector<bool> delimiter = delimiterTokens(trace);
    std::vector<HeadStatistics> out;
    for (const HeadRef& ref : allHeads(trace)) {
        const LayerTrace& layer = trace.layers[static_cast<std::size_t>(ref.layer)];
        const GridRef w = layer.heads[static_cast<std::size_t>(ref.head)].weights;
        if (w.rows() != T || w.cols() != T)
            return Error{errorText(ErrorId::WhereHeadStatisticsHead, ref.layer + 1, ref.head + 1),
                         errorText(ErrorId::ExpectedFound, errorText(ErrorId::TxTWeights, T, T),
                                   std::to_string(w.rows()) + "×" + std::to_string(w.cols()))};
        HeadStatistics s = statisticsOf(trace, w, delimiter);
        s.head = ref;
        s.labels.push_back(patternLabel(s, thresholds));
        if (evaluation) {
            s.corefAccuracy = evaluation->accuracy(ref.layer, ref.head);
            if (tracksCoreference(*evaluation, ref)) s.labels.push_back("coreference");
        }
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace attnscope
