#include "app/cli_analysis_source.hpp"

#include "app/cli_support.hpp"
#include "app/lesson_source.hpp"
#include "app/sentence_runners.hpp"
#include "core/text/error_messages.hpp"
#include "core/text/messages.hpp"
#include "ui/common/core_language.hpp"
#include "ui/common/qt_text.hpp"

namespace attnscope {

namespace {

AnalysisSource modelSource(std::shared_ptr<const OpenedModel> model, std::vector<HeadRef> ablate) {
    AnalysisSource source;
    source.description = std::string(message(MessageId::LabelModel, coreLanguage())) + modelShapeText(*model, coreLanguage());
    source.jsonDescription = "model: " + modelShapeText(*model, Language::English);
    source.run = modelSentenceRunner(model, -1, ablate);
    source.ablate = std::move(ablate);
    source.model = std::move(model);
    return source;
}

AnalysisSource lessonSource(std::shared_ptr<const Lesson> lesson, std::vector<HeadRef> ablate) {
    AnalysisSource source;
    source.description = std::string(message(MessageId::LabelLesson, coreLanguage())) + lesson->title.in(displayLanguage());
    source.jsonDescription = "lesson: " + lesson->title.in("en");
    source.defaultSentence = lesson->sentence;
    source.run = lessonSentenceRunner(lesson, ablate);
    source.ablate = std::move(ablate);
    return source;
}

}  // namespace

Result<AnalysisSource> openAnalysisSource(const QCommandLineParser& parser) {
    auto opened = openModelOrLesson(parser, translate("cli", "needs --model FOLDER|ID or --lesson NAME|FILE"));
    if (!opened) return opened.error();
    const auto& model = opened.value().model;
    const auto& lesson = opened.value().lesson;
    const int layers = model ? model->layerCount() : static_cast<int>(lesson->layers.size());
    const int heads = model ? model->headCount() : lesson->numHeads;
    std::vector<HeadRef> ablate;
    if (auto bad = readAblation(parser, layers, heads, ablate)) return Error{"", *bad};
    return model ? modelSource(model, std::move(ablate)) : lessonSource(lesson, std::move(ablate));
}

Result<std::string> sentenceOf(const QCommandLineParser& parser, const AnalysisSource& source) {
    if (parser.value("sentence").contains(QChar(0xFFFD)))
        return Error{"--sentence", errorText(ErrorId::ExpectedFoundNote, ErrorId::Utf8Text, ErrorId::InvalidBytes, ErrorId::ShownAsFffd)};
    std::string sentence = parser.isSet("sentence") ? parser.value("sentence").toStdString() : source.defaultSentence;
    if (sentence.empty()) return Error{"", translate("cli", "needs --sentence TEXT").toStdString()};
    return sentence;
}

Result<Trace> runAndReport(const AnalysisSource& source, const std::string& sentence) {
    auto trace = source.run(sentence);
    if (trace) notices(trace.value().notices);
    return trace;
}

}  // namespace attnscope
