// Exercise mode in core (core/lab/exercise.hpp): hidden cells, typed answers, tolerance, score.
#include <catch2/catch.hpp>
#include <filesystem>

#include "core/lab/exercise.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/io/text_file.hpp"

#include "builtin_lesson.hpp"

using namespace attnscope;

TEST_CASE("typed numbers: what a student writes, and what is refused", "[lab]") {
    CHECK(readTypedNumber(" 0.873 ") == 0.873);
    CHECK(readTypedNumber("\xE2\x88\x92" "0,5") == -0.5);  // "−0,5": Unicode minus, decimal comma
    CHECK(readTypedNumber("1e-3") == 0.001);
    CHECK(readTypedNumber("-2") == -2.0);
    for (const char* bad : {"", "abc", "nan", "inf", "-inf", "0.5.1", "1,000.5", "0.5x", "--1"}) {
        INFO(bad);
        CHECK_FALSE(readTypedNumber(bad));
    }
}

TEST_CASE("the tolerance is half a unit in the last decimal", "[lab]") {
    CHECK(answerTolerance(3) == Approx(0.0005 + 1e-12).epsilon(1e-15));
    CHECK(answerTolerance(1) == Approx(0.05 + 1e-12).epsilon(1e-15));
}

TEST_CASE("a hidden row of the coreference head: right, wrong and not a number", "[lab]") {
    // Lesson 3, head 1, row "it" (7), column "animal" (1): scores/√2 are 6/√2 for animal, 2/√2
    // for street, −2/√2 for the four function words, 0 for the five others, so
    // e^4.2426 / (e^4.2426 + e^1.4142 + 5 + 4·e^−1.4142) = 69.588 / 79.674 = 0.87342.
    const Trace trace = testing::runBuiltInLesson("coreference");
    ExerciseSpec spec;
    spec.step = Step::Weights;
    spec.hide = HideKind::OneRow;
    spec.row = 7;
    auto exercise = makeExercise(trace, spec);
    REQUIRE(exercise.ok());
    const Exercise& e = exercise.value();
    REQUIRE(e.blanks.size() == 11);
    const Blank& animal = e.blanks[1];
    CHECK(animal.cell == CellRef{Step::Weights, 0, 0, 7, 1});
    CHECK(animal.answer == Approx(0.87342).margin(5e-6));
    CHECK(checkAnswer(e, animal, "0.873").verdict == Verdict::Correct);
    CHECK(checkAnswer(e, animal, "0,873").verdict == Verdict::Correct);
    CHECK(checkAnswer(e, animal, "0.874").verdict == Verdict::Wrong);  // 0.00058 away: a unit off
    CHECK(checkAnswer(e, animal, "0.87").verdict == Verdict::Wrong);
    const AnswerCheck typo = checkAnswer(e, animal, "o.873");
    CHECK(typo.verdict == Verdict::NotANumber);

    ExerciseProgress progress(e);
    progress.record(1, Verdict::Wrong);
    progress.record(1, Verdict::Correct);  // the latest answer counts
    progress.record(2, Verdict::Wrong);
    progress.record(3, Verdict::NotANumber);  // not an attempt
    const ExerciseScore s = progress.score();
    CHECK(s.correct == 1);
    CHECK(s.attempted == 2);
    CHECK(s.total == 11);
}

TEST_CASE("random cells: seeded, distinct, in reading order, masks never ask for −∞", "[lab]") {
    const Trace trace = testing::runBuiltInLesson("causal-mask");  // 5 tokens
    ExerciseSpec spec;
    spec.step = Step::Mask;
    auto whole = makeExercise(trace, spec);
    REQUIRE(whole.ok());
    CHECK(whole.value().blanks.size() == 15);  // 25 cells, the 10 above the diagonal are −∞
    spec.step = Step::Weights;
    spec.hide = HideKind::RandomCells;
    spec.count = 6;
    spec.seed = 11;
    auto first = makeExercise(trace, spec), again = makeExercise(trace, spec);
    REQUIRE(first.ok());
    REQUIRE(first.value().blanks.size() == 6);
    for (std::size_t i = 0; i < 6; ++i) {
        CHECK(first.value().blanks[i].cell == again.value().blanks[i].cell);
        if (i > 0) {
            const CellRef& a = first.value().blanks[i - 1].cell;
            const CellRef& b = first.value().blanks[i].cell;
            CHECK((a.row < b.row || (a.row == b.row && a.col < b.col)));
        }
    }
    spec.count = 1000;
    CHECK(makeExercise(trace, spec).value().blanks.size() == 25);
}

TEST_CASE("exercises refuse what does not exist, by name", "[lab]") {
    const Trace trace = testing::runBuiltInLesson("first-hand-exercise");
    ExerciseSpec spec;
    spec.layer = 3;
    CHECK_THAT(makeExercise(trace, spec).error().text(), Catch::Contains("layer 4 does not exist"));
    spec.layer = 0;
    spec.hide = HideKind::OneRow;
    spec.row = 99;
    CHECK_THAT(makeExercise(trace, spec).error().text(), Catch::Contains("row 100 is outside"));
}
