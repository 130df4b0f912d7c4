// Cross-attention (core/lesson/run_lesson.hpp runCrossAttention) and the masks lab (core/lab/masks_lab).
//
// Golden values: tests/reference/reference_cross_attention.py (numpy, reads the lesson JSON itself,
// shares no code with core/) wrote tests/reference/fixtures/cross_attention.json, committed; the
// other cases are derived by hand in their comments.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/trace/explain.hpp"
#include "core/export/export.hpp"
#include "core/lab/masks_lab.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/text/messages.hpp"
#include "builtin_lesson.hpp"
#include "json_fixture.hpp"
#include "matrix_compare.hpp"
#include "tests/matrix_literal.hpp"

using namespace attnscope;

namespace {

using Json = nlohmann::json;
constexpr double kInf = std::numeric_limits<double>::infinity();

Json fixture() {
    std::ifstream in(std::filesystem::path(ATTNSCOPE_SOURCE_DIR) / "tests/reference/fixtures/cross_attention.json");
    REQUIRE(in.good());
    return Json::parse(in);
}

using testing::fromJson;

std::vector<std::string> texts(const std::vector<Token>& tokens) {
    std::vector<std::string> out;
    for (const Token& t : tokens) out.push_back(t.text);
    return out;
}

Trace cross(const std::string& lesson, const std::string& target, const std::string& source) {
    auto trace = runCrossAttention(testing::builtInLesson(lesson), target, source, RunSettings{std::nullopt, true});
    INFO((trace ? std::string() : trace.error().text()));
    REQUIRE(trace.ok());
    return std::move(trace).value();
}

double e() { return std::exp(1.0); }

}  // namespace

TEST_CASE("cross-attention matches the independent numpy reference", "[cross-attention]") {
    for (const Json& c : fixture().at("cases")) {
        const std::string lesson = c.at("lesson");
        INFO("lesson " << lesson << ": target \"" << c.at("target").get<std::string>() << "\", source \""
                       << c.at("source").get<std::string>() << "\"");
        const Trace t = cross(lesson, c.at("target"), c.at("source"));
        CHECK(texts(t.tokens) == c.at("target_tokens").get<std::vector<std::string>>());
        CHECK(texts(t.keyTokens) == c.at("source_tokens").get<std::vector<std::string>>());
        REQUIRE(t.layerCount() == 1);
        const LayerTrace& layer = t.layers[0];
        REQUIRE_MATRIX_NEAR(fromJson(c.at("x_target")), layer.input, 1e-12);
        REQUIRE_MATRIX_NEAR(fromJson(c.at("x_source")), layer.keyValueInput(), 1e-12);
        REQUIRE(layer.heads.size() == c.at("heads").size());
        for (std::size_t h = 0; h < layer.heads.size(); ++h) {
            INFO("head " << h + 1);
            const Json& ref = c.at("heads")[h];
            const HeadTrace& head = layer.heads[h];
            REQUIRE_MATRIX_NEAR(fromJson(ref.at("q")), head.q, 1e-12);          // T_q×d_k
            REQUIRE_MATRIX_NEAR(fromJson(ref.at("k")), head.k, 1e-12);          // T_k×d_k
            REQUIRE_MATRIX_NEAR(fromJson(ref.at("v")), head.v, 1e-12);          // T_k×d_v
            REQUIRE_MATRIX_NEAR(fromJson(ref.at("scores")), head.scores, 1e-12);  // T_q×T_k
            REQUIRE_MATRIX_NEAR(fromJson(ref.at("scaled_scores")), head.scaledScores, 1e-12);
            REQUIRE_MATRIX_NEAR(fromJson(ref.at("weights")), head.weights, 1e-12);
            REQUIRE_MATRIX_NEAR(fromJson(ref.at("weighted_sum")), head.weightedSum, 1e-12);
            REQUIRE_MATRIX_NEAR(Mat(Mat::Zero(t.tokenCount(), t.keyCount())), head.mask, 0.0);  // no mask
        }
        REQUIRE_MATRIX_NEAR(fromJson(c.at("concat")), layer.concat, 1e-12);
        REQUIRE_MATRIX_NEAR(fromJson(c.at("output")), layer.output, 1e-12);
    }
}

