// Head summaries (core/analysis/head_summary) against values worked out by hand.
//
// Tokens: [CLS] a b [SEP] (0 and 3 special). Layer 0 has two heads:
//   head 0            head 1
//   .4  .3  .2  .1    .1  .1  .1  .7
//   .1  .5  .2  .2    .3  .1  .3  .3
//   .2  .2  .4  .2    0   .6  .2  .2
//   .25 .25 .25 .25   .4  .2  .2  .2
// Layer 1 has two heads whose weights were not kept (empty matrices).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "core/analysis/head_summary.hpp"
#include "matrix_compare.hpp"

#include "tests/matrix_literal.hpp"

using namespace attnscope;

namespace {

using testing::rows;

Trace handTrace() {
    Trace t;
    for (const char* text : {"[CLS]", "a", "b", "[SEP]"}) t.tokens.push_back({text});
    t.tokens.front().special = t.tokens.back().special = true;
    LayerTrace l0;
    l0.heads.resize(2);
    l0.heads[0].weights = rows({{.4, .3, .2, .1}, {.1, .5, .2, .2}, {.2, .2, .4, .2}, {.25, .25, .25, .25}});
    l0.heads[1].weights = rows({{.1, .1, .1, .7}, {.3, .1, .3, .3}, {0, .6, .2, .2}, {.4, .2, .2, .2}});
    LayerTrace l1;
    l1.heads.resize(2);  // weights not computed
    t.layers = {l0, l1};
    return t;
}

}  // namespace

TEST_CASE("average over heads is the cell-wise mean", "[head_summary]") {
    // e.g. row 0: (.4+.1)/2 = .25, (.3+.1)/2 = .2, (.2+.1)/2 = .15, (.1+.7)/2 = .4
    const Trace t = handTrace();
    REQUIRE_MATRIX_NEAR(rows({{.25, .2, .15, .4}, {.2, .3, .25, .25}, {.1, .4, .3, .2}, {.325, .225, .225, .225}}),
                        averageOverHeads(t.layers[0]), 1e-12);
    // A subset of one head is that head.
    REQUIRE_MATRIX_NEAR(t.layers[0].heads[1].weights, averageOverHeads(t.layers[0], {1}), 0);
}

TEST_CASE("max over heads is the cell-wise maximum", "[head_summary]") {
    const Trace t = handTrace();
    REQUIRE_MATRIX_NEAR(rows({{.4, .3, .2, .7}, {.3, .5, .3, .3}, {.2, .6, .4, .2}, {.4, .25, .25, .25}}),
                        maxOverHeads(t.layers[0]), 0);
}

TEST_CASE("layers without weights give empty summaries", "[head_summary]") {
    const Trace t = handTrace();
    CHECK(hasWeights(t.layers[0]));
    CHECK_FALSE(hasWeights(t.layers[1]));
    CHECK(averageOverHeads(t.layers[1]).size() == 0);
    CHECK(maxOverHeads(t.layers[1]).size() == 0);
    CHECK(averageOverHeads(t.layers[0], {5}).size() == 0);  // no such head
    CHECK_FALSE(hasWeights(LayerTrace{}));
}

TEST_CASE("weightsComputed: every head's weights there, cross-attention's rectangles too", "[head_summary]") {
    const Trace t = handTrace();
    CHECK(weightsComputed(t.layers[0]));
    CHECK_FALSE(weightsComputed(t.layers[1]));
    CHECK_FALSE(weightsComputed(LayerTrace{}));
    LayerTrace cross = testing::layerOf({rows({{.5, .5, 0}, {.2, .3, .5}})});  // 2 target rows over 3 source tokens
    CHECK(weightsComputed(cross));
    CHECK_FALSE(hasWeights(cross));  // not a T×T self-attention
    cross.heads.emplace_back();      // a second head whose weights were not computed
    CHECK_FALSE(weightsComputed(cross));
}

TEST_CASE("hiding special tokens keeps the others in order", "[head_summary]") {
    const Trace t = handTrace();
    CHECK(visibleTokens(t, false) == std::vector<int>{0, 1, 2, 3});
    CHECK(visibleTokens(t, true) == std::vector<int>{1, 2});
}

TEST_CASE("selecting tokens keeps rows and columns, rows then sum to less than 1", "[head_summary]") {
    const Trace t = handTrace();
    const Mat kept = selectTokens(t.layers[0].heads[0].weights, {1, 2});
    REQUIRE_MATRIX_NEAR(rows({{.5, .2}, {.2, .4}}), kept, 0);
    CHECK(kept.row(0).sum() == Approx(.7));  // .1 to [CLS] and .2 to [SEP] are not shown
    CHECK(kept.row(1).sum() == Approx(.6));
    // Order follows `keep`.
    REQUIRE_MATRIX_NEAR(rows({{.4, .2}, {.2, .5}}), selectTokens(t.layers[0].heads[0].weights, {2, 1}), 0);
    CHECK(selectTokens(t.layers[0].heads[0].weights, {4}).size() == 0);  // out of range
}

