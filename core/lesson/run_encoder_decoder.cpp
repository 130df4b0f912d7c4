// The encoder–decoder run (format version 8): encoder, masked decoder self-attention,
// cross-attention and the output head, with teacher forcing's labels.
// Shapes: T_s source tokens, T_t decoder input tokens, d model width, V_t the head's words.
#include "core/lesson/run_encoder_decoder.hpp"

#include <algorithm>
#include <cmath>

#include "core/lesson/lesson_budget.hpp"
#include "core/lesson/lesson_encoder_decoder.hpp"
#include "core/pipeline/block.hpp"
#include "core/pipeline/steps.hpp"
#include "core/text/error_messages.hpp"
#include "core/trace/ablation.hpp"

namespace attnscope {

namespace {

// Only the residual connection after attention: the stage's output X + attention.
LessonBlock residualOnly() {
    LessonBlock block;
    block.residual = true;
    return block;
}

// The decoder's masked self-attention as a one-layer lesson of its own.
Lesson decoderSelfLesson(const Lesson& lesson) {
    Lesson decoder = lesson;
    decoder.layers = {lesson.encoderDecoder.decoderSelf};
    decoder.residual = false;
    decoder.causalMask = true;
    decoder.block = residualOnly();
    decoder.encoderDecoder = {};
    return decoder;
}

std::vector<std::string> tokenNames(const std::vector<Token>& tokens) {
    std::vector<std::string> names;
    for (const Token& t : tokens) names.push_back(t.text);
    return names;
}

// Queries from the decoder's Y₁, keys and values from the encoder's M, then Y₂ = Y₁ + cross and the head.
Result<Trace> runCrossStage(const Lesson& lesson, const Trace& encoder, const Trace& decoderSelf, const RunSettings& settings,
                            const std::vector<HeadRef>& headsOff) {
    const LessonEncoderDecoder& ed = lesson.encoderDecoder;
    Trace cross;
    describeLessonRun(lesson, settings, cross);
    cross.residual = false;
    cross.tokens = decoderSelf.tokens;    // T_t
    cross.keyTokens = encoder.tokens;     // T_s
    if (auto over = checkLessonBudget(lesson, cross.tokenCount(), cross.keyCount(), 1); !over.ok()) return over.error();
    if (auto bad = checkHeadsExist(headsOff, 1, lesson.numHeads, ErrorText(ErrorId::WhereAblateCross)); !bad.ok()) return bad.error();
    if (!headsOff.empty()) cross.notices.push_back(ablationNotice(headsOff));
    const Mat& Y1 = decoderSelf.block.afterAttention;  // T_t×d
    const Mat& M = encoder.block.afterAttention;       // T_s×d
    cross.embedding = Y1;                              // the stage starts from the decoder's state
    cross.positional = Mat::Zero(Y1.rows(), Y1.cols());
    cross.positionalKind = lesson.positional == PositionalKind::Rotary ? PositionalKind::Rotary : PositionalKind::None;
    runCrossLayer(lesson, ed.cross, Y1, M, headsOff, cross);
    cross.block.residual = true;
    cross.block.vocabulary = ed.vocabulary;  // V_t
    cross.block.wVocab = ed.wVocab;          // d×V_t
    cross.block.bVocab = ed.bVocab;
    const LayerTrace& layer = cross.layers.back();
    runBlock(layer.input, layer.output, cross.block, cross.handRounding, tokenNames(cross.tokens), &cross.notices);
    return cross;
}

// p(label_i) from row i of the probabilities, −ln p and their mean.
void scoreLabels(const Lesson& lesson, EncoderDecoderRun& run) {
    const auto& words = lesson.encoderDecoder.vocabulary;
    const Mat& P = run.cross.block.probabilities;  // T_t×V_t
    const auto T = static_cast<Eigen::Index>(run.labels.size());
    run.labelProbability = RowVec::Zero(T);
    run.loss = RowVec::Zero(T);
    for (Eigen::Index i = 0; i < T; ++i) {
        const auto column = std::find(words.begin(), words.end(), run.labels[static_cast<std::size_t>(i)]) - words.begin();
        run.labelColumn.push_back(static_cast<int>(column));
        run.labelProbability[i] = P(i, column);
        run.loss[i] = -std::log(run.labelProbability[i]);
    }
    if (run.cross.handRounding) run.loss = roundTo(run.loss, *run.cross.handRounding);
    run.meanLoss = T > 0 ? run.loss.sum() / static_cast<double>(T) : 0.0;
}

}  // namespace

Result<EncoderDecoderRun> runEncoderDecoder(const Lesson& lesson, std::string_view source, RunSettings settings,
                                            const DecoderHeadsOff& decoderOff) {
    if (!lesson.encoderDecoder.present) return Error{ErrorId::WhereLesson, ErrorId::NoEncoderDecoder};
    auto forcing = teacherForcing(lesson);
    if (!forcing) return forcing.error();
    settings.padTo = 0;
    Lesson encoderLesson = lesson;
    encoderLesson.block = residualOnly();
    encoderLesson.encoderDecoder = {};
    auto encoder = runLesson(encoderLesson, source, settings);
    if (!encoder) return encoder.error();  // the sentence is the source
    settings.ablate = decoderOff.selfAttention;
    auto decoder = runLessonOnTokens(decoderSelfLesson(lesson), forcing.value().decoderInput, settings);
    if (!decoder) return Error{ErrorId::WhereTargetSentence, decoder.error().messageForm()};
    settings.ablate.clear();
    auto cross = runCrossStage(lesson, encoder.value(), decoder.value(), settings, decoderOff.cross);
    if (!cross) return cross.error();
    EncoderDecoderRun run{std::move(encoder).value(), std::move(decoder).value(), std::move(cross).value(),
                          forcing.value().labels, {}, {}, {}, 0.0};
    scoreLabels(lesson, run);
    return run;
}

Result<Trace> runEncoderDecoderStage(const Lesson& lesson, std::string_view source, const StageView& view) {
    RunSettings settings;
    settings.ablate = view.encoderOff;
    auto run = runEncoderDecoder(lesson, source, settings, view.decoderOff);
    if (!run) return run.error();
    return stageTrace(run.value(), view.stage);
}

const Trace& stageTrace(const EncoderDecoderRun& run, EncoderDecoderStage stage) {
    switch (stage) {
        case EncoderDecoderStage::DecoderSelf: return run.decoderSelf;
        case EncoderDecoderStage::Cross: return run.cross;
        default: return run.encoder;
    }
}

}  // namespace attnscope
