// Step metadata and matrix lookup for a Trace.
#include "core/trace/trace.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <type_traits>

#include "core/text/messages.hpp"
#include "core/trace/token_names.hpp"

namespace attnscope {

namespace {

struct StepInfo {
    Step step;
    std::string_view key;
    std::string_view symbol;
};

// Titles: the message catalogue (core/text/messages.cpp), in English and Chinese.
constexpr std::array<StepInfo, 35> kSteps{{
    {Step::Embedding, "embedding", "E"},
    {Step::Input, "x", "X"},
    {Step::Query, "q", "Q"},
    {Step::Key, "k", "K"},
    {Step::Value, "v", "V"},
    {Step::Scores, "scores", "S"},
    {Step::Scaled, "scaled_scores", "S/√d_k"},
    {Step::Masked, "masked_scores", "S+M"},
    {Step::Weights, "weights", "A"},
    {Step::WeightedSum, "weighted_sum", "A·V"},
    {Step::Concat, "concat", "concat"},
    {Step::Output, "output", "out"},
    {Step::Positional, "positional", "P"},
    {Step::WQ, "w_q", "W_Q"},
    {Step::WK, "w_k", "W_K"},
    {Step::WV, "w_v", "W_V"},
    {Step::WO, "w_o", "W_O"},
    {Step::Mask, "mask", "M"},
    {Step::SourceInput, "x_source", "X_src"},
    {Step::QueryBeforeRope, "q_before_rope", "Q_pre"},
    {Step::KeyBeforeRope, "k_before_rope", "K_pre"},
    {Step::AddAttention, "residual", "X+out"},
    {Step::Norm, "norm", "N"},
    {Step::FfnGate, "ffn_gate", "G"},
    {Step::FfnHidden, "ffn_hidden", "H"},
    {Step::FfnActivated, "ffn_activated", "act"},
    {Step::FfnOutput, "ffn_output", "F"},
    {Step::AddFfn, "residual_ffn", "N+F"},
    {Step::FinalNorm, "final_norm", "Y"},
    {Step::Logits, "logits", "logits"},
    {Step::Probabilities, "next_word", "P"},
    {Step::WFfnGate, "w_gate", "W_gate"},
    {Step::WFfnIn, "w_1", "W_1"},
    {Step::WFfnOut, "w_2", "W_2"},
    {Step::WVocab, "w_vocab", "W_vocab"},
}};

const StepInfo& info(Step step) {
    for (const StepInfo& s : kSteps)
        if (s.step == step) return s;
    return kSteps[0];
}

bool isWeight(Step step) {
    return step == Step::WQ || step == Step::WK || step == Step::WV || step == Step::WO || step == Step::WFfnGate ||
           step == Step::WFfnIn || step == Step::WFfnOut || step == Step::WVocab;
}

bool hasTokenRows(Step step) { return !isWeight(step); }

// Block steps whose columns are the model's features (d wide), and those whose columns are words (V).
bool blockFeatureColumns(Step step) {
    return step == Step::AddAttention || step == Step::Norm || step == Step::FfnOutput || step == Step::AddFfn ||
           step == Step::FinalNorm || step == Step::WFfnOut;
}
bool wordColumns(Step step) { return step == Step::Logits || step == Step::Probabilities || step == Step::WVocab; }

// The block's steps that the trace holds, in the order they run.
std::vector<Step> blockSteps(const BlockTrace& b) {
    std::vector<Step> steps;
    if (b.residual) steps.push_back(Step::AddAttention);
    if (b.norm.present()) steps.push_back(Step::Norm);
    if (b.ffn.kind == BlockFfn::SwiGlu) steps.push_back(Step::FfnGate);
    if (b.ffn.present()) steps.insert(steps.end(), {Step::FfnHidden, Step::FfnActivated, Step::FfnOutput});
    if (b.ffn.present() && b.residual) steps.push_back(Step::AddFfn);
    if (b.finalNorm.present()) steps.push_back(Step::FinalNorm);
    if (b.wVocab.size() > 0) steps.insert(steps.end(), {Step::Logits, Step::Probabilities});
    return steps;
}

// What a block step reads: the step before it among those producing the block's T×d stream.
Step attentionOutputStep(const Trace& trace) {
    return trace.hasOutputProjection ? Step::Output : trace.headCount() > 1 ? Step::Concat : Step::WeightedSum;
}

Step blockInputOf(const Trace& trace, Step step) {
    Step current = attentionOutputStep(trace);
    for (const Step s : blockSteps(trace.block)) {
        if (s == step) return current;
        if (s == Step::AddAttention || s == Step::Norm || s == Step::AddFfn || s == Step::FinalNorm ||
            (s == Step::FfnOutput && !trace.block.residual))
            current = s;
    }
    return current;
}

std::vector<Operand> blockOperands(const Trace& trace, Step step, int layer) {
    const auto at = [layer](std::initializer_list<Step> steps) {
        std::vector<Operand> out;
        for (const Step s : steps) out.push_back({s, layer});
        return out;
    };
    const Step in = blockInputOf(trace, step);
    const Step ffnIn = blockInputOf(trace, Step::FfnHidden);
    const bool gated = trace.block.ffn.kind == BlockFfn::SwiGlu;
    switch (step) {
        case Step::AddAttention: return at({Step::Input, attentionOutputStep(trace)});
        case Step::Norm: case Step::FinalNorm: return at({in});
        case Step::Probabilities: return at({Step::Logits});  // P = softmax(logits), not of the logits' input
        case Step::FfnGate: return at({ffnIn, Step::WFfnGate});
        case Step::FfnHidden: return at({ffnIn, Step::WFfnIn});
        case Step::FfnActivated: return gated ? at({Step::FfnGate, Step::FfnHidden}) : at({Step::FfnHidden});
        case Step::FfnOutput: return at({Step::FfnActivated, Step::WFfnOut});
        case Step::AddFfn: return at({ffnIn, Step::FfnOutput});
        case Step::Logits: return at({in, Step::WVocab});
        default: return {};
    }
}

// K and V (and the source input) have a row per key token: the source's in cross-attention.
bool hasKeyRows(Step step) {
    return step == Step::Key || step == Step::Value || step == Step::SourceInput || step == Step::KeyBeforeRope;
}

std::vector<std::string> indexLabels(Eigen::Index n, const std::vector<std::string>& names) {
    std::vector<std::string> out;
    for (Eigen::Index i = 0; i < n; ++i)
        out.push_back(static_cast<Eigen::Index>(names.size()) == n ? names[i] : std::to_string(i + 1));  // counted from 1
    return out;
}

}  // namespace

bool isPerHead(Step step) {
    switch (step) {
        case Step::Query: case Step::Key: case Step::Value: case Step::Scores: case Step::Scaled:
        case Step::Masked: case Step::Weights: case Step::WeightedSum: case Step::WQ:
        case Step::WK: case Step::WV: case Step::Mask: case Step::QueryBeforeRope: case Step::KeyBeforeRope:
            return true;
        default:
            return false;
    }
}

bool isTokenByToken(Step step) {
    return step == Step::Scores || step == Step::Scaled || step == Step::Masked ||
           step == Step::Weights || step == Step::Mask;
}

bool isBlockStep(Step step) { return static_cast<int>(step) >= static_cast<int>(Step::AddAttention); }

std::string_view stepKey(Step step) { return info(step).key; }
std::string_view stepTitle(Step step) { return stepTitle(step, Language::English); }
std::string_view stepSymbol(Step step) { return info(step).symbol; }

std::optional<Step> stepFromKey(std::string_view key) {
    for (const StepInfo& s : kSteps)
        if (s.key == key) return s.step;
    return std::nullopt;
}

std::string stepTitleIn(const Trace& trace, Step step, int layer) {
    return stepTitleIn(trace, step, layer, Language::English);
}

std::vector<Step> stepsOf(const Trace& trace, int layer) {
    std::vector<Step> steps;
    if (layer == 0) steps.push_back(Step::Embedding);
    const bool addsPositions = trace.positionalKind == PositionalKind::Sinusoidal || trace.positionalKind == PositionalKind::Table;
    if (layer > 0 || addsPositions) steps.push_back(Step::Input);
    if (trace.isCrossAttention()) steps.push_back(Step::SourceInput);
    // RoPE: Q and K as projected, then turned by position (the rotation is its own step).
    if (trace.rotates()) steps.insert(steps.end(), {Step::QueryBeforeRope, Step::KeyBeforeRope});
    steps.insert(steps.end(), {Step::Query, Step::Key, Step::Value, Step::Scores});
    if (trace.scaled) steps.push_back(Step::Scaled);
    if (trace.hasMask()) steps.push_back(Step::Masked);
    steps.insert(steps.end(), {Step::Weights, Step::WeightedSum});
    if (trace.headCount() > 1) steps.push_back(Step::Concat);
    if (trace.hasOutputProjection) steps.push_back(Step::Output);
    if (layer == trace.layerCount() - 1) {
        const std::vector<Step> block = blockSteps(trace.block);
        steps.insert(steps.end(), block.begin(), block.end());
    }
    return steps;
}

std::vector<Operand> operandsOf(const Trace& trace, Step step, int layer) {
    const Step beforeSoftmax = trace.hasMask() ? Step::Masked : (trace.scaled ? Step::Scaled : Step::Scores);
    const Step kvInput = trace.isCrossAttention() ? Step::SourceInput : Step::Input;  // what K and V project
    // A weight that is not stored (an identity too wide to show, see identityHead) is no operand.
    const auto stored = [&](Step s) {
        const bool weight = s == Step::WQ || s == Step::WK || s == Step::WV || s == Step::WO;
        return !weight || layer >= trace.layerCount() || trace.layers[static_cast<std::size_t>(layer)].heads.empty() ||
               stepMatrix(trace, s, layer, 0).size() > 0;
    };
    const auto here = [layer, &stored](std::initializer_list<Step> steps) {
        std::vector<Operand> out;
        for (const Step s : steps)
            if (stored(s)) out.push_back({s, layer});
        return out;
    };
    if (isBlockStep(step)) return blockOperands(trace, step, layer);
    switch (step) {
        case Step::Input:
            if (layer == 0) return here({Step::Embedding, Step::Positional});
            // Residual connection: the layer before's input plus its output.
            if (trace.residual) return {{Step::Input, layer - 1}, {Step::Output, layer - 1}};
            return {};
        case Step::QueryBeforeRope: return here({Step::Input, Step::WQ});
        case Step::KeyBeforeRope: return here({kvInput, Step::WK});
        case Step::Query: return trace.rotates() ? here({Step::QueryBeforeRope}) : here({Step::Input, Step::WQ});
        case Step::Key: return trace.rotates() ? here({Step::KeyBeforeRope}) : here({kvInput, Step::WK});
        case Step::Value: return here({kvInput, Step::WV});
        case Step::Scores: return here({Step::Query, Step::Key});
        case Step::Scaled: return here({Step::Scores});
        case Step::Masked: return here({trace.scaled ? Step::Scaled : Step::Scores, Step::Mask});
        case Step::Weights: return here({beforeSoftmax});
        case Step::WeightedSum: return here({Step::Weights, Step::Value});
        case Step::Output: return here({trace.headCount() > 1 ? Step::Concat : Step::WeightedSum, Step::WO});
        default: return {};
    }
}

std::vector<int> queryHeadsSharingKv(const LayerTrace& layer, int head) {
    if (head < 0 || static_cast<std::size_t>(head) >= layer.kvHeadOf.size()) return {head};
    std::vector<int> heads;
    for (std::size_t h = 0; h < layer.kvHeadOf.size(); ++h)
        if (layer.kvHeadOf[h] == layer.kvHeadOf[static_cast<std::size_t>(head)]) heads.push_back(static_cast<int>(h));
    return heads;
}

bool sharesKeyValueHeads(const LayerTrace& layer) {
    for (std::size_t h = 0; h < layer.kvHeadOf.size(); ++h)
        if (queryHeadsSharingKv(layer, static_cast<int>(h)).size() > 1) return true;
    return false;
}

GridRef stepMatrix(const Trace& trace, Step step, int layer, int head) {
    const LayerTrace& l = trace.layers.at(layer);
    const HeadTrace& h = l.heads.at(head);
    switch (step) {
        case Step::Embedding: return trace.embedding;
        case Step::Positional: return trace.positional;
        case Step::Input: return l.input;
        case Step::SourceInput: return l.keyValueInput();
        case Step::Query: return h.q;
        case Step::Key: return h.k;
        case Step::Value: return h.v;
        case Step::Scores: return h.scores;
        case Step::Scaled: return h.scaledScores;
        case Step::Masked: return h.maskedScores;
        case Step::Mask: return h.mask;
        case Step::Weights: return h.weights;
        case Step::WeightedSum: return h.weightedSum;
        case Step::Concat: return l.concat;
        case Step::Output: return l.output;
        case Step::WQ: return h.params.wq;
        case Step::WK: return h.params.wk;
        case Step::WV: return h.params.wv;
        case Step::WO: return l.wo;
        case Step::QueryBeforeRope: return h.qBeforeRope;
        case Step::KeyBeforeRope: return h.kBeforeRope;
        case Step::AddAttention: return trace.block.afterAttention;
        case Step::Norm: return trace.block.norm.output;
        case Step::FfnGate: return trace.block.ffn.gate;
        case Step::FfnHidden: return trace.block.ffn.hidden;
        case Step::FfnActivated: return trace.block.ffn.activated;
        case Step::FfnOutput: return trace.block.ffn.output;
        case Step::AddFfn: return trace.block.afterFfn;
        case Step::FinalNorm: return trace.block.finalNorm.output;
        case Step::Logits: return trace.block.logits;
        case Step::Probabilities: return trace.block.probabilities;
        case Step::WFfnGate: return trace.block.ffn.wGate;
        case Step::WFfnIn: return trace.block.ffn.wIn;
        case Step::WFfnOut: return trace.block.ffn.wOut;
        case Step::WVocab: return trace.block.wVocab;
    }
    return trace.embedding;
}

std::vector<std::string> rowLabels(const Trace& trace, Step step, int layer, int head, std::string_view language) {
    if (hasKeyRows(step)) return tokenNames(trace.columnTokens());
    if (hasTokenRows(step)) return tokenNames(trace.tokens);
    const GridRef m = stepMatrix(trace, step, layer, head);
    const bool featureRows = step != Step::WO && step != Step::WFfnOut;  // W_Q rows index the model's features
    return indexLabels(m.rows(), featureRows ? textsIn(trace.featureNames, language) : std::vector<std::string>{});
}

std::vector<std::string> columnLabels(const Trace& trace, Step step, int layer, int head, std::string_view language) {
    if (isTokenByToken(step)) return tokenNames(trace.columnTokens());
    if (wordColumns(step)) return trace.block.vocabulary;
    const GridRef m = stepMatrix(trace, step, layer, head);
    // Without projections Q = K = V = X, so their columns are still the model's features.
    const bool copiesOfX = !trace.projections && (step == Step::Query || step == Step::Key ||
                                                  step == Step::Value || step == Step::WeightedSum);
    const bool featureCols = step == Step::Embedding || step == Step::Positional || step == Step::Input ||
                             step == Step::SourceInput ||
                             step == Step::Output || step == Step::WO || copiesOfX || blockFeatureColumns(step);
    return indexLabels(m.cols(), featureCols ? textsIn(trace.featureNames, language) : std::vector<std::string>{});
}

namespace {

// The same bits in every cell a query may attend to: causal rows up to the diagonal only. The
// masked half is zeros in both, and a long run hands its pages back (core/model/attention.cpp):
// reading them faulted in 64 MB of pages a 4,096-token head, 0.34 s here.
template <typename M>
bool sameRows(const M& x, const M& y, bool causal) {  // row-major: a row's cells are contiguous
    const Eigen::Index past = x.cols() - x.rows();  // keys before the first query (none here)
    for (Eigen::Index r = 0; r < x.rows(); ++r) {
        const Eigen::Index n = causal ? std::clamp<Eigen::Index>(r + 1 + past, 0, x.cols()) : x.cols();
        if (std::memcmp(&x(r, 0), &y(r, 0), static_cast<std::size_t>(n) * sizeof(typename M::Scalar)) != 0) return false;
    }
    return true;
}

bool sameVisibleWeights(const AttentionWeights& a, const AttentionWeights& b, bool causal) {
    if (a.isFloat() != b.isFloat() || a.rows() != b.rows() || a.cols() != b.cols() || a.size() == 0) return false;
    return a.visit([&](const auto& x) {
        return b.visit([&](const auto& y) {
            if constexpr (std::is_same_v<decltype(x), decltype(y)>) return sameRows(x, y, causal);
            else return false;
        });
    });
}

}  // namespace

bool sameWeightsShown(const Trace& a, const Trace& b, int layer, const std::vector<int>& heads) {
    const auto at = static_cast<std::size_t>(layer);
    if (heads.empty() || layer < 0 || at >= a.layers.size() || at >= b.layers.size()) return false;
    // Not the word groups: they bracket pieces in the window's token strip, never a cell. (A run's
    // early Trace has none yet, and comparing them drew a long run's heatmap twice at its end.)
    if (a.tokens != b.tokens || a.keyTokens != b.keyTokens) return false;
    const std::vector<HeadTrace>&x = a.layers[at].heads, &y = b.layers[at].heads;
    return x.size() == y.size() && std::all_of(heads.begin(), heads.end(), [&](int h) {
               const auto i = static_cast<std::size_t>(h);
               return h >= 0 && i < x.size() && x[i].ablated == y[i].ablated &&
                      sameVisibleWeights(x[i].weights, y[i].weights, a.causal && b.causal);
           });
}

}  // namespace attnscope
