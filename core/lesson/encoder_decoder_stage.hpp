#pragma once
// The stages of an encoder–decoder lesson (run_encoder_decoder.hpp) by the names the command
// line's --stage takes: "encoder" and the lesson file's keys of the decoder's two attentions,
// "decoder_self" and "cross"; the heads a stage switches off, and whether Compare means anything on it.
#include <optional>
#include <string_view>
#include <vector>

#include "core/base/result.hpp"
#include "core/lesson/run_encoder_decoder.hpp"
#include "core/text/message_id.hpp"

namespace attnscope {

// "encoder", "decoder_self" or "cross".
std::string_view stageKey(EncoderDecoderStage stage);
// The stage of that name (a saved session's), whatever the lesson; none for another name.
std::optional<EncoderDecoderStage> stageOfKey(std::string_view key);
// --stage NAME on `lesson`. Errors (where "--stage"): a lesson without "encoder_decoder", a name
// that is none of the three (both in the reader's language).
Result<EncoderDecoderStage> stageNamed(const Lesson& lesson, std::string_view name);
// The layers the stage runs: the lesson's for the encoder, one for each of the decoder's.
int stageLayerCount(const Lesson& lesson, EncoderDecoderStage stage);
// `view` with its shown stage's heads off replaced by `heads` (the other stages' kept).
StageView withShownStageHeads(StageView view, std::vector<HeadRef> heads);
// Why sentence B (another source) cannot be compared on `stage`: the decoder's masked
// self-attention never reads the source, so B would give the same numbers. None for the others.
std::optional<MessageId> stageCompareUnavailable(EncoderDecoderStage stage);

}  // namespace attnscope
