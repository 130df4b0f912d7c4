// Lesson runs: tokens → embedding (+ positional encoding) → attention layer 1 → (+ residual)
// layer 2 → … → the block after attention (norm, FFN, output head; core/pipeline/block.hpp). Shapes: T tokens, d model width, H heads,
// H_kv key/value heads, d_k, d_v head widths, L layers.
#include "core/lesson/run_lesson.hpp"

#include <algorithm>

#include "core/lesson/lesson_block.hpp"
#include "core/pipeline/attention_layer.hpp"
#include "core/pipeline/block.hpp"
#include "core/pipeline/rope.hpp"
#include "core/lesson/lesson_budget.hpp"
#include "core/lesson/lesson_tokenizer.hpp"
#include "core/pipeline/steps.hpp"
#include "core/text/error_messages.hpp"
#include "core/text/message_id.hpp"
#include "core/trace/ablation.hpp"

namespace attnscope {

namespace {

// The words of `tokens` the table lacks, each once, in reading order: "小, 猫".
std::string missingWords(const Lesson& lesson, const std::vector<Token>& tokens) {
    std::vector<std::string> seen;
    std::string list;
    for (const Token& t : tokens) {
        if (t.special || lesson.findEmbedding(t.text) || std::find(seen.begin(), seen.end(), t.text) != seen.end()) continue;
        list += (list.empty() ? "" : ", ") + t.text;
        seen.push_back(t.text);
    }
    return list;
}

}  // namespace

Result<Mat> embedTokens(const Lesson& lesson, std::vector<Token>& tokens, std::vector<Notice>& notices) {
    const std::string missing = missingWords(lesson, tokens);
    if (!missing.empty()) {
        if (lesson.unknownWords == UnknownWords::Ask)
            return Error{ErrorId::WhereSentence, errorText(ErrorId::WordsNotInTable, missing)};
        notices.push_back(Notice{lesson.unknownWords == UnknownWords::Zeros ? MessageId::NoticeWordsZeroed
                                                                             : MessageId::NoticeWordsHashed,
                                 {missing}});
    }
    Mat X = Mat::Zero(static_cast<Eigen::Index>(tokens.size()), lesson.dModel);  // T×d; [PAD] rows stay zero
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (tokens[i].special) continue;
        const RowVec* row = lesson.findEmbedding(tokens[i].text);
        tokens[i].inTable = row != nullptr;
        tokens[i].zeroVector = !row && lesson.unknownWords == UnknownWords::Zeros;
        if (row) X.row(i) = *row;
        else if (!tokens[i].zeroVector) X.row(i) = hashedEmbedding(tokens[i].text, lesson.dModel);
    }
    return X;
}

Mat positionalRows(const Lesson& lesson, int T, std::vector<Notice>* notices) {
    switch (lesson.positional) {
        case PositionalKind::Sinusoidal: return sinusoidalEncoding(T, lesson.dModel);
        case PositionalKind::Table: {
            Mat pe = Mat::Zero(T, lesson.dModel);  // T×d
            const auto known = std::min<Eigen::Index>(T, lesson.positionalTable.rows());
            pe.topRows(known) = lesson.positionalTable.topRows(known);
            if (known < T && notices)
                notices->push_back(Notice{MessageId::NoticePositionalTableShort, {std::to_string(known)}});
            return pe;
        }
        default: return Mat::Zero(T, lesson.dModel);
    }
}

