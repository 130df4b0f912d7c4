#pragma once
// What the window shows: the lesson, the sentence and the last trace that ran successfully.
// A failed run never replaces the trace, so the screen always holds a valid state.
// An encoder–decoder lesson (format version 8) runs all its stages at once; trace() is the chosen
// stage's, and the teacher switches stages without a new run.
#include <optional>
#include <string>
#include <vector>

#include "core/lesson/lesson.hpp"
#include "core/lesson/run_encoder_decoder.hpp"
#include "core/base/result.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

struct RunSettings;

class Session {
public:
    // Replaces the lesson and runs it on its own sentence (an encoder–decoder from its encoder
    // stage); on error nothing changes.
    Result<void> openLesson(Lesson lesson);
    // Runs the lesson on a new sentence (an encoder–decoder's source); on error the previous trace stays.
    Result<void> setSentence(std::string sentence);
    // Runs again after the lesson was edited in place.
    Result<void> rerun();
    // Runs the sentence again with these heads switched off (0-based; empty: none), as
    // RunSettings::ablate; an encoder–decoder's are the shown stage's heads, and each stage keeps
    // its own. On error the previous heads and trace stay. A new lesson starts with none.
    Result<void> setAblation(std::vector<HeadRef> heads);
    const std::vector<HeadRef>& ablation() const { return ablation(stage_); }
    const std::vector<HeadRef>& ablation(EncoderDecoderStage stage) const;
    // The stage shown and every stage's heads off: Compare's sentence B and X → Y run it again.
    StageView stageView() const { return {stage_, ablate_, decoderOff_}; }
    // Which stage trace() is; an error (and nothing changes) for a lesson without stages.
    Result<void> setStage(EncoderDecoderStage stage);
    EncoderDecoderStage stage() const { return stage_; }
    // Every stage of the last good run with its labels; null unless the lesson is an encoder–decoder.
    const EncoderDecoderRun* encoderDecoder() const { return stages_ ? &*stages_ : nullptr; }

    bool hasLesson() const { return hasLesson_; }
    Lesson& lesson() { return lesson_; }
    const Lesson& lesson() const { return lesson_; }
    const std::string& sentence() const { return sentence_; }
    const Trace& trace() const { return stages_ ? stageTrace(*stages_, stage_) : trace_; }
    int decimals() const { return lesson_.decimals; }

private:
    // Runs `lesson` on `sentence` with these heads off and, only when that succeeds, keeps the result.
    Result<void> runAndKeep(const Lesson& lesson, const std::string& sentence, const std::vector<HeadRef>& headsOff,
                            const DecoderHeadsOff& decoderOff);

    Lesson lesson_;
    std::string sentence_;
    Trace trace_;                                  // a lesson without stages
    std::optional<EncoderDecoderRun> stages_;      // an encoder–decoder lesson
    EncoderDecoderStage stage_ = EncoderDecoderStage::Encoder;
    std::vector<HeadRef> ablate_;       // the encoder's, or a lesson's without stages
    DecoderHeadsOff decoderOff_;        // the decoder's stages'
    bool hasLesson_ = false;
};

}  // namespace attnscope
