// Multi-head lab (issue 5 §4): golden values worked by hand, the identity Σ_h Q_h·K_hᵀ = Q·Kᵀ,
// and the shapes for every head count.
#include <catch2/catch.hpp>
#include <cmath>

#include "core/lab/multi_head_lab.hpp"
#include "core/lab/random.hpp"
#include "matrix_compare.hpp"
#include "tests/matrix_literal.hpp"

using namespace attnscope;
using attnscope::testing::rows;

namespace {

// The hand case, d = 2, H = 2, T = 2:
//   X = [[1, 0], [0, 2]], W_Q = [[1, 1], [0, 1]], W_K = W_V = I, W_O = [[0, 1], [1, 0]] (swaps columns).
//   Q = X·W_Q = [[1, 1], [0, 2]], K = V = X.
//   Head 1 (column 0): Q₁ = [1; 0], K₁ = V₁ = [1; 0], S₁ = Q₁K₁ᵀ = [[1, 0], [0, 0]]; d_k = 1, √1 = 1;
//     A₁ = [[e/(1+e), 1/(1+e)], [½, ½]], head₁ = A₁V₁ = [e/(1+e); ½].
//   Head 2 (column 1): Q₂ = [1; 2], K₂ = V₂ = [0; 2], S₂ = [[0, 2], [0, 4]];
//     A₂ = [[1/(1+e²), e²/(1+e²)], [1/(1+e⁴), e⁴/(1+e⁴)]], head₂ = A₂V₂ = [2e²/(1+e²); 2e⁴/(1+e⁴)].
//   S₁ + S₂ = [[1, 2], [0, 4]] = Q·Kᵀ.
//   concat = [head₁ | head₂]; output = concat·W_O = [head₂ | head₁].
MultiHeadWeights handWeights() {
    return {rows({{1, 1}, {0, 1}}), rows({{1, 0}, {0, 1}}), rows({{1, 0}, {0, 1}}), rows({{0, 1}, {1, 0}})};
}
Mat handX() { return rows({{1, 0}, {0, 2}}); }

// −p ln p − (1 − p) ln(1 − p): the entropy of a two-entry row.
double binaryEntropy(double p) { return -p * std::log(p) - (1 - p) * std::log(1 - p); }

Mat randomX(int T, int d, std::uint64_t seed) { return LabRandom(seed).normalMatrix(T, d); }

}  // namespace

TEST_CASE("multi-head lab: the hand case d = 2, H = 2, T = 2", "[lab][multihead]") {
    const auto run = runMultiHead(handX(), 2, handWeights());
    REQUIRE(run.ok());
    const double e = std::exp(1.0), e2 = std::exp(2.0), e4 = std::exp(4.0);
    const LayerTrace& layer = run.value().trace.layers.at(0);
    REQUIRE(layer.heads.size() == 2);
    CHECK(run.value().headWidth == 1);
    CHECK(run.value().trace.scaleDivisor == 1.0);
    REQUIRE_MATRIX_NEAR(rows({{1, 0}, {0, 0}}), layer.heads[0].scores, 0.0);
    REQUIRE_MATRIX_NEAR(rows({{0, 2}, {0, 4}}), layer.heads[1].scores, 0.0);
    REQUIRE_MATRIX_NEAR(rows({{e / (1 + e), 1 / (1 + e)}, {0.5, 0.5}}), layer.heads[0].weights, 1e-15);
    REQUIRE_MATRIX_NEAR(rows({{1 / (1 + e2), e2 / (1 + e2)}, {1 / (1 + e4), e4 / (1 + e4)}}), layer.heads[1].weights,
                        1e-15);
    const Mat concat = rows({{e / (1 + e), 2 * e2 / (1 + e2)}, {0.5, 2 * e4 / (1 + e4)}});
    REQUIRE_MATRIX_NEAR(concat, layer.concat, 1e-15);
    REQUIRE_MATRIX_NEAR(rows({{2 * e2 / (1 + e2), e / (1 + e)}, {2 * e4 / (1 + e4), 0.5}}), layer.output, 1e-15);
    REQUIRE_MATRIX_NEAR(rows({{1, 2}, {0, 4}}), run.value().singleScores, 0.0);
    CHECK(run.value().identityDifference == 0.0);
}