TEST_CASE("a one-token source takes all the attention: weights 1, output = its value row", "[cross-attention]") {
    // Lesson 1 (Q = K = V = X, no scaling). With one key each row's softmax is e^0 / e^0 = 1
    // exactly, so every target token's output is v(mice) = x(mice) = [1, 1, 0, 1, 0].
    const Trace t = cross("first-hand-exercise", "cats chase mice", "mice");
    const HeadTrace& h = t.layers[0].heads[0];
    REQUIRE(h.weights.rows() == 3);
    REQUIRE(h.weights.cols() == 1);
    CHECK(h.k.rows() == 1);
    REQUIRE_MATRIX_NEAR(testing::rows({{1}, {1}, {1}}), h.weights, 0.0);
    REQUIRE_MATRIX_NEAR(testing::rows({{1, 1, 0, 1, 0}, {1, 1, 0, 1, 0}, {1, 1, 0, 1, 0}}), h.weightedSum, 0.0);
    // The scores are still the dot products with "mice": cats·mice = 1, chase·mice = 0, mice·mice = 3.
    REQUIRE_MATRIX_NEAR(testing::rows({{1}, {0}, {3}}), h.scores, 0.0);
}

TEST_CASE("cross-attention by hand: one query, two source tokens", "[cross-attention]") {
    // Lesson 1: x(chase) = [0,0,1,0,1], x(cats) = [1,0,1,0,0], x(mice) = [1,1,0,1,0].
    // S = [chase·cats, chase·mice] = [1, 0]; no scaling; A = [e/(e+1), 1/(e+1)]
    //   = [0.7310585786…, 0.2689414213…]; out = A·V = [1, 1/(e+1), e/(e+1), 1/(e+1), 0].
    const Trace t = cross("first-hand-exercise", "chase", "cats mice");
    const HeadTrace& h = t.layers[0].heads[0];
    const double a = e() / (e() + 1), b = 1 / (e() + 1);
    REQUIRE_MATRIX_NEAR(testing::rows({{1, 0}}), h.scores, 0.0);
    REQUIRE_MATRIX_NEAR(testing::rows({{a, b}}), h.weights, 1e-15);
    REQUIRE_MATRIX_NEAR(testing::rows({{1, b, a, b, 0}}), h.weightedSum, 1e-15);

    SECTION("labels: rows are target tokens, columns and K/V rows source tokens") {
        CHECK(rowLabels(t, Step::Weights, 0, 0) == std::vector<std::string>{"chase"});
        CHECK(columnLabels(t, Step::Weights, 0, 0) == std::vector<std::string>{"cats", "mice"});
        CHECK(rowLabels(t, Step::Key, 0, 0) == std::vector<std::string>{"cats", "mice"});
        CHECK(rowLabels(t, Step::Value, 0, 0) == std::vector<std::string>{"cats", "mice"});
        CHECK(rowLabels(t, Step::Query, 0, 0) == std::vector<std::string>{"chase"});
        CHECK(operandsOf(t, Step::Key) == std::vector<Operand>{{Step::SourceInput, 0}, {Step::WK, 0}});
        CHECK(operandsOf(t, Step::Query) == std::vector<Operand>{{Step::Input, 0}, {Step::WQ, 0}});
        REQUIRE_MATRIX_NEAR(testing::rows({{1, 0, 1, 0, 0}, {1, 1, 0, 1, 0}}), stepMatrix(t, Step::SourceInput, 0, 0), 0.0);
    }
    SECTION("a score is explained from the target's query and the source's key") {
        auto ex = explainCell(t, CellRef{Step::Scores, 0, 0, 0, 1}, 4);  // chase · mice
        REQUIRE(ex.ok());
        CHECK(ex.value().title.find("S[chase, mice]") != std::string::npos);
        REQUIRE(ex.value().terms.size() == 5);
        CHECK(ex.value().termsTotal == 0.0);
        CHECK(ex.value().terms[0].label.find("k[mice,1]") != std::string::npos);
        CHECK(ex.value().sources[1] == CellRef{Step::Key, 0, 0, 1, 0});
    }
    SECTION("a weight lists the exponentials of the source tokens") {
        auto ex = explainCell(t, CellRef{Step::Weights, 0, 0, 0, 0}, 4);
        REQUIRE(ex.ok());
        REQUIRE(ex.value().terms.size() == 2);
        CHECK(ex.value().terms[1].label.find("for mice") != std::string::npos);
        CHECK(*ex.value().numerator / *ex.value().divisor == Approx(a).epsilon(1e-15));
    }
    SECTION("a key is explained from the source's row, not the target's") {
        auto ex = explainCell(t, CellRef{Step::Key, 0, 0, 1, 3}, 4);  // K[mice, 4] = x(mice)[4] = 1 (from 1)
        REQUIRE(ex.ok());
        CHECK(ex.value().value == 1.0);
        REQUIRE(ex.value().terms.size() == 1);
        CHECK(ex.value().terms[0].label.find("X_src[mice, 4]") != std::string::npos);
        CHECK(ex.value().sources == std::vector<CellRef>{CellRef{Step::SourceInput, 0, 0, 1, 3}});
    }
    SECTION("the weighted sum mixes the source's values") {
        auto ex = explainCell(t, CellRef{Step::WeightedSum, 0, 0, 0, 1}, 4);  // b·1 + a·0 … = 1/(e+1)
        REQUIRE(ex.ok());
        CHECK(ex.value().termsTotal == Approx(b).epsilon(1e-15));
        CHECK(ex.value().terms[1].label.find("a[chase→mice]·v[mice,2]") != std::string::npos);
    }
}

