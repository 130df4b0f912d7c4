// Editing an encoder–decoder lesson (format version 8) like any lesson: the decoder's weights and
// output head resized with the encoder's, edited through lessonMatrix, saved and read back; heads
// switched off in the stage shown; a stage run again on another source (Compare's B, X → Y).
// Every number below is worked by hand in its comment (or with numpy, sharing no code with core/).
#include <catch2/catch.hpp>
#include <cmath>

#include "core/analysis/compare.hpp"
#include "core/analysis/token_movement_run.hpp"
#include "core/lesson/lesson_edit.hpp"
#include "core/lesson/lesson_paste.hpp"
#include "core/lesson/run_encoder_decoder.hpp"
#include "core/source/session.hpp"
#include "core/text/error_messages.hpp"
#include "builtin_lesson.hpp"
#include "matrix_compare.hpp"

using namespace attnscope;

namespace {

// d_model 2, one head, d_k = d_v = 2, every W = I (W_O too); source "a b", target "a":
// decoder input "<s> a", labels "a </s>".
const char* kTiny = R"({"format": "attnscope-lesson", "version": 8, "d_model": 2, "d_k": 2, "d_v": 2, "sentence": "a b",
  "embeddings": {"a": [1, 0], "b": [0, 1], "<s>": [1, 1]},
  "heads_weights": [{"W_Q": [[1, 0], [0, 1]], "W_K": [[1, 0], [0, 1]], "W_V": [[1, 0], [0, 1]]}], "W_O": [[1, 0], [0, 1]],
  "encoder_decoder": {"target": "a",
    "decoder_self": {"heads_weights": [{"W_Q": [[1, 0], [0, 1]], "W_K": [[1, 0], [0, 1]], "W_V": [[1, 0], [0, 1]]}], "W_O": [[1, 0], [0, 1]]},
    "cross": {"heads_weights": [{"W_Q": [[1, 0], [0, 1]], "W_K": [[1, 0], [0, 1]], "W_V": [[1, 0], [0, 1]]}], "W_O": [[1, 0], [0, 1]]},
    "output_head": {"vocabulary": ["a", "</s>"], "W_vocab": [[1, 0], [0, 1]]}}})";

Lesson parsed(const std::string& json) {
    auto lesson = parseLesson(json, "tiny.json");
    INFO((lesson ? std::string() : lesson.error().text()));
    REQUIRE(lesson.ok());
    return std::move(lesson).value();
}

EncoderDecoderRun run(const Lesson& lesson, const std::string& source, const std::vector<HeadRef>& encoderOff = {},
                      const DecoderHeadsOff& decoderOff = {}) {
    RunSettings settings;
    settings.exact = true;
    settings.ablate = encoderOff;
    auto result = runEncoderDecoder(lesson, source, settings, decoderOff);
    INFO((result ? std::string() : result.error().text()));
    REQUIRE(result.ok());
    return std::move(result).value();
}

Lesson resizedTo(const Lesson& lesson, LessonDimensions dims) {
    auto out = resizeLesson(lesson, dims);
    INFO((out ? std::string() : out.error().text()));
    REQUIRE(out.ok());
    return std::move(out).value();
}

}  // namespace