namespace {

// The H heads' weights as the layer runs them (shared key/value heads repeated: repeatKeyValues).
std::vector<HeadWeights> headsFor(const Lesson& lesson, const LessonLayer& layer) {
    if (!lesson.projections) return std::vector<HeadWeights>(lesson.numHeads, identityHead(lesson.dModel));
    return repeatKeyValues(lesson, layer);
}

// Which key/value head each query head read, for the views ("K/V head 2, shared by query heads 3–4").
void recordKvSharing(const Lesson& lesson, LayerTrace& layer) {
    if (!lesson.sharesKeyValues()) return;
    for (int h = 0; h < lesson.numHeads; ++h) layer.kvHeadOf.push_back(lesson.kvHeadOf(h));
}

// A lesson with RoPE turns every head's Q and K by θ_i = base^(−2i/d_k).
void withRope(const Lesson& lesson, AttentionOptions& options) {
    if (lesson.positional != PositionalKind::Rotary) return;
    options.ropeFrequencies = ropeFrequencies(lesson.dK, lesson.ropeBase);  // 1×(d_k/2)
    options.ropeInterleaved = lesson.ropeInterleaved;
}

// Every attention layer in turn; with residual connections layer l+1 reads X_l + output_l.
Result<void> runLayers(const Lesson& lesson, Mat X, const std::vector<HeadRef>& ablate, Trace& trace) {
    if (lesson.layers.empty()) return Error{ErrorId::WhereLesson, ErrorId::NoAttentionLayer};
    std::vector<std::string> names;
    for (const Token& t : trace.tokens) names.push_back(t.text);
    AttentionOptions options;
    options.scaled = lesson.scale;
    options.causal = lesson.causalMask;
    options.handRounding = trace.handRounding;
    options.realTokens = trace.paddedFrom;
    withRope(lesson, options);
    const bool several = lesson.layers.size() > 1;
    for (std::size_t l = 0; l < lesson.layers.size(); ++l) {
        if (l > 0) {
            const LayerTrace& before = trace.layers.back();
            if (before.output.cols() != before.input.cols())  // validateLesson reports this by field
                return Error{ErrorId::WhereLesson, errorText(ErrorId::LayerOutputNotDModel, l)};
            X = before.input + before.output;  // T×d; both addends already rounded
            if (trace.handRounding) X = roundTo(X, *trace.handRounding);
        }
        const LessonLayer& layer = lesson.layers[l];
        options.ablatedHeads = layerHeadMask(ablate, static_cast<int>(l), lesson.numHeads);
        std::vector<Notice> notices;
        trace.layers.push_back(runAttentionLayer(X, headsFor(lesson, layer), layer.wo, layer.bo, options, names,
                                                 &notices));
        recordKvSharing(lesson, trace.layers.back());
        for (Notice& n : notices) {
            if (several) n.layer = static_cast<int>(l);
            trace.notices.push_back(std::move(n));
        }
    }
    return {};
}

std::vector<Token> toTokens(std::vector<std::string> texts, std::vector<Notice>& notices) {
    if (static_cast<int>(texts.size()) > kMaxLessonTokens) {
        notices.push_back(Notice{MessageId::NoticeLessonTruncated, {std::to_string(texts.size()), std::to_string(kMaxLessonTokens)}});
        texts.resize(kMaxLessonTokens);
    }
    std::vector<Token> tokens;
    for (auto& t : texts) tokens.push_back(Token{std::move(t)});
    return tokens;
}

constexpr const char* kPadToken = "[PAD]";

// Appends [PAD] tokens up to padTo; returns where the padding starts (-1: none added).
int padTokens(std::vector<Token>& tokens, int padTo) {
    const int real = static_cast<int>(tokens.size());
    if (padTo <= real) return -1;
    for (int i = real; i < std::min(padTo, kMaxLessonTokens); ++i) tokens.push_back(Token{kPadToken, true, -1, -1, true});
    return real;
}

// The run's settings, as the views show them.
void describeRun(const Lesson& lesson, const RunSettings& settings, Trace& trace) {
    trace.featureNames = lesson.featureNames;
    trace.positionalKind = lesson.positional;
    trace.projections = lesson.projections;
    trace.scaled = lesson.scale;
    trace.scaleDivisor = lesson.scale ? sqrtOf(lesson.dK) : 1.0;
    trace.causal = lesson.causalMask;
    trace.hasOutputProjection = std::any_of(lesson.layers.begin(), lesson.layers.end(),
                                            [](const LessonLayer& l) { return l.wo.size() > 0; });
    trace.residual = lesson.residual;
    trace.handRounding = settings.exact ? std::nullopt
                                        : (settings.handRounding ? settings.handRounding : lesson.handRounding);
}

// The block after the last attention layer (format version 6): residual, norms, FFN, output head.
void runLessonBlock(const Lesson& lesson, Trace& trace) {
    if (!lesson.block.present() || trace.layers.empty()) return;
    std::vector<std::string> names;
    for (const Token& t : trace.tokens) names.push_back(t.text);
    const LayerTrace& last = trace.layers.back();
    trace.block = blockWeights(lesson);
    runBlock(last.input, last.output, trace.block, trace.handRounding, names, &trace.notices);
}

// One sentence of a cross-attention pair: at least one token, errors named by its role.
Result<std::vector<std::string>> wordsOf(const Lesson& lesson, std::string_view sentence, ErrorId role) {
    auto texts = lessonTokenize(sentence, lesson.lowercase);
    if (!texts) return Error{role, texts.error().messageForm()};
    if (texts.value().empty()) return Error{role, ErrorId::HasNoTokens};
    return texts;
}

// E + P of tokens 0…T−1 (hand-rounded when the run is): the X the first layer reads.
Mat inputOf(const Mat& embedding, const Mat& positional, const Trace& trace) {
    Mat X = embedding + positional;  // T×d
    return trace.handRounding ? roundTo(X, *trace.handRounding) : X;
}

}  // namespace

Result<Trace> runLesson(const Lesson& lesson, std::string_view sentence, RunSettings settings) {
    auto texts = lessonTokenize(sentence, lesson.lowercase);
    if (!texts) return texts.error();
    // Empty or only separators: no matrices to show (they would print as empty tables).
    if (texts.value().empty()) return Error{ErrorId::WhereSentence, ErrorId::SentenceHasNoTokens};
    return runLessonOnTokens(lesson, std::move(texts).value(), settings);
}

