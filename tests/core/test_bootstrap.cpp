// Bootstrap intervals (core/analysis/bootstrap.hpp): hand-worked percentiles and degenerate
// resamples, and three cases against tests/reference/reference_bootstrap.py (NumPy's Mersenne
// Twister and percentile, no shared code), committed as tests/reference/fixtures/bootstrap.json.
#include <catch2/catch.hpp>

#include "core/analysis/bootstrap.hpp"
#include "matrix_compare.hpp"
#include "model_fixtures.hpp"

using namespace attnscope;
using namespace attnscope::fixture_io;

namespace {

constexpr double kTolerance = 1e-12;  // sums of a few hundred terms, summed in another order

}  // namespace

TEST_CASE("percentile interval by linear interpolation, worked by hand", "[bootstrap]") {
    // 0, 1, …, 10 shuffled: 90 % → positions 0.05·10 = 0.5 and 0.95·10 = 9.5 → 0.5 and 9.5.
    const Interval ninety = percentileInterval({7, 3, 10, 0, 5, 1, 9, 2, 8, 4, 6}, 0.9);
    CHECK(ninety.low == Approx(0.5));
    CHECK(ninety.high == Approx(9.5));
    // Four values 0, 0, 1, 1 at 95 %: positions 0.025·3 = 0.075 → 0; 0.975·3 = 2.925 → 1.
    const Interval ninetyFive = percentileInterval({1, 0, 1, 0}, 0.95);
    CHECK(ninetyFive.low == 0);
    CHECK(ninetyFive.high == 1);
    CHECK(percentileInterval({}, 0.95) == Interval{});
}

TEST_CASE("resampling: a constant column stays constant, no examples give zeros, the seed decides", "[bootstrap]") {
    Mat scores(5, 2);
    scores << 1, 0.25, 1, 0.25, 1, 0.25, 1, 0.25, 1, 0.25;  // every resample's mean is exactly 1 and 0.25
    const BootstrapSettings settings{200, 3, 0.95};
    const Mat means = resampledMeans(scores, settings);
    REQUIRE(means.rows() == 200);
    CHECK(columnInterval(means, 0, 0.95) == Interval{1, 1});
    CHECK(columnInterval(means, 1, 0.95) == Interval{0.25, 0.25});
    CHECK(differenceInterval(means, 0, 1, 0.95) == Interval{0.75, 0.75});
    CHECK(resampledMeans(Mat(0, 3), settings).isZero());

    Mat mixed(4, 1);
    mixed << 1, 0, 1, 0;
    CHECK(resampledMeans(mixed, settings) == resampledMeans(mixed, settings));
    CHECK(resampledMeans(mixed, settings) != resampledMeans(mixed, BootstrapSettings{200, 4, 0.95}));
}

TEST_CASE("bootstrap intervals agree with the independent NumPy reference", "[bootstrap]") {
    const auto fixture = readJson(sourceDir() / "tests/reference/fixtures/bootstrap.json");
    REQUIRE(fixture.at("cases").size() == 3);
    for (const auto& c : fixture.at("cases")) {
        INFO(c.at("name").get<std::string>());
        const BootstrapSettings settings{c.at("resamples").get<int>(), c.at("seed").get<std::uint32_t>(),
                                         c.at("level").get<double>()};
        const Mat scores = matrixOf(c.at("scores"));
        const Mat means = resampledMeans(scores, settings);
        Mat firstMeans(1, scores.cols());
        for (Eigen::Index k = 0; k < scores.cols(); ++k) firstMeans(0, k) = c.at("first_means").at(k).get<double>();
        REQUIRE_MATRIX_NEAR(firstMeans, Mat(means.row(0)), kTolerance);
        Mat expected(scores.cols(), 2), found(scores.cols(), 2);
        for (Eigen::Index k = 0; k < scores.cols(); ++k) {
            const Interval i = columnInterval(means, k, settings.level);
            expected.row(k) << c.at("intervals").at(k).at(0).get<double>(), c.at("intervals").at(k).at(1).get<double>();
            found.row(k) << i.low, i.high;
        }
        REQUIRE_MATRIX_NEAR(expected, found, kTolerance);
        const Interval paired = differenceInterval(means, 0, 2, settings.level);
        CHECK(paired.low == Approx(c.at("head0_minus_rule").at(0).get<double>()).margin(kTolerance));
        CHECK(paired.high == Approx(c.at("head0_minus_rule").at(1).get<double>()).margin(kTolerance));
    }
}
