// Encoder–decoder lessons (format version 8, core/lesson/run_encoder_decoder.hpp): the file part,
// its errors, the run's three stages and teacher forcing's labels and loss.
//
// Golden values: tests/reference/reference_encoder_decoder.py (numpy, reads the lesson JSON itself,
// shares no code with core/) wrote tests/reference/fixtures/encoder_decoder.json, committed. The
// built-in lesson `translation` is also worked by hand in the comments below.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/io/text_file.hpp"
#include "core/lesson/lesson_encoder_decoder.hpp"
#include "core/lesson/run_encoder_decoder.hpp"
#include "core/text/error_messages.hpp"
#include "core/text/language.hpp"
#include "builtin_lesson.hpp"
#include "json_fixture.hpp"
#include "matrix_compare.hpp"

using namespace attnscope;

namespace {

using RefJson = nlohmann::json;  // the fixture (attnscope::Json is the lesson reader's)

RefJson fixture() {
    std::ifstream in(std::filesystem::path(ATTNSCOPE_SOURCE_DIR) / "tests/reference/fixtures/encoder_decoder.json");
    REQUIRE(in.good());
    return RefJson::parse(in);
}

using testing::fromJson;

std::vector<std::string> texts(const std::vector<Token>& tokens) {
    std::vector<std::string> out;
    for (const Token& t : tokens) out.push_back(t.text);
    return out;
}

Lesson lessonAt(const std::string& relative) {
    const auto path = std::filesystem::path(ATTNSCOPE_SOURCE_DIR) / relative;
    auto text = readTextFile(path);
    REQUIRE(text.ok());
    auto lesson = parseLesson(text.value(), path.filename().string());
    INFO((lesson ? std::string() : lesson.error().text()));
    REQUIRE(lesson.ok());
    return std::move(lesson).value();
}

EncoderDecoderRun run(const Lesson& lesson, const std::string& source, RunSettings settings = RunSettings{std::nullopt, true, 0, {}}) {
    auto result = runEncoderDecoder(lesson, source, settings);
    INFO((result ? std::string() : result.error().text()));
    REQUIRE(result.ok());
    return std::move(result).value();
}

void requireHeadsMatch(const RefJson& reference, const LayerTrace& layer) {
    REQUIRE(layer.heads.size() == reference.size());
    for (std::size_t h = 0; h < layer.heads.size(); ++h) {
        INFO("head " << h + 1);
        REQUIRE_MATRIX_NEAR(fromJson(reference[h].at("q")), layer.heads[h].q, 1e-12);
        REQUIRE_MATRIX_NEAR(fromJson(reference[h].at("k")), layer.heads[h].k, 1e-12);
        REQUIRE_MATRIX_NEAR(fromJson(reference[h].at("v")), layer.heads[h].v, 1e-12);
        REQUIRE_MATRIX_NEAR(fromJson(reference[h].at("weights")), layer.heads[h].weights.exact(), 1e-12);
    }
}

// A small version 8 lesson (d_model 2, one head, no projections) with `part` as its encoder_decoder.
std::string tinyLesson(const std::string& part, int version = 8, const std::string& extra = "") {
    return R"({"format": "attnscope-lesson", "version": )" + std::to_string(version) +
           R"(, "d_model": 2, "projections": false, "sentence": "a b", )" + extra +
           R"("embeddings": {"a": [1, 0], "b": [0, 1], "<s>": [1, 1], "x": [0, 2]}, "encoder_decoder": )" + part + "}";
}

const std::string kHead = R"("output_head": {"vocabulary": ["x", "</s>"], "W_vocab": [[1, 0], [0, 1]]})";

std::string part(const std::string& target = "x", const std::string& head = kHead) {
    return R"({"target": ")" + target + R"(", "decoder_self": {}, "cross": {}, )" + head + "}";
}

Error parseError(const std::string& json) {
    auto lesson = parseLesson(json, "ed.json");
    REQUIRE_FALSE(lesson.ok());
    return lesson.error();
}

}  // namespace

