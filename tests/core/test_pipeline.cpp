// Pipeline steps checked against values worked out by hand (arithmetic in the comments).
#include <catch2/catch.hpp>
#include <cmath>

#include "core/pipeline/attention_layer.hpp"
#include "core/pipeline/steps.hpp"
#include "core/text/messages.hpp"
#include "matrix_compare.hpp"

#include "tests/matrix_literal.hpp"

using namespace attnscope;

namespace {
using testing::rows;
const double kInf = std::numeric_limits<double>::infinity();
}  // namespace

TEST_CASE("softmax of the row [11, 9, 11]", "[pipeline][softmax]") {
    // max = 11; shifted = [0, −2, 0]; exps = [1, e^−2 = 0.1353352832, 1]; sum = 2.1353352832
    // 1 / 2.1353352832 = 0.4683105308, 0.1353352832 / 2.1353352832 = 0.0633789383
    const Mat w = softmaxRows(rows({{11, 9, 11}}), nullptr);
    REQUIRE_MATRIX_NEAR(rows({{0.4683105308, 0.0633789383, 0.4683105308}}), w, 1e-9);
}

TEST_CASE("softmax does not overflow on large scores", "[pipeline][softmax]") {
    // exp(1000) overflows a double; after subtracting the max the row is [0, −1] → exps [1, e^−1].
    // 1 / (1 + 0.3678794412) = 0.7310585786, 0.3678794412 / 1.3678794412 = 0.2689414214
    const Mat w = softmaxRows(rows({{1000, 999}}), nullptr);
    REQUIRE_MATRIX_NEAR(rows({{0.7310585786, 0.2689414214}}), w, 1e-9);
}

TEST_CASE("fully masked rows and infinities are handled and reported", "[pipeline][softmax]") {
    std::vector<Notice> notices;
    const Mat w = softmaxRows(rows({{-kInf, -kInf}, {kInf, 0}, {kInf, kInf}, {0, -kInf}}), &notices, {"a", "b", "c", "d"});
    // all −∞ → nothing to attend to (zeros); +∞ entries share the weight; −∞ beside a finite score → 0
    REQUIRE_MATRIX_NEAR(rows({{0, 0}, {1, 0}, {0.5, 0.5}, {1, 0}}), w, 0);
    REQUIRE(notices.size() == 3);
    CHECK(noticeText(notices[0], Language::English) == "every score of \"a\" is masked: it attends to nothing (weights 0)");
    CHECK(noticeText(notices[0], Language::Chinese) == "“a”的每个分数都被掩码：它不关注任何词元（权重为 0）");
    CHECK(noticeText(notices[1], Language::English) == "scores of \"b\" contain +inf: the weight is split among those");
    CHECK(notices[2].id == MessageId::NoticeRowInfinite);
    CHECK(notices[2].args == std::vector<std::string>{"c"});
}

TEST_CASE("NaN scores give NaN weights and a notice", "[pipeline][softmax]") {
    std::vector<Notice> notices;
    const Mat w = softmaxRows(rows({{NAN, 1}, {1, 1}}), &notices);
    CHECK(std::isnan(w(0, 0)));
    CHECK(std::isnan(w(0, 1)));
    REQUIRE_MATRIX_NEAR(rows({{0.5, 0.5}}), Mat(w.bottomRows(1)), 1e-12);
    REQUIRE(notices.size() == 1);
    // No row names: the notice counts the row from 1.
    CHECK(noticeText(notices[0], Language::English) == "scores of row 1 contain NaN: its weights are undefined");
    CHECK(noticeText(notices[0], Language::Chinese) == "第 1 行的分数含有 NaN：其权重没有定义");
}

TEST_CASE("causal mask hides later tokens", "[pipeline][mask]") {
    REQUIRE_MATRIX_NEAR(rows({{0, -kInf, -kInf}, {0, 0, -kInf}, {0, 0, 0}}), causalMask(3), 0);
    // Row 0 can only see itself: weight 1. Row 1 sees scores [1, 1] → [0.5, 0.5].
    const Mat masked = applyMask(rows({{5, 7, 9}, {1, 1, 9}, {0, 0, 0}}), causalMask(3));
    const Mat w = softmaxRows(masked, nullptr);
    REQUIRE_MATRIX_NEAR(rows({{1, 0, 0}, {0.5, 0.5, 0}, {1.0 / 3, 1.0 / 3, 1.0 / 3}}), w, 1e-12);
}

