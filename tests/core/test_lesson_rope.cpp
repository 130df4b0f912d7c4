// Issue 29 §2: lessons with rotary position encoding (format version 5). The built-in lessons
// rope and rope-zh are worked by hand here; every cell of them is also checked against the
// independent reference (tests/reference/fixtures/lessons/rope*.json, test_reference_traces.cpp).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>

#include "builtin_lesson.hpp"
#include "core/lesson/lesson.hpp"
#include "core/io/text_file.hpp"
#include "core/lab/worksheet.hpp"
#include "core/lesson/lesson_edit.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/pipeline/rope.hpp"
#include "core/trace/explain.hpp"

using namespace attnscope;

namespace {

// x = [1, 2, 3, 4] at position m = 1, θ = (π/2, π/3): cos π/2 = 0, sin π/2 = 1; cos π/3 = 1/2, sin π/3 = √3/2.
Mat turnedRow(bool interleaved) {
    RowVec theta(2);
    theta << std::numbers::pi / 2, std::numbers::pi / 3;
    const RopeTables<double> tables = ropeTables<double>(2, theta);
    Mat x(2, 4);
    x << 1, 2, 3, 4,  //
        1, 2, 3, 4;
    if (interleaved) applyRopeInterleaved<double>(x, tables);
    else applyRope<double>(x, tables);
    return x;
}

std::string lessonError(const std::string& positional, int version = 5, int dModel = 2) {
    const std::string row = dModel == 2 ? "[1,0]" : "[1,0,0]";
    const std::string json = R"({"format":"attnscope-lesson","version":)" + std::to_string(version) +
                             R"(,"d_model":)" + std::to_string(dModel) + R"(,"projections":false,"embeddings":{"x":)" + row +
                             R"(},"positional_encoding":)" + positional + "}";
    const auto lesson = parseLesson(json, "l.json");
    return lesson ? std::string("(parsed)") : lesson.error().text();
}

}  // namespace

TEST_CASE("RoPE pairings: Hugging Face's (i, i + d/2) and the paper's (2i, 2i+1), by hand", "[rope][lesson]") {
    // Half: pairs (1, 3) by π/2 → (1·0 − 3·1, 3·0 + 1·1) = (−3, 1); (2, 4) by π/3 →
    // (2·½ − 4·√3/2, 4·½ + 2·√3/2) = (1 − 2√3, 2 + √3) = (−2.464102, 3.732051).
    const Mat half = turnedRow(false);
    CHECK(half(1, 0) == Approx(-3.0));
    CHECK(half(1, 1) == Approx(1 - 2 * std::sqrt(3.0)));
    CHECK(half(1, 2) == Approx(1.0));
    CHECK(half(1, 3) == Approx(2 + std::sqrt(3.0)));
    // Interleaved: pairs (1, 2) by π/2 → (−2, 1); (3, 4) by π/3 → (1.5 − 2√3, 2 + 1.5√3) = (−1.964102, 4.598076).
    const Mat interleaved = turnedRow(true);
    CHECK(interleaved(1, 0) == Approx(-2.0));
    CHECK(interleaved(1, 1) == Approx(1.0));
    CHECK(interleaved(1, 2) == Approx(1.5 - 2 * std::sqrt(3.0)));
    CHECK(interleaved(1, 3) == Approx(2 + 1.5 * std::sqrt(3.0)));
    // Position 0 turns by nothing in either pairing.
    CHECK(half.row(0) == Mat(Mat{{1, 2, 3, 4}}));
    CHECK(interleaved.row(0) == Mat(Mat{{1, 2, 3, 4}}));
    CHECK(ropePairColumns(1, 2, false) == std::pair{1, 3});
    CHECK(ropePairColumns(1, 2, true) == std::pair{2, 3});
}

