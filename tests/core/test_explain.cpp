// Explanations: every cell's terms add up to the value shown, and the sources are right.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/trace/explain.hpp"
#include "core/trace/explain_steps.hpp"
#include "core/trace/token_names.hpp"
#include "core/lesson/lesson.hpp"
#include "core/lesson/run_lesson.hpp"

using namespace attnscope;

namespace {

Lesson builtInLesson(const std::string& name) {
    std::ifstream in(std::string(ATTNSCOPE_SOURCE_DIR) + "/resources/lessons/" + name + ".json");
    std::ostringstream s;
    s << in.rdbuf();
    auto lesson = parseLesson(s.str(), name);
    INFO((lesson.ok() ? "" : lesson.error().text()));
    REQUIRE(lesson.ok());
    return lesson.value();
}

// The value an explanation's terms produce, by the explanation's own kind.
double valueFromTerms(const Explanation& e) {
    switch (e.kind) {
        case ExplanationKind::Softmax: return *e.divisor > 0 ? *e.numerator / *e.divisor : 0.0;
        case ExplanationKind::Division: return *e.numerator / *e.divisor;
        default: return e.termsTotal;
    }
}

bool derived(ExplanationKind kind) {
    return kind != ExplanationKind::Given && kind != ExplanationKind::Lookup;
}

void checkLayerCellsAddUp(const Trace& trace, int layer, double tolerance) {
    for (const Step step : stepsOf(trace, layer))
        for (int h = 0; h < (isPerHead(step) ? trace.headCount() : 1); ++h) {
            const GridRef m = stepMatrix(trace, step, layer, h);
            for (int r = 0; r < m.rows(); ++r)
                for (int c = 0; c < m.cols(); ++c) {
                    const auto e = explainCell(trace, CellRef{step, layer, h, r, c}, 4);
                    REQUIRE(e.ok());
                    if (!derived(e.value().kind)) continue;
                    INFO(std::string(stepKey(step)) << " layer " << layer << " head " << h << " (" << r << ", " << c
                                                    << ")");
                    if (std::isinf(e.value().value)) {
                        CHECK(valueFromTerms(e.value()) == e.value().value);
                        continue;
                    }
                    CHECK(valueFromTerms(e.value()) == Approx(e.value().value).margin(tolerance));
                }
        }
}

void checkAllCellsAddUp(const Trace& trace, double tolerance) {
    for (int layer = 0; layer < trace.layerCount(); ++layer) checkLayerCellsAddUp(trace, layer, tolerance);
}

}  // namespace

TEST_CASE("score explanation lists the products q_i[c]·k_j[c]", "[explain]") {
    const Lesson lesson = builtInLesson("first-hand-exercise");
    const auto trace = runLesson(lesson, "cats chase mice").value();
    // cats = [1,0,1,0,0], mice = [1,1,0,1,0]: products 1·1, 0·1, 1·0, 0·1, 0·0 → sum 1
    const auto e = explainCell(trace, CellRef{Step::Scores, 0, 0, 0, 2}, 2).value();
    REQUIRE(e.terms.size() == 5);
    CHECK(e.terms[0].value == 1);
    CHECK(e.terms[1].value == 0);
    CHECK(e.termsTotal == 1);
    CHECK(e.value == 1);
    CHECK(e.terms[0].label == "q[cats,1]·k[mice,1] = 1 × 1 = 1");  // integers print as written; columns from 1
    // sources: q_cats[0..4] and k_mice[0..4]
    REQUIRE(e.sources.size() == 10);
    CHECK(e.sources[0] == CellRef{Step::Query, 0, 0, 0, 0});
    CHECK(e.sources[1] == CellRef{Step::Key, 0, 0, 2, 0});
    CHECK(e.lines.back() == "value = 1");
}