Result<Trace> runLessonOnTokens(const Lesson& lesson, std::vector<std::string> texts, RunSettings settings) {
    if (auto bad = checkHeadsExist(settings.ablate, static_cast<int>(lesson.layers.size()), lesson.numHeads,
                                   ErrorId::WhereAblate);
        !bad.ok())
        return bad.error();
    Trace trace;
    trace.tokens = toTokens(std::move(texts), trace.notices);
    trace.paddedFrom = padTokens(trace.tokens, settings.padTo);
    if (!settings.ablate.empty()) trace.notices.push_back(ablationNotice(settings.ablate));
    const int T = trace.tokenCount();
    const int L = static_cast<int>(lesson.layers.size());
    if (auto over = checkLessonBudget(lesson, T, T, L); !over.ok()) return over.error();
    describeRun(lesson, settings, trace);

    auto embedding = embedTokens(lesson, trace.tokens, trace.notices);  // T×d
    if (!embedding) return embedding.error();
    trace.embedding = std::move(embedding).value();
    trace.positional = positionalRows(lesson, T, &trace.notices);       // T×d
    if (auto error = runLayers(lesson, inputOf(trace.embedding, trace.positional, trace), settings.ablate, trace); !error.ok()) return error.error();
    runLessonBlock(lesson, trace);
    return trace;
}

Result<Trace> runCrossAttention(const Lesson& lesson, std::string_view target, std::string_view source,
                                RunSettings settings) {
    if (lesson.layers.empty()) return Error{ErrorId::WhereLesson, ErrorId::NoAttentionLayer};
    auto targetTexts = wordsOf(lesson, target, ErrorId::WhereTargetSentence);
    if (!targetTexts) return targetTexts.error();
    auto sourceTexts = wordsOf(lesson, source, ErrorId::WhereSourceSentence);
    if (!sourceTexts) return sourceTexts.error();
    Trace trace;
    describeRun(lesson, settings, trace);
    trace.causal = false;
    trace.residual = false;
    if (lesson.causalMask)
        trace.notices.push_back(Notice{MessageId::NoticeCrossNoCausalMask, {}});
    if (lesson.layers.size() > 1)
        trace.notices.push_back(Notice{MessageId::NoticeCrossFirstLayer, {std::to_string(lesson.layers.size())}});
    trace.tokens = toTokens(std::move(targetTexts).value(), trace.notices);       // T_q
    trace.keyTokens = toTokens(std::move(sourceTexts).value(), trace.notices);    // T_k
    if (auto over = checkLessonBudget(lesson, trace.tokenCount(), trace.keyCount(), 1); !over.ok()) return over.error();
    auto embedding = embedTokens(lesson, trace.tokens, trace.notices);            // T_q×d
    if (!embedding) return Error{ErrorId::WhereTargetSentence, embedding.error().messageForm()};
    trace.embedding = std::move(embedding).value();
    trace.positional = positionalRows(lesson, trace.tokenCount(), &trace.notices);  // T_q×d
    auto keyEmbedding = embedTokens(lesson, trace.keyTokens, trace.notices);     // T_k×d
    if (!keyEmbedding) return Error{ErrorId::WhereSourceSentence, keyEmbedding.error().messageForm()};
    const Mat sourceEmbedding = std::move(keyEmbedding).value();
    const Mat sourcePositional = positionalRows(lesson, trace.keyCount(), &trace.notices);  // T_k×d, from position 0
    const Mat Xq = inputOf(trace.embedding, trace.positional, trace);            // T_q×d
    const Mat Xkv = inputOf(sourceEmbedding, sourcePositional, trace);           // T_k×d
    if (auto bad = checkHeadsExist(settings.ablate, 1, lesson.numHeads, ErrorText(ErrorId::WhereAblateCross));
        !bad.ok())
        return bad.error();
    runCrossLayer(lesson, lesson.layers[0], Xq, Xkv, settings.ablate, trace);
    return trace;
}

void runCrossLayer(const Lesson& lesson, const LessonLayer& layer, const Mat& Xq, const Mat& Xkv,
                   const std::vector<HeadRef>& ablate, Trace& trace) {
    trace.hasOutputProjection = layer.wo.size() > 0;
    AttentionOptions options;
    options.scaled = lesson.scale;
    options.handRounding = trace.handRounding;
    options.ablatedHeads = layerHeadMask(ablate, 0, lesson.numHeads);
    withRope(lesson, options);
    std::vector<std::string> names;
    for (const Token& t : trace.tokens) names.push_back(t.text);
    trace.layers.push_back(runCrossAttentionLayer(Xq, Xkv, headsFor(lesson, layer), layer.wo, layer.bo, options, names,
                                                  &trace.notices));
    recordKvSharing(lesson, trace.layers.back());
}

void describeLessonRun(const Lesson& lesson, const RunSettings& settings, Trace& trace) { describeRun(lesson, settings, trace); }

Result<std::vector<Trace>> runLessonBatch(const Lesson& lesson, const std::vector<std::string>& sentences,
                                          RunSettings settings) {
    int longest = 0;
    for (const std::string& s : sentences) {
        auto texts = lessonTokenize(s, lesson.lowercase);
        if (!texts) return texts.error();
        longest = std::max(longest, static_cast<int>(texts.value().size()));
    }
    settings.padTo = longest;
    std::vector<Trace> traces;
    for (const std::string& s : sentences) {
        auto trace = runLesson(lesson, s, settings);
        if (!trace) return trace.error();
        traces.push_back(std::move(trace).value());
    }
    return traces;
}

}  // namespace attnscope