TEST_CASE("a projected key is explained with the source's X", "[cross-attention]") {
    // Lesson 2, head 1: K[mice, 1] = x(mice)·W_K[:,1] (columns counted from 1) = [1,1,0,1,0]·[−2, 2, 1, 2, 1] = −2 + 2 + 2 = 2.
    const Trace t = cross("two-heads", "cats chase mice", "mice cats");
    auto ex = explainCell(t, CellRef{Step::Key, 0, 0, 0, 0}, 4);
    REQUIRE(ex.ok());
    CHECK(ex.value().termsTotal == 2.0);
    CHECK(ex.value().value == 2.0);
    CHECK(ex.value().terms[1].label.find("X_src[mice,2]·W_K[2,1]") != std::string::npos);
    CHECK(ex.value().sources[2] == CellRef{Step::SourceInput, 0, 0, 0, 1});
}

TEST_CASE("cross-attention of a sentence with itself is self-attention", "[cross-attention]") {
    for (const char* name : {"first-hand-exercise", "two-heads", "coreference"}) {
        INFO(name);
        const Lesson lesson = testing::builtInLesson(name);
        auto self = runLesson(lesson, lesson.sentence);
        auto both = runCrossAttention(lesson, lesson.sentence, lesson.sentence);
        REQUIRE(self.ok());
        REQUIRE(both.ok());
        const LayerTrace& s = self.value().layers[0];
        const LayerTrace& c = both.value().layers[0];
        for (std::size_t h = 0; h < s.heads.size(); ++h) {
            REQUIRE_MATRIX_NEAR(s.heads[h].q, c.heads[h].q, 0.0);
            REQUIRE_MATRIX_NEAR(s.heads[h].k, c.heads[h].k, 0.0);
            REQUIRE_MATRIX_NEAR(s.heads[h].v, c.heads[h].v, 0.0);
            REQUIRE_MATRIX_NEAR(s.heads[h].scaledScores, c.heads[h].scaledScores, 0.0);
            REQUIRE_MATRIX_NEAR(s.heads[h].weights, c.heads[h].weights, 0.0);
            REQUIRE_MATRIX_NEAR(s.heads[h].weightedSum, c.heads[h].weightedSum, 0.0);
        }
        REQUIRE_MATRIX_NEAR(s.output, c.output, 0.0);
    }
}

TEST_CASE("cross-attention has no mask, says so for a causal lesson, and refuses empty input", "[cross-attention]") {
    const Trace t = cross("causal-mask", "the cat saw the dog", "a dog sat");
    CHECK_FALSE(t.causal);
    CHECK_FALSE(t.hasMask());
    const std::vector<Step> steps = stepsOf(t);
    CHECK(std::find(steps.begin(), steps.end(), Step::Masked) == steps.end());
    CHECK(std::find(steps.begin(), steps.end(), Step::SourceInput) != steps.end());
    REQUIRE(t.notices.size() == 1);
    CHECK(noticeText(t.notices[0], Language::English).find("no causal mask in cross-attention") != std::string::npos);
    // Each sentence has its own positions: "a", the source's first token, gets PE(0) = [0, 1, 0, 1].
    REQUIRE_MATRIX_NEAR(testing::rows({{0, 1, 0, 2}}), t.layers[0].keyInput.topRows(1), 1e-15);

    const Lesson lesson = testing::builtInLesson("first-hand-exercise");
    auto empty = runCrossAttention(lesson, "cats chase", "   ");
    REQUIRE_FALSE(empty.ok());
    CHECK(empty.error().where == "source sentence");
    auto noTarget = runCrossAttention(lesson, "", "cats");
    REQUIRE_FALSE(noTarget.ok());
    CHECK(noTarget.error().where == "target sentence");
}