TEST_CASE("d_k 2 → 1 resizes the decoder's weights as the encoder's, and the edited lesson runs, worked by hand",
          "[encoder-decoder][lesson-edit]") {
    const Lesson edited = resizedTo(parsed(kTiny), {2, 1, 1, 1, 0});
    // Every W_Q, W_K, W_V keeps its first column [1, 0]ᵀ, every W_O its first row [1, 0].
    for (const LessonLayer* layer : {&edited.layers[0], &edited.encoderDecoder.decoderSelf, &edited.encoderDecoder.cross}) {
        REQUIRE_MATRIX_NEAR((Mat(2, 1) << 1, 0).finished(), layer->heads[0].wq, 0.0);
        REQUIRE_MATRIX_NEAR((Mat(2, 1) << 1, 0).finished(), layer->heads[0].wv, 0.0);
        REQUIRE_MATRIX_NEAR((Mat(1, 2) << 1, 0).finished(), layer->wo, 0.0);
    }
    const EncoderDecoderRun r = run(edited, "a b");
    // So q = k = v = x[0] and √d_k = 1. Encoder: row a scores (1, 0): e/(e + 1) = 0.731059 on itself,
    // M[a] = [1 + 0.731059, 0]; row b scores (0, 0): 0.5 each, M[b] = [0 + 0.5, 1].
    REQUIRE_MATRIX_NEAR((Mat(2, 2) << 1.731059, 0, 0.5, 1).finished(), r.encoder.block.afterAttention, 1e-6);
    // Decoder: Y₀ = [[1, 1], [1, 0]]; <s> sees itself (v = 1): Y₁[<s>] = [2, 1]; a sees <s> and itself
    // with equal scores 1, 1: v = 0.5·1 + 0.5·1 = 1, Y₁[a] = [2, 0].
    REQUIRE_MATRIX_NEAR((Mat(2, 2) << 2, 1, 2, 0).finished(), r.decoderSelf.block.afterAttention, 1e-12);
    // Cross: q = 2 for both rows, k = v = M[:, 0] = (1.731059, 0.5): scores 3.462117, 1; weight on a
    // 1/(1 + e^−2.462117) = 0.921443; output 0.921443·1.731059 + 0.078557·0.5 = 1.634350.
    CHECK(r.cross.layers[0].heads[0].weights.exact()(0, 0) == Approx(0.921443).epsilon(0).margin(1e-6));
    REQUIRE_MATRIX_NEAR((Mat(2, 2) << 3.634350, 1, 3.634350, 0).finished(), r.cross.block.afterAttention, 1e-6);
    // W_vocab = I: p(a | <s>) = e^3.634350/(e^3.634350 + e^1) = 0.933040, −ln p = 0.069307;
    // p(</s> | a) = 1/(e^3.634350 + 1) = 0.025722.
    CHECK(r.labelProbability[0] == Approx(0.933040).epsilon(0).margin(1e-6));
    CHECK(r.loss[0] == Approx(0.069307).epsilon(0).margin(1e-6));
    CHECK(r.labelProbability[1] == Approx(0.025722).epsilon(0).margin(1e-6));
    // Saved and read back: the same lesson and the same numbers.
    const std::string written = serializeLesson(edited);
    const Lesson again = parsed(written);
    CHECK(serializeLesson(again) == written);
    CHECK(run(again, "a b").labelProbability[0] == Approx(0.933040).epsilon(0).margin(1e-6));
}

TEST_CASE("d_model, d_k and d_v 4 → 5 resize the decoder and its output head, the new feature is zero",
          "[encoder-decoder][lesson-edit]") {
    const Lesson lesson = testing::builtInLesson("translation");  // no W_O: d_v must follow d_model
    const Lesson edited = resizedTo(lesson, {5, 1, 5, 5, 0});
    CHECK(edited.encoderDecoder.decoderSelf.heads[0].wq.rows() == 5);
    CHECK(edited.encoderDecoder.cross.wo.cols() == 5);
    REQUIRE(edited.encoderDecoder.wVocab.rows() == 5);
    CHECK(edited.encoderDecoder.wVocab.row(4).isZero());
    const EncoderDecoderRun r = run(edited, "我 是 谁");
    // Only the scale changes, √5 for √4: 我 weighs itself e^(1/√5)/(e^(1/√5) + 2) = 1.563899/3.563899
    // = 0.438825 and each other word 0.280588, so M[谁, 3rd] = 1.438825 and M[我, 3rd] = 0.280588.
    CHECK(r.encoder.layers[0].heads[0].weights.exact()(0, 0) == Approx(0.438825).epsilon(0).margin(1e-6));
    // <s>'s cross query [0, 0, 4, 0, 0]: scores 4·0.280588/√5 = 0.501931 (twice) and 4·1.438825/√5 = 2.573868,
    // weight on 谁 1/(1 + 2e^−2.071937) = 0.798793; p(who | <s>) = 0.861254 (numpy, the file padded to 5).
    CHECK(r.cross.layers[0].heads[0].weights.exact()(0, 2) == Approx(0.798793).epsilon(0).margin(1e-6));
    CHECK(r.labelProbability[0] == Approx(0.861254).epsilon(0).margin(1e-6));
    const Lesson again = parsed(serializeLesson(edited));
    CHECK(again.encoderDecoder.wVocab.rows() == 5);
    // And back to 4: the lesson as it was.
    CHECK(serializeLesson(resizedTo(again, {4, 1, 4, 4, 0})) == serializeLesson(lesson));
}

