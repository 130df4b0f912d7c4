// The stages of an encoder–decoder lesson by the command line's names (--stage,
// core/lesson/encoder_decoder_stage.hpp): the names, their refusals in English and Chinese, the
// heads a stage switches off, and why Compare is off on the decoder's masked self-attention.
#include <catch2/catch.hpp>

#include "core/lesson/encoder_decoder_stage.hpp"
#include "core/text/language.hpp"
#include "core/text/messages.hpp"
#include "builtin_lesson.hpp"

using namespace attnscope;

TEST_CASE("the option --stage names the three stages as the lesson file names the decoder's parts", "[encoder-decoder]") {
    const Lesson translation = testing::builtInLesson("translation");
    for (const auto stage : {EncoderDecoderStage::Encoder, EncoderDecoderStage::DecoderSelf, EncoderDecoderStage::Cross}) {
        auto named = stageNamed(translation, stageKey(stage));
        REQUIRE(named.ok());
        CHECK(named.value() == stage);
    }
    CHECK(stageKey(EncoderDecoderStage::DecoderSelf) == "decoder_self");
    // "decoder" is two stages (the masked self-attention and the cross-attention): refused, not guessed.
    auto unknown = stageNamed(translation, "decoder");
    REQUIRE_FALSE(unknown.ok());
    CHECK(unknown.error().text() ==
          "--stage: expected encoder, decoder_self or cross (the stages of an encoder–decoder lesson), found \"decoder\"");
    CHECK(unknown.error().textIn(Language::Chinese) ==
          "--stage: 应为 encoder、decoder_self 或 cross（编码器–解码器课程的阶段），实际为“decoder”");
    auto noDecoder = stageNamed(testing::builtInLesson("two-heads"), "encoder");
    REQUIRE_FALSE(noDecoder.ok());
    CHECK(noDecoder.error().text().rfind("--stage: chooses a stage of an encoder–decoder lesson, but this lesson has no", 0) == 0);
    // The encoder runs the lesson's layers (one here); each decoder stage is one layer.
    CHECK(stageLayerCount(translation, EncoderDecoderStage::Encoder) == 1);
    CHECK(stageLayerCount(translation, EncoderDecoderStage::Cross) == 1);
}

TEST_CASE("a stage's heads off replace that stage's alone, Compare is off on the decoder's self-attention", "[encoder-decoder]") {
    const StageView view{EncoderDecoderStage::Cross, {{0, 1}}, DecoderHeadsOff{{{0, 0}}, {}}};
    const StageView cross = withShownStageHeads(view, {{0, 2}});
    CHECK(cross.encoderOff == std::vector<HeadRef>{{0, 1}});
    CHECK(cross.decoderOff.selfAttention == std::vector<HeadRef>{{0, 0}});
    CHECK(cross.decoderOff.cross == std::vector<HeadRef>{{0, 2}});
    const StageView encoder = withShownStageHeads(StageView{EncoderDecoderStage::Encoder, {{0, 1}}, view.decoderOff}, {});
    CHECK(encoder.encoderOff.empty());
    CHECK(encoder.decoderOff.selfAttention == std::vector<HeadRef>{{0, 0}});
    CHECK_FALSE(stageCompareUnavailable(EncoderDecoderStage::Encoder));
    CHECK_FALSE(stageCompareUnavailable(EncoderDecoderStage::Cross));
    const auto why = stageCompareUnavailable(EncoderDecoderStage::DecoderSelf);
    REQUIRE(why);
    CHECK(std::string(message(*why, Language::English)).rfind("The decoder's masked self-attention reads only the target words", 0) == 0);
}
