// Queries and keys in one picture (core/analysis/qk_space.hpp): the normalisation by hand, the
// proof that it changes no softmax (weights recomputed here, with a softmax written here), PCA on
// a hand case, the distance–dot-product correlation by hand, errors and the exports.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "builtin_lesson.hpp"
#include "model_fixtures.hpp"
#include "core/analysis/qk_space.hpp"

using namespace attnscope;
using Catch::Detail::Approx;

namespace {

Mat rows(std::initializer_list<std::initializer_list<double>> values) {
    Mat m(static_cast<Eigen::Index>(values.size()), static_cast<Eigen::Index>(values.begin()->size()));
    Eigen::Index r = 0;
    for (const auto& row : values) {
        Eigen::Index c = 0;
        for (double v : row) m(r, c++) = v;
        ++r;
    }
    return m;
}

std::vector<Token> tokens(const std::vector<std::string>& texts) {
    std::vector<Token> out;
    for (const std::string& t : texts) out.push_back(Token{t});
    return out;
}

// A sentence of given q and k whose weights are the plain softmax of q·kᵀ (no scaling).
QkSentence handSentence(const Mat& q, const Mat& k) {
    QkSentence s;
    s.q = q;
    s.k = k;
    s.queryTokens = tokens(std::vector<std::string>(static_cast<std::size_t>(q.rows()), "q"));
    s.keyTokens = tokens(std::vector<std::string>(static_cast<std::size_t>(k.rows()), "k"));
    s.weights = Mat::Constant(q.rows(), k.rows(), 1.0 / double(k.rows()));
    return s;
}

// Softmax of each row, written here independently of core/pipeline; −inf entries get weight 0.
Mat softmaxHere(const Mat& scores) {
    Mat out(scores.rows(), scores.cols());
    for (Eigen::Index r = 0; r < scores.rows(); ++r) {
        double top = -std::numeric_limits<double>::infinity();
        for (Eigen::Index c = 0; c < scores.cols(); ++c) top = std::max(top, scores(r, c));
        double sum = 0;
        for (Eigen::Index c = 0; c < scores.cols(); ++c) sum += out(r, c) = std::exp(scores(r, c) - top);
        out.row(r) /= sum;
    }
    return out;
}

// The proof: transform q and k as AttentionViz does, recompute the weights from the transformed
// vectors and return the largest difference from the trace's own weights.
double largestSoftmaxChange(const QkSentence& s, const QkNormalisation& n) {
    const Mat q = s.q * n.scale;
    const Mat k = (s.k.rowwise() + n.translation) / n.scale;
    Mat scores = q * k.transpose() / s.scaleDivisor;
    if (s.mask.size() > 0) scores += s.mask;
    return (softmaxHere(scores) - s.weights).cwiseAbs().maxCoeff();
}

QkSentence sentenceOrFail(const Trace& trace, int layer, int head) {
    auto s = qkSentenceOf(trace, layer, head);
    INFO((s ? std::string() : s.error().text()));
    REQUIRE(s.ok());
    return std::move(s).value();
}

Trace modelTrace(const std::string& name, const std::vector<int>& ids) {
    const LoadedModel model = fixture_io::loadTiny(name);
    RunControl control;
    control.fullDetailMaxTokens = 1000;  // every layer in full detail
    auto run = runModel(model, ids, {}, control);
    REQUIRE(run.ok());
    return std::move(run).value().trace;
}

}  // namespace

TEST_CASE("qk normalisation by hand: keys' centroid meets the queries', equal mean norms", "[qk]") {
    // q = (1,0), (3,0): centroid (2,0), mean norm 2. k = (0,1), (0,3): centroid (0,2).
    // c = (2,0) − (0,2) = (2,−2); k + c = (2,−1), (2,1), both of norm √5; a = √(√5 / 2).
    const QkSentence s = handSentence(rows({{1, 0}, {3, 0}}), rows({{0, 1}, {0, 3}}));
    const QkNormalisation n = qkNormalisation({s});
    CHECK(n.translation(0) == Approx(2.0));
    CHECK(n.translation(1) == Approx(-2.0));
    CHECK(n.scale == Approx(std::sqrt(std::sqrt(5.0) / 2.0)));
    const Mat q = s.q * n.scale, k = (s.k.rowwise() + n.translation) / n.scale;
    CHECK(q.rowwise().norm().mean() == Approx(k.rowwise().norm().mean()));
}