TEST_CASE("a class follows a score product by product, with the running sum after each", "[explain]") {
    const Lesson lesson = builtInLesson("first-hand-exercise");
    const auto trace = runLesson(lesson, "cats chase mice").value();
    // mice = [1,1,0,1,0] with itself: products 1·1, 1·1, 0·0, 1·1, 0·0 → running sums 1, 2, 2, 3, 3
    const auto e = explainCell(trace, CellRef{Step::Scores, 0, 0, 2, 2}, 2).value();
    CHECK(runningSums(trace, e, 2) == std::vector<std::string>{"1", "2", "2", "3", "3"});
    const auto rule = linesUpToTerm(e, 0);  // title and rule, no product yet
    REQUIRE(rule.size() == 2);
    CHECK(rule.back() == e.rule);
    const auto two = linesUpToTerm(e, 2);
    REQUIRE(two.size() == 4);
    CHECK(two[2] == "  q[mice,1]·k[mice,1] = 1 × 1 = 1");  // columns counted from 1
    CHECK(two[3] == "  q[mice,2]·k[mice,2] = 1 × 1 = 1");
    CHECK(linesUpToTerm(e, 5).back() == "  q[mice,5]·k[mice,5] = 0 × 0 = 0");
    // Fractions print with the explanation's decimals: out[cats,1] at 2 decimals sums 0.58·1 + 0.21·0 + 0.21·1.
    const auto out = explainCell(trace, CellRef{Step::WeightedSum, 0, 0, 0, 0}, 2).value();
    const auto sums = runningSums(trace, out, 2);
    REQUIRE(sums.size() == 3);
    CHECK(sums[0] == "0.58");
    CHECK(sums[2] == "0.79");
    // A softmax's terms are not a sum to step through; nor is a looked-up embedding.
    CHECK(runningSums(trace, explainCell(trace, CellRef{Step::Weights, 0, 0, 2, 2}, 2).value(), 2).empty());
    const auto lookup = explainCell(trace, CellRef{Step::Embedding, 0, 0, 2, 0}, 2).value();
    CHECK(runningSums(trace, lookup, 2).empty());
    CHECK(lookup.rule == "looked up: row \"mice\" of the embedding table, feature 1");  // features counted from 1
}

TEST_CASE("softmax explanation shows the shifted exponentials and their sum", "[explain]") {
    const Lesson lesson = builtInLesson("first-hand-exercise");
    const auto trace = runLesson(lesson, "cats chase mice").value();
    // row "mice" of S = [1, 0, 3]: max 3; exps e^−2 = 0.13533528, e^−3 = 0.04978707, 1; sum 1.18512235
    // A[mice, mice] = 1 / 1.18512235 = 0.84379473
    const auto e = explainCell(trace, CellRef{Step::Weights, 0, 0, 2, 2}, 8).value();
    CHECK(e.kind == ExplanationKind::Softmax);
    CHECK(*e.rowMax == 3);
    REQUIRE(e.terms.size() == 3);
    CHECK(e.terms[0].value == Approx(0.13533528).margin(1e-8));
    CHECK(e.terms[1].value == Approx(0.04978707).margin(1e-8));
    CHECK(*e.divisor == Approx(1.18512235).margin(1e-8));
    CHECK(e.value == Approx(0.84379473).margin(1e-8));
    // Whole numbers print as whole numbers: exp(16 − 16) = 1, not 1.00000000.
    CHECK(std::find(e.lines.begin(), e.lines.end(), "A = 1 / 1.18512235 = 0.84379473") != e.lines.end());
    CHECK(std::find(e.lines.begin(), e.lines.end(), "  exp(3 − 3) for mice = 1") != e.lines.end());
}

