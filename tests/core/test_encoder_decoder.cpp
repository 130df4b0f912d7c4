// Encoder–decoder lessons (format version 8, core/lesson/run_encoder_decoder.hpp): the file part,
// its errors, the run's three stages and teacher forcing's labels and loss, the session's stage
// choice and the cross stage's titles.
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

#include "core/analysis/coref_export.hpp"
#include "core/analysis/coreference.hpp"
#include "core/analysis/head_stats.hpp"
#include "core/io/text_file.hpp"
#include "core/lesson/lesson_encoder_decoder.hpp"
#include "core/lesson/run_encoder_decoder.hpp"
#include "core/source/session.hpp"
#include "core/text/messages.hpp"
#include "core/trace/explain.hpp"
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
    // 0.094838, so the weight on 谁 is 1 / (1 + 2·0.094838) = 0.840565: <s> looks at 谁.
    CHECK(r.cross.layers[0].heads[0].weights.exact()(0, 2) == Approx(0.840565).epsilon(0).margin(1e-6));
    // W_O moves 谁's feature (3) to feature 4, which W_vocab reads as "who": Y₂[<s>][4] = 2 +
    // (0.840565·1.451863 + 2·0.079717·0.274068) = 2 + 1.264082 = 3.264082 = logit(who); am and i get
    // 0.367963 (Y₂'s features 3 and 2), </s> gets 0 (feature 1). p(who) = e^3.264082 /
    // (e^3.264082 + 2·e^0.367963 + 1) = 26.1561 / 30.0457 = 0.870544; −ln 0.870544 = 0.138636.
    CHECK(r.cross.block.logits(0, 0) == Approx(3.264082).epsilon(0).margin(1e-6));
    CHECK(r.labels == std::vector<std::string>{"who", "am", "i", "</s>"});
    CHECK(r.labelColumn == std::vector<int>{0, 1, 2, 3});
    CHECK(r.labelProbability[0] == Approx(0.870544).epsilon(0).margin(1e-6));
    CHECK(r.loss[0] == Approx(0.138636).epsilon(0).margin(1e-6));
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
    CHECK(zh.labelProbability[0] == Approx(0.870544).epsilon(0).margin(1e-6));
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

TEST_CASE("a session runs every stage and switches between them without a new run", "[encoder-decoder]") {
    Session session;
    REQUIRE(session.openLesson(testing::builtInLesson("translation")).ok());
    REQUIRE(session.encoderDecoder() != nullptr);
    // It opens on the encoder: self-attention over the source, 我's weight on itself 0.451863 (above).
    CHECK(session.stage() == EncoderDecoderStage::Encoder);
    CHECK(texts(session.trace().tokens) == std::vector<std::string>{"我", "是", "谁"});
    CHECK(session.trace().layers[0].heads[0].weights.exact()(0, 0) == Approx(0.451863).margin(1e-6));
    REQUIRE(session.setStage(EncoderDecoderStage::DecoderSelf).ok());
    CHECK(session.trace().causal);
    CHECK(texts(session.trace().tokens) == std::vector<std::string>{"<s>", "who", "am", "i"});
    CHECK(session.trace().layers[0].heads[0].weights.exact()(1, 1) == Approx(0.622459).margin(1e-6));
    REQUIRE(session.setStage(EncoderDecoderStage::Cross).ok());
    CHECK(texts(session.trace().keyTokens) == std::vector<std::string>{"我", "是", "谁"});
    CHECK(session.trace().layers[0].heads[0].weights.exact()(0, 2) == Approx(0.840565).epsilon(0).margin(1e-6));
    // A source without tokens fails: the stage and every number stay.
    CHECK_FALSE(session.setSentence("   ").ok());
    CHECK(session.stage() == EncoderDecoderStage::Cross);
    CHECK(session.sentence() == "我 是 谁");
    CHECK(session.encoderDecoder()->labelProbability[0] == Approx(0.870544).epsilon(0).margin(1e-6));
    const double pI = session.encoderDecoder()->labelProbability[2];  // p(i) after am, which asks for 我
    // Another source keeps the stage: 谁 是 谁 has no 我, so p(i) falls (the lesson's description).
    REQUIRE(session.setSentence("谁 是 谁").ok());
    CHECK(session.stage() == EncoderDecoderStage::Cross);
    CHECK(texts(session.trace().keyTokens) == std::vector<std::string>{"谁", "是", "谁"});
    CHECK(session.encoderDecoder()->labelProbability[2] < pI);
    // A lesson without stages refuses a stage and keeps its one trace.
    REQUIRE(session.openLesson(testing::builtInLesson("two-heads")).ok());
    CHECK(session.encoderDecoder() == nullptr);
    CHECK_FALSE(session.setStage(EncoderDecoderStage::Cross).ok());
    CHECK(session.stage() == EncoderDecoderStage::Encoder);
    CHECK_FALSE(session.trace().isCrossAttention());
}

