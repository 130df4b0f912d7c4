// Positional encoding in the teaching lab (core/lab/positional_lab.hpp): the relative-position
// rotation and the permutation check, against values derived by hand.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <numeric>

#include "core/lab/positional_lab.hpp"
#include "core/pipeline/steps.hpp"
#include "core/io/text_file.hpp"
#include "builtin_lesson.hpp"
#include "matrix_compare.hpp"
#include "tests/matrix_literal.hpp"

using namespace attnscope;

TEST_CASE("R_k for d = 4, k = 1, by hand", "[lab]") {
    // ω₀ = 1, ω₁ = 1/10000^(2/4) = 0.01. Blocks [[cos kω, −sin kω], [sin kω, cos kω]]:
    // cos 1 = 0.5403023059, sin 1 = 0.8414709848, cos 0.01 = 0.9999500004, sin 0.01 = 0.0099998333.
    auto map = relativePositionMap(4, 1);
    REQUIRE(map.ok());
    REQUIRE_MATRIX_NEAR(map.value(), testing::rows({{0.5403023059, -0.8414709848, 0, 0},
                                                    {0.8414709848, 0.5403023059, 0, 0},
                                                    {0, 0, 0.9999500004, -0.0099998333},
                                                    {0, 0, 0.0099998333, 0.9999500004}}), 1e-10);
    // PE(0) = [sin 0, cos 0, sin 0, cos 0] = [0, 1, 0, 1]; times R_1 it is PE(1) = [sin 1, cos 1,
    // sin 0.01, cos 0.01].
    const Mat pe = sinusoidalEncoding(2, 4);
    REQUIRE_MATRIX_NEAR(Mat(pe.row(0) * map.value()), Mat(pe.row(1)), 1e-15);
}

TEST_CASE("PE(pos + k) = PE(pos)·R_k on 64 positions to 1e-12", "[lab]") {
    for (const auto& [d, k] : {std::pair{16, 7}, std::pair{64, 1}, std::pair{8, 30}}) {
        INFO("d = " << d << ", k = " << k);
        auto check = checkRelativePosition(64, d, k);
        REQUIRE(check.ok());
        CHECK(check.value().rowsChecked == 64 - k);
        CHECK(check.value().largestDifference < 1e-12);
        // A rotation keeps lengths: R_kᵀ R_k = I.
        REQUIRE_MATRIX_NEAR(Mat(check.value().map.transpose() * check.value().map), Mat(Mat::Identity(d, d)), 1e-14);
    }
}

TEST_CASE("the relative-position map refuses what it cannot do", "[lab]") {
    auto odd = relativePositionMap(5, 1);
    REQUIRE_FALSE(odd.ok());
    CHECK_THAT(odd.error().text(), Catch::Contains("expected an even width, found 5"));
    auto far = checkRelativePosition(10, 4, 10);
    REQUIRE_FALSE(far.ok());
    CHECK_THAT(far.error().text(), Catch::Contains("found 10"));
}

TEST_CASE("the shuffle is the documented Fisher-Yates", "[lab]") {
    // Seed 0: u₁ = 0xe220a8397b1dcdaf / 2⁶⁴ = 0.8833 → i = 2 swaps with ⌊0.8833·3⌋ = 2 (stays);
    // u₂ = 0x6e789e6aa1b965f4 / 2⁶⁴ = 0.4316 → i = 1 swaps with ⌊0.4316·2⌋ = 0.
    CHECK(shuffledOrder(3, 0) == std::vector<int>{1, 0, 2});
    std::vector<int> order = shuffledOrder(40, 99);
    std::sort(order.begin(), order.end());
    for (int i = 0; i < 40; ++i) CHECK(order[static_cast<std::size_t>(i)] == i);
}

TEST_CASE("without position information, shuffling tokens only shuffles the attention", "[lab]") {
    // The causal-mask lesson has sinusoidal encoding and a causal mask. Without both, each score
    // q_i·k_j depends only on the two tokens, so A'(i, j) = A(order[i], order[j]); the softmax sums
    // the same terms in another order, so the largest difference is rounding at most.
    const Lesson lesson = testing::builtInLesson("causal-mask");
    auto plain = permutationDemo(lesson, lesson.sentence, 2024);
    REQUIRE(plain.ok());
    INFO("largest difference " << plain.value().largestDifference);
    CHECK(plain.value().largestDifference <= 1e-15);
    CHECK_FALSE(plain.value().positional);
    std::vector<int> identity(plain.value().order.size());
    std::iota(identity.begin(), identity.end(), 0);
    CHECK(plain.value().order != identity);  // the seed really shuffled
    // With the encoding and the mask kept, the same shuffle changes the weights themselves.
    auto kept = permutationDemo(lesson, lesson.sentence, 2024, true);
    REQUIRE(kept.ok());
    CHECK(kept.value().positional);
    CHECK(kept.value().largestDifference > 0.01);
    // Hand-rounding computes every intermediate on the written decimals: then the property is exact.
    Lesson rounded = testing::builtInLesson("coreference");
    rounded.handRounding = 3;
    auto exact = permutationDemo(rounded, rounded.sentence, 7);
    REQUIRE(exact.ok());
    CHECK(exact.value().largestDifference == 0.0);
}
