// The lesson's encoder–decoder part (format version 8): reading, checking, writing.
// Shape legend: d model width, H heads, d_v value width, V_t the output head's words.
#include "core/lesson/lesson_encoder_decoder.hpp"

#include <algorithm>

#include "core/lesson/lesson_tokenizer.hpp"

namespace attnscope {

using namespace lesson_fields;
using json::fail;
using json::need;

namespace {

LessonLayer readStage(const Field& part, const std::string& key, const Lesson& lesson) {
    const Field stage = need(part.member(key));
    need(stage.requireObject(ErrorId::AnObjectWithHeadsWO));
    return readLayerWeights(stage, lesson);
}

// {"vocabulary": [V_t words], "W_vocab": d×V_t, "b_vocab": [V_t]}.
void readOutputHead(const Field& part, const Lesson& lesson, LessonEncoderDecoder& ed) {
    const Field head = need(part.member("output_head"));
    need(head.requireObject());
    const Field words = need(head.member("vocabulary"));
    const auto list = need(words.elements(ErrorId::AListOfWords));
    if (list.empty() || list.size() > 4096) fail(words.expected(ErrorId::AListOfWords));
    for (const Field& word : list) {
        std::string text = need(word.text());
        if (std::find(ed.vocabulary.begin(), ed.vocabulary.end(), text) != ed.vocabulary.end())
            fail(word.error(errorText(ErrorId::WordTwice, text)));
        ed.vocabulary.push_back(std::move(text));
    }
    const auto V = static_cast<Eigen::Index>(ed.vocabulary.size());
    ed.wVocab = readMatrix(need(head.member("W_vocab")), lesson.dModel, V, errorText(ErrorId::ShapeVocabTarget, V));
    if (const auto bias = need(head.optionalMember("b_vocab"))) ed.bVocab = readVector(*bias, V);
}

std::string joined(const std::vector<std::string>& words) {
    std::string list;
    for (const std::string& w : words) list += (list.empty() ? "" : ", ") + w;
    return list;
}

// The encoder's output M = X + its last layer's attention output, so that output is d wide.
Result<void> validateEncoderOutput(const Lesson& lesson, const std::string& source) {
    const int concatWidth = lesson.numHeads * lesson.dV;
    if (lesson.layers.empty() || lesson.layers.back().wo.size() || concatWidth == lesson.dModel) return {};
    const std::string layer = lesson.residual ? "layers[" + std::to_string(lesson.layers.size() - 1) + "]." : "";
    return Error{source + ": " + layer + "W_O", errorText(ErrorId::EncoderOutputWidth, lesson.dModel, concatWidth)};
}

Result<void> validateVocabulary(const LessonEncoderDecoder& ed, int d, const std::string& at) {
    const auto& words = ed.vocabulary;
    if (words.empty() || std::find(words.begin(), words.end(), kEndToken) == words.end())
        return Error{at + "vocabulary", errorText(ErrorId::ExpectedFound, ErrorId::VocabularyWithEnd,
                                                  words.empty() ? ErrorText(ErrorId::Nothing) : ErrorText::verbatim(joined(words)))};
    for (std::size_t i = 0; i < words.size(); ++i)
        if (std::find(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(i), words[i]) != words.begin() + static_cast<std::ptrdiff_t>(i))
            return Error{at + "vocabulary", errorText(ErrorId::WordTwice, words[i])};
    const auto V = static_cast<Eigen::Index>(words.size());
    if (auto e = checkShape(ed.wVocab, d, V, at + "W_vocab"); !e.ok()) return e;
    if (auto e = checkFinite(ed.wVocab, at + "W_vocab"); !e.ok()) return e;
    if (ed.bVocab.size() == 0) return {};
    if (auto e = checkShape(ed.bVocab, 1, V, at + "b_vocab"); !e.ok()) return e;
    return checkFinite(ed.bVocab, at + "b_vocab");
}

}  // namespace

void readEncoderDecoder(const Field& doc, int version, Lesson& lesson) {
    const auto part = need(doc.optionalMember("encoder_decoder"));
    if (!part) return;
    if (version < 8) fail(part->error(ErrorId::EncoderDecoderNeedsV8));
    need(part->requireObject(ErrorId::AnObjectEncoderDecoder));
    if (doc.has("block")) fail(Error{doc.whereOf("block"), ErrorId::BlockWithEncoderDecoder});
    LessonEncoderDecoder& ed = lesson.encoderDecoder;
    ed.present = true;
    need(part->member("target"));
    ed.target = readString(*part, "target", "");
    ed.decoderSelf = readStage(*part, "decoder_self", lesson);
    ed.cross = readStage(*part, "cross", lesson);
    readOutputHead(*part, lesson, ed);
}

Json encoderDecoderJson(const Lesson& lesson) {
    const LessonEncoderDecoder& ed = lesson.encoderDecoder;
    Json head = {{"vocabulary", ed.vocabulary}, {"W_vocab", matrixJson(ed.wVocab)}};
    if (ed.bVocab.size()) head["b_vocab"] = vectorJson(ed.bVocab);
    return Json{{"target", ed.target},
                {"decoder_self", layerWeightsJson(lesson, ed.decoderSelf)},
                {"cross", layerWeightsJson(lesson, ed.cross)},
                {"output_head", std::move(head)}};
}

Result<TeacherForcing> teacherForcing(const Lesson& lesson) {
    const std::string at = "encoder_decoder.target";
    auto words = lessonTokenize(lesson.encoderDecoder.target, lesson.lowercase);
    if (!words) return Error{at, words.error().messageForm()};
    if (words.value().empty()) return Error{at, errorText(ErrorId::ExpectedFound, ErrorId::AtLeastOneWord, ErrorId::Nothing)};
    TeacherForcing tf;
    tf.decoderInput.push_back(kStartToken);
    for (const std::string& w : words.value()) {
        tf.decoderInput.push_back(w);
        tf.labels.push_back(w);
    }
    tf.labels.push_back(kEndToken);
    return tf;
}

Result<void> validateEncoderDecoder(const Lesson& lesson, const std::string& source) {
    const LessonEncoderDecoder& ed = lesson.encoderDecoder;
    if (!ed.present) return {};
    if (lesson.block.present()) return Error{source + ": block", ErrorId::BlockWithEncoderDecoder};
    if (auto e = validateEncoderOutput(lesson, source); !e.ok()) return e;
    const std::string at = source + ": encoder_decoder.";
    if (auto e = validateLayerWeights(lesson, ed.decoderSelf, at + "decoder_self.", true); !e.ok()) return e;
    if (auto e = validateLayerWeights(lesson, ed.cross, at + "cross.", true); !e.ok()) return e;
    if (auto e = validateVocabulary(ed, lesson.dModel, at + "output_head."); !e.ok()) return e;
    auto tf = teacherForcing(lesson);
    if (!tf) return Error{source + ": " + tf.error().where, tf.error().messageForm()};
    for (const std::string& label : tf.value().labels)
        if (std::find(ed.vocabulary.begin(), ed.vocabulary.end(), label) == ed.vocabulary.end())
            return Error{at + "target", errorText(ErrorId::ExpectedFound, errorText(ErrorId::WordsOfVocabulary, joined(ed.vocabulary)),
                                                  errorText(ErrorId::Quoted, label))};
    return {};
}

}  // namespace attnscope
