// Which weights the head view draws: the floor, or each row's k strongest (issue 13 §2).
#include <catch2/catch.hpp>
#include <cmath>

#include "core/analysis/line_selection.hpp"

#include "tests/matrix_literal.hpp"

using namespace attnscope;
using attnscope::testing::rows;

TEST_CASE("line thresholds: the floor alone, or each row's k-th largest below it", "[line_selection]") {
    const Mat w = rows({{.002, .004, .003, .991}, {.25, .25, .25, .25}, {0, 0, 0, 1}});
    // Floor 0.01 alone: every row's threshold is the floor.
    CHECK(rowLineThresholds(w, {0.01, 0}) == std::vector<double>{0.01, 0.01, 0.01});
    // Top 2: row 0's second largest is .004 (< .01); row 1 keeps the floor (.25 > .01); row 2's is 0.
    CHECK(rowLineThresholds(w, {0.01, 2}) == std::vector<double>{.004, 0.01, 0});
    // Drawn: row 0 → .004 and .991 (2 lines); row 2 → only the 1 (a zero weight is never a line).
    CHECK(drawsLine(.004, .004));
    CHECK_FALSE(drawsLine(.003, .004));
    CHECK_FALSE(drawsLine(0, 0));
    CHECK(drawsLine(1, 0));
    // k larger than the row: every positive weight.
    CHECK(rowLineThresholds(w, {0.5, 9}) == std::vector<double>{.002, .25, 0});
    CHECK(rowLineThresholds(Mat(), {0.01, 3}).empty());
}

TEST_CASE("line thresholds ignore NaN", "[line_selection]") {
    const Mat w = rows({{std::nan(""), .3, .1}});
    CHECK(rowLineThresholds(w, {1, 2}) == std::vector<double>{.1});
    CHECK_FALSE(drawsLine(std::nan(""), .1));
}
