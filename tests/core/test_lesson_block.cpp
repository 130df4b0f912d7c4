// Issue 29 §1: the block after attention (lesson format version 6): residual, LayerNorm/RMSNorm,
// the feed-forward network (ReLU, GELU, SwiGLU), the output head and the next word. The built-in
// lessons whole-block and whole-block-zh are worked by hand here; every value of them (and of the
// SwiGLU/RMSNorm and GELU reference lessons) is also checked against the independent reference
// (tests/reference/fixtures/lessons/whole-block*.json, block-*.json; test_reference_traces.cpp).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "builtin_lesson.hpp"
#include "core/export/export.hpp"
#include "core/io/text_file.hpp"
#include "core/lesson/lesson.hpp"
#include "core/lesson/lesson_block_edit.hpp"
#include "core/lesson/lesson_edit.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/model/blocks.hpp"
#include "core/pipeline/block.hpp"
#include "core/text/messages.hpp"
#include "core/trace/explain.hpp"

using namespace attnscope;

namespace {

Lesson referenceLesson(const std::string& name) {
    auto text = readTextFile(std::filesystem::path(ATTNSCOPE_SOURCE_DIR) / "tests/reference/lessons" / (name + ".json"));
    REQUIRE(text.ok());
    auto lesson = parseLesson(text.value(), name + ".json");
    INFO((lesson ? std::string() : lesson.error().text()));
    REQUIRE(lesson.ok());
    return std::move(lesson).value();
}

bool hasLine(const Explanation& e, const std::string& line) {
    return std::find(e.lines.begin(), e.lines.end(), line) != e.lines.end();
}

}  // namespace

TEST_CASE("one whole block by hand: Add & Norm, ReLU feed-forward, Add & Norm, the next word", "[block][lesson]") {
    // whole-block: the = [−1, −1, 1, 1], cat = [1, 1, −1, −1], sat = [3, 0, 3, 0]; W_Q = 0, so every
    // score is 0 and under the causal mask row i averages tokens 0…i (weights 1; ½ ½; ⅓ ⅓ ⅓):
    //   attention[sat] = (the + cat + sat) / 3 = [3, 0, 3, 0] / 3 = [1, 0, 1, 0]
    //   R[sat] = X + attention = [4, 0, 4, 0]
    // LayerNorm of that row: μ = (4 + 0 + 4 + 0) / 4 = 2; σ² = (2² + (−2)² + 2² + (−2)²) / 4 = 4;
    //   N = (x − μ) / √(4 + 0.00001) = [2, −2, 2, −2] / 2.0000025 = ±0.99999875
    // FFN: H = N·I; ReLU(H) = [0.99999875, 0, 0.99999875, 0]; F = ReLU·2I = [1.9999975, 0, 1.9999975, 0]
    //   R₂ = N + F = [2.99999625, −0.99999875, 2.99999625, −0.99999875]: μ = 0.99999875, σ² = 3.99999
    //   Y = final LayerNorm = ±0.99999875 again (±1.99999750 / √(3.99999 + 0.00001))
    // Head: column "on" = [1, −1, 1, −1] meets Y[sat] in 4·0.99999875 = 3.999995; "mat" = [1, 0, 0, −1]
    //   gives 1.9999975; the, cat, sat give 0. P(on) = e^3.999995 / (3 + e^3.999995 + e^1.9999975)
    //   ≈ e⁴ / (3 + e⁴ + e²) = 54.598 / (3 + 54.598 + 7.389) = 0.8401
    for (const char* name : {"whole-block", "whole-block-zh"}) {
        INFO(name);
        const Trace t = testing::runBuiltInLesson(name);
        REQUIRE(t.tokenCount() == 3);
        const BlockTrace& b = t.block;
        CHECK(b.afterAttention.row(2) == Mat(Mat{{4, 0, 4, 0}}));
        CHECK(b.norm.mean(2, 0) == 2);
        CHECK(b.norm.variance(2, 0) == 4);
        CHECK(b.norm.output(2, 0) == Approx(2 / std::sqrt(4.00001)).epsilon(1e-14));
        CHECK(b.norm.output(2, 1) == Approx(-0.99999875).epsilon(1e-8));
        CHECK(b.ffn.activated(2, 1) == 0);  // ReLU of −0.99999875
        CHECK(b.ffn.output(2, 0) == Approx(1.9999975).epsilon(1e-8));
        CHECK(b.afterFfn(2, 0) == Approx(2.99999625).epsilon(1e-8));
        CHECK(b.finalNorm.mean(2, 0) == Approx(0.99999875).epsilon(1e-8));
        CHECK(b.finalNorm.variance(2, 0) == Approx(3.99999).epsilon(1e-8));
        CHECK(b.logits(2, 3) == Approx(3.999995).epsilon(1e-7));
        REQUIRE(b.probabilities.cols() == 5);
        CHECK(b.probabilities(2, 3) == Approx(std::exp(4) / (3 + std::exp(4) + std::exp(2))).margin(1e-5));
        CHECK(b.probabilities(2, 3) == Approx(0.8401).margin(1e-4));
        CHECK(b.probabilities.row(2).sum() == Approx(1.0).epsilon(1e-12));
        // Row 0 (the) predicts cat, row 1 (cat) predicts sat: each row's largest probability.
        Eigen::Index best = 0;
        b.probabilities.row(0).maxCoeff(&best);
        CHECK(best == 1);
        b.probabilities.row(1).maxCoeff(&best);
        CHECK(best == 2);
    }
}

