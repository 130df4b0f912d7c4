// Synthesizer variants (core/lab/synthesizer.hpp) against small examples worked by hand.
#include <catch2/catch.hpp>
#include <filesystem>

#include "core/lab/synthesizer.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/io/text_file.hpp"
#include "builtin_lesson.hpp"
#include "matrix_compare.hpp"
#include "tests/matrix_literal.hpp"

using namespace attnscope;
using testing::rows;

namespace {

RowVec row(std::initializer_list<double> values) { return rows({values}); }

}  // namespace

TEST_CASE("Dense scores, by hand: each row from its own token", "[lab]") {
    // d = 2, ℓ = 3. W₁ = I, b₁ = [0, −1]; W₂ = [[1, 0, 2], [0, 1, 0]], b₂ = [0, 0, 1].
    // X = [[1, 2], [−1, 0.5]] → relu(X + b₁) = [[1, 1], [0, 0]] → ·W₂ + b₂ = [[1, 1, 3], [0, 0, 1]];
    // T = 2 keeps the first two columns.
    SynthesizerWeights w;
    w.length = 3;
    w.w1 = rows({{1, 0}, {0, 1}});
    w.b1 = row({0, -1});
    w.w2 = rows({{1, 0, 2}, {0, 1, 0}});
    w.b2 = row({0, 0, 1});
    REQUIRE_MATRIX_NEAR(denseScores(rows({{1, 2}, {-1, 0.5}}), w), rows({{1, 1}, {0, 0}}), 0.0);
}

TEST_CASE("Factorized Dense and Factorized Random, by hand", "[lab]") {
    // d = 1, ℓ = 4 = a·b with a = b = 2. W_A = [1, −1], W_B = [2, 1]; X = [[1], [−1]]:
    // A = relu(X·W_A) = [[1, 0], [0, 1]], B = relu(X·W_B) = [[2, 1], [0, 0]].
    // Column j = A[j mod 2] ⊙ B[j div 2]: j = 0 → [2, 0], j = 1 → [0, 0] (T = 2 keeps these).
    SynthesizerWeights w;
    w.length = 4;
    w.factorA = 2;
    w.factorB = 2;
    w.wA = rows({{1, -1}});
    w.wB = rows({{2, 1}});
    REQUIRE_MATRIX_NEAR(factorizedDenseScores(rows({{1}, {-1}}), w), rows({{2, 0}, {0, 0}}), 0.0);
    // R₁ = [[1, 2], [0, 1]], R₂ = [[1, 0], [3, 1]]: R₁·R₂ᵀ = [[1, 5], [0, 1]].
    w.r1 = rows({{1, 2}, {0, 1}});
    w.r2 = rows({{1, 0}, {3, 1}});
    REQUIRE_MATRIX_NEAR(factorizedRandomScores(2, w), rows({{1, 5}, {0, 1}}), 0.0);
}

TEST_CASE("the mixture is Σ αᵢ·Bᵢ and refuses weights that do not sum to 1", "[lab]") {
    // 0.25·[[4, 0]] + 0.75·[[0, 8]] = [[1, 6]].
    auto mix = mixtureScores({rows({{4, 0}}), rows({{0, 8}})}, {0.25, 0.75});
    REQUIRE(mix.ok());
    REQUIRE_MATRIX_NEAR(mix.value(), rows({{1, 6}}), 0.0);
    CHECK_THAT(mixtureScores({rows({{1}}), rows({{1}})}, {0.5, 0.4}).error().text(), Catch::Contains("summing to 1, found 0.9"));
    CHECK_THAT(mixtureScores({rows({{1}}), rows({{1}})}, {1.5, -0.5}).error().text(), Catch::Contains("≥ 0"));
    CHECK_THAT(mixtureScores({rows({{1}})}, {0.5, 0.5}).error().text(), Catch::Contains("one weight per variant (1), found 2"));
}

TEST_CASE("seeded weights: shapes, reproducible, refused factors", "[lab]") {
    auto w = makeSynthesizerWeights(8, 12, 3, 2, 5);
    REQUIRE(w.ok());
    CHECK(w.value().factorB == 4);
    CHECK(w.value().w2.rows() == 8);
    CHECK(w.value().w2.cols() == 12);
    CHECK(w.value().random.rows() == 12);
    CHECK(w.value().r1.cols() == 2);
    REQUIRE_MATRIX_NEAR(makeSynthesizerWeights(8, 12, 3, 2, 5).value().random, w.value().random, 0.0);
    CHECK((makeSynthesizerWeights(8, 12, 3, 2, 6).value().random - w.value().random).cwiseAbs().maxCoeff() > 0.1);
    CHECK_THAT(makeSynthesizerWeights(8, 12, 5, 2, 5).error().text(), Catch::Contains("divisor of ℓ = 12, found 5"));
}