TEST_CASE("encoder-decoder runs match the independent numpy reference", "[encoder-decoder]") {
    for (const RefJson& c : fixture().at("cases")) {
        const std::string source = c.at("source");
        INFO("lesson " << c.at("lesson").get<std::string>() << ", source \"" << source << "\"");
        const EncoderDecoderRun r = run(lessonAt(c.at("lesson")), source);
        CHECK(texts(r.encoder.tokens) == c.at("source_tokens").get<std::vector<std::string>>());
        CHECK(texts(r.decoderSelf.tokens) == c.at("decoder_input").get<std::vector<std::string>>());
        CHECK(texts(r.cross.tokens) == c.at("decoder_input").get<std::vector<std::string>>());
        CHECK(texts(r.cross.keyTokens) == c.at("source_tokens").get<std::vector<std::string>>());
        CHECK(r.labels == c.at("labels").get<std::vector<std::string>>());
        const RefJson& layers = c.at("encoder_layers");
        REQUIRE(r.encoder.layerCount() == static_cast<int>(layers.size()));
        for (std::size_t l = 0; l < layers.size(); ++l) {
            INFO("encoder layer " << l + 1);
            REQUIRE_MATRIX_NEAR(fromJson(layers[l].at("input")), r.encoder.layers[l].input, 1e-12);
            requireHeadsMatch(layers[l].at("heads"), r.encoder.layers[l]);
            REQUIRE_MATRIX_NEAR(fromJson(layers[l].at("output")), r.encoder.layers[l].output, 1e-12);
        }
        REQUIRE_MATRIX_NEAR(fromJson(c.at("memory")), r.encoder.block.afterAttention, 1e-12);   // T_s×d
        REQUIRE_MATRIX_NEAR(fromJson(c.at("decoder_x")), r.decoderSelf.layers[0].input, 1e-12);  // T_t×d
        requireHeadsMatch(c.at("decoder_self_heads"), r.decoderSelf.layers[0]);
        REQUIRE_MATRIX_NEAR(fromJson(c.at("decoder_self_output")), r.decoderSelf.layers[0].output, 1e-12);
        REQUIRE_MATRIX_NEAR(fromJson(c.at("y1")), r.decoderSelf.block.afterAttention, 1e-12);
        REQUIRE_MATRIX_NEAR(fromJson(c.at("y1")), r.cross.layers[0].input, 1e-12);
        REQUIRE_MATRIX_NEAR(fromJson(c.at("memory")), r.cross.layers[0].keyValueInput(), 1e-12);
        requireHeadsMatch(c.at("cross_heads"), r.cross.layers[0]);
        REQUIRE_MATRIX_NEAR(fromJson(c.at("cross_output")), r.cross.layers[0].output, 1e-12);
        REQUIRE_MATRIX_NEAR(fromJson(c.at("y2")), r.cross.block.afterAttention, 1e-12);
        REQUIRE_MATRIX_NEAR(fromJson(c.at("logits")), r.cross.block.logits, 1e-12);         // T_t×V_t
        REQUIRE_MATRIX_NEAR(fromJson(c.at("probabilities")), r.cross.block.probabilities, 1e-12);
        REQUIRE_MATRIX_NEAR(fromJson(c.at("label_probability")), r.labelProbability, 1e-12);
        REQUIRE_MATRIX_NEAR(fromJson(c.at("loss")), r.loss, 1e-12);
        CHECK(r.meanLoss == Approx(c.at("mean_loss").get<double>()).epsilon(1e-12));
    }
}