TEST_CASE("the block's steps follow the attention steps, with their operands and labels", "[block][lesson]") {
    const Trace t = testing::runBuiltInLesson("whole-block");
    const std::vector<Step> steps = stepsOf(t, 0);
    const std::vector<Step> tail(steps.end() - 9, steps.end());
    CHECK(tail == std::vector<Step>{Step::AddAttention, Step::Norm, Step::FfnHidden, Step::FfnActivated, Step::FfnOutput,
                                    Step::AddFfn, Step::FinalNorm, Step::Logits, Step::Probabilities});
    CHECK(operandsOf(t, Step::AddAttention, 0) == std::vector<Operand>{{Step::Input, 0}, {Step::WeightedSum, 0}});
    CHECK(operandsOf(t, Step::FfnHidden, 0) == std::vector<Operand>{{Step::Norm, 0}, {Step::WFfnIn, 0}});
    CHECK(operandsOf(t, Step::AddFfn, 0) == std::vector<Operand>{{Step::Norm, 0}, {Step::FfnOutput, 0}});
    CHECK(operandsOf(t, Step::Logits, 0) == std::vector<Operand>{{Step::FinalNorm, 0}, {Step::WVocab, 0}});
    CHECK(operandsOf(t, Step::Probabilities, 0) == std::vector<Operand>{{Step::Logits, 0}});  // was FinalNorm's output
    CHECK(columnLabels(t, Step::Probabilities, 0, 0) == std::vector<std::string>{"the", "cat", "sat", "on", "mat"});
    CHECK(rowLabels(t, Step::WVocab, 0, 0) == std::vector<std::string>{"f1", "f2", "f3", "f4"});
    CHECK(stepFromKey("next_word") == Step::Probabilities);
    CHECK(stepTitleIn(t, Step::Norm, 0) == "LayerNorm N = (x − μ) / √(σ² + ε) · γ + β");
    CHECK(stepTitleIn(t, Step::Probabilities, 0, Language::Chinese) == "下一个词的概率 P = softmax(logit)");
}