TEST_CASE("a decoder resize that cannot run is refused, naming the field", "[encoder-decoder][lesson-edit]") {
    // The translation lesson has no W_O: with d_v 2 the encoder's output would be 2 wide, not 4.
    auto refused = resizeLesson(testing::builtInLesson("translation"), {4, 1, 2, 2, 0});
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().text().find("W_O") != std::string::npos);
    // With the encoder's W_O given, the decoder's missing one is named.
    Lesson tiny = parsed(kTiny);
    tiny.encoderDecoder.decoderSelf.wo = Mat();  // fine while H·d_v = 2 = d_model
    REQUIRE(validateLesson(tiny, "tiny.json").ok());
    auto noDecoderWo = resizeLesson(tiny, {2, 1, 1, 1, 0});
    REQUIRE_FALSE(noDecoderWo.ok());
    CHECK(noDecoderWo.error().where.find("encoder_decoder.decoder_self.W_O") != std::string::npos);
}

TEST_CASE("the editor reaches the decoder's weights and its output head, a paste goes to the chosen one",
          "[encoder-decoder][lesson-edit]") {
    Lesson lesson = testing::builtInLesson("translation");
    LessonEncoderDecoder& ed = lesson.encoderDecoder;
    CHECK(lessonMatrix(lesson, {LessonMatrixKind::WQ, 0, 0, LessonLayerPart::DecoderSelf}) == &ed.decoderSelf.heads[0].wq);
    CHECK(lessonMatrix(lesson, {LessonMatrixKind::WO, 0, 0, LessonLayerPart::Cross}) == &ed.cross.wo);
    CHECK(lessonMatrix(lesson, {LessonMatrixKind::WO, 0, 0, LessonLayerPart::DecoderSelf}) == nullptr);  // none given
    CHECK(lessonMatrix(lesson, {LessonMatrixKind::WQ, 1, 0, LessonLayerPart::Cross}) == nullptr);  // one layer only
    CHECK(lessonMatrix(lesson, {LessonMatrixKind::Vocab, 0, 0}) == &ed.wVocab);
    CHECK(lessonMatrix(lesson, {LessonMatrixKind::WQ, 0, 0}) == &lesson.layers[0].heads[0].wq);
    // Pasted rows land in the cross-attention's W_V, not the encoder's.
    auto blocks = parsePastedTable("W_V =\n2 0 0 0\n0 1 0 0\n0 0 1 0\n0 0 0 1\n", ErrorText(ErrorId::WhereText));
    REQUIRE(blocks.ok());
    auto pasted = pasteIntoLesson(lesson, blocks.value(), {LessonMatrixKind::WQ, 0, 0, LessonLayerPart::Cross},
                                  ErrorText(ErrorId::WhereText));
    REQUIRE(pasted.ok());
    CHECK(pasted.value().encoderDecoder.cross.heads[0].wv(0, 0) == 2);
    CHECK(pasted.value().layers[0].heads[0].wv(0, 0) == 1);
}

