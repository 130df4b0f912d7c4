// The small core helpers the lab panels draw: scaled vs unscaled rows of a head, histogram bins,
// the q·k values of a sweep setting and the mixture sliders' α.
#include <catch2/catch.hpp>
#include <cmath>

#include "core/lab/scaling.hpp"
#include "core/lab/synthesizer.hpp"
#include "core/pipeline/steps.hpp"

using namespace attnscope;

TEST_CASE("compareScaling softmaxes a head's raw scores with and without √d_k") {
    HeadTrace head;
    head.q = Mat::Zero(2, 4);  // d_k = 4: divisor 2
    head.scores.resize(2, 2);
    head.scores << 2, 0, 0, 0;
    head.mask = causalMask(2);
    const ScalingComparison c = compareScaling(head);
    CHECK(c.divisor == 2.0);
    // Row 0 sees only itself; row 1 sees scores (0, 0) either way.
    CHECK(c.scaledWeights(0, 0) == 1.0);
    CHECK(c.unscaledWeights(1, 0) == Approx(0.5));
    CHECK(c.scaledEntropies(1, 0) == Approx(std::log(2.0)));
    CHECK(c.unscaledEntropies(0, 0) == 0.0);

    head.mask = noMask(2);
    const ScalingComparison open = compareScaling(head);
    // Row 0: scores (2, 0) unscaled, (1, 0) scaled: softmax 1/(1+e^-2) and 1/(1+e^-1).
    CHECK(open.unscaledWeights(0, 0) == Approx(1 / (1 + std::exp(-2.0))));
    CHECK(open.scaledWeights(0, 0) == Approx(1 / (1 + std::exp(-1.0))));
    CHECK(open.scaledEntropies(0, 0) > open.unscaledEntropies(0, 0));
}

TEST_CASE("histogram counts values into equal bins, the top value in the last bin") {
    const Histogram h = histogram({0.0, 0.5, 1.0, 1.5, 2.0, 9.0}, 0, 2, 4);
    REQUIRE(h.counts.size() == 4);
    CHECK(h.width == 0.5);
    CHECK(h.counts == std::vector<int>{1, 1, 1, 2});
    CHECK(h.centre(0) == 0.25);
    const Histogram own = histogram({-1.0, 3.0, 1.0}, 2);
    CHECK(own.lowest == -1.0);
    CHECK(own.width == 2.0);
    CHECK(own.counts == std::vector<int>{1, 2});
}

TEST_CASE("sweepScores holds every run's q·k, the same draws as scalingRun") {
    const std::vector<double> s = sweepScores(64, true, 3, 50, 7);
    REQUIRE(s.size() == 150);
    const ScalingRun second = scalingRun(64, 50, true, scalingSeed(7, 64, 1));
    CHECK(s[50] == second.scores(0, 0));
    CHECK(s[99] == second.scores(0, 49));
}

TEST_CASE("normalizedAlphas scales slider positions to sum 1") {
    const std::vector<double> a = normalizedAlphas({1, 3, 0, 0, 0});
    CHECK(a == std::vector<double>{0.25, 0.75, 0, 0, 0});
    const std::vector<double> even = normalizedAlphas({0, 0, 0, 0});
    CHECK(even == std::vector<double>{0.25, 0.25, 0.25, 0.25});
}
