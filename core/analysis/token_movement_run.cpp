// One sentence run for "what attention did to each word" (see token_movement_run.hpp).
//
// Shape legend: T tokens, d model width, L layers.
#include "core/analysis/token_movement_run.hpp"

#include "core/text/messages.hpp"
#include "core/text/utf8.hpp"
#include "core/tokenizers/unicode.hpp"

namespace attnscope {

Result<StatesRun> lessonStatesRun(const Lesson& lesson, std::string_view sentence, const RunSettings& settings) {
    auto trace = runLesson(lesson, sentence, settings);
    if (!trace) return trace.error();
    auto states = residualStates(trace.value());
    if (!states) return states.error();
    const LayerOutput output = trace.value().residual ? LayerOutput::AttentionPlusInput : LayerOutput::AttentionOnly;
    return StatesRun{std::move(trace).value(), std::move(states).value(), output};
}

Result<StatesRun> stageStatesRun(const Lesson& lesson, std::string_view source, const StageView& view) {
    if (view.stage == EncoderDecoderStage::Encoder) {
        RunSettings settings;
        settings.ablate = view.encoderOff;
        return lessonStatesRun(lesson, source, settings);
    }
    auto trace = runEncoderDecoderStage(lesson, source, view);
    if (!trace) return trace.error();
    // Each decoder stage is one layer whose output is added to its input (block.afterAttention).
    std::vector<Mat> states{trace.value().layers.at(0).input, trace.value().block.afterAttention};  // T_t×d each
    return StatesRun{std::move(trace).value(), std::move(states), LayerOutput::AttentionPlusInput};
}

Result<StatesRun> modelStatesRun(const OpenedModel& opened, std::string_view sentence, int detailLayer, RunControl control) {
    control.fullDetailMaxTokens = 0;  // only the layer whose sources are read is kept in full
    control.detailLayer = detailLayer;
    auto run = runSentence(opened, sentence, control);
    if (!run) return run.error();
    // A long run keeps no weights (core/model/long_run.hpp): the layer is rebuilt from its input,
    // in full detail while that fits kRebuiltLayerBudget, instead of every layer's T×T weights.
    if (detailLayer >= 0 && run.value().isLong()) {
        auto layer = traceLayerInDetail(opened.model, run.value(), detailLayer);
        if (!layer) return layer.error();
        run.value().trace.layers.at(static_cast<std::size_t>(detailLayer)) = std::move(layer).value();
    }
    std::vector<Mat> states = residualStates(run.value());
    return StatesRun{std::move(run.value().trace), std::move(states), LayerOutput::WholeLayer};
}

std::string layerOutputText(LayerOutput output, Language language) {
    switch (output) {
        case LayerOutput::AttentionOnly: return std::string(message(MessageId::LayerOutputAttentionOnly, language));
        case LayerOutput::AttentionPlusInput: return std::string(message(MessageId::LayerOutputResidual, language));
        case LayerOutput::WholeLayer: break;
    }
    return std::string(message(MessageId::LayerOutputWholeLayer, language));
}

namespace {

// A token's text as compared across sentences: trimmed of white space (GPT-2's leading space) and
// lower-cased, so "The" of one sentence meets "the" of the other; empty for special tokens.
std::u32string comparable(const Token& token) {
    std::u32string out;
    if (token.special) return out;
    for (const utf8::CodePoint& cp : utf8::decode(token.text).points)
        if (!unicode::isWhiteSpace(cp.value)) unicode::appendLowercase(cp.value, out);
    return out;
}

}  // namespace

std::optional<std::pair<int, int>> sameWordDefault(const StatesRun& a, const StatesRun& b) {
    if (a.states.empty() || a.states.size() != b.states.size()) return std::nullopt;
    std::optional<std::pair<int, int>> best;
    std::size_t bestLength = 0;
    double bestCosine = 2;
    for (int i = 0; i < a.trace.tokenCount(); ++i) {
        const std::u32string text = comparable(a.trace.tokens[static_cast<std::size_t>(i)]);
        if (text.empty() || text.size() < bestLength) continue;
        for (int j = 0; j < b.trace.tokenCount(); ++j) {
            if (comparable(b.trace.tokens[static_cast<std::size_t>(j)]) != text) continue;
            const Mat& lastA = a.states.back();
            const Mat& lastB = b.states.back();
            const double cosine = lastA.cols() == lastB.cols() ? cosineOf(lastA.row(i), lastB.row(j)) : 1;
            if (text.size() > bestLength || cosine < bestCosine) best = std::make_pair(i, j), bestLength = text.size(), bestCosine = cosine;
            break;  // B's first occurrence
        }
    }
    return best;
}

}  // namespace attnscope
