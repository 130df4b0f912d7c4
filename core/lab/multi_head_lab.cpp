// Multi-head attention step by step.
// Shape legend: T tokens, d model width, H heads, d_k = d / H head width.
#include "core/lab/multi_head_lab.hpp"

#include <cmath>
#include <optional>

#include "core/pipeline/attention_layer.hpp"
#include "core/lab/random.hpp"
#include "core/lab/scaling.hpp"
#include "core/pipeline/steps.hpp"
#include "core/text/error_messages.hpp"
#include "core/text/messages.hpp"

namespace attnscope {

namespace {

std::string shape(Eigen::Index rows, Eigen::Index cols) {
    return std::to_string(rows) + "×" + std::to_string(cols);
}

// Population standard deviation of every entry.
double entryStd(const Mat& m) {
    if (m.size() == 0) return 0;
    const double mean = m.mean();
    return std::sqrt((m.array() - mean).square().mean());
}

Result<void> checkSplit(int d, int heads) {
    if (d <= 0 || heads <= 0 || d % heads != 0)
        return Error{ErrorId::WhereMultiHeadH, errorText(ErrorId::HeadCountDivides, d, heads)};
    return {};
}

Result<void> checkWeights(int d, const MultiHeadWeights& weights) {
    for (const Mat* w : {&weights.wq, &weights.wk, &weights.wv, &weights.wo})
        if (w->rows() != d || w->cols() != d)
            return Error{ErrorId::WhereMultiHeadWeights, errorText(ErrorId::WeightsForWidth, shape(d, d), d, shape(w->rows(), w->cols()))};
    return {};
}

// A lab run's Trace around X (T×d) before its one layer: no positions, ÷√d_k, W_O.
Trace labTrace(const Mat& X, int headWidth, const std::vector<Token>& tokens) {
    Trace t;
    t.tokens = tokens;
    t.embedding = X;                                // T×d
    t.positional = Mat::Zero(X.rows(), X.cols());   // T×d
    t.scaleDivisor = sqrtOf(headWidth);             // √d_k
    t.hasOutputProjection = true;
    return t;
}

// X through `heads` (runAttentionLayer) as the trace's one layer.
void runLabLayer(const Mat& X, const std::vector<HeadWeights>& heads, const Mat& wo, Trace& t) {
    std::vector<std::string> names;
    for (const Token& token : t.tokens) names.push_back(token.text);
    t.layers.push_back(runAttentionLayer(X, heads, wo, {}, AttentionOptions{}, names, &t.notices));
}

}  // namespace

MultiHeadWeights drawMultiHeadWeights(int d, std::uint64_t seed) {
    LabRandom random(seed);
    const double sigma = 1.0 / std::sqrt(static_cast<double>(d));  // N(0, 1/d)
    MultiHeadWeights w;
    w.wq = random.normalMatrix(d, d) * sigma;  // d×d
    w.wk = random.normalMatrix(d, d) * sigma;  // d×d
    w.wv = random.normalMatrix(d, d) * sigma;  // d×d
    w.wo = random.normalMatrix(d, d) * sigma;  // d×d
    return w;
}

Mat randomLabInput(int T, int d, std::uint64_t seed) { return LabRandom(seed).normalMatrix(T, d); }

std::vector<int> headCountsFor(int d) {
    std::vector<int> counts;
    for (int h = 1; h <= d; ++h)
        if (d % h == 0) counts.push_back(h);
    return counts;
}

Result<std::vector<HeadWeights>> splitHeads(const MultiHeadWeights& weights, int heads) {
    const int d = static_cast<int>(weights.wq.cols());
    if (auto bad = checkSplit(d, heads); !bad.ok()) return bad.error();
    const int dK = d / heads;
    std::vector<HeadWeights> split;
    for (int h = 0; h < heads; ++h)  // head h: columns h·d_k … (h+1)·d_k − 1, each d×d_k
        split.push_back(HeadWeights{weights.wq.middleCols(h * dK, dK), weights.wk.middleCols(h * dK, dK),
                                    weights.wv.middleCols(h * dK, dK), {}, {}, {}});
    return split;
}

Result<MultiHeadRun> runMultiHead(const Mat& X, int heads, const MultiHeadWeights& weights,
                                  const std::vector<Token>& tokens) {
    const int d = static_cast<int>(X.cols());
    if (auto bad = checkWeights(d, weights); !bad.ok()) return bad.error();
    auto split = splitHeads(weights, heads);
    if (!split) return split.error();
    MultiHeadRun run;
    run.heads = heads;
    run.headWidth = d / heads;
    Trace& t = run.trace;
    t = labTrace(X, run.headWidth, tokens);
    runLabLayer(X, split.value(), weights.wo, t);
    run.singleScores = attentionScores(project(X, weights.wq, {}), project(X, weights.wk, {}));  // T×T
    Mat sum = Mat::Zero(X.rows(), X.rows());  // T×T  Σ_h Q_h·K_hᵀ
    for (const HeadTrace& h : t.layers[0].heads) sum += h.scores;
    run.identityDifference = X.rows() == 0 ? 0.0 : (sum - run.singleScores).cwiseAbs().maxCoeff();
    return run;
}

Result<MultiHeadRun> runMultiHead(const Mat& X, int heads, std::uint64_t seed, const std::vector<Token>& tokens) {
    return runMultiHead(X, heads, drawMultiHeadWeights(static_cast<int>(X.cols()), seed), tokens);
}

HeadCountSummary summarize(const MultiHeadRun& run) {
    HeadCountSummary s;
    s.heads = run.heads;
    s.headWidth = run.headWidth;
    s.scale = 1.0 / run.trace.scaleDivisor;
    const int d = run.heads * run.headWidth;
    s.parameters = 4 * d * d;  // W_Q, W_K, W_V, W_O: d×d each, however they are split
    const auto& heads = run.trace.layers.at(0).heads;
    for (const HeadTrace& h : heads) {
        s.rawScoreStd += entryStd(h.scores) / heads.size();
        s.scaledScoreStd += entryStd(h.scaledScores) / heads.size();
        s.meanEntropy += rowEntropies(h.weights.exact()).mean() / heads.size();
    }
    return s;
}

Result<std::vector<HeadCountSummary>> headCountTable(const Mat& X, const MultiHeadWeights& weights) {
    std::vector<HeadCountSummary> table;
    for (const int heads : headCountsFor(static_cast<int>(X.cols()))) {
        auto run = runMultiHead(X, heads, weights);
        if (!run) return run.error();
        table.push_back(summarize(run.value()));
    }
    return table;
}

Result<KeyValueSharing> keyValueSharing(int d, int heads, int kvHeads) {
    if (auto bad = checkSplit(d, heads); !bad.ok()) return bad.error();
    if (kvHeads <= 0 || heads % kvHeads != 0) return Error{"H_kv", errorText(ErrorId::KvHeadsDoNotDivide, kvHeads, heads)};
    KeyValueSharing s{heads, kvHeads, d / heads, {}, 0, 0};
    const int group = heads / kvHeads;  // query heads per key/value head
    for (int h = 0; h < heads; ++h) s.kvHeadOf.push_back(h / group);
    const KeyValueCost cost = keyValueCost(AttentionWidths{d, heads, s.headWidth, s.headWidth, d}, kvHeads);
    s.parameters = cost.parameters;
    s.kvPerToken = cost.kvPerToken;
    return s;
}

Result<GroupedQueryRun> runGroupedQuery(const Mat& X, int heads, int kvHeads, const MultiHeadWeights& weights,
                                        const std::vector<Token>& tokens) {
    const int d = static_cast<int>(X.cols());
    if (auto bad = checkWeights(d, weights); !bad.ok()) return bad.error();
    auto sharing = keyValueSharing(d, heads, kvHeads);
    if (!sharing) return sharing.error();
    auto split = splitHeads(weights, heads);
    const int dK = sharing.value().headWidth;
    for (int h = 0; h < heads; ++h) {  // query head h reads key/value head g's columns of W_K and W_V
        const int g = sharing.value().kvHeadOf[static_cast<std::size_t>(h)];
        split.value()[static_cast<std::size_t>(h)].wk = weights.wk.middleCols(g * dK, dK);  // d×d_k
        split.value()[static_cast<std::size_t>(h)].wv = weights.wv.middleCols(g * dK, dK);  // d×d_k
    }
    GroupedQueryRun out{sharing.value(), labTrace(X, dK, tokens)};
    runLabLayer(X, split.value(), weights.wo, out.trace);
    out.trace.layers[0].kvHeadOf = sharing.value().kvHeadOf;
    return out;
}

std::string multiHeadShapes(int T, int d, int heads, Language language) {
    const int dK = heads > 0 ? d / heads : 0;
    const std::string perHead = shape(T, dK);
    const MessageId each = heads == 1 ? MessageId::LabEachOfOneHead : MessageId::LabEachOfHeads;
    return "X " + shape(T, d) + " → Q_h, K_h, V_h " + perHead + " " +
           fillMessage(message(each, language), {std::to_string(heads)}) + " → Q_h·K_hᵀ " + shape(T, T) + " → softmax(·/√" +
           std::to_string(dK) + ") " + shape(T, T) + " → ·V_h " + perHead + " → concat " + shape(T, d) +
           " → ·W_O " + shape(d, d) + " → " + shape(T, d);
}

}  // namespace attnscope
