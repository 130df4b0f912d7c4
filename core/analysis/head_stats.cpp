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

// The columns of special tokens and punctuation.
std::vector<Eigen::Index> delimiterColumns(const Trace& trace) {
    std::vector<Eigen::Index> out;
    for (std::size_t j = 0; j < trace.tokens.size(); ++j)
        if (trace.tokens[j].special || isPunctuationToken(trace.tokens[j])) out.push_back(static_cast<Eigen::Index>(j));
    return out;
}

double mean(double sum, Eigen::Index count) { return count > 0 ? sum / static_cast<double>(count) : 0; }

template <class Matrix>  // Mat or MatF, row-major
HeadStatistics statisticsOf(const Trace& trace, const Matrix& w, const std::vector<Eigen::Index>& delimiters) {
    static_assert(Matrix::IsRowMajor, "rows are read through a pointer");
    HeadStatistics s;
    const Eigen::Index T = w.rows();
    double entropy = 0, normalized = 0, delim = 0, previous = 0, next = 0, self = 0, first = 0;
    Eigen::Index normalizedRows = 0;
    for (Eigen::Index i = 0; i < T; ++i) {
        const auto* row = w.data() + i * T;
        const double h = entropyBits(row, T);
        entropy += h;
        if (const Eigen::Index seen = tokensSeen(trace, i, T); seen >= 2)
            normalized += h / std::log2(static_cast<double>(seen)), ++normalizedRows;
        for (Eigen::Index j : delimiters) delim += row[j];
        if (i >= 1) {  // row 0 of a causal head can only see itself: no share of its own
            previous += row[i - 1];
            first += row[0];
        }
        if (i + 1 < T) next += row[i + 1];
        self += row[i];
    }
    s.entropy = mean(entropy, T);
    s.normalizedEntropy = mean(normalized, normalizedRows);
    s.delimiterShare = mean(delim, T);
    s.previousShare = mean(previous, T - 1);
    s.nextShare = mean(next, T - 1);
    s.selfShare = mean(self, T);
    s.firstShare = mean(first, T - 1);
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
    const int T = trace.tokenCount();
    if (evaluation && (evaluation->layers != static_cast<int>(trace.layers.size()) ||
                       evaluation->headsPerLayer != trace.headCount()))
        return Error{ErrorId::WhereHeadStatistics,
                     errorText(ErrorId::ExpectedFound, errorText(ErrorId::AnEvaluationOf, trace.layers.size(), trace.headCount()),
                               std::to_string(evaluation->layers) + " × " + std::to_string(evaluation->headsPerLayer))};
    const std::vector<Eigen::Index> delimiters = delimiterColumns(trace);
    std::vector<HeadStatistics> out;
    for (const HeadRef& ref : allHeads(trace)) {
        const LayerTrace& layer = trace.layers[static_cast<std::size_t>(ref.layer)];
        const GridRef w = layer.heads[static_cast<std::size_t>(ref.head)].weights;
        if (w.rows() != T || w.cols() != T)
            return Error{errorText(ErrorId::WhereHeadStatisticsHead, ref.layer + 1, ref.head + 1),
                         errorText(ErrorId::ExpectedFound, errorText(ErrorId::TxTWeights, T, T),
                                   std::to_string(w.rows()) + "×" + std::to_string(w.cols()))};
        HeadStatistics s = w.visit([&](const auto& m) { return statisticsOf(trace, m, delimiters); });
        s.head = ref;
        s.labels.push_back(patternLabel(s, thresholds));
        if (T >= 2 && s.firstShare >= thresholds.sink) s.labels.push_back("attention sink");
        if (evaluation) {
            s.corefAccuracy = evaluation->accuracy(ref.layer, ref.head);
            if (tracksCoreference(*evaluation, ref)) s.labels.push_back("coreference");
        }
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace attnscope