TEST_CASE("the softmax also as textbooks write it: e to each score over their sum, the same value", "[explain]") {
    // The blog exercise: 笔 = [1,2,1,2,1], 记 = [1,1,1,2,1], 本 = [1,3,2,3,1], Q = K = V = X, no
    // scaling. Row 笔 of S: 11, 9, 16. Safe: e⁻⁷ / (e⁻⁵ + e⁻⁷ + 1) = 0.000912 / 1.007650 = 0.000905.
    // Textbook: e⁹ / (e¹¹ + e⁹ + e¹⁶) = 8103.083928 / (59874.141715 + 8103.083928 + 8886110.520508).
    const auto lesson = parseLesson(R"({"format": "attnscope-lesson", "version": 1, "d_model": 5, "projections": false,
      "scale": false, "embeddings": {"笔": [1, 2, 1, 2, 1], "记": [1, 1, 1, 2, 1], "本": [1, 3, 2, 3, 1]}})", "blog");
    REQUIRE(lesson.ok());
    const auto trace = runLesson(lesson.value(), "笔记本").value();
    const auto e = explainCell(trace, CellRef{Step::Weights, 0, 0, 0, 1}, 6).value();
    const std::vector<std::string> tail(e.lines.end() - 5, e.lines.end());
    CHECK(tail == std::vector<std::string>{
                      "A = 0.000912 / 1.007650 = 0.000905",
                      "A[i,j] = e^s_ij / Σ_j' e^s_ij'",
                      "  A = e⁹ / (e¹¹ + e⁹ + e¹⁶)",
                      "    = 8103.083928 / (59874.141715 + 8103.083928 + 8886110.520508) = 0.000905",
                      "value = 0.000905"});
    CHECK(e.lines.at(2) == "  exp(11 − 16) for 笔 = 0.006738");  // whole scores as whole numbers
    // A masked key (e^−∞ = 0) is left out of the textbook sum; a causal row 0 is e^s / e^s.
    Lesson causal = lesson.value();
    causal.causalMask = true;
    const auto masked = explainCell(runLesson(causal, "笔记本").value(), CellRef{Step::Weights, 0, 0, 1, 0}, 6).value();
    CHECK(std::find(masked.lines.begin(), masked.lines.end(), "  A = e⁹ / (e⁹ + e⁸)") != masked.lines.end());
}

TEST_CASE("every explanation of every built-in lesson adds up to its cell", "[explain]") {
    for (const char* name : {"first-hand-exercise", "two-heads", "coreference", "causal-mask", "two-layers", "rope", "rope-zh", "whole-block", "whole-block-zh", "grouped-query"}) {
        std::ifstream probe(std::string(ATTNSCOPE_SOURCE_DIR) + "/resources/lessons/" + name + ".json");
        if (!probe) continue;
        INFO(name);
        const Lesson lesson = builtInLesson(name);
        checkAllCellsAddUp(runLesson(lesson, lesson.sentence, RunSettings{std::nullopt, true}).value(), 1e-9);
        // With hand-rounding each cell is the rounded sum of its (rounded) terms.
        checkAllCellsAddUp(runLesson(lesson, lesson.sentence, RunSettings{2, false}).value(), 0.005 + 1e-12);
    }
}

TEST_CASE("hand-rounding changes what it should", "[explain][rounding]") {
    const Lesson lesson = builtInLesson("first-hand-exercise");
    const auto exact = runLesson(lesson, "cats chase mice", RunSettings{std::nullopt, true}).value();
    const auto rounded = runLesson(lesson, "cats chase mice", RunSettings{2, false}).value();
    // Integer scores are untouched by rounding …
    CHECK(rounded.layers[0].heads[0].scores == exact.layers[0].heads[0].scores);
    // … but A[cats, cats] = 0.57611688 becomes 0.58, and the output row uses the rounded weights:
    // out[cats, 0] = 0.58·1 + 0.21·0 + 0.21·1 = 0.79 (exact 0.78805844).
    CHECK(rounded.layers[0].heads[0].weights(0, 0) == Approx(0.58).margin(1e-12));
    CHECK(rounded.layers[0].heads[0].weightedSum(0, 0) == Approx(0.79).margin(1e-12));
    CHECK(exact.layers[0].heads[0].weightedSum(0, 0) == Approx(0.78805844).margin(1e-8));
    const auto e = explainCell(rounded, CellRef{Step::WeightedSum, 0, 0, 0, 0}, 2).value();
    CHECK(e.lines.back() == "hand-rounded to 2 decimals: 0.79");
}

