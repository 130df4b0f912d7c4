// Exact t-SNE (core/analysis/tsne.hpp): each row's perplexity as asked, reproducible from the seed,
// well-separated clusters stay separated, and every refused input named.
#include <catch2/catch.hpp>
#include <cmath>

#include "builtin_lesson.hpp"
#include "core/analysis/qk_space.hpp"
#include "core/analysis/tsne.hpp"
#include "core/lab/random.hpp"

using namespace attnscope;
using Catch::Detail::Approx;

namespace {

// Two clusters of `each` points in 5-D: around the origin and around (50, 50, 50, 50, 50).
Mat twoClusters(int each) {
    LabRandom random(7);
    Mat x = random.normalMatrix(2 * each, 5);
    x.bottomRows(each).array() += 50.0;
    return x;
}

}  // namespace

TEST_CASE("t-SNE: every row's perplexity 2^H is the one asked for", "[tsne]") {
    const Mat x = twoClusters(10);
    for (double perplexity : {2.0, 5.0}) {
        const Mat rows = tsneConditionalRows(x, perplexity);
        for (Eigen::Index i = 0; i < rows.rows(); ++i) {
            double bits = 0;
            for (Eigen::Index j = 0; j < rows.cols(); ++j)
                if (rows(i, j) > 0) bits -= rows(i, j) * std::log2(rows(i, j));
            CHECK(rows.row(i).sum() == Approx(1.0));
            CHECK(rows(i, i) == 0.0);
            CHECK(std::exp2(bits) == Approx(perplexity).epsilon(1e-4));
        }
    }
}

TEST_CASE("t-SNE: two far clusters stay apart, and the seed reproduces the layout", "[tsne]") {
    const Mat x = twoClusters(10);
    auto y = tsne(x, TsneOptions{5.0, 3, 500});
    REQUIRE(y.ok());
    const Mat& e = y.value();
    REQUIRE(e.rows() == 20);
    REQUIRE(e.cols() == 2);
    double within = 0, between = INFINITY;
    for (int i = 0; i < 20; ++i)
        for (int j = i + 1; j < 20; ++j) {
            const double d = (e.row(i) - e.row(j)).norm();
            if ((i < 10) == (j < 10)) within = std::max(within, d);
            else between = std::min(between, d);
        }
    INFO("largest distance within a cluster " << within << ", smallest between " << between);
    CHECK(within < between);
    auto again = tsne(x, TsneOptions{5.0, 3, 500});
    REQUIRE(again.ok());
    CHECK(again.value() == e);
    auto other = tsne(x, TsneOptions{5.0, 4, 500});
    REQUIRE(other.ok());
    CHECK(other.value() != e);
}

TEST_CASE("t-SNE refuses too many points, too few, a perplexity out of range, and stops when cancelled", "[tsne]") {
    auto many = tsne(Mat::Zero(2001, 2), TsneOptions{});
    REQUIRE(!many.ok());
    CHECK(many.error().text() ==
          "t-SNE: expected at most 2000 points (exact t-SNE costs N² per iteration), found 2001; use PCA");
    auto few = tsne(Mat::Zero(3, 2), TsneOptions{1.0});
    REQUIRE(!few.ok());
    CHECK(few.error().message == "expected at least 4 points, found 3");
    auto perplexity = tsne(twoClusters(5), TsneOptions{30.0});
    REQUIRE(!perplexity.ok());
    CHECK(perplexity.error().message == "expected a perplexity from 1 to 3 ((N - 1) / 3 for 10 points), found 30");
    std::atomic<bool> cancel{true};
    auto cancelled = tsne(twoClusters(5), TsneOptions{2.0}, &cancel);
    REQUIRE(!cancelled.ok());
    CHECK(cancelled.error().message == "cancelled");
}

TEST_CASE("qk with t-SNE: the same points, PCA's explained variance, the layout in the JSON", "[tsne][qk]") {
    const Trace trace = testing::runBuiltInLesson("coreference");
    auto sentence = qkSentenceOf(trace, 0, 0);
    REQUIRE(sentence.ok());
    auto pca = qkSpace({sentence.value()});
    QkOptions options;
    options.layout = QkLayout::Tsne;
    options.tsne = TsneOptions{5.0, 1, 300};
    auto embedded = qkSpace({sentence.value()}, options);
    REQUIRE(pca.ok());
    REQUIRE(embedded.ok());
    CHECK(embedded.value().points.size() == 22);
    CHECK(embedded.value().layout == QkLayout::Tsne);
    CHECK(embedded.value().explained[0] == pca.value().explained[0]);
    CHECK(embedded.value().points[0].x != pca.value().points[0].x);
    CHECK(qkSpaceToJson(embedded.value(), HeadRef{0, 0}).find("\"layout\": \"tsne\"") != std::string::npos);
    CHECK(qkSummary(embedded.value()).find("t-SNE (perplexity 5)") != std::string::npos);
    CHECK(qkSummary(embedded.value(), Language::Chinese).find("；t-SNE（困惑度 5）；PC1") != std::string::npos);
}