TEST_CASE("heads switched off in a decoder stage: only that stage's attention, worked by hand",
          "[encoder-decoder][ablation]") {
    const Lesson lesson = testing::builtInLesson("translation");
    // Cross head off: Y₂ = Y₁, so Y₂[<s>] = [0, 0, 0, 2]; W_vocab reads feature 4 as who: logits
    // (2, 0, 0, 0), p(who) = e²/(e² + 3) = 0.711235 (0.870544 with the head on).
    const EncoderDecoderRun cross = run(lesson, "我 是 谁", {}, {{}, {{0, 0}}});
    CHECK(cross.labelProbability[0] == Approx(0.711235).epsilon(0).margin(1e-6));
    CHECK(cross.cross.layers[0].heads[0].ablated);
    CHECK(cross.encoder.layers[0].heads[0].weights.exact()(0, 0) == Approx(0.451863).margin(1e-6));  // as before
    // Decoder self-attention off: Y₁ = Y₀, Y₁[<s>] = [0, 0, 0, 1]; its cross query is row 4 of
    // W_Q = [0, 0, 2, 0], scores 2·M[:, 3rd]/2 = (0.274, 0.274, 1.452): weight on 谁
    // e^1.452/(e^1.452 + 2e^0.274) = 0.618845; then Y₂[<s>] = [0, 0.4985, 0.4985, 2.0029] and
    // p(who) = e^2.0029/(e^2.0029 + 2e^0.4985 + 1) = 0.633218 (numpy, from the lesson file).
    const EncoderDecoderRun self = run(lesson, "我 是 谁", {}, {{{0, 0}}, {}});
    REQUIRE_MATRIX_NEAR(self.decoderSelf.layers[0].input, self.decoderSelf.block.afterAttention, 0.0);
    CHECK(self.cross.layers[0].heads[0].weights.exact()(0, 2) == Approx(0.618845).epsilon(0).margin(1e-6));
    CHECK(self.labelProbability[0] == Approx(0.633218).epsilon(0).margin(1e-6));
    // A head the stage does not have is refused, naming it.
    RunSettings settings;
    CHECK_FALSE(runEncoderDecoder(lesson, "我 是 谁", settings, {{}, {{0, 1}}}).ok());
    CHECK_FALSE(runEncoderDecoder(lesson, "我 是 谁", settings, {{{1, 0}}, {}}).ok());
}

TEST_CASE("a session keeps each stage's heads off and the stage view repeats them on another source",
          "[encoder-decoder][ablation]") {
    Session session;
    REQUIRE(session.openLesson(testing::builtInLesson("translation")).ok());
    REQUIRE(session.setStage(EncoderDecoderStage::Cross).ok());
    REQUIRE(session.setAblation({{0, 0}}).ok());
    CHECK(session.ablation() == std::vector<HeadRef>{{0, 0}});
    CHECK(session.ablation(EncoderDecoderStage::Encoder).empty());
    CHECK(session.encoderDecoder()->labelProbability[0] == Approx(0.711235).epsilon(0).margin(1e-6));  // above
    REQUIRE(session.setStage(EncoderDecoderStage::Encoder).ok());
    CHECK(session.ablation().empty());
    CHECK_FALSE(session.trace().layers[0].heads[0].ablated);
    // Another source, the cross stage with its head off: Y₂ = Y₁ whatever the source, so 0.711235 again.
    StageView view = session.stageView();
    view.stage = EncoderDecoderStage::Cross;
    auto b = runEncoderDecoderStage(session.lesson(), "谁 是 谁", view);
    REQUIRE(b.ok());
    CHECK(b.value().keyTokens.size() == 3);
    CHECK(b.value().layers[0].heads[0].ablated);
    CHECK(b.value().block.probabilities(0, 0) == Approx(0.711235).epsilon(0).margin(1e-6));
    // X → Y of the decoder's self-attention: each decoder row from Y₀ to Y₁; <s> from [0, 0, 0, 1]
    // to [0, 0, 0, 2] (it sees only itself, v = its own row).
    view.stage = EncoderDecoderStage::DecoderSelf;
    auto states = stageStatesRun(session.lesson(), "我 是 谁", view);
    REQUIRE(states.ok());
    REQUIRE(states.value().states.size() == 2);
    REQUIRE_MATRIX_NEAR((Mat(1, 4) << 0, 0, 0, 1).finished(), states.value().states[0].row(0), 0.0);
    REQUIRE_MATRIX_NEAR((Mat(1, 4) << 0, 0, 0, 2).finished(), states.value().states[1].row(0), 1e-12);
    // [0, 0, 0, 2] = [0, 0, 0, 1] + its attention output: the caption says y = x + attention.
    CHECK(states.value().output == LayerOutput::AttentionPlusInput);
    view.stage = EncoderDecoderStage::Cross;  // Y₂ = Y₁ + cross-attention output
    states = stageStatesRun(session.lesson(), "我 是 谁", view);
    REQUIRE(states.ok());
    CHECK(states.value().output == LayerOutput::AttentionPlusInput);
}