TEST_CASE("a LayerNorm cell shows the row's mean, variance, ε and the division", "[block][explain]") {
    const Trace t = testing::runBuiltInLesson("whole-block");
    const auto e = explainCell(t, CellRef{Step::Norm, 0, 0, 2, 1}, 6);
    REQUIRE(e.ok());
    const Explanation& x = e.value();
    CHECK(x.rule == "LayerNorm of row sat: subtract the row's mean μ, divide by √(σ² + ε), then scale by γ and shift by β");
    CHECK(hasLine(x, "mean μ = (4 + 0 + 4 + 0) / 4 = 2"));
    CHECK(hasLine(x, "variance σ² = ((4 − 2)² + (0 − 2)² + (4 − 2)² + (0 − 2)²) / 4 = 4"));
    CHECK(hasLine(x, "ε = 0.00001; √(4 + ε) = 2.000002"));
    CHECK(hasLine(x, "divided: (0 − 2) / 2.000002 = -0.999999"));
    CHECK(x.termsTotal == Approx(x.value));
    const auto zh = explainCell(t, CellRef{Step::Norm, 0, 0, 2, 1}, 6, Language::Chinese).value();
    CHECK(hasLine(zh, "均值 μ = (4 + 0 + 4 + 0) / 4 = 2"));
}

TEST_CASE("a SwiGLU cell shows its gate and up products, a probability its exponentials and sum", "[block][explain]") {
    const Lesson lesson = referenceLesson("block-swiglu-rmsnorm");
    const Trace t = runLesson(lesson, lesson.sentence).value();
    const BlockTrace& b = t.block;
    const auto e = explainCell(t, CellRef{Step::FfnActivated, 0, 0, 1, 2}, 4).value();
    // The gate and up values are N[b]·W_gate[:,2] and N[b]·W_up[:,2], written out term by term.
    const double g = b.ffn.gate(1, 2), u = b.ffn.hidden(1, 2);
    CHECK(g == Approx(b.norm.output.row(1).dot(lesson.block.ffn.wGate.col(2))));
    CHECK(u == Approx(b.norm.output.row(1).dot(lesson.block.ffn.wIn.col(2))));
    CHECK(e.details.at(0).rfind("gate g = ", 0) == 0);
    CHECK(e.details.at(1).rfind("up u = ", 0) == 0);
    CHECK(e.details.at(2).rfind("SiLU(g) = ", 0) == 0);
    CHECK(e.termsTotal == Approx(g / (1 + std::exp(-g)) * u));
    CHECK(e.value == Approx(e.termsTotal));
    // RMSNorm: the mean of squares, no mean subtracted.
    const auto n = explainCell(t, CellRef{Step::Norm, 0, 0, 0, 1}, 4).value();
    CHECK(n.details.at(0).rfind("mean of squares = (", 0) == 0);
    CHECK(n.termsTotal == Approx(n.value));
    // The next word: the exponentials of the row's logits minus their maximum, and their sum.
    const auto p = explainCell(t, CellRef{Step::Probabilities, 0, 0, 3, 1}, 6).value();
    CHECK(p.kind == ExplanationKind::Softmax);
    REQUIRE(p.terms.size() == 4);
    const RowVec row = b.logits.row(3);
    CHECK(*p.divisor == Approx((row.array() - row.maxCoeff()).exp().sum()));
    CHECK(*p.numerator / *p.divisor == Approx(p.value));
}

TEST_CASE("format 6: a block is written and read back, older files never get version 6", "[block][lesson]") {
    const Lesson lesson = referenceLesson("block-swiglu-rmsnorm");
    const std::string text = serializeLesson(lesson);
    CHECK(text.find("\"version\": 6") != std::string::npos);
    auto again = parseLesson(text, "again.json");
    REQUIRE(again.ok());
    CHECK(again.value().block.ffn.kind == BlockFfn::SwiGlu);
    CHECK(again.value().block.norm.kind == BlockNorm::RmsNorm);
    CHECK(again.value().block.tied);
    CHECK(again.value().block.norm.eps == 0.000001);
    CHECK(serializeLesson(again.value()) == text);
    Lesson without = lesson;
    without.block = LessonBlock{};
    CHECK(serializeLesson(without).find("\"version\": 5") != std::string::npos);  // RoPE, no block
}

