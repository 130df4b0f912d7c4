#include "core/source/session.hpp"

#include "core/lesson/encoder_decoder_stage.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/text/error_messages.hpp"

namespace attnscope {

Result<void> Session::runAndKeep(const Lesson& lesson, const std::string& sentence, const std::vector<HeadRef>& headsOff,
                                 const DecoderHeadsOff& decoderOff) {
    RunSettings settings;
    settings.ablate = headsOff;
    if (lesson.encoderDecoder.present) {
        auto run = runEncoderDecoder(lesson, sentence, settings, decoderOff);
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
    if (auto error = runAndKeep(lesson, lesson.sentence, {}, {}); !error.ok()) return error;
    sentence_ = lesson.sentence;
    lesson_ = std::move(lesson);
    stage_ = EncoderDecoderStage::Encoder;
    ablate_.clear();
    decoderOff_ = {};
    hasLesson_ = true;
    return {};
}

Result<void> Session::setSentence(std::string sentence) {
    if (auto error = runAndKeep(lesson_, sentence, ablate_, decoderOff_); !error.ok()) return error;
    sentence_ = std::move(sentence);
    return {};
}

Result<void> Session::rerun() {
    if (auto invalid = validateLesson(lesson_, lesson_.title.in("")); !invalid.ok()) return invalid;
    return runAndKeep(lesson_, sentence_, ablate_, decoderOff_);
}

Result<void> Session::setAblation(std::vector<HeadRef> heads) {
    const StageView shown{stages_ ? stage_ : EncoderDecoderStage::Encoder, ablate_, decoderOff_};
    StageView view = withShownStageHeads(shown, std::move(heads));
    if (auto error = runAndKeep(lesson_, sentence_, view.encoderOff, view.decoderOff); !error.ok()) return error;
    ablate_ = std::move(view.encoderOff);
    decoderOff_ = std::move(view.decoderOff);
    return {};
}

const std::vector<HeadRef>& Session::ablation(EncoderDecoderStage stage) const {
    switch (stage) {
        case EncoderDecoderStage::DecoderSelf: return decoderOff_.selfAttention;
        case EncoderDecoderStage::Cross: return decoderOff_.cross;
        default: return ablate_;
    }
}

Result<void> Session::setStage(EncoderDecoderStage stage) {
    if (!stages_) return Error{ErrorId::WhereLesson, ErrorId::NoEncoderDecoder};
    stage_ = stage;
    return {};
}

}  // namespace attnscope