TEST_CASE("Compare lines up two cross-attention stages: decoder rows, source columns", "[encoder-decoder][compare]") {
    const Lesson lesson = testing::builtInLesson("translation");
    const Trace a = run(lesson, "我 是 谁").cross;
    const Trace b = run(lesson, "谁 是 谁").cross;
    auto c = compareHead(a, b, {0, 0});
    INFO((c ? std::string() : c.error().text()));
    REQUIRE(c.ok());
    CHECK(c.value().rows.units.size() == 4);       // <s> who am i in both
    CHECK(c.value().alignment.units.size() == 3);  // the sources, by position
    CHECK(c.value().alignment.units[0].textB == "谁");
    // A: <s> on 谁 0.840565 (test_encoder_decoder.cpp). B: 谁 是 谁's encoder gives M[谁] =
    // [0, 0.232697, 1.767303, 0] (谁 meets the other 谁 with the same score 0.5: weights 0.383651 each,
    // 0.232697 on 是); <s>'s query [0, 0, 4, 0] scores (3.534607, 1.096274, 3.534607), each 谁
    // 1/(2 + e^−2.438333) = 0.479086.
    CHECK(c.value().a(0, 2) == Approx(0.840565).epsilon(0).margin(1e-6));
    CHECK(c.value().b(0, 0) == Approx(0.479086).epsilon(0).margin(1e-6));
    CHECK(c.value().difference(0, 2) == Approx(0.840565 - 0.479086).epsilon(0).margin(2e-6));
    // A stage against another kind of stage is refused.
    CHECK_FALSE(compareHead(a, run(lesson, "谁 是 谁").encoder, {0, 0}).ok());
}

TEST_CASE("a cell of a cross stage finds its partner in B: decoder rows by position, source words by word",
          "[encoder-decoder][compare]") {
    const Lesson lesson = testing::builtInLesson("translation");
    const Trace a = run(lesson, "我 是 谁").cross, b = run(lesson, "是 谁").cross;
    const Alignment rows = alignTokens(a.tokens, b.tokens), columns = alignTokens(a.columnTokens(), b.columnTokens());
    // <s> on 谁 (A's column 3) is <s> on 谁 in B, B's column 2: 是 谁 lines up with A's last two words.
    const auto weight = alignedCellInB(rows, columns, CellRef{Step::Weights, 0, 0, 0, 2});
    REQUIRE(weight);
    CHECK(weight->row == 0);
    CHECK(weight->col == 1);
    // K has a row per source word: 是 (A's row 2) is B's row 1; 我 has no partner in B.
    const auto key = alignedCellInB(rows, columns, CellRef{Step::Key, 0, 0, 1, 0});
    REQUIRE(key);
    CHECK(key->row == 0);
    CHECK_FALSE(alignedCellInB(rows, columns, CellRef{Step::Key, 0, 0, 0, 0}));
}