TEST_CASE("the lesson's readable norms and activations agree with the models' fast float ones", "[block][pipeline]") {
    // One definition each, two paths (as llm.c): core/pipeline/block.cpp in double for lessons,
    // core/model/blocks.cpp in float (SIMD) for real models. Same inputs, agreement to float precision.
    std::mt19937 random(29);
    std::normal_distribution<double> normal(0.0, 2.0);
    Mat X(5, 8);
    for (Eigen::Index i = 0; i < X.size(); ++i) X.data()[i] = normal(random);
    NormTrace norm;
    norm.kind = BlockNorm::LayerNorm;
    norm.gamma = RowVec::LinSpaced(8, 0.5, 2.0);
    norm.beta = RowVec::LinSpaced(8, -1.0, 1.0);
    norm.eps = 1e-5;
    const MatF gamma = norm.gamma.cast<float>(), beta = norm.beta.cast<float>();
    MatF fast = X.cast<float>();
    layerNorm(fast, LayerNormRef{{gamma.data(), 8}, {beta.data(), 8}}, 1e-5f);
    layerNormRows(X, norm);
    CHECK((fast.cast<double>() - norm.output).cwiseAbs().maxCoeff() < 1e-5);
    norm.kind = BlockNorm::RmsNorm;
    fast = X.cast<float>();
    rmsNorm(fast, VectorRef{gamma.data(), 8}, 1e-5f);
    rmsNormRows(X, norm);
    CHECK((fast.cast<double>() - norm.output).cwiseAbs().maxCoeff() < 1e-5);
    fast = X.cast<float>();
    geluErf(fast);
    CHECK((fast.cast<double>() - activateCells(X, BlockFfn::Gelu)).cwiseAbs().maxCoeff() < 1e-5);
    fast = X.cast<float>();
    silu(fast);
    CHECK((fast.cast<double>() - Mat(X.unaryExpr(&siluOf))).cwiseAbs().maxCoeff() < 1e-5);
}

TEST_CASE("the editor switches the block's parts on and off and keeps their weights in shape", "[block][edit]") {
    // first-hand-exercise: d = 5, Q = K = V = X, three words (cats, chase, mice).
    const Lesson lesson = testing::builtInLesson("first-hand-exercise");
    LessonBlockChoice choice;
    choice.residual = true;
    choice.norm = BlockNorm::RmsNorm;
    choice.ffn = BlockFfn::SwiGlu;
    choice.dFf = 3;
    choice.finalNorm = BlockNorm::LayerNorm;
    choice.head = OutputHeadChoice::Own;
    auto edited = applyLessonBlockChoice(lesson, choice);
    INFO((edited ? std::string() : edited.error().text()));
    REQUIRE(edited.ok());
    Lesson l = edited.value();
    CHECK(l.block.norm.gamma == Mat::Ones(1, 5));
    CHECK(l.block.norm.beta.size() == 0);  // RMSNorm has no β
    CHECK(l.block.ffn.wGate == Mat::Zero(5, 3));
    CHECK(l.block.ffn.wOut == Mat::Zero(3, 5));
    CHECK(l.block.finalNorm.beta == Mat::Zero(1, 5));
    // An own head starts as the table itself: column "mice" is mice's vector [1, 1, 0, 1, 0].
    CHECK(l.block.wVocab.col(2).transpose() == Mat(Mat{{1, 1, 0, 1, 0}}));
    CHECK(blockChoiceOf(l).head == OutputHeadChoice::Own);
    REQUIRE(lessonMatrix(l, {LessonMatrixKind::FfnGate, 0, 0}) == &l.block.ffn.wGate);
    // A new word gets a zero column of W_vocab; deleting a word drops its column.
    l = addLessonWord(l, "birds").value();
    CHECK(l.block.wVocab.cols() == 4);
    CHECK(l.block.wVocab.col(3).isZero());
    l = deleteLessonWord(l, "cats").value();
    CHECK(l.block.wVocab.cols() == 3);
    CHECK(l.block.wVocab.col(1).transpose() == Mat(Mat{{1, 1, 0, 1, 0}}));  // mice moved to column 1
    // d_model 5 → 6: γ gains a 1, the feed-forward and head weights a zero row or column.
    auto wider = resizeLesson(l, {6, 1, 6, 6});
    REQUIRE(wider.ok());
    CHECK(wider.value().block.norm.gamma == Mat::Ones(1, 6));
    CHECK(wider.value().block.ffn.wIn.rows() == 6);
    CHECK(wider.value().block.ffn.wOut.cols() == 6);
    CHECK(wider.value().block.wVocab.rows() == 6);
    CHECK(runLesson(wider.value(), "chase mice").ok());
    // Everything off again: no block, and the file goes back to its old version.
    auto off = applyLessonBlockChoice(l, LessonBlockChoice{});
    REQUIRE(off.ok());
    CHECK_FALSE(off.value().block.present());
    CHECK(serializeLesson(off.value()).find("\"version\": 6") == std::string::npos);
}