TEST_CASE("masked cells explain the mask", "[explain]") {
    const Lesson lesson = builtInLesson("first-hand-exercise");
    Lesson causal = lesson;
    causal.causalMask = true;
    const auto trace = runLesson(causal, "cats chase mice").value();
    const auto e = explainCell(trace, CellRef{Step::Masked, 0, 0, 0, 2}, 2).value();
    CHECK(std::isinf(e.value));
    CHECK(e.termsTotal == -std::numeric_limits<double>::infinity());
    const auto w = explainCell(trace, CellRef{Step::Weights, 0, 0, 0, 2}, 2).value();
    CHECK(w.value == 0);
    CHECK(*w.numerator == 0);
}

TEST_CASE("a lesson without scaling masks S itself, never \"S / √d_k\"", "[explain]") {
    // first-hand-exercise does not scale: masked = S + M, S[cats, chase] = cats·chase = 1 (hunter).
    Lesson causal = builtInLesson("first-hand-exercise");
    causal.causalMask = true;
    const auto trace = runLesson(causal, "cats chase mice").value();
    REQUIRE_FALSE(trace.scaled);
    const auto operands = operandsOf(trace, Step::Masked, 0);
    REQUIRE(operands.size() == 2);
    CHECK(operands[0].step == Step::Scores);
    CHECK(operands[1].step == Step::Mask);
    const auto e = explainCell(trace, CellRef{Step::Masked, 0, 0, 1, 0}, 2).value();
    CHECK(e.rule.rfind("masked = S + M[i,j]", 0) == 0);
    CHECK(e.terms.at(0).label == "S[chase,cats]");
    CHECK(e.terms.at(0).value == 1.0);
    CHECK(e.sources.at(0).step == Step::Scores);
    for (const std::string& line : e.lines) CHECK(line.find("scaled") == std::string::npos);
}

TEST_CASE("out-of-range cells are errors, not crashes", "[explain][errors]") {
    const Lesson lesson = builtInLesson("first-hand-exercise");
    const auto trace = runLesson(lesson, "cats chase mice").value();
    const auto e = explainCell(trace, CellRef{Step::Scores, 0, 0, 3, 0}, 2);
    REQUIRE_FALSE(e.ok());
    CHECK(e.error().text() == "cell of scores: (3, 0) is outside the 3×3 matrix");
    CHECK_FALSE(explainCell(trace, CellRef{Step::Scores, 0, 5, 0, 0}, 2).ok());
}

TEST_CASE("unknown tokens explain the hash rule", "[explain]") {
    const Lesson lesson = builtInLesson("first-hand-exercise");
    const auto trace = runLesson(lesson, "hi").value();
    const auto e = explainCell(trace, CellRef{Step::Embedding, 0, 0, 0, 0}, 0).value();
    // FNV-1a-32("hi" + byte 0) = 2933011566, mod 5 = 1, minus 2 = −1
    CHECK(e.rule.find("2933011566") != std::string::npos);
    CHECK(e.value == -1);
}

TEST_CASE("repeated tokens are told apart by their position, counted from 1 (小#1, 小#5)", "[explain]") {
    std::vector<Token> tokens;
    for (const char* t : {"小", "猫", "看", "见", "小", "狗"}) tokens.push_back(Token{t});
    CHECK(tokenNames(tokens) == std::vector<std::string>{"小#1", "猫", "看", "见", "小#5", "狗"});
    // cats = [1,0,1,0,0]: row 1 and row 3 are both "cats"; q·k of cats with itself is 1·1 + 1·1 = 2.
    const Lesson lesson = builtInLesson("first-hand-exercise");
    const auto trace = runLesson(lesson, "cats chase cats").value();
    const auto e = explainCell(trace, CellRef{Step::Scores, 0, 0, 0, 2}, 2).value();
    CHECK(e.title.find(": S[cats#1, cats#3]") != std::string::npos);
    CHECK(e.terms[0].label == "q[cats#1,1]·k[cats#3,1] = 1 × 1 = 1");
    CHECK(e.value == 2);
    CHECK(rowLabels(trace, Step::Scores, 0, 0) == std::vector<std::string>{"cats#1", "chase", "cats#3"});
}