TEST_CASE("the cross stage's titles say where queries, keys and values come from", "[encoder-decoder]") {
    const EncoderDecoderRun r = run(testing::builtInLesson("translation"), "我 是 谁");
    CHECK(stepsOf(r.cross, 0).at(0) == Step::Embedding);  // Y₁, shown where a lesson's embedding is
    CHECK(stepTitleIn(r.cross, Step::Embedding, 0) == "Decoder state Y₁ (after masked self-attention): the queries come from it");
    CHECK(stepTitleIn(r.cross, Step::SourceInput, 0) == "Encoder output M (a row per source word): keys and values come from it");
    CHECK(stepTitleIn(r.cross, Step::AddAttention, 0) == "Residual connection Y₂ = Y₁ + cross-attention output");
    CHECK(stepTitleIn(r.cross, Step::Embedding, 0, Language::Chinese) == "解码器状态 Y₁（掩码自注意力之后）：查询来自它");
    // The other stages, and the lab's cross-attention (no block after it), keep the usual titles.
    CHECK(stepTitleIn(r.encoder, Step::Embedding, 0) == "Embedding: each token's vector");
    CHECK(stepTitleIn(r.decoderSelf, Step::AddAttention, 0) == "Residual connection R = X + attention output");
    auto lab = runCrossAttention(testing::builtInLesson("translation"), "我 是", "谁");
    REQUIRE(lab.ok());
    CHECK(stepTitleIn(lab.value(), Step::SourceInput, 0) == "Source input X_src (keys and values come from it)");
    // A cell of Y₁ and of M: where it was computed, not a table look-up. Y₁[<s>] = [0, 0, 0, 2] (above).
    auto y1 = explainCell(r.cross, CellRef{Step::Embedding, 0, 0, 0, 3}, 3);
    REQUIRE(y1.ok());
    CHECK(y1.value().value == Approx(2.0).margin(1e-12));
    CHECK(y1.value().rule == "Y₁[<s>] = Y₀ + attention: the decoder's masked self-attention output for token 1 plus its input (the decoder stage)");
    auto m = explainCell(r.cross, CellRef{Step::SourceInput, 0, 0, 0, 0}, 3);
    REQUIRE(m.ok());
    CHECK(m.value().value == Approx(1.451863).margin(1e-6));  // M[我][1], the encoder's (above)
    CHECK(m.value().rule == "M[我] = X + attention: the encoder's output for source token 1 (the encoder stage)");
}

TEST_CASE("coreference refuses the cross stage: its columns are the source, not the sentence's own words", "[encoder-decoder]") {
    const EncoderDecoderRun r = run(testing::builtInLesson("translation"), "我 是 谁");
    auto cross = resolveSentence(r.cross, ResolveOptions{});  // "i" would be read against 我 是 谁 as if they came before it
    REQUIRE_FALSE(cross.ok());
    CHECK(cross.error().text() == "sentence: expected self-attention, found a cross-attention trace");
    CHECK(resolveSentence(r.decoderSelf, ResolveOptions{}).ok());  // the decoder's own words: self-attention
}

// Mean over the rows of −Σ w·log₂ w, from the reference's weights (the definition, written here).
double meanEntropyBits(const RefJson& weights) {
    double sum = 0;
    for (const RefJson& row : weights) {
        for (const RefJson& w : row)
            if (w.get<double>() > 0) sum -= w.get<double>() * std::log2(w.get<double>());
    }
    return sum / static_cast<double>(weights.size());
}

