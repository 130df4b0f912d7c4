#include "core/lesson/encoder_decoder_stage.hpp"

#include <array>
#include <string>

#include "core/text/error_messages.hpp"

namespace attnscope {

namespace {

constexpr std::array kStages{EncoderDecoderStage::Encoder, EncoderDecoderStage::DecoderSelf, EncoderDecoderStage::Cross};

}  // namespace

std::string_view stageKey(EncoderDecoderStage stage) {
    switch (stage) {
        case EncoderDecoderStage::DecoderSelf: return "decoder_self";
        case EncoderDecoderStage::Cross: return "cross";
        default: return "encoder";
    }
}

std::optional<EncoderDecoderStage> stageOfKey(std::string_view key) {
    for (const EncoderDecoderStage stage : kStages)
        if (stageKey(stage) == key) return stage;
    return std::nullopt;
}

Result<EncoderDecoderStage> stageNamed(const Lesson& lesson, std::string_view name) {
    if (!lesson.encoderDecoder.present)
        return Error{"--stage", ErrorText(ErrorId::StageNeedsEncoderDecoder)};
    if (const auto stage = stageOfKey(name)) return *stage;
    return Error{"--stage", errorText(ErrorId::ExpectedFound, ErrorId::StageNames, errorText(ErrorId::Quoted, std::string(name)))};
}

int stageLayerCount(const Lesson& lesson, EncoderDecoderStage stage) {
    return stage == EncoderDecoderStage::Encoder ? static_cast<int>(lesson.layers.size()) : 1;
}

StageView withShownStageHeads(StageView view, std::vector<HeadRef> heads) {
    switch (view.stage) {
        case EncoderDecoderStage::DecoderSelf: view.decoderOff.selfAttention = std::move(heads); break;
        case EncoderDecoderStage::Cross: view.decoderOff.cross = std::move(heads); break;
        default: view.encoderOff = std::move(heads);
    }
    return view;
}

std::optional<MessageId> stageCompareUnavailable(EncoderDecoderStage stage) {
    if (stage == EncoderDecoderStage::DecoderSelf) return MessageId::CompareReadsOnlyTarget;
    return std::nullopt;
}

}  // namespace attnscope