TEST_CASE("the block's steps are printed, exported and in the worksheet", "[block][export]") {
    const Trace t = testing::runBuiltInLesson("whole-block");
    ExportRequest one;
    one.step = Step::Probabilities;
    const std::string text = exportTrace(t, ExportFormat::Text, one);
    CHECK(text.find("== Next-word probabilities P = softmax(logits) ==") != std::string::npos);
    CHECK(text.find("0.840") != std::string::npos);  // P(on | the cat sat), worked out above
    ExportRequest sheet;
    sheet.explain = true;
    sheet.language = Language::Chinese;
    const std::string markdown = exportTrace(t, ExportFormat::Markdown, sheet);
    CHECK(markdown.find("### 层归一化 N = (x − μ) / √(σ² + ε) · γ + β") != std::string::npos);
    CHECK(markdown.find("均值 μ = (4 + 0 + 4 + 0) / 4 = 2") != std::string::npos);
    const std::string json = exportTrace(t, ExportFormat::Json, ExportRequest{});
    CHECK(json.find("\"block\"") != std::string::npos);
    CHECK(json.find("\"probabilities\"") != std::string::npos);
    const std::string csv = exportTrace(t, ExportFormat::Csv, ExportRequest{});
    CHECK(csv.find("next_word,1,,3,sat,4,on,0.840") != std::string::npos);
}

TEST_CASE("every refused row of the hostile block table is refused by the parser with its message", "[block][lesson]") {
    // tests/hostile/cases-lesson-block.tsv runs these through the attnscope binary; the parser is
    // where the message comes from, so each row is checked here too: name, -, --lesson 'JSON' --print, 1, message.
    std::ifstream table(std::string(ATTNSCOPE_SOURCE_DIR) + "/tests/hostile/cases-lesson-block.tsv");
    REQUIRE(table);
    int refused = 0;
    for (std::string line; std::getline(table, line);) {
        std::vector<std::string> columns;
        std::stringstream row(line);
        for (std::string column; std::getline(row, column, '\t');) columns.push_back(column);
        if (line.empty() || line[0] == '#' || columns.size() < 5 || columns[3] != "1") continue;
        INFO(columns[0]);
        const std::size_t open = columns[2].find('\''), close = columns[2].rfind('\'');
        REQUIRE(close > open);
        const auto lesson = parseLesson(columns[2].substr(open + 1, close - open - 1), "inline lesson");
        REQUIRE_FALSE(lesson.ok());
        INFO(lesson.error().text());
        CHECK(lesson.error().text().find(columns[4]) != std::string::npos);
        ++refused;
    }
    CHECK(refused >= 14);
}