TEST_CASE("scores, scaling, projection and weighted sum", "[pipeline]") {
    // Q = [[1,2],[0,1]], K = [[1,0],[2,1]]: S = [[1·1+2·0, 1·2+2·1], [0·1+1·0, 0·2+1·1]] = [[1,4],[0,1]]
    const Mat Q = rows({{1, 2}, {0, 1}});
    const Mat K = rows({{1, 0}, {2, 1}});
    REQUIRE_MATRIX_NEAR(rows({{1, 4}, {0, 1}}), attentionScores(Q, K), 0);
    // d_k = 2: √2 = 1.41421356; 4 / 1.41421356 = 2.82842712
    REQUIRE_MATRIX_NEAR(rows({{0.7071067812, 2.8284271247}, {0, 0.7071067812}}),
                        scaleScores(attentionScores(Q, K), sqrtOf(2)), 1e-9);
    // X·W + b: [1,2]·[[1,0],[0,1]] + [10,20] = [11, 22]
    REQUIRE_MATRIX_NEAR(rows({{11, 22}}), project(rows({{1, 2}}), Mat::Identity(2, 2), rows({{10, 20}})), 0);
    // A·V: [0.25, 0.75]·[[4, 0], [0, 8]] = [1, 6]
    REQUIRE_MATRIX_NEAR(rows({{1, 6}}), weightedSum(rows({{0.25, 0.75}}), rows({{4, 0}, {0, 8}})), 1e-12);
}

TEST_CASE("concatenation puts heads side by side and W_O projects", "[pipeline]") {
    const Mat c = concatHeads({rows({{1, 2}, {3, 4}}), rows({{5}, {6}})});
    REQUIRE_MATRIX_NEAR(rows({{1, 2, 5}, {3, 4, 6}}), c, 0);
    // [1,2,5]·[[1],[1],[1]] = 8; [3,4,6]·[[1],[1],[1]] = 13; plus bias 1
    REQUIRE_MATRIX_NEAR(rows({{9}, {14}}), outputProjection(c, rows({{1}, {1}, {1}}), rows({{1}})), 0);
}

TEST_CASE("sinusoidal positional encoding", "[pipeline][positional]") {
    // pos 1, d = 4: columns 0,1 use 1/10000^(0/4) = 1 → sin 1 = 0.8414709848, cos 1 = 0.5403023059
    //               columns 2,3 use 1/10000^(2/4) = 0.01 → sin 0.01 = 0.0099998333, cos 0.01 = 0.9999500004
    const Mat pe = sinusoidalEncoding(2, 4);
    REQUIRE_MATRIX_NEAR(rows({{0, 1, 0, 1}, {0.8414709848, 0.5403023059, 0.0099998333, 0.9999500004}}), pe, 1e-9);
}

TEST_CASE("hand-rounding rounds halves away from zero like a calculator", "[pipeline][rounding]") {
    CHECK(roundTo(2.675, 2) == Approx(2.68).margin(1e-12));  // 2.675 is stored as 2.67499999…
    CHECK(roundTo(-0.125, 2) == Approx(-0.13).margin(1e-12));
    CHECK(roundTo(0.4683105308, 3) == Approx(0.468).margin(1e-12));
    CHECK(roundTo(1.5, 0) == 2.0);
    CHECK(std::isinf(roundTo(-kInf, 2)));
}

TEST_CASE("a layer with hand-rounding rounds every intermediate", "[pipeline][rounding]") {
    // Q = K = V = X = [[1,0],[0,1]], scaled by √2: scaled = [[0.70710678, 0], [0, 0.70710678]]
    // rounded to 2 decimals: 0.71. softmax row [0.71, 0] = [e^0.71, 1]/(e^0.71+1) → with shift:
    // [1, e^−0.71 = 0.4916442]/1.4916442 = [0.6704, 0.3296] → rounded [0.67, 0.33]
    const Mat X = Mat::Identity(2, 2);
    const AttentionOptions rounded{true, false, 2};
    const LayerTrace layer = runAttentionLayer(X, {identityHead(2)}, Mat(), RowVec(), rounded, {"a", "b"}, nullptr);
    REQUIRE_MATRIX_NEAR(rows({{0.71, 0}, {0, 0.71}}), layer.heads[0].scaledScores, 1e-12);
    REQUIRE_MATRIX_NEAR(rows({{0.67, 0.33}, {0.33, 0.67}}), layer.heads[0].weights, 1e-12);
    const AttentionOptions exact{true, false, std::nullopt};
    const LayerTrace precise = runAttentionLayer(X, {identityHead(2)}, Mat(), RowVec(), exact, {"a", "b"}, nullptr);
    // exact: [1, e^−0.70710678 = 0.49306869]/1.49306869 = 0.66976155
    CHECK(precise.heads[0].weights(0, 0) == Approx(0.66976155).margin(1e-8));
}

TEST_CASE("hand-rounding decides halves on the written decimal value", "[pipeline][rounding]") {
    // −1.5 + 1.35 = −0.15 on paper, −0.1499999999999999 in a double: a student writes −0.2.
    CHECK(roundTo(-1.5 + 1.35, 1) == Approx(-0.2).margin(1e-12));
    CHECK(roundTo(0.1 + 0.2 + 0.05, 1) == Approx(0.4).margin(1e-12));  // 0.35 → 0.4
    CHECK(roundTo(0.34999, 1) == Approx(0.3).margin(1e-12));            // not a half: stays down
}