TEST_CASE("the translation lesson by hand: 我 是 谁 → <s> who am i, labels who am i </s>", "[encoder-decoder]") {
    const EncoderDecoderRun r = run(testing::builtInLesson("translation"), "我 是 谁");
    // Encoder: one-hot rows, W = I, so the scores are X·Xᵀ = I and ÷√4 = 2 gives 0.5 on the
    // diagonal. Row 我: e^0.5 / (e^0.5 + 2) = 1.648721 / 3.648721 = 0.451863, the others
    // 1 / 3.648721 = 0.274068. M[我] = X + A·V = [1 + 0.451863, 0.274068, 0.274068, 0].
    CHECK(r.encoder.layers[0].heads[0].weights.exact()(0, 0) == Approx(0.451863).margin(1e-6));
    CHECK(r.encoder.block.afterAttention(0, 0) == Approx(1.451863).margin(1e-6));
    CHECK(r.encoder.block.afterAttention(0, 1) == Approx(0.274068).margin(1e-6));
    // Decoder, masked: <s> sees only itself (weight 1), so Y₁[<s>] = [0,0,0,1] + [0,0,0,1] = [0,0,0,2].
    // who sees <s> (score 0) and itself (1 ÷ 2 = 0.5): 1 / (1 + e^0.5) = 0.377541 and 0.622459, so
    // Y₁[who] = [0, 0, 1 + 0.622459, 0.377541]; who's weight on am (later) is exactly 0.
    CHECK(r.decoderSelf.causal);
    CHECK(r.decoderSelf.layers[0].heads[0].weights.exact()(1, 2) == 0.0);
    CHECK(r.decoderSelf.block.afterAttention(0, 3) == Approx(2.0).margin(1e-12));
    CHECK(r.decoderSelf.block.afterAttention(1, 2) == Approx(1.622459).margin(1e-6));
    // Cross: q[<s>] = [0,0,0,2]·W_Q = [0,0,4,0]; scores with M's rows: 4·0.274068 = 1.096274 (我, 是)
    // and 4·1.451863 = 5.807453 (谁); ÷2: 0.548137, 0.548137, 2.903726. e^(0.548137 − 2.903726) =
    // 0.094850, so the weight on 谁 is 1 / (1 + 2·0.094850) = 0.840562: <s> looks at 谁.
    CHECK(r.cross.layers[0].heads[0].weights.exact()(0, 2) == Approx(0.840562).margin(1e-6));
    // W_O moves 谁's feature (3) to feature 4, which W_vocab reads as "who": Y₂[<s>][4] = 2 +
    // (0.840562·1.451863 + 2·0.079719·0.274068) = 2 + 1.264087 = 3.264087 = logit(who); am and i get
    // 0.367963 (Y₂'s features 3 and 2), </s> gets 0 (feature 1). p(who) = e^3.264087 /
    // (e^3.264087 + 2·e^0.367963 + 1) = 26.157 / 30.046 = 0.870545; −ln 0.870545 = 0.138635.
    CHECK(r.cross.block.logits(0, 0) == Approx(3.264087).margin(1e-6));
    CHECK(r.labels == std::vector<std::string>{"who", "am", "i", "</s>"});
    CHECK(r.labelColumn == std::vector<int>{0, 1, 2, 3});
    CHECK(r.labelProbability[0] == Approx(0.870545).margin(1e-6));
    CHECK(r.loss[0] == Approx(0.138635).margin(1e-6));
    // Every label is its row's most probable word.
    for (Eigen::Index i = 0; i < 4; ++i) {
        Eigen::Index best = 0;
        r.cross.block.probabilities.row(i).maxCoeff(&best);
        CHECK(best == i);
    }
}

TEST_CASE("an encoder-decoder run hand-rounds every stage and its loss", "[encoder-decoder]") {
    const EncoderDecoderRun r = run(testing::builtInLesson("translation"), "我 是 谁", RunSettings{2, false, 0, {}});
    // 0.451863 → 0.45; p(who) → 0.87 (the rounded logits give 0.8706, rounded again), −ln 0.87 = 0.139262 → 0.14.
    CHECK(r.encoder.layers[0].heads[0].weights.exact()(0, 0) == Approx(0.45).margin(1e-12));
    CHECK(r.labelProbability[0] == Approx(0.87).margin(1e-12));
    CHECK(r.loss[0] == Approx(0.14).margin(1e-12));
}

TEST_CASE("an encoder-decoder lesson writes format 8 and reads back the same", "[encoder-decoder]") {
    const Lesson lesson = testing::builtInLesson("translation");
    const std::string written = serializeLesson(lesson);
    CHECK(written.find("\"version\": 8") != std::string::npos);
    auto again = parseLesson(written, "again.json");
    REQUIRE(again.ok());
    CHECK(serializeLesson(again.value()) == written);
    CHECK(again.value().encoderDecoder.vocabulary == std::vector<std::string>{"who", "am", "i", "</s>"});
    // The Chinese twin translates the other way with the same numbers, features permuted.
    const EncoderDecoderRun zh = run(testing::builtInLesson("translation-zh"), "who am i");
    CHECK(zh.labels == std::vector<std::string>{"我", "是", "谁", "</s>"});
    CHECK(zh.labelProbability[0] == Approx(0.870545).margin(1e-6));
}

TEST_CASE("a lesson without an encoder_decoder part has no decoder to run", "[encoder-decoder]") {
    auto result = runEncoderDecoder(testing::builtInLesson("two-heads"), "cats chase mice");
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().text() == "lesson: has no \"encoder_decoder\" part (format version 8): there is no decoder to run");
}