TEST_CASE("qk PCA and correlation by hand: four points on a line", "[qk]") {
    // q = (1,0), (3,0); k = (−1,0), (1,0): c = (2,0), k + c = (1,0), (3,0), a = 1. The points are
    // 1, 3, 1, 3 on the x axis: PC1 explains everything, x = −1, 1, −1, 1 (axis (1,0), positive).
    // Pairs (q1,k1) (q1,k2) (q2,k1) (q2,k2): distances 0, 2, 2, 0; dot products 1, 3, 3, 9;
    // Pearson: deviations (−1,1,1,−1)·(−3,−1,−1,5) = −4 over √(4·36) = 12, so −1/3.
    auto space = qkSpace({handSentence(rows({{1, 0}, {3, 0}}), rows({{-1, 0}, {1, 0}}))});
    REQUIRE(space.ok());
    const QkSpace& s = space.value();
    REQUIRE(s.points.size() == 4);
    CHECK(s.scale == Approx(1.0));
    CHECK(s.explained[0] == Approx(1.0));
    CHECK(s.explained[1] == Approx(0.0).margin(1e-12));
    const double x[] = {-1, 1, -1, 1};
    for (int p = 0; p < 4; ++p) {
        CHECK(s.points[p].x == Approx(x[p]));
        CHECK(s.points[p].y == Approx(0.0).margin(1e-12));
    }
    CHECK(s.points[0].kind == QkKind::Query);
    CHECK(s.points[2].kind == QkKind::Key);
    CHECK(s.distanceDotCorrelation == Approx(-1.0 / 3.0));
}

TEST_CASE("qk: the normalisation changes no softmax (lesson, causal lesson, BERT, GPT-2)", "[qk]") {
    struct Case {
        std::string name;
        Trace trace;
    };
    std::vector<Case> cases;
    cases.push_back({"two-heads", testing::runBuiltInLesson("two-heads")});
    cases.push_back({"causal-mask", testing::runBuiltInLesson("causal-mask")});
    cases.push_back({"coreference", testing::runBuiltInLesson("coreference")});
    cases.push_back({"bert-tiny", modelTrace("bert-tiny", {2, 17, 33, 38, 24, 17, 23, 3})});
    cases.push_back({"gpt2-tiny", modelTrace("gpt2-tiny", {5, 17, 42, 8, 90, 13, 27})});
    for (const Case& c : cases)
        for (int layer = 0; layer < c.trace.layerCount(); ++layer)
            for (int head = 0; head < c.trace.headCount(); ++head) {
                const QkSentence s = sentenceOrFail(c.trace, layer, head);
                const QkNormalisation n = qkNormalisation({s});
                const double change = largestSoftmaxChange(s, n);
                INFO(c.name << " layer " << layer + 1 << " head " << head + 1 << ": largest difference " << change
                            << ", translation norm " << n.translation.norm() << ", scale " << n.scale);
                // Models compute in float: their weights agree with a double recomputation to ~1e-6.
                CHECK(change < (c.name.find("tiny") != std::string::npos ? 1e-5 : 1e-12));
                // The check is not vacuous: when some q·c ≠ 0, translating every key but the first
                // does change the softmax.
                if (s.k.rows() > 1 && (s.q * n.translation.transpose()).cwiseAbs().maxCoeff() > 1e-3) {
                    QkSentence broken = s;
                    broken.k.row(0) -= n.translation;
                    CHECK(largestSoftmaxChange(broken, n) > 1e-9);
                }
                auto space = qkSpace({s});
                REQUIRE(space.ok());
                CHECK(space.value().softmaxMaxDifference == Approx(change).margin(1e-12));
            }
}

