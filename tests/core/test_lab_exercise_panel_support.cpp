// Core pieces the Exercises panel relies on: recognising an unchanged run (answers survive the
// lab's refreshes) and the Chinese worksheet phrases.
#include <catch2/catch.hpp>

#include "core/lab/worksheet.hpp"
#include "core/lesson/run_lesson.hpp"

#include "builtin_lesson.hpp"

using namespace attnscope;

TEST_CASE("sameRun: the same lesson and sentence twice, but not another sentence or rounding", "[lab]") {
    const Lesson lesson = testing::builtInLesson("first-hand-exercise");
    const Trace a = testing::runBuiltInLesson("first-hand-exercise");
    const Trace b = testing::runBuiltInLesson("first-hand-exercise");
    CHECK(sameRun(a, b));
    CHECK_FALSE(sameRun(a, testing::runBuiltInLesson("first-hand-exercise", "mice chase cats")));
    CHECK_FALSE(sameRun(a, testing::runBuiltInLesson("causal-mask")));
    RunSettings rounded;
    rounded.handRounding = 2;  // softmax(2, 1, 1) = 0.5761… becomes 0.58
    auto c = runLesson(lesson, lesson.sentence, rounded);
    REQUIRE(c.ok());
    CHECK_FALSE(sameRun(a, c.value()));
    const Trace masked = testing::runBuiltInLesson("causal-mask");
    CHECK(sameRun(masked, testing::runBuiltInLesson("causal-mask")));  // −∞ mask cells compare equal
}

TEST_CASE("a Chinese worksheet prints the Chinese phrases and keeps the numbers", "[lab]") {
    const Trace trace = testing::runBuiltInLesson("first-hand-exercise");
    ExerciseSpec spec;
    spec.hide = HideKind::OneRow;
    spec.decimals = 4;
    auto exercise = makeExercise(trace, spec);
    REQUIRE(exercise.ok());
    auto sheet = exerciseWorksheet(trace, exercise.value(), WorksheetFormat::Markdown, "第一课", chineseWorksheetPhrases());
    REQUIRE(sheet.ok());
    const std::string& q = sheet.value().questions;
    CHECK(q.rfind("# 第一课\n", 0) == 0);
    CHECK(q.find("词元: cats · chase · mice") != std::string::npos);
    CHECK(q.find("## 已知") != std::string::npos);
    CHECK(q.find("每个答案保留 4 位小数。") != std::string::npos);
    CHECK(q.find("| **cats** | ____ | ____ | ____ |") != std::string::npos);
    // Row "cats" of the weights: softmax(2, 1, 1) = (e², e, e)/(e² + 2e) = 0.5761, 0.2119, 0.2119.
    CHECK(sheet.value().answers.find("# 第一课 — 答案") != std::string::npos);
    CHECK(sheet.value().answers.find("| **cats** | 0.5761 | 0.2119 | 0.2119 |") != std::string::npos);
}