TEST_CASE("the RoPE lesson by hand: the score depends on the distance, not on the positions", "[rope][lesson]") {
    // resources/lessons/rope.json: d_k = 4, base 100, θ = (1, 100^(−2/4) = 0.1), Q = K = X.
    // K[cat@1] = turn([0, 1, 1, 0]): pair 0 (cols 0, 2) = (0, 1) by 1 rad → (−sin 1, cos 1);
    // pair 1 (cols 1, 3) = (1, 0) by 0.1 → (cos 0.1, sin 0.1):
    //   K[cat@1] = [−0.841471, 0.995004, 0.540302, 0.099833]
    // Q[the@0] = [1, 0, 0, 1] unturned, so S[the, cat] = −sin 1 + sin 0.1 = −0.841471 + 0.099833 = −0.741638.
    // the@3 and cat@4 turn by 3 and 4 (both pairs), one apart again: the same −0.741638.
    for (const char* name : {"rope", "rope-zh"}) {
        INFO(name);
        const Trace t = testing::runBuiltInLesson(name);
        REQUIRE(t.tokenCount() == 5);
        CHECK(t.rotates());
        CHECK(t.positional.isZero());  // nothing added to the embeddings
        const HeadTrace& h = t.layers[0].heads[0];
        CHECK(h.kBeforeRope.row(1) == Mat(Mat{{0, 1, 1, 0}}));
        CHECK(h.k(1, 0) == Approx(-std::sin(1.0)));
        CHECK(h.k(1, 1) == Approx(std::cos(0.1)));
        CHECK(h.k(1, 2) == Approx(std::cos(1.0)));
        CHECK(h.k(1, 3) == Approx(std::sin(0.1)));
        CHECK(h.scores(0, 1) == Approx(-0.741638).epsilon(1e-6));
        CHECK(h.scores(3, 4) == Approx(h.scores(0, 1)).epsilon(1e-12));
        CHECK(h.scaledScores(0, 1) == Approx(-0.741638 / 2).epsilon(1e-6));  // ÷ √4
        // K[saw@2] = turn([1, 1, 0, 0]) = [cos 2, cos 0.2, sin 2, sin 0.2], so
        // S[the@0, saw@2] = cos 2 + sin 0.2 = −0.416147 + 0.198669 = −0.217478.
        CHECK(h.scores(0, 2) == Approx(-0.217478).margin(1e-6));
        const std::vector<Step> steps = stepsOf(t);
        CHECK(std::find(steps.begin(), steps.end(), Step::QueryBeforeRope) != steps.end());
        CHECK(std::find(steps.begin(), steps.end(), Step::Input) == steps.end());  // no E + P step
    }
}

TEST_CASE("a RoPE lesson cell explains its cos, sin and products, in either pairing", "[rope][lesson]") {
    const Trace t = testing::runBuiltInLesson("rope");
    auto e = explainCell(t, CellRef{Step::Key, 0, 0, 1, 0}, 6);
    REQUIRE(e.ok());
    CHECK(e.value().kind == ExplanationKind::Rotation);
    // Columns and pairs counted from 1 (the first pair is columns 1 and 3), m from 0.
    CHECK(e.value().rule == "RoPE turns the pair of columns (1, 3) of cat#2's row (m = 1, its position counted from 0) by the angle m·θ_1");
    CHECK(e.value().details.at(1) == "angle m·θ_1 = 1 × 1 = 1 rad; cos = 0.540302, sin = 0.841471");
    CHECK(e.value().termsTotal == Approx(-std::sin(1.0)));

    // The interleaved lesson (tests/reference/lessons): column index 3 is the second of the second pair,
    // columns (3, 4) counted from 1.
    auto text = readTextFile(std::filesystem::path(ATTNSCOPE_SOURCE_DIR) / "tests/reference/lessons/rope-interleaved.json");
    REQUIRE(text.ok());
    auto lesson = parseLesson(text.value(), "rope-interleaved.json");
    REQUIRE(lesson.ok());
    CHECK(lesson.value().ropeInterleaved);
    auto run = runLesson(lesson.value(), lesson.value().sentence);
    REQUIRE(run.ok());
    auto second = explainCell(run.value(), CellRef{Step::Query, 0, 1, 2, 3}, 6);
    REQUIRE(second.ok());
    CHECK(second.value().rule == "RoPE turns the pair of columns (3, 4) of saw's row (m = 2, its position counted from 0) by the angle m·θ_2");
    const HeadTrace& h = run.value().layers[0].heads[1];
    const double angle = 2 * 0.01;  // θ_2 = 10000^(−2/4) = 0.01
    CHECK(second.value().termsTotal ==
          Approx(h.qBeforeRope(2, 3) * std::cos(angle) + h.qBeforeRope(2, 2) * std::sin(angle)));
    CHECK(second.value().termsTotal == Approx(h.q(2, 3)));
}

