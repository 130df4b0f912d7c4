#include "core/source/session.hpp"

#include "core/lesson/run_lesson.hpp"
#include "core/text/error_messages.hpp"

namespace attnscope {

Result<void> Session::runAndKeep(const Lesson& lesson, const std::string& sentence, const RunSettings& settings) {
    if (lesson.encoderDecoder.present) {
        auto run = runEncoderDecoder(lesson, sentence, settings);
        if (!run) return run.error();
        stages_ = std::move(run).value();
        trace_ = Trace{};
        return {};
    }
    auto run = runLesson(lesson, sentence, settings);
    if (!run) return run.error();
    trace_ = std::move(run).value();
    stages_.reset();
    return {};
}

Result<void> Session::openLesson(Lesson lesson) {
    if (auto invalid = validateLesson(lesson, lesson.title.in("")); !invalid.ok()) return invalid;
    if (auto error = runAndKeep(lesson, lesson.sentence, RunSettings{}); !error.ok()) return error;
    sentence_ = lesson.sentence;
    lesson_ = std::move(lesson);
    stage_ = EncoderDecoderStage::Encoder;
    ablate_.clear();
    hasLesson_ = true;
    return {};
}

Result<void> Session::setSentence(std::string sentence) {
    if (auto error = runAndKeep(lesson_, sentence, settings()); !error.ok()) return error;
    sentence_ = std::move(sentence);
    return {};
}

Result<void> Session::rerun() {
    if (auto invalid = validateLesson(lesson_, lesson_.title.in("")); !invalid.ok()) return invalid;
    return runAndKeep(lesson_, sentence_, settings());
}

Result<void> Session::setAblation(std::vector<HeadRef> heads) {
    RunSettings ablated;
    ablated.ablate = heads;
    if (auto error = runAndKeep(lesson_, sentence_, ablated); !error.ok()) return error;
    ablate_ = std::move(heads);
    return {};
}

Result<void> Session::setStage(EncoderDecoderStage stage) {
    if (!stages_) return Error{ErrorId::WhereLesson, ErrorId::NoEncoderDecoder};
    stage_ = stage;
    return {};
}

RunSettings Session::settings() const {
    RunSettings settings;
    settings.ablate = ablate_;
    return settings;
}

}  // namespace attnscope