TEST_CASE("multi-head lab: the hand case's summary rows", "[lab][multihead]") {
    const auto table = headCountTable(handX(), handWeights());
    REQUIRE(table.ok());
    REQUIRE(table.value().size() == 2);  // H = 1, 2
    const HeadCountSummary& one = table.value()[0];
    const HeadCountSummary& two = table.value()[1];
    // H = 1: S = [[1, 2], [0, 4]], mean 7/4, variance (9 + 1 + 49 + 81)/16/4 = 35/16, std √35/4; d_k = 2.
    CHECK(one.heads == 1);
    CHECK(one.headWidth == 2);
    CHECK(one.scale == Approx(1 / std::sqrt(2.0)).epsilon(1e-15));
    CHECK(one.parameters == 16);  // 4·d² = 4·4
    CHECK(one.rawScoreStd == Approx(std::sqrt(35.0) / 4).epsilon(1e-14));
    CHECK(one.scaledScoreStd == Approx(std::sqrt(35.0) / 4 / std::sqrt(2.0)).epsilon(1e-14));
    // Rows of S/√2: softmax(1/√2, 2/√2) and softmax(0, 4/√2): two-entry rows, p = 1/(1 + e^(b − a)).
    const double h1 = (binaryEntropy(1 / (1 + std::exp(1 / std::sqrt(2.0)))) +
                       binaryEntropy(1 / (1 + std::exp(4 / std::sqrt(2.0))))) / 2;
    CHECK(one.meanEntropy == Approx(h1).epsilon(1e-14));
    // H = 2: S₁ entries {1, 0, 0, 0}: mean ¼, variance (9/16 + 3/16)/4 = 3/16, std √3/4;
    //        S₂ entries {0, 2, 0, 4}: mean 3/2, variance (9/4 + 1/4 + 9/4 + 25/4)/4 = 11/4, std √11/2.
    CHECK(two.heads == 2);
    CHECK(two.headWidth == 1);
    CHECK(two.scale == 1.0);
    CHECK(two.parameters == 16);
    CHECK(two.rawScoreStd == Approx((std::sqrt(3.0) / 4 + std::sqrt(11.0) / 2) / 2).epsilon(1e-14));
    CHECK(two.scaledScoreStd == Approx(two.rawScoreStd).epsilon(1e-15));  // d_k = 1: nothing divided
    const double e = std::exp(1.0);
    const double h2 = (binaryEntropy(e / (1 + e)) + std::log(2.0) + binaryEntropy(1 / (1 + std::exp(2.0))) +
                       binaryEntropy(1 / (1 + std::exp(4.0)))) / 4;
    CHECK(two.meanEntropy == Approx(h2).epsilon(1e-14));
}

TEST_CASE("multi-head lab: H = 1 is plain single-head attention", "[lab][multihead]") {
    // softmax(X·W_Q·(X·W_K)ᵀ/√d)·X·W_V·W_O written out with Eigen alone.
    const int T = 4, d = 6;
    const Mat X = randomX(T, d, 11);
    const MultiHeadWeights w = drawMultiHeadWeights(d, 5);
    const Mat S = (X * w.wq) * (X * w.wk).transpose() / std::sqrt(double(d));
    Mat A(T, T);
    for (int i = 0; i < T; ++i) {
        const Eigen::ArrayXd ex = (S.row(i).array() - S.row(i).maxCoeff()).exp().transpose();
        A.row(i) = (ex / ex.sum()).matrix().transpose();
    }
    const auto run = runMultiHead(X, 1, w);
    REQUIRE(run.ok());
    REQUIRE_MATRIX_NEAR(A, run.value().trace.layers[0].heads[0].weights, 1e-14);
    REQUIRE_MATRIX_NEAR(A * X * w.wv * w.wo, run.value().trace.layers[0].output, 1e-13);
    CHECK(run.value().identityDifference == 0.0);
}

TEST_CASE("multi-head lab: Σ_h Q_h·K_hᵀ = Q·Kᵀ and the Q_h side by side are X·W_Q (to rounding)", "[lab][multihead]") {
    const int T = 5, d = 12;
    const Mat X = randomX(T, d, 3);
    const MultiHeadWeights w = drawMultiHeadWeights(d, 42);
    const Mat Q = X * w.wq, K = X * w.wk;  // T×d, computed here
    for (const int H : {1, 2, 3, 4, 6, 12}) {
        INFO("H = " << H);
        const auto run = runMultiHead(X, H, w);
        REQUIRE(run.ok());
        const auto& heads = run.value().trace.layers[0].heads;
        Mat sum = Mat::Zero(T, T), qs(T, d);
        for (int h = 0; h < H; ++h) {
            sum += heads[h].scores;
            qs.middleCols(h * (d / H), d / H) = heads[h].q;
        }
        REQUIRE_MATRIX_NEAR(Q * K.transpose(), sum, 1e-12);
        REQUIRE_MATRIX_NEAR(Q * K.transpose(), run.value().singleScores, 1e-12);
        CHECK(run.value().identityDifference < 1e-12);
        // The same dot products; Eigen may sum a d×d_k product in another order than a d×d one, so
        // the last bit can differ (2.2e-16 seen for H = 2).
        REQUIRE_MATRIX_NEAR(Q, qs, 1e-14);
    }
}

