// Queries and keys in one picture against the independent numpy reference
// (tests/reference/reference_qk.py → fixtures/qk_*.json): the tiny BERT and the two-heads lesson,
// one sentence and two. PCA axes are defined up to sign: each component may be flipped as a whole.
#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>

#include "builtin_lesson.hpp"
#include "model_fixtures.hpp"
#include "core/analysis/qk_space.hpp"

using namespace attnscope;
using Json = nlohmann::json;

namespace {

// The sign that best maps core's component onto the reference's (+1 or −1).
double signOf(const QkSpace& space, const Json& points, const char* axis) {
    double dot = 0;
    for (std::size_t p = 0; p < space.points.size(); ++p)
        dot += (axis[0] == 'x' ? space.points[p].x : space.points[p].y) * points.at(p).at(axis).get<double>();
    return dot < 0 ? -1.0 : 1.0;
}

// Largest coordinate difference up to sign; the first mismatching points in `report`.
double compareToReference(const QkSpace& space, const Json& expected, double tolerance, std::string& report) {
    const Json& points = expected.at("points");
    REQUIRE(points.size() == space.points.size());
    const double sx = signOf(space, points, "x"), sy = signOf(space, points, "y");
    double largest = 0;
    int shown = 0;
    std::ostringstream out;
    for (std::size_t p = 0; p < space.points.size(); ++p) {
        const QkPoint& got = space.points[p];
        const Json& want = points.at(p);
        CHECK(qkKindName(got.kind) == want.at("kind").get<std::string>());
        CHECK(got.sentence == want.at("sentence").get<int>());
        CHECK(got.token == want.at("token").get<int>());
        const double dx = std::abs(sx * got.x - want.at("x").get<double>());
        const double dy = std::abs(sy * got.y - want.at("y").get<double>());
        largest = std::max({largest, dx, dy});
        if ((dx > tolerance || dy > tolerance) && shown++ < 5)
            out << "point " << p << " (" << qkKindName(got.kind) << " " << got.text << "): core (" << sx * got.x << ", "
                << sy * got.y << "), reference (" << want.at("x") << ", " << want.at("y") << ")\n";
    }
    report = out.str();
    return largest;
}

void checkCase(const std::vector<QkSentence>& sentences, const Json& expected, double tolerance) {
    auto space = qkSpace(sentences);
    REQUIRE(space.ok());
    std::string report;
    const double largest = compareToReference(space.value(), expected, tolerance, report);
    INFO(expected.at("name").get<std::string>() << ": largest coordinate difference " << largest << "\n" << report);
    CHECK(largest < tolerance);
    CHECK(space.value().explained[0] == Approx(expected.at("explained_variance")[0].get<double>()).margin(tolerance));
    CHECK(space.value().explained[1] == Approx(expected.at("explained_variance")[1].get<double>()).margin(tolerance));
    CHECK(space.value().scale == Approx(expected.at("scale").get<double>()).epsilon(tolerance));
}

}  // namespace

TEST_CASE("qk PCA matches the numpy reference: tiny BERT", "[qk][qk-reference]") {
    const Json fixture = fixture_io::readJson(fixture_io::sourceDir() / "tests/reference/fixtures/qk_bert-tiny.json");
    const LoadedModel model = fixture_io::loadTiny("bert-tiny");
    for (const Json& c : fixture.at("cases")) {
        RunControl control;
        control.fullDetailMaxTokens = 0;
        control.detailLayer = c.at("layer").get<int>() - 1;
        auto run = runModel(model, c.at("ids")[0].get<std::vector<int>>(), {}, control);
        REQUIRE(run.ok());
        auto sentence = qkSentenceOf(run.value().trace, c.at("layer").get<int>() - 1, c.at("head").get<int>() - 1);
        REQUIRE(sentence.ok());
        checkCase({sentence.value()}, c, 1e-4);  // core runs the model in float
    }
}

TEST_CASE("qk PCA matches the numpy reference: two-heads lesson, one sentence and two", "[qk][qk-reference]") {
    const Json fixture = fixture_io::readJson(fixture_io::sourceDir() / "tests/reference/fixtures/qk_two-heads.json");
    for (const Json& c : fixture.at("cases")) {
        std::vector<QkSentence> sentences;
        for (const Json& text : c.at("sentences")) {
            const Trace trace = testing::runBuiltInLesson("two-heads", text.get<std::string>());
            auto sentence = qkSentenceOf(trace, 0, c.at("head").get<int>() - 1);
            REQUIRE(sentence.ok());
            sentences.push_back(sentence.value());
        }
        checkCase(sentences, c, 1e-9);
    }
}