TEST_CASE("lesson format 5: rope is written and read back, older versions refuse it", "[rope][lesson]") {
    Lesson lesson = testing::builtInLesson("rope");
    CHECK(lesson.positional == PositionalKind::Rotary);
    CHECK(lesson.ropeBase == 100);
    CHECK_FALSE(lesson.ropeInterleaved);
    lesson.ropeInterleaved = true;
    const std::string text = serializeLesson(lesson);
    CHECK(text.find("\"version\": 5") != std::string::npos);
    CHECK(text.find("\"pairing\": \"interleaved\"") != std::string::npos);
    auto again = parseLesson(text, "again.json");
    REQUIRE(again.ok());
    CHECK(again.value().ropeInterleaved);
    CHECK(again.value().ropeBase == 100);
    CHECK(serializeLesson(again.value()) == text);

    CHECK(lessonError("\"rope\"") == "(parsed)");
    CHECK(lessonError("\"rope\"", 4) == "l.json: positional_encoding: \"rope\" needs \"version\": 5");
    CHECK(lessonError(R"({"rope":{"pairing":"adjacent"}})") ==
          "l.json: positional_encoding.rope.pairing: expected \"half\" or \"interleaved\", found \"adjacent\"");
    CHECK(lessonError(R"({"rope":{"base":-2}})") == "l.json: positional_encoding.rope.base: expected a positive number, found the number -2");
    CHECK(lessonError("\"rope\"", 5, 3) ==
          "l.json: positional_encoding: rotary position encoding turns pairs of columns: d_k must be even, found 3");
    CHECK(lessonError("\"spiral\"") ==
          "l.json: positional_encoding: expected \"none\", \"sinusoidal\", \"rope\", {\"rope\": …} or {\"table\": …}, found \"spiral\"");
}

TEST_CASE("a worksheet on the RoPE lesson's K gives K_pre and explains each blank's cos and sin", "[rope][lesson][lab]") {
    const Trace trace = testing::runBuiltInLesson("rope");
    ExerciseSpec spec;
    spec.step = Step::Key;
    spec.hide = HideKind::OneRow;
    spec.row = 1;  // cat at position 1: [−0.8415, 0.9950, 0.5403, 0.0998] (hand-worked above)
    spec.decimals = 4;
    auto exercise = makeExercise(trace, spec);
    REQUIRE(exercise.ok());
    auto sheet = exerciseWorksheet(trace, exercise.value(), WorksheetFormat::Markdown, "RoPE");
    REQUIRE(sheet.ok());
    const std::string& q = sheet.value().questions;
    const std::string& a = sheet.value().answers;
    INFO(q);
    CHECK(q.find("### Keys before RoPE") != std::string::npos);  // the rotation's input is given
    CHECK(q.find("| **cat#2** | 0 | 1 | 1 | 0 |") != std::string::npos);
    CHECK(q.find("-0.8415") == std::string::npos);
    CHECK(a.find("| -0.8415 | 0.9950 | 0.5403 | 0.0998 |") != std::string::npos);
    CHECK(a.find("cos = 0.540302, sin = 0.841471") != std::string::npos);  // the blank at m·θ_0 = 1
}

TEST_CASE("the editor's settings switch RoPE on and off, with its base and pairing", "[rope][lesson][editor]") {
    const Lesson rope = testing::builtInLesson("rope");
    LessonSettings settings = settingsOf(rope, "en");
    CHECK(settings.positional == PositionalKind::Rotary);
    CHECK(settings.ropeBase == 100);
    settings.positional = PositionalKind::Sinusoidal;
    auto sinusoidal = applyLessonSettings(rope, settings, "en");
    REQUIRE(sinusoidal.ok());
    CHECK(sinusoidal.value().positional == PositionalKind::Sinusoidal);
    settings.positional = PositionalKind::Rotary;
    settings.ropeBase = 10;
    settings.ropeInterleaved = true;
    auto turned = applyLessonSettings(sinusoidal.value(), settings, "en");
    REQUIRE(turned.ok());
    CHECK(turned.value().ropeBase == 10);
    CHECK(turned.value().ropeInterleaved);
    settings.positional = PositionalKind::Table;  // the rope lesson has no table to keep
    CHECK(applyLessonSettings(rope, settings, "en").error().text() == "positional_encoding.table: is missing");

    // Lesson 1 has d_model = d_k = 5 (no projections): no pairs to turn.
    const Lesson first = testing::builtInLesson("first-hand-exercise");
    LessonSettings odd = settingsOf(first, "en");
    odd.positional = PositionalKind::Rotary;
    const auto refused = applyLessonSettings(first, odd, "en");
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().text().find("positional_encoding: rotary position encoding turns pairs of columns: d_k must be even, found 5") !=
          std::string::npos);
}