TEST_CASE("qk: a causal lesson's masked pairs stay out of the correlation and the check", "[qk]") {
    const Trace trace = testing::runBuiltInLesson("causal-mask");
    const QkSentence s = sentenceOrFail(trace, 0, 0);
    REQUIRE(s.mask.size() > 0);
    CHECK(std::isinf(s.mask(0, s.k.rows() - 1)));
    auto space = qkSpace({s});
    REQUIRE(space.ok());
    CHECK(std::isfinite(space.value().distanceDotCorrelation));
    CHECK(space.value().softmaxMaxDifference < 1e-12);
}

TEST_CASE("qk: several sentences share one normalisation and one plane", "[qk]") {
    const Trace a = testing::runBuiltInLesson("two-heads", "cats chase mice");
    const Trace b = testing::runBuiltInLesson("two-heads", "mice chase cats chase mice");
    auto space = qkSpace({sentenceOrFail(a, 0, 1), sentenceOrFail(b, 0, 1)});
    REQUIRE(space.ok());
    const QkSpace& s = space.value();
    CHECK(s.queryCount() == 8);
    CHECK(s.keyCount() == 8);
    REQUIRE(s.weights.size() == 2);
    CHECK(s.points[6].sentence == 1);
    CHECK(s.points[6].token == 0);
    CHECK(s.points[6].text == "mice");
    // d_k = 2: the plane keeps all the variance.
    CHECK(s.explained[0] + s.explained[1] == Approx(1.0));
    CHECK(s.explained[0] >= s.explained[1]);
    CHECK(s.softmaxMaxDifference < 1e-12);
}

TEST_CASE("qk: token kinds and errors name the layer or head", "[qk]") {
    CHECK(tokenKindOf(Token{"[CLS]", true, 2, -1, true}) == TokenKind::Special);
    CHECK(tokenKindOf(Token{","}) == TokenKind::Punctuation);
    CHECK(tokenKindOf(Token{"cats"}) == TokenKind::Word);
    const Trace trace = testing::runBuiltInLesson("two-heads");
    auto layer = qkSentenceOf(trace, 1, 0);
    REQUIRE(!layer.ok());
    CHECK(layer.error().text() == "layer: expected a layer from 1 to 1, found 2");
    auto head = qkSentenceOf(trace, 0, 2);
    REQUIRE(!head.ok());
    CHECK(head.error().text() == "head: expected a head from 1 to 2, found 3");
    const LoadedModel model = fixture_io::loadTiny("bert-tiny");
    RunControl control;
    control.fullDetailMaxTokens = 0;  // weights only
    auto run = runModel(model, {2, 17, 3}, {}, control);
    REQUIRE(run.ok());
    auto kept = qkSentenceOf(run.value().trace, 1, 0);
    REQUIRE(!kept.ok());
    CHECK(kept.error().text() ==
          "layer 2, head 1: its queries and keys were not kept (the layer holds its weights only)");
    auto none = qkSpace({});
    REQUIRE(!none.ok());
    CHECK(none.error().message == "expected at least one sentence, found none");
}

TEST_CASE("qk exports: JSON and CSV hold every point", "[qk]") {
    const Trace trace = testing::runBuiltInLesson("two-heads");
    auto space = qkSpace({sentenceOrFail(trace, 0, 0)});
    REQUIRE(space.ok());
    const auto json = nlohmann::json::parse(qkSpaceToJson(space.value(), HeadRef{0, 0}));
    CHECK(json.at("layer") == 1);
    CHECK(json.at("head") == 1);
    CHECK(json.at("queries") == 3);
    CHECK(json.at("keys") == 3);
    REQUIRE(json.at("points").size() == 6);
    CHECK(json.at("points")[3].at("kind") == "key");
    CHECK(json.at("points")[3].at("text") == "cats");
    CHECK(json.at("points")[3].at("x").get<double>() == space.value().points[3].x);
    const std::string csv = qkSpaceToCsv(space.value());
    std::istringstream lines(csv);
    std::string line;
    std::getline(lines, line);
    CHECK(line == "kind,sentence,token,text,token_kind,x,y");
    int count = 0;
    while (std::getline(lines, line)) ++count;
    CHECK(count == 6);
    CHECK(qkSummary(space.value()).find("3 queries, 3 keys; PC1 explains") == 0);
    CHECK(qkSummary(space.value(), Language::Chinese).find("3 个查询，3 个键；PC1 解释了") == 0);
}
