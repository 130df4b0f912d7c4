// Padding masks for a batch of sentences (core/lesson/run_lesson.hpp runLessonBatch).
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>

#include "core/export/export.hpp"
#include "core/pipeline/steps.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/io/text_file.hpp"
#include "builtin_lesson.hpp"
#include "matrix_compare.hpp"
#include "tests/matrix_literal.hpp"

using namespace attnscope;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

TEST_CASE("padding mask: -inf in the padded columns, for every query", "[padding]") {
    REQUIRE_MATRIX_NEAR(paddingMask(3, 2), testing::rows({{0, 0, -kInf}, {0, 0, -kInf}, {0, 0, -kInf}}), 0.0);
    REQUIRE_MATRIX_NEAR(paddingMask(2, 2), testing::rows({{0, 0}, {0, 0}}), 0.0);
}

TEST_CASE("a padded sentence attends over its real tokens exactly as alone", "[padding]") {
    // Lesson 1 (Q = K = V = X, no scaling). "mice chase" is padded to the length of
    // "cats chase mice" with one [PAD]: its scores gain a −∞ column, e^−∞ = 0 adds nothing to the
    // softmax sums, so the 2×2 block of weights is bit-identical to the unpadded run and the
    // [PAD] column is 0 in every row — the [PAD] row too, which spreads over the real tokens.
    for (const char* name : {"first-hand-exercise", "causal-mask"}) {
        INFO(name);
        const Lesson lesson = testing::builtInLesson(name);
        auto batch = runLessonBatch(lesson, {"cats chase mice", "mice chase"});
        REQUIRE(batch.ok());
        REQUIRE(batch.value().size() == 2);
        const Trace& longer = batch.value()[0];
        const Trace& padded = batch.value()[1];
        CHECK(longer.paddedFrom == -1);
        REQUIRE(padded.tokenCount() == 3);
        CHECK(padded.paddedFrom == 2);
        CHECK(padded.tokens[2].text == "[PAD]");
        CHECK(padded.tokens[2].special);
        CHECK(padded.embedding.row(2).isZero(0.0));
        auto alone = runLesson(lesson, "mice chase");
        REQUIRE(alone.ok());
        for (std::size_t h = 0; h < padded.layers[0].heads.size(); ++h) {
            const Mat w = padded.layers[0].heads[h].weights.toMat();
            REQUIRE_MATRIX_NEAR(Mat(w.topLeftCorner(2, 2)), alone.value().layers[0].heads[h].weights, 0.0);
            CHECK(w.col(2).isZero(0.0));
            CHECK(w.row(2).sum() == Approx(1.0));
        }
        CHECK(std::find(stepsOf(padded).begin(), stepsOf(padded).end(), Step::Masked) != stepsOf(padded).end());
        CHECK(stepTitleIn(padded, Step::Masked, 0).find("padding mask") != std::string::npos);
        CHECK(traceToJson(padded).find("\"padded_from\": 3") != std::string::npos);
    }
}