TEST_CASE("on a lesson: Random ignores the sentence, Dense reads each token alone, dot product compares", "[lab]") {
    const Trace tired = testing::runBuiltInLesson("coreference", "The animal didn't cross the street because it was too tired");
    const Trace other = testing::runBuiltInLesson("coreference", "The street didn't cross the animal because it was too wide");
    REQUIRE(tired.tokenCount() == other.tokenCount());
    auto w = makeSynthesizerWeights(8, 16, 4, 2, 2020);
    REQUIRE(w.ok());
    const std::vector<double> alphas{0.5, 0.1, 0.1, 0.1, 0.2};
    const auto variantsOf = [&](const Trace& t) {
        const HeadTrace& head = t.layers[0].heads[0];
        auto v = synthesizerVariants(t.layers[0].input, head.scaledScores, head.mask, w.value(), alphas);
        REQUIRE(v.ok());
        return std::move(v).value();
    };
    const auto a = variantsOf(tired), b = variantsOf(other);
    REQUIRE(a.size() == 6);
    CHECK(a[5].name == "Mixture");
    for (const SynthesizerVariant& v : a) {
        INFO(v.name);
        CHECK(v.scores.rows() == 11);
        CHECK(v.scores.cols() == 11);
        REQUIRE_MATRIX_NEAR(Mat(v.weights.rowwise().sum()), Mat(Mat::Ones(11, 1)), 1e-12);
    }
    // Dot product: the lesson's own weights.
    REQUIRE_MATRIX_NEAR(a[0].weights, tired.layers[0].heads[0].weights, 1e-12);
    // Random and Factorized Random are the same whatever the sentence; Dense is not.
    REQUIRE_MATRIX_NEAR(a[2].scores, b[2].scores, 0.0);
    REQUIRE_MATRIX_NEAR(a[4].scores, b[4].scores, 0.0);
    CHECK((a[1].scores - b[1].scores).cwiseAbs().maxCoeff() > 1e-3);
    // Dense: "the" at tokens 0 and 4 has one embedding, so its two rows are equal; only the
    // dot product lets a row depend on the other tokens.
    REQUIRE_MATRIX_NEAR(Mat(a[1].scores.row(0)), Mat(a[1].scores.row(4)), 0.0);
    auto tooLong = makeSynthesizerWeights(8, 4, 2, 2, 1);
    CHECK_THAT(synthesizerVariants(tired.layers[0].input, tired.layers[0].heads[0].scaledScores, Mat(), tooLong.value(), alphas)
                   .error().text(), Catch::Contains("11 tokens, the model room for 4"));
}

TEST_CASE("a causal lesson's mask reaches every variant: the dot product is the lesson's own weights", "[lab]") {
    // causal-mask: "the cat saw the dog", scaled and causal. Row 0 sees only itself, so every
    // variant gives it weight 1 there and 0 elsewhere; above the diagonal every weight is exactly 0.
    const Trace t = testing::runBuiltInLesson("causal-mask");
    REQUIRE(t.causal);
    const HeadTrace& head = t.layers[0].heads[0];
    auto w = makeSynthesizerWeights(static_cast<int>(t.embedding.cols()), 16, 4, 2, 7);
    REQUIRE(w.ok());
    auto v = synthesizerVariants(t.layers[0].input, head.scaledScores, head.mask, w.value(), {0.2, 0.2, 0.2, 0.2, 0.2});
    REQUIRE(v.ok());
    REQUIRE_MATRIX_NEAR(v.value()[0].weights, head.weights, 1e-15);
    for (const SynthesizerVariant& variant : v.value()) {
        INFO(variant.name);
        CHECK(variant.weights(0, 0) == 1.0);
        for (Eigen::Index i = 0; i < variant.weights.rows(); ++i)
            for (Eigen::Index j = i + 1; j < variant.weights.cols(); ++j) CHECK(variant.weights(i, j) == 0.0);
    }
}