TEST_CASE("the cross stage's head statistics: decoder rows over the source's columns", "[encoder-decoder]") {
    // The translation lesson by hand (weights above and in the fixture): <s> puts 0.840565 on 谁 and
    // 0.079717 on 我 and 是: −2·0.079717·log₂ 0.079717 − 0.840565·log₂ 0.840565 = 0.792390 bits;
    // i's scores are equal (0.430 each), so its row is uniform: log₂ 3 = 1.584963 bits.
    const EncoderDecoderRun t = run(testing::builtInLesson("translation"), "我 是 谁");
    const auto byHand = headStatistics(t.cross);
    INFO((byHand ? std::string() : byHand.error().text()));
    REQUIRE(byHand.ok());
    REQUIRE(byHand.value().size() == 1);
    const HeadStatistics& s = byHand.value()[0];
    CHECK(rowEntropyBits(t.cross.layers[0].heads[0].weights, 0) == Approx(0.792390).epsilon(0).margin(1e-6));
    CHECK(rowEntropyBits(t.cross.layers[0].heads[0].weights, 3) == Approx(1.584963).epsilon(0).margin(1e-6));
    CHECK_FALSE(s.positional);  // decoder position i and source position i are different sentences
    CHECK(s.previousShare == 0);
    CHECK(s.selfShare == 0);
    CHECK(s.firstShare == 0);
    CHECK(s.delimiterShare == 0);  // the source has no punctuation (the decoder's <s> is no source column)
    CHECK(s.labels == std::vector<std::string>{"mixed"});  // normalised entropy 0.748 < 0.85
    // Every case of the numpy reference: entropy from its weights, normalised by log₂ T_src.
    for (const RefJson& c : fixture().at("cases")) {
        INFO("lesson " << c.at("lesson").get<std::string>() << ", source \"" << c.at("source").get<std::string>() << "\"");
        const EncoderDecoderRun r = run(lessonAt(c.at("lesson")), c.at("source"));
        const auto stats = headStatistics(r.cross);
        REQUIRE(stats.ok());
        const RefJson& heads = c.at("cross_heads");
        REQUIRE(stats.value().size() == heads.size());
        for (std::size_t h = 0; h < heads.size(); ++h) {
            const double expected = meanEntropyBits(heads[h].at("weights"));
            const double columns = static_cast<double>(heads[h].at("weights")[0].size());
            CHECK(stats.value()[h].entropy == Approx(expected).epsilon(0).margin(1e-12));
            CHECK(stats.value()[h].normalizedEntropy == Approx(expected / std::log2(columns)).epsilon(0).margin(1e-12));
        }
    }
    CHECK(meanEntropyBits(fixture().at("cases")[0].at("cross_heads")[0].at("weights")) == Approx(1.185460).margin(1e-6));
}

TEST_CASE("the cross stage's head statistics export no positional shares", "[encoder-decoder]") {
    const EncoderDecoderRun t = run(testing::builtInLesson("translation"), "我 是 谁");
    const auto stats = headStatistics(t.cross);
    REQUIRE(stats.ok());
    // Entropy 1.185460 bits (above), delimiter 0; previous, next, self and first left empty.
    const std::string csv = headStatsToCsv(stats.value());
    INFO(csv);
    CHECK(csv.find("\n1,1,1.1854596") != std::string::npos);
    CHECK(csv.find(",0,,,,,,,mixed\n") != std::string::npos);
    const RefJson json = RefJson::parse(headStatsToJson(stats.value(), HeadLabelThresholds{}));
    const RefJson& head = json.at("heads").at(0);
    CHECK(head.at("entropy").get<double>() == Approx(1.185460).epsilon(0).margin(1e-6));
    for (const char* share : {"previous", "next", "self", "first"}) CHECK(head.at(share).is_null());
    const std::string text = headStatsToText(stats.value(), Language::English);
    INFO(text);
    CHECK(text.find("1.185      0.000         –      –      –       –") != std::string::npos);
    // A self-attention stage keeps its numbers.
    const auto self = headStatistics(t.decoderSelf);
    REQUIRE(self.ok());
    CHECK(RefJson::parse(headStatsToJson(self.value(), HeadLabelThresholds{})).at("heads").at(0).at("self").is_number());
}

TEST_CASE("the cross stage's delimiter share counts the source's punctuation columns", "[encoder-decoder]") {
    const EncoderDecoderRun r = run(testing::builtInLesson("translation"), "我 是 谁 ？");
    REQUIRE(r.cross.keyCount() == 4);
    REQUIRE(r.cross.keyTokens[3].text == "？");
    const auto stats = headStatistics(r.cross);
    REQUIRE(stats.ok());
    // What the column of ？ receives, over the T_dec rows.
    const Mat w = r.cross.layers[0].heads[0].weights.exact();
    CHECK(stats.value()[0].delimiterShare == Approx(w.col(3).sum() / 4).epsilon(0).margin(1e-12));
    CHECK(stats.value()[0].delimiterShare > 0);
}
