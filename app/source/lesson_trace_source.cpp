#include "app/source/lesson_trace_source.hpp"

#include <algorithm>

#include "app/sentence_runners.hpp"
#include "core/lesson/encoder_decoder_stage.hpp"
#include "core/text/messages.hpp"
#include "core/trace/kv_cost.hpp"
#include "ui/common/qt_text.hpp"
#include "ui/common/core_error_text.hpp"
#include "ui/common/core_language.hpp"
#include "ui/step/stage_bar.hpp"

namespace attnscope {

LessonTraceSource::LessonTraceSource(QObject* parent) : TraceSource(parent) { setObjectName("lessonSource"); }

Result<void> LessonTraceSource::open(Lesson lesson) {
    if (auto error = session_.openLesson(std::move(lesson)); !error.ok()) return error;
    trace_ = std::make_shared<const Trace>(session_.trace());
    return {};
}

// The Edit lesson tab always; an encoder–decoder's stages too.
bool LessonTraceSource::offers(Offer offer) const {
    return offer == Offer::LessonEditor || (offer == Offer::Stages && session_.encoderDecoder() != nullptr);
}

QString LessonTraceSource::name() const { return qs(session_.lesson().title); }
// The lesson's own words, then (grouped-query lessons) what sharing keys costs, as --print shows it.
QString LessonTraceSource::description() const {
    QString text = qs(session_.lesson().description);
    if (!session_.hasLesson()) return text;
    const std::vector<std::string> costs = keyValueCostLines(session_.trace(), coreLanguage());
    for (std::size_t i = 0; i < costs.size(); ++i) text += (i == 0 ? "\n\n" : "\n  ") + QString::fromStdString(costs[i]);
    return text;
}

void LessonTraceSource::run(const QString& sentence, int /*layer*/) {
    if (!session_.hasLesson()) return;
    const QByteArray utf8 = sentence.toUtf8();
    if (auto error = session_.setSentence(utf8.toStdString()); !error.ok())
        return emit runFailed(tr("The sentence could not be run (%1); the previous result stays shown.")
                                  .arg(coreErrorText(error.error())),
                              false);
    publish();
}

void LessonTraceSource::setAblation(std::vector<HeadRef> heads) {
    if (!session_.hasLesson()) return;
    if (auto error = session_.setAblation(std::move(heads)); !error.ok())
        return emit runFailed(tr("The sentence could not be run (%1); the previous result stays shown.")
                                  .arg(coreErrorText(error.error())),
                              false);
    publish();
}

bool LessonTraceSource::rerun() {
    if (auto error = session_.rerun(); !error.ok()) {
        emit runFailed(tr("The edited lesson could not be run (%1); the previous result stays shown.")
                           .arg(coreErrorText(error.error())),
                       false);
        return false;
    }
    publish();
    return true;
}

// A lesson opens on its own sentence.
QString LessonTraceSource::openingSentence(const QString& /*typed*/) const { return qs(session_.sentence()); }

void LessonTraceSource::publish() {
    trace_ = std::make_shared<const Trace>(session_.trace());
    emit traceChanged();
    emit workedTraceChanged();
}

void LessonTraceSource::showStages(StageBar& bar) const {
    if (const EncoderDecoderRun* run = session_.encoderDecoder()) bar.showRun(*run, session_.stage(), decimals());
}

// Every stage ran with the sentence: the switch shows another of them, nothing is computed.
void LessonTraceSource::setStage(EncoderDecoderStage stage) {
    if (auto error = session_.setStage(stage); !error.ok())
        return emit runFailed(tr("The stage could not be shown (%1); the previous result stays shown.")
                                  .arg(coreErrorText(error.error())),
                              false);
    publish();
}

// Sentence B is another source; the decoder's masked self-attention never reads the source.
QString LessonTraceSource::compareUnavailable() const {
    if (!session_.encoderDecoder()) return {};
    const auto why = stageCompareUnavailable(session_.stage());  // core's reason, as compare --stage refuses
    return why ? qs(std::string(message(*why, coreLanguage()))) : QString();
}

// A coreference set asks where a pronoun's row of a sentence's attention looks within that same
// sentence: the decoder's masked self-attention never reads the sentence, and the cross-attention's
// rows are the decoder's words, its columns the sentence's.
QString LessonTraceSource::corefEvaluationUnavailable() const {
    if (!session_.encoderDecoder() || session_.stage() == EncoderDecoderStage::Encoder) return {};
    return tr("A coreference set ranks heads by where a pronoun looks within its own sentence; this decoder stage's "
              "rows are the target words, not the sentence's. Evaluate on the encoder stage.");
}

// Every layer is in the lesson's trace already.
void LessonTraceSource::showLayer(int /*layer*/) { emit workedTraceChanged(); }

int LessonTraceSource::workedLayer(int layer) const {
    return std::clamp(layer, 0, std::max(0, session_.trace().layerCount() - 1));
}

// An encoder–decoder's runners run the shown stage, with every stage's heads off as shown.
std::optional<StageView> LessonTraceSource::stageView() const {
    if (!session_.encoderDecoder()) return std::nullopt;
    return session_.stageView();
}

// Copied, so edits made while an evaluation runs do not reach into it.
SentenceRunner LessonTraceSource::sentenceRunner(std::vector<HeadRef> ablate) const {
    if (!session_.hasLesson()) return {};
    return lessonSentenceRunner(std::make_shared<const Lesson>(session_.lesson()), std::move(ablate), stageView());
}

NormSentenceRunner LessonTraceSource::normSentenceRunner(std::vector<HeadRef> ablate) const {
    if (!session_.hasLesson()) return {};
    return lessonNormSentenceRunner(std::make_shared<const Lesson>(session_.lesson()), std::move(ablate), stageView());
}

StatesSentenceRunner LessonTraceSource::statesRunner(std::vector<HeadRef> ablate) const {
    if (!session_.hasLesson()) return {};
    return lessonStatesRunner(std::make_shared<const Lesson>(session_.lesson()), std::move(ablate), stageView());
}

}  // namespace attnscope