TEST_CASE("the JSON trace carries the source only for cross-attention", "[cross-attention]") {
    const Json doc = Json::parse(traceToJson(cross("first-hand-exercise", "chase", "cats mice")));
    CHECK(doc.at("key_tokens") == Json{"cats", "mice"});
    CHECK(doc.at("layers")[0].at("key_input").size() == 2);
    CHECK(doc.at("layers")[0].at("heads")[0].at("weights")[0].size() == 2);
    const Json self = Json::parse(traceToJson(testing::runBuiltInLesson("first-hand-exercise")));
    CHECK_FALSE(self.contains("key_tokens"));
    CHECK_FALSE(self.at("layers")[0].contains("key_input"));
}

TEST_CASE("causal demo: the mask hides the future of a lesson that has none", "[masks-lab]") {
    // Lesson 1 is not causal; the demo switches the mask on. Row "chase" keeps scores
    // chase·cats = 1 and chase·chase = 2 and hides mice: A = [1/(1+e), e/(1+e), 0].
    auto demo = causalDemo(testing::builtInLesson("first-hand-exercise"), "cats chase mice");
    REQUIRE(demo.ok());
    const HeadTrace& h = demo.value().trace.layers[0].heads[0];
    REQUIRE_MATRIX_NEAR(testing::rows({{0, -kInf, -kInf}, {0, 0, -kInf}, {0, 0, 0}}), h.mask, 0.0);
    REQUIRE_MATRIX_NEAR(testing::rows({{1, 0, 0}, {1 / (1 + e()), e() / (1 + e()), 0}}), h.weights.toMat().topRows(2), 1e-15);
    CHECK(h.weights(0, 1) == 0.0);
    CHECK(demo.value().largestAboveDiagonal == 0.0);
    CHECK(demo.value().largestRowSumError < 1e-15);
}

TEST_CASE("padding demo: [PAD] columns are 0 and the short sentence is what it is alone", "[masks-lab]") {
    // "mice chase" is padded with one [PAD] to the length of "cats chase mice" (see test_padding.cpp
    // for the matrices); the real 2×2 block is the softmax of x·xᵀ: row mice has mice·mice = 3 and
    // mice·chase = [1,1,0,1,0]·[0,0,1,0,1] = 0, so A = [e³, e⁰, 0] / (e³ + 1).
    const Lesson lesson = testing::builtInLesson("first-hand-exercise");
    auto demo = paddingDemo(lesson, "cats chase mice", "mice chase");
    REQUIRE(demo.ok());
    const PaddingDemo& p = demo.value();
    REQUIRE(p.padded == 1);
    REQUIRE(p.batch[1].paddedFrom == 2);
    CHECK(p.largestPaddedWeight == 0.0);
    CHECK(p.largestDifferenceAlone == 0.0);
    CHECK(p.largestRowSumError < 1e-15);
    const double s = std::exp(3.0) + 1;
    REQUIRE_MATRIX_NEAR(testing::rows({{std::exp(3.0) / s, 1 / s, 0}}), p.batch[1].layers[0].heads[0].weights.toMat().topRows(1), 1e-15);

    auto same = paddingDemo(lesson, "cats chase", "mice chase");
    REQUIRE(same.ok());
    CHECK(same.value().padded == -1);
}

TEST_CASE("the masks lab refuses empty and over-long sentences by name", "[masks-lab]") {
    const Lesson lesson = testing::builtInLesson("first-hand-exercise");
    auto empty = paddingDemo(lesson, "cats chase mice", " ");
    REQUIRE_FALSE(empty.ok());
    CHECK(empty.error().text() == "second sentence: is empty; type at least one word");
    std::string longText;
    for (int i = 0; i <= kMaxMaskLabTokens; ++i) longText += "cats ";
    auto tooLong = crossAttentionDemo(lesson, "cats", longText);
    REQUIRE_FALSE(tooLong.ok());
    CHECK(tooLong.error().where == "source sentence");
    CHECK(tooLong.error().message.find("17 tokens") != std::string::npos);
    CHECK_FALSE(causalDemo(lesson, "").ok());
}

TEST_CASE("default second sentences for the panel", "[masks-lab]") {
    CHECK(shorterSentence("the cat saw the dog") == "the cat saw");
    CHECK(shorterSentence("cats chase mice") == "cats chase");
    CHECK(shorterSentence("cats") == "cats");
    CHECK(reversedSource("the cat saw the dog") == "dog the saw cat");
    CHECK(reversedSource("cats") == "cats");
}
