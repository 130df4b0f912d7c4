// The 1/√d_k experiment (core/lab/scaling.hpp) against hand values and the independent stdlib
// reference tests/reference/reference_scaling.py (fixture tests/reference/fixtures/scaling.json).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/lab/random.hpp"
#include "core/lab/scaling.hpp"
#include "matrix_compare.hpp"
#include "tests/matrix_literal.hpp"

using namespace attnscope;

namespace {

nlohmann::json scalingFixture() {
    std::ifstream in(std::filesystem::path(ATTNSCOPE_SOURCE_DIR) / "tests/reference/fixtures/scaling.json");
    REQUIRE(in.good());
    return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("the lab's generator is SplitMix64 with Box-Muller, as documented", "[lab]") {
    // SplitMix64 from seed 0 starts 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4 (the published
    // reference sequence; the Python reference reproduces it independently).
    LabRandom bits(0);
    CHECK(bits.nextBits() == 0xe220a8397b1dcdafULL);
    CHECK(bits.nextBits() == 0x6e789e6aa1b965f4ULL);
    LabRandom normal(0);
    CHECK(normal.normal() == Approx(scalingFixture()["box_muller_seed0_first_normal"].get<double>()).epsilon(1e-14));
}

TEST_CASE("softmax Jacobian diag(y) - yᵀy, by hand", "[lab]") {
    // y = [0.5, 0.25, 0.25]: diagonal yᵢ(1 − yᵢ) = 0.25, 0.1875, 0.1875; off-diagonal −yᵢyⱼ =
    // −0.125 (with y₀), −0.0625 (y₁y₂). Every row sums to 0: the weights always sum to 1.
    RowVec y(3);
    y << 0.5, 0.25, 0.25;
    REQUIRE_MATRIX_NEAR(softmaxJacobian(y), testing::rows({{0.25, -0.125, -0.125},
                                                           {-0.125, 0.1875, -0.0625},
                                                           {-0.125, -0.0625, 0.1875}}), 1e-15);
}

TEST_CASE("row entropies in nats, by hand", "[lab]") {
    // Uniform over 4: ln 4 = 1.3862944; one-hot: 0; [0.5, 0.5, 0, 0]: ln 2 = 0.6931472.
    const Mat h = rowEntropies(testing::rows({{0.25, 0.25, 0.25, 0.25}, {0, 1, 0, 0}, {0.5, 0.5, 0, 0}}));
    REQUIRE_MATRIX_NEAR(h, testing::rows({{1.3862943611198906}, {0}, {0.6931471805599453}}), 1e-15);
}

TEST_CASE("the scaling runs match the independent reference", "[lab]") {
    for (const auto& c : scalingFixture()["runs"]) {
        const int d = c["dimension"];
        INFO("d = " << d << (c["scaled"].get<bool>() ? " scaled" : " unscaled") << ", seed " << c["seed"]);
        const ScalingRun run = scalingRun(d, c["keys"], c["scaled"], c["seed"]);
        const double want = c["largest_gradient"];
        CHECK(run.largestGradient == Approx(want).epsilon(1e-9));
        CHECK(run.weights.sum() == Approx(1.0).epsilon(1e-12));
    }
}

TEST_CASE("unscaled softmax saturates as d grows, scaled keeps its gradient", "[lab]") {
    // The classic experiment: q and 50 keys from N(0, 1), 5 runs per setting, seed 2017.
    // Unscaled, the scores have standard deviation √d ≈ 31.6 at d = 1000, so the largest and the
    // next score are typically tens apart and the softmax is one-hot to within e^-(gap): the largest
    // Jacobian entry collapses to around 1e-5 or far less. Scaled, they have standard deviation 1
    // at every d and the largest entry stays around 0.1–0.2.
    const auto sweep = scalingSweep(powersOfTwoDimensions(4096), 5, 50, 2017);
    REQUIRE(sweep.size() == 2 * 12);
    for (const ScalingSetting& s : sweep) {
        INFO("d = " << s.dimension << (s.scaled ? " scaled" : " unscaled") << ": median " << s.median);
        REQUIRE(s.largestGradients.size() == 5);
        if (s.scaled) {
            CHECK(s.median > 0.05);
            CHECK(s.median < 0.25);
        }
        if (!s.scaled && s.dimension >= 1024) CHECK(s.median < 1e-4);
    }
    const auto at1000 = scalingSweep({1000}, 5, 50, 2017);
    INFO("d = 1000: unscaled median " << at1000[0].median << ", scaled median " << at1000[1].median);
    CHECK(at1000[0].median < 1e-4);
    CHECK(at1000[1].median > 0.05);
    CHECK(at1000[1].median / std::max(at1000[0].median, 1e-300) > 1e3);
}