TEST_CASE("renormalising is explicit and divides each row by its sum", "[head_summary]") {
    // [.5 .2] / .7 = [5/7, 2/7];  [.2 .4] / .6 = [1/3, 2/3]
    const Trace t = handTrace();
    const WeightSelection hidden{{1, 2}, false};
    const WeightSelection renormalised{{1, 2}, true};
    REQUIRE_MATRIX_NEAR(rows({{.5, .2}, {.2, .4}}), shownWeights(t.layers[0].heads[0].weights, hidden), 0);
    REQUIRE_MATRIX_NEAR(rows({{5.0 / 7, 2.0 / 7}, {1.0 / 3, 2.0 / 3}}),
                        shownWeights(t.layers[0].heads[0].weights, renormalised), 1e-12);
    // head 1: [.1 .3] / .4 = [.25 .75];  [.6 .2] / .8 = [.75 .25]
    REQUIRE_MATRIX_NEAR(rows({{.25, .75}, {.75, .25}}), shownWeights(t.layers[0].heads[1].weights, renormalised),
                        1e-12);
    // A zero row stays zero instead of dividing by 0.
    REQUIRE_MATRIX_NEAR(rows({{0, 0}, {.25, .75}}), renormalizeRows(rows({{0, 0}, {1, 3}})), 0);
}

TEST_CASE("shown weights written into a matrix of the right size reuse its storage", "[head_summary]") {
    const Trace t = handTrace();
    Mat shown(2, 2);
    const double* storage = shown.data();
    shownWeightsInto(t.layers[0].heads[1].weights, {{1, 2}, true}, shown);
    REQUIRE_MATRIX_NEAR(rows({{.25, .75}, {.75, .25}}), shown, 1e-12);  // as above, head 1 renormalised
    CHECK(shown.data() == storage);  // a layer switch at 4,096 tokens: no fresh 128 MiB
    shownWeightsInto(t.layers[0].heads[0].weights, {{1, 2}, false}, shown);
    REQUIRE_MATRIX_NEAR(rows({{.5, .2}, {.2, .4}}), shown, 0);  // nothing left of the head before
    shownWeightsInto(t.layers[0].heads[0].weights, {{4}, false}, shown);  // out of range: empty
    CHECK(shown.size() == 0);
}

TEST_CASE("a causal selection reads no weight past a row's token unless the row is not finite", "[head_summary]") {
    // 7 stands where a causal run holds 0 (or a page given back): never read, shown as 0. Row 1's
    // NaN spread through the row (a softmax of NaN scores): its hidden key is read as it is.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const Mat w = rows({{1, 7, 7}, {nan, nan, nan}, {.5, .25, .25}});
    const WeightSelection causal{{0, 1, 2}, false, {}, true};
    const Mat shown = shownWeights(w, causal);
    CHECK(shown(0, 0) == 1.0);
    CHECK(shown(0, 1) == 0.0);
    CHECK(shown(0, 2) == 0.0);
    CHECK(std::isnan(shown(1, 2)));
    REQUIRE_MATRIX_NEAR(rows({{.5, .25, .25}}), Mat(shown.bottomRows(1)), 0);
    // Tokens hidden (keep 0 and 2): key 2 lies past query 0, key 0 before query 2.
    REQUIRE_MATRIX_NEAR(rows({{1, 0}, {.5, .25}}), shownWeights(w, WeightSelection{{0, 2}, false, {}, true}), 0);
    CHECK(shownWeights(w, WeightSelection{{0, 1, 2}, false})(0, 1) == 7.0);  // not causal: every weight read
    Trace t;
    t.causal = true;
    t.tokens = {Token{"a"}, Token{"b"}, Token{"c"}};
    CHECK(selectionOf(t, false, false).causal);
    t.causal = false;
    CHECK_FALSE(selectionOf(t, false, false).causal);
}

TEST_CASE("heatmap colour values: per-row maximum and the log floor", "[head_summary]") {
    // [.2 .6 .2] / .6 = [1/3 1 1/3];  [.5 .25 .25] / .5 = [1 .5 .5];  a zero row stays zero.
    REQUIRE_MATRIX_NEAR(rows({{1.0 / 3, 1, 1.0 / 3}, {1, .5, .5}, {0, 0, 0}}),
                        rowMaxNormalized(rows({{.2, .6, .2}, {.5, .25, .25}, {0, 0, 0}})), 1e-12);
    // Below the floor (1e-4), masked zeros included, a weight takes the floor; above it is kept.
    REQUIRE_MATRIX_NEAR(rows({{1e-4, 1e-4, .3}, {5e-4, 1, 1e-4}}),
                        flooredWeights(rows({{0, 2e-5, .3}, {5e-4, 1, 1e-4}})), 0);
    REQUIRE_MATRIX_NEAR(rows({{.01, .5}}), flooredWeights(rows({{0, .5}}), .01), 0);
}

TEST_CASE("colour-scale maxima", "[head_summary]") {
    const Trace t = handTrace();
    CHECK(maxWeight(t.layers[0].heads[0].weights) == .5);
    CHECK(maxWeight(Mat{}) == 0);
    CHECK(maxWeight(t, 0) == .7);  // head 1, [CLS] → [SEP]
    CHECK(maxWeight(t, 1) == 0);   // not computed
    // Hidden: head 0 shows .5, head 1 shows .6; renormalised: max(5/7, .75) = .75.
    CHECK(maxWeight(t, 0, WeightSelection{{1, 2}, false}) == Approx(.6));
    CHECK(maxWeight(t, 0, WeightSelection{{1, 2}, true}) == Approx(.75));
    CHECK(maxWeight(t, WeightSelection{{0, 1, 2, 3}, false}) == Approx(.7));
    CHECK(maxWeight(t, WeightSelection{{1, 2}, true}) == Approx(.75));
}
