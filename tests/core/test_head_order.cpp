// The model view's filters and head order (core/analysis/head_order) against values worked out
// by hand.
//
// Tokens a b c (none special). Layer 0, three heads:
//   h0 identity          h1 "previous"         h2 uniform
//   1 0 0                1 0 0                 ⅓ ⅓ ⅓
//   0 1 0                1 0 0                 ⅓ ⅓ ⅓
//   0 0 1                0 1 0                 ⅓ ⅓ ⅓
// previous-token share (mean of w(i, i−1) over rows 1, 2): h0 0, h1 (1+1)/2 = 1, h2 ⅓.
// entropy (mean bits per row): h0 0, h1 0, h2 log₂3 ≈ 1.585.
// self share (mean of w(i, i)): h0 1, h1 ⅓, h2 ⅓.
// Layer 1: h0 uniform, h1 identity.
#include <catch2/catch.hpp>
#include <cmath>

#include "core/analysis/head_order.hpp"
#include "core/text/error_messages.hpp"

#include "tests/matrix_literal.hpp"

using namespace attnscope;

namespace {

using testing::rows;

Trace orderTrace() {
    const Mat identity = rows({{1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
    const Mat previous = rows({{1, 0, 0}, {1, 0, 0}, {0, 1, 0}});
    const double t = 1.0 / 3;
    const Mat uniform = rows({{t, t, t}, {t, t, t}, {t, t, t}});
    Trace trace;
    for (const char* text : {"a", "b", "c"}) trace.tokens.push_back({text});
    trace.layers.resize(2);
    trace.layers[0].heads.resize(3);
    trace.layers[0].heads[0].weights = identity;
    trace.layers[0].heads[1].weights = previous;
    trace.layers[0].heads[2].weights = uniform;
    trace.layers[1].heads.resize(2);
    trace.layers[1].heads[0].weights = uniform;
    trace.layers[1].heads[1].weights = identity;
    return trace;
}

const ErrorText kWhere = ErrorText(ErrorId::WhereLayerFilter);

std::vector<int> parsed(std::string_view text, int count) {
    auto r = parseIndexList(text, count, kWhere);
    REQUIRE(r.ok());
    return r.value();
}

std::string failure(std::string_view text, int count) {
    auto r = parseIndexList(text, count, kWhere);
    REQUIRE_FALSE(r.ok());
    return r.error().text();
}

}  // namespace

TEST_CASE("an index list counts from 1, takes ranges, sorts and merges repeats", "[head_order]") {
    CHECK(parsed("1-3,7", 12) == std::vector<int>{0, 1, 2, 6});
    CHECK(parsed(" 7 , 2, 1-3 ", 12) == std::vector<int>{0, 1, 2, 6});
    CHECK(parsed("12", 12) == std::vector<int>{11});
    CHECK(parsed("4-4", 4) == std::vector<int>{3});
    CHECK(parsed("", 4) == std::vector<int>{0, 1, 2, 3});
    CHECK(parsed("   ", 2) == std::vector<int>{0, 1});
}

TEST_CASE("a bad index list names the offending item", "[head_order]") {
    CHECK(failure("x", 12) == "layers: expected numbers or ranges such as 1-3,7 separated by commas, found \"x\"");
    CHECK(failure("3-1", 12) == "layers: expected numbers or ranges such as 1-3,7 separated by commas, found \"3-1\"");
    CHECK(failure("1,,2", 12) == "layers: expected numbers or ranges such as 1-3,7 separated by commas, found \"\"");
    CHECK(failure("-3", 12) == "layers: expected numbers or ranges such as 1-3,7 separated by commas, found \"-3\"");
    CHECK(failure("1.5", 12) == "layers: expected numbers or ranges such as 1-3,7 separated by commas, found \"1.5\"");
    CHECK(failure("0", 12) == "layers: 0 is not between 1 and 12");
    CHECK(failure("2-13", 12) == "layers: 13 is not between 1 and 12");
    CHECK(failure("99999999999", 12) == "layers: expected numbers or ranges such as 1-3,7 separated by commas, found \"99999999999\"");
}

TEST_CASE("heads are ordered within each layer by a statistic, highest first", "[head_order]") {
    const auto stats = headStatistics(orderTrace());
    REQUIRE(stats.ok());
    // The numbers worked out above, as the Heads tab shows them.
    CHECK(stats.value()[1].previousShare == Approx(1.0));
    CHECK(stats.value()[2].previousShare == Approx(1.0 / 3));
    CHECK(stats.value()[2].entropy == Approx(std::log2(3.0)));
    const std::vector<std::vector<int>> byPrevious{{1, 2, 0}, {0, 1}};
    CHECK(headOrderBy(stats.value(), HeadSortKey::PreviousShare) == byPrevious);
    const std::vector<std::vector<int>> byEntropy{{2, 0, 1}, {0, 1}};  // h0 and h1 tie at 0: head order
    CHECK(headOrderBy(stats.value(), HeadSortKey::Entropy) == byEntropy);
    const std::vector<std::vector<int>> bySelf{{0, 1, 2}, {1, 0}};
    CHECK(headOrderBy(stats.value(), HeadSortKey::SelfShare) == bySelf);
    CHECK(headOrderBy({}, HeadSortKey::Entropy).empty());
}