TEST_CASE("multi-head lab: shapes for every divisor of d", "[lab][multihead]") {
    const int T = 3, d = 12;
    CHECK(headCountsFor(12) == std::vector<int>{1, 2, 3, 4, 6, 12});
    CHECK(headCountsFor(5) == std::vector<int>{1, 5});
    const Mat X = randomX(T, d, 8);
    const auto table = headCountTable(X, drawMultiHeadWeights(d, 1));
    REQUIRE(table.ok());
    REQUIRE(table.value().size() == 6);
    for (const HeadCountSummary& s : table.value()) {
        const int H = s.heads, dK = d / H;
        INFO("H = " << H);
        CHECK(s.headWidth == dK);
        CHECK(s.parameters == 4 * 12 * 12);
        const auto run = runMultiHead(X, H, std::uint64_t{1});
        REQUIRE(run.ok());
        const LayerTrace& layer = run.value().trace.layers[0];
        REQUIRE(static_cast<int>(layer.heads.size()) == H);
        for (const HeadTrace& h : layer.heads) {
            CHECK((h.params.wq.rows() == d && h.params.wq.cols() == dK));
            CHECK((h.q.rows() == T && h.q.cols() == dK && h.k.cols() == dK && h.v.cols() == dK));
            CHECK((h.scores.rows() == T && h.scores.cols() == T));
            CHECK((h.weightedSum.rows() == T && h.weightedSum.cols() == dK));
        }
        CHECK((layer.concat.rows() == T && layer.concat.cols() == d));
        CHECK((layer.wo.rows() == d && layer.wo.cols() == d));
        CHECK((layer.output.rows() == T && layer.output.cols() == d));
        CHECK(run.value().trace.scaleDivisor == std::sqrt(double(dK)));
    }
    CHECK(multiHeadShapes(3, 12, 4) ==
          "X 3×12 → Q_h, K_h, V_h 3×3 (each of 4 heads) → Q_h·K_hᵀ 3×3 → softmax(·/√3) 3×3 → ·V_h 3×3 → concat 3×12 "
          "→ ·W_O 12×12 → 3×12");
}

TEST_CASE("multi-head lab: narrower heads spread raw scores less, scaled ones stay comparable", "[lab][multihead]") {
    // With N(0, 1) inputs and N(0, 1/d) weights a raw score sums d_k products of similar size, so its
    // spread grows like √d_k; dividing by √d_k removes that. d = 64: √64 = 8 between H = 1 and H = 64.
    const Mat X = randomX(16, 64, 21);
    const auto table = headCountTable(X, drawMultiHeadWeights(64, 9));
    REQUIRE(table.ok());
    const auto& rowsOf = table.value();
    const double rawRatio = rowsOf.front().rawScoreStd / rowsOf.back().rawScoreStd;
    const double scaledRatio = rowsOf.front().scaledScoreStd / rowsOf.back().scaledScoreStd;
    CHECK(rawRatio > 4);
    CHECK(rawRatio < 16);
    CHECK(scaledRatio > 0.5);
    CHECK(scaledRatio < 2);
}

TEST_CASE("multi-head lab: seeded weights and errors", "[lab][multihead]") {
    // W_Q, W_K, W_V, W_O drawn in that order from LabRandom(seed), each scaled by 1/√d.
    LabRandom random(77);
    const Mat wq = random.normalMatrix(4, 4) / 2, wk = random.normalMatrix(4, 4) / 2;
    const Mat wv = random.normalMatrix(4, 4) / 2, wo = random.normalMatrix(4, 4) / 2;
    const MultiHeadWeights w = drawMultiHeadWeights(4, 77);
    REQUIRE_MATRIX_NEAR(wq, w.wq, 0.0);
    REQUIRE_MATRIX_NEAR(wk, w.wk, 0.0);
    REQUIRE_MATRIX_NEAR(wv, w.wv, 0.0);
    REQUIRE_MATRIX_NEAR(wo, w.wo, 0.0);
    CHECK(drawMultiHeadWeights(4, 78).wq != w.wq);

    const auto bad = runMultiHead(randomX(3, 5, 1), 2, std::uint64_t{1});
    REQUIRE_FALSE(bad.ok());
    CHECK_THAT(bad.error().text(), Catch::Contains("H = 2") && Catch::Contains("d = 5"));
    const auto mismatched = runMultiHead(randomX(3, 5, 1), 1, drawMultiHeadWeights(4, 1));
    REQUIRE_FALSE(mismatched.ok());
    CHECK_THAT(mismatched.error().text(), Catch::Contains("5×5") && Catch::Contains("4×4"));
}