TEST_CASE("bad encoder_decoder parts are refused with the field, what was expected and what was found", "[encoder-decoder]") {
    REQUIRE(parseLesson(tinyLesson(part()), "ed.json").ok());
    CHECK(parseError(tinyLesson(part(), 7)).text() == "ed.json: encoder_decoder: \"encoder_decoder\" needs \"version\": 8");
    CHECK(parseError(tinyLesson(part(), 9)).text() ==
          "ed.json: version: this AttnScope reads lesson format versions 1 to 8, the file has version 9");
    CHECK(parseError(tinyLesson("[]")).text() ==
          "ed.json: encoder_decoder: expected an object with target, decoder_self, cross and output_head, found a list of 0");
    CHECK(parseError(tinyLesson(part(), 8, R"("block": {"residual": true}, )")).text().find(
              "ed.json: block: is given with \"encoder_decoder\"") == 0);
    CHECK(parseError(tinyLesson(part("y"))).text() ==
          "ed.json: encoder_decoder.target: expected words of output_head.vocabulary (x, </s>), found \"y\"");
    CHECK(parseError(tinyLesson(part(" "))).text() ==
          "ed.json: encoder_decoder.target: expected at least one word, found nothing");
    CHECK(parseError(tinyLesson(part("x", R"("output_head": {"vocabulary": ["x"], "W_vocab": [[1], [0]]})"))).text() ==
          "ed.json: encoder_decoder.output_head.vocabulary: expected a list that holds \"</s>\" (the last label), found x");
    CHECK(parseError(tinyLesson(part("x", R"("output_head": {"vocabulary": ["x", "x"], "W_vocab": [[1, 0], [0, 1]]})"))).text() ==
          "ed.json: encoder_decoder.output_head.vocabulary[1]: has \"x\" twice (each word of the vocabulary once)");
    CHECK(parseError(tinyLesson(part("x", R"("output_head": {"vocabulary": ["x", "</s>"], "W_vocab": [[1, 0]]})"))).text() ==
          "ed.json: encoder_decoder.output_head.W_vocab: expected 2×2, found 1×2 (W_vocab is d_model×V_t, V_t = 2 words of output_head.vocabulary)");
    const Error missing = parseError(tinyLesson(R"({"target": "x", "cross": {}, )" + kHead + "}"));
    CHECK(missing.text() == "ed.json: encoder_decoder.decoder_self: is missing");
    CHECK(missing.textIn(Language::Chinese) == "ed.json: encoder_decoder.decoder_self: 缺失");
}

TEST_CASE("the decoder's and the encoder's outputs are added to their inputs, so they are d_model wide", "[encoder-decoder]") {
    // d_model 2, two heads of d_v 2: the concatenation is 4 wide; without W_O it cannot be added.
    const std::string head = R"({"W_Q": [[1, 0], [0, 1]], "W_K": [[1, 0], [0, 1]], "W_V": [[1, 0], [0, 1]]})";
    const std::string heads = R"("heads_weights": [)" + head + ", " + head + "]";
    const std::string wo = R"(, "W_O": [[1, 0], [0, 1], [1, 0], [0, 1]])";
    const auto lesson = [&](const std::string& encoderWo, const std::string& selfWo) {
        return R"({"format": "attnscope-lesson", "version": 8, "d_model": 2, "heads": 2, )"
               R"("embeddings": {"a": [1, 0], "<s>": [1, 1], "x": [0, 2]}, )" + heads + encoderWo +
               R"(, "encoder_decoder": {"target": "x", "decoder_self": {)" + heads + selfWo + R"(}, "cross": {)" + heads + wo +
               "}, " + kHead + "}}";
    };
    REQUIRE(parseLesson(lesson(wo, wo), "ed.json").ok());
    CHECK(parseError(lesson(wo, "")).text() ==
          "ed.json: encoder_decoder.decoder_self.W_O: is missing: the residual connection adds the output to X, which is "
          "d_model = 2 wide, but without W_O the output is the concatenation, heads·d_v = 4 wide; give a 4×2 W_O");
    CHECK(parseError(lesson("", wo)).text().find("ed.json: W_O: is missing: the encoder's output M = X + attention output") == 0);
}
