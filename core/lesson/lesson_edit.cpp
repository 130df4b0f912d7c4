// The lesson editor's structural changes: words of the embedding table and the dimensions.
#include "core/lesson/lesson_edit.hpp"

#include <algorithm>
#include <tuple>

#include "core/lesson/lesson_block_edit.hpp"
#include "core/lesson/lesson_tokenizer.hpp"
#include "core/text/error_messages.hpp"

namespace attnscope {

namespace {

const std::string kEmbeddings = "embeddings";

// A table word must be what the tokenizer makes of it, else no sentence could ever look it up.
Result<void> checkWord(const Lesson& lesson, const std::string& word) {
    if (word.empty()) return Error{kEmbeddings, errorText(ErrorId::ExpectedFound, ErrorId::AWord, ErrorId::Nothing)};
    auto tokens = lessonTokenize(word, lesson.lowercase);
    if (!tokens) return tokens.error();
    if (tokens.value().size() != 1 || tokens.value()[0] != word) {
        std::string read;
        for (const std::string& t : tokens.value()) read += (read.empty() ? "" : " | ") + t;
        return Error{kEmbeddings, errorText(ErrorId::WordNotOneToken, word, tokens.value().size(), read)};
    }
    if (lesson.findEmbedding(word)) return Error{kEmbeddings, errorText(ErrorId::WordAlreadyInTable, word)};
    return {};
}

using Embeddings = std::vector<std::pair<std::string, RowVec>>;

Embeddings::const_iterator findWord(const Embeddings& table, const std::string& word) {
    return std::find_if(table.begin(), table.end(), [&](const auto& entry) { return entry.first == word; });
}

Error notInTable(const std::string& word) { return Error{kEmbeddings, errorText(ErrorId::WordNotInTable, word)}; }

// The top-left block of `m` that fits rows×cols, zeros around it. An empty matrix stays empty
// (an absent W_O or bias stays absent).
template <class M>
M resized(const M& m, Eigen::Index rows, Eigen::Index cols) {
    if (m.size() == 0) return m;
    M out = M::Zero(rows, cols);
    const Eigen::Index r = std::min(rows, m.rows()), c = std::min(cols, m.cols());
    out.topLeftCorner(r, c) = m.topLeftCorner(r, c);
    return out;
}

Result<void> checkRange(int value, int hi, const char* field) {
    if (value >= 1 && value <= hi) return {};
    return Error{field, errorText(ErrorId::ExpectedFound, errorText(ErrorId::AWholeNumberFrom, 1, hi), value)};
}

Result<void> checkDimensions(const Lesson& lesson, const LessonDimensions& dims) {
    for (const auto& [value, hi, field] : {std::tuple{dims.dModel, 4096, "d_model"}, std::tuple{dims.numHeads, 64, "heads"},
                                           std::tuple{dims.dK, 4096, "d_k"}, std::tuple{dims.dV, 4096, "d_v"}})
        if (auto e = checkRange(value, hi, field); !e.ok()) return e;
    if (!lesson.projections && (dims.dK != dims.dModel || dims.dV != dims.dModel))
        return Error{"d_k", errorText(ErrorId::NoProjectionsDims, dims.dModel)};
    if (dims.numKvHeads < 0 || dims.numKvHeads > dims.numHeads || (dims.numKvHeads > 0 && dims.numHeads % dims.numKvHeads != 0))
        return Error{"kv_heads", errorText(ErrorId::ExpectedFound, errorText(ErrorId::ADivisorOfHeads, dims.numHeads), dims.numKvHeads)};
    return {};
}

// Key/value head g takes W_K, W_V (b_K, b_V) of its first query head; the query heads keep W_Q, b_Q.
void groupKeyValues(const Lesson& lesson, LessonLayer& layer) {
    if (!lesson.sharesKeyValues() || !lesson.projections) return;
    const int group = lesson.numHeads / lesson.kvHeadCount();
    layer.kvHeads.clear();
    for (int g = 0; g < lesson.kvHeadCount(); ++g) {
        HeadWeights kv = layer.heads[static_cast<std::size_t>(g * group)];
        kv.wq = Mat();
        kv.bq = RowVec();
        layer.kvHeads.push_back(std::move(kv));
    }
    for (HeadWeights& w : layer.heads) w = HeadWeights{w.wq, {}, {}, w.bq, {}, {}};
}

HeadWeights resizedHead(const HeadWeights& w, const LessonDimensions& dims) {
    HeadWeights out;
    out.wq = resized(w.wq, dims.dModel, dims.dK);
    out.wk = resized(w.wk, dims.dModel, dims.dK);
    out.wv = resized(w.wv, dims.dModel, dims.dV);
    out.bq = resized(w.bq, 1, dims.dK);
    out.bk = resized(w.bk, 1, dims.dK);
    out.bv = resized(w.bv, 1, dims.dV);
    return out;
}

void resizeLayer(LessonLayer& layer, bool projections, const LessonDimensions& dims) {
    if (projections) {
        HeadWeights zero;
        zero.wq = zero.wk = Mat::Zero(dims.dModel, dims.dK);
        zero.wv = Mat::Zero(dims.dModel, dims.dV);
        for (HeadWeights& w : layer.heads) w = resizedHead(w, dims);
        layer.heads.resize(dims.numHeads, zero);
    }
    layer.wo = resized(layer.wo, static_cast<Eigen::Index>(dims.numHeads) * dims.dV, dims.dModel);
    layer.bo = resized(layer.bo, 1, dims.dModel);
}

// `layer` (still as in `before`) in `after`'s dimensions: every head first gets its own K and V,
// then they are grouped again as `after` groups them.
void resizeRegrouped(const Lesson& before, const Lesson& after, LessonLayer& layer, const LessonDimensions& dims) {
    if (after.projections) layer.heads = repeatKeyValues(before, layer);
    layer.kvHeads.clear();
    resizeLayer(layer, after.projections, dims);
    groupKeyValues(after, layer);
}

}  // namespace

Result<Lesson> addLessonWord(const Lesson& lesson, const std::string& word) {
    if (auto e = checkWord(lesson, word); !e.ok()) return e.error();
    Lesson out = lesson;
    out.embeddings.emplace_back(word, RowVec::Zero(lesson.dModel));
    addVocabularyWord(out);  // an own output head gains the word's (zero) column
    return out;
}

Result<Lesson> renameLessonWord(const Lesson& lesson, const std::string& from, const std::string& to) {
    const auto at = findWord(lesson.embeddings, from);
    if (at == lesson.embeddings.end()) return notInTable(from);
    if (from == to) return lesson;
    if (auto e = checkWord(lesson, to); !e.ok()) return e.error();
    Lesson out = lesson;
    out.embeddings[at - lesson.embeddings.begin()].first = to;
    return out;
}

Result<Lesson> deleteLessonWord(const Lesson& lesson, const std::string& word) {
    const auto at = findWord(lesson.embeddings, word);
    if (at == lesson.embeddings.end()) return notInTable(word);
    Lesson out = lesson;
    out.embeddings.erase(out.embeddings.begin() + (at - lesson.embeddings.begin()));
    deleteVocabularyWord(out, static_cast<int>(at - lesson.embeddings.begin()));
    if (auto e = validateLesson(out, out.title.in("")); !e.ok()) return e.error();  // e.g. a head needs a word
    return out;
}

namespace {

// The block's weights (null when the lesson lacks the part).
Mat* blockMatrix(LessonBlock& b, LessonMatrixKind kind) {
    const auto present = [](Mat& m) { return m.size() ? &m : nullptr; };
    switch (kind) {
        case LessonMatrixKind::NormGamma: return present(b.norm.gamma);
        case LessonMatrixKind::NormBeta: return present(b.norm.beta);
        case LessonMatrixKind::FinalNormGamma: return present(b.finalNorm.gamma);
        case LessonMatrixKind::FinalNormBeta: return present(b.finalNorm.beta);
        case LessonMatrixKind::FfnGate: return present(b.ffn.wGate);
        case LessonMatrixKind::FfnIn: return present(b.ffn.wIn);
        case LessonMatrixKind::FfnOut: return present(b.ffn.wOut);
        case LessonMatrixKind::Vocab: return b.tied ? nullptr : present(b.wVocab);
        default: return nullptr;
    }
}

// The layer whose W_Q, W_K, W_V or W_O `ref` names; null when there is none.
LessonLayer* attentionLayer(Lesson& lesson, const LessonMatrixRef& ref) {
    LessonEncoderDecoder& ed = lesson.encoderDecoder;
    if (ref.part != LessonLayerPart::Encoder)
        return ed.present && ref.layer == 0 ? (ref.part == LessonLayerPart::Cross ? &ed.cross : &ed.decoderSelf) : nullptr;
    if (ref.layer < 0 || ref.layer >= static_cast<int>(lesson.layers.size())) return nullptr;
    return &lesson.layers[static_cast<std::size_t>(ref.layer)];
}

}  // namespace

Mat* lessonMatrix(Lesson& lesson, const LessonMatrixRef& ref) {
    LessonEncoderDecoder& ed = lesson.encoderDecoder;
    if (ref.kind == LessonMatrixKind::Embeddings) return nullptr;
    if (ref.kind == LessonMatrixKind::Vocab && ed.present) return &ed.wVocab;
    if (static_cast<int>(ref.kind) >= static_cast<int>(LessonMatrixKind::NormGamma)) return blockMatrix(lesson.block, ref.kind);
    if (ref.kind == LessonMatrixKind::Positional) return lesson.positional == PositionalKind::Table ? &lesson.positionalTable : nullptr;
    LessonLayer* chosen = attentionLayer(lesson, ref);
    if (!chosen) return nullptr;
    LessonLayer& layer = *chosen;
    if (ref.kind == LessonMatrixKind::WO) return layer.wo.size() ? &layer.wo : nullptr;
    const bool shared = lesson.sharesKeyValues() && ref.kind != LessonMatrixKind::WQ;
    std::vector<HeadWeights>& list = shared ? layer.kvHeads : layer.heads;
    if (!lesson.projections || ref.head < 0 || ref.head >= static_cast<int>(list.size())) return nullptr;
    HeadWeights& w = list[static_cast<std::size_t>(ref.head)];
    return ref.kind == LessonMatrixKind::WQ ? &w.wq : ref.kind == LessonMatrixKind::WK ? &w.wk : &w.wv;
}

LessonDimensions dimensionsOf(const Lesson& lesson) {
    return {lesson.dModel, lesson.numHeads, lesson.dK, lesson.dV, lesson.numKvHeads};
}

Result<Lesson> resizeLesson(const Lesson& lesson, const LessonDimensions& dims) {
    if (auto e = checkDimensions(lesson, dims); !e.ok()) return e.error();
    Lesson out = lesson;
    std::tie(out.dModel, out.numHeads, out.dK, out.dV) = std::tuple{dims.dModel, dims.numHeads, dims.dK, dims.dV};
    for (auto& entry : out.embeddings) entry.second = resized(entry.second, 1, dims.dModel);
    if (!out.featureNames.empty()) {
        const int kept = static_cast<int>(out.featureNames.size());
        out.featureNames.resize(dims.dModel);
        for (int i = kept; i < dims.dModel; ++i) out.featureNames[i] = LocalizedText(std::to_string(i + 1));  // as the headers count
    }
    if (out.positionalTable.size()) out.positionalTable = resized(out.positionalTable, out.positionalTable.rows(), dims.dModel);
    out.numKvHeads = dims.numKvHeads == dims.numHeads ? 0 : dims.numKvHeads;
    for (LessonLayer& layer : out.layers) resizeRegrouped(lesson, out, layer, dims);
    LessonEncoderDecoder& ed = out.encoderDecoder;
    if (ed.present) {  // the decoder shares every dimension with the encoder
        resizeRegrouped(lesson, out, ed.decoderSelf, dims);
        resizeRegrouped(lesson, out, ed.cross, dims);
        ed.wVocab = resized(ed.wVocab, dims.dModel, ed.wVocab.cols());
    }
    resizeLessonBlock(out, dims.dModel);
    if (auto e = validateLesson(out, out.title.in("")); !e.ok()) return e.error();
    return out;
}

namespace {

LocalizedText titleOf(const NewLessonSpec& spec) {
    if (spec.chineseTitle.empty() || spec.englishTitle.empty())
        return LocalizedText(spec.englishTitle.empty() ? spec.chineseTitle : spec.englishTitle);
    LocalizedText title;
    title.set("en", spec.englishTitle);
    title.set("zh_CN", spec.chineseTitle);
    return title;
}

}  // namespace

Result<Lesson> newLesson(const NewLessonSpec& spec) {
    Lesson lesson;
    lesson.title = titleOf(spec);
    lesson.sentence = spec.words;
    lesson.projections = spec.projections;
    lesson.scale = spec.scale;
    lesson.causalMask = spec.causalMask;
    lesson.decimals = spec.decimals;
    const int width = spec.projections ? spec.dK : spec.dModel;
    if (auto e = checkDimensions(lesson, {spec.dModel, spec.numHeads, width, width, spec.numKvHeads}); !e.ok()) return e.error();
    std::tie(lesson.dModel, lesson.numHeads, lesson.dK, lesson.dV) = std::tuple{spec.dModel, spec.numHeads, width, width};
    lesson.numKvHeads = spec.numKvHeads == spec.numHeads ? 0 : spec.numKvHeads;
    if (!spec.featureNames.empty() && static_cast<int>(spec.featureNames.size()) != spec.dModel)
        return Error{"features", errorText(ErrorId::ExpectedFound, errorText(ErrorId::AListOfNames, spec.dModel),
                                           spec.featureNames.size())};
    for (const std::string& name : spec.featureNames) lesson.featureNames.emplace_back(name);
    auto tokens = lessonTokenize(spec.words, lesson.lowercase);
    if (!tokens) return tokens.error();
    for (const std::string& token : tokens.value())
        if (!lesson.findEmbedding(token)) lesson.embeddings.emplace_back(token, RowVec::Zero(spec.dModel));
    lesson.layers.assign(1, LessonLayer{});
    if (spec.projections) {  // without them a lesson file has no heads_weights either
        HeadWeights zero;
        zero.wq = zero.wk = zero.wv = Mat::Zero(spec.dModel, width);
        lesson.layers[0].heads.assign(static_cast<std::size_t>(spec.numHeads), zero);
        groupKeyValues(lesson, lesson.layers[0]);
    }
    if (auto e = validateLesson(lesson, lesson.title.in("")); !e.ok()) return e.error();
    return lesson;
}

namespace {

// An unchanged text stays as it was; a plain text (every language's) edited in one language stays
// the other interface language's.
void setText(LocalizedText& text, const std::string& language, const std::string& value) {
    if (text.in(language) == value) return;
    if (text.isPlain() && !text.empty()) {
        const std::string kept = text.in("");
        text = LocalizedText();
        text.set(language == "zh_CN" ? "en" : "zh_CN", kept);
    }
    text.set(language, value);
}

}  // namespace

LessonSettings settingsOf(const Lesson& lesson, const std::string& language) {
    LessonSettings settings{lesson.title.in(language), lesson.description.in(language), textsIn(lesson.featureNames, language),
                            lesson.scale, lesson.causalMask, lesson.unknownWords, lesson.positional,
                            lesson.ropeBase, lesson.ropeInterleaved};
    return settings;
}

Result<Lesson> applyLessonSettings(const Lesson& lesson, const LessonSettings& settings, const std::string& language) {
    const auto names = static_cast<int>(settings.featureNames.size());
    if (names != 0 && names != lesson.dModel)
        return Error{"features", errorText(ErrorId::ExpectedFound, errorText(ErrorId::AListOfNames, lesson.dModel), names)};
    Lesson out = lesson;
    setText(out.title, language, settings.title);
    setText(out.description, language, settings.description);
    if (names == 0) out.featureNames.clear();
    out.featureNames.resize(static_cast<std::size_t>(names));
    for (std::size_t i = 0; i < settings.featureNames.size(); ++i) setText(out.featureNames[i], language, settings.featureNames[i]);
    out.scale = settings.scale;
    out.causalMask = settings.causalMask;
    out.unknownWords = settings.unknownWords;
    if (settings.positional == PositionalKind::Table && lesson.positionalTable.size() == 0)
        return Error{"positional_encoding.table", ErrorText(ErrorId::IsMissing)};
    out.positional = settings.positional;
    out.ropeBase = settings.ropeBase;
    out.ropeInterleaved = settings.ropeInterleaved;
    if (auto e = validateLesson(out, out.title.in("")); !e.ok()) return e.error();
    return out;
}

}  // namespace attnscope
