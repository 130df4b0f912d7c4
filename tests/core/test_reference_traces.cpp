// Cross-checks the engine against an independent reference implementation, and against numbers
// derived by hand.
//
// tests/reference/reference_attention.py (Python standard library only, no code shared with
// core/) computes every intermediate of a lesson run; tests/reference/make_fixtures.py writes the
// results to tests/reference/fixtures/*.json, which are committed so this test needs no Python.
// Each fixture names a lesson file, a sentence and a hand-rounding setting (null: exact). A
// fixture of a lesson with several layers holds "layers": [{"x", "heads", "concat", "output"}].
#include <algorithm>
#include <charconv>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/lesson/lesson.hpp"
#include "core/lesson/run_lesson.hpp"

using namespace attnscope;

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

constexpr double kTolerance = 1e-9;

fs::path sourceDir() { return fs::path(ATTNSCOPE_SOURCE_DIR); }

std::string readText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

Lesson loadLesson(const std::string& relativePath) {
    const fs::path path = sourceDir() / relativePath;
    const std::string text = readText(path);
    INFO("lesson file: " << path.string());
    REQUIRE(!text.empty());
    auto parsed = parseLesson(text, relativePath);
    INFO("parse error: " << (parsed ? std::string() : parsed.error().text()));
    REQUIRE(parsed.ok());
    return parsed.value();
}

double cellValue(const Json& cell) {
    if (cell.is_string()) {
        const auto text = cell.get<std::string>();
        if (text == "-inf") return -std::numeric_limits<double>::infinity();
        FAIL("unexpected text in a fixture matrix: " << text);
        return 0.0;
    }
    return cell.get<double>();
}

Mat matrixFromJson(const Json& rows) {
    if (rows.empty()) return Mat();
    Mat m(rows.size(), rows[0].size());
    for (std::size_t r = 0; r < rows.size(); ++r) {
        REQUIRE(rows[r].size() == static_cast<std::size_t>(m.cols()));
        for (std::size_t c = 0; c < rows[r].size(); ++c) m(r, c) = cellValue(rows[r][c]);
    }
    return m;
}

// Shortest text that reads back as the same double (e.g. 0.1, not 0.10000000000000001).
std::string cellText(double v) {
    char buffer[64];
    const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, v);
    return error == std::errc() ? std::string(buffer, end) : std::string("?");
}

// Compares two matrices cell by cell. ±inf must match exactly (same sign); finite cells within
// the tolerance. On mismatch the message gives the largest absolute difference and the first
// few mismatching cells as (row, col): expected vs actual.
struct Comparison {
    bool ok = true;
    std::string message;
};

Comparison compareMatrices(const std::string& what, const Mat& expected, const Mat& actual,
                           double tolerance = kTolerance) {
    Comparison result;
    if (expected.rows() != actual.rows() || expected.cols() != actual.cols()) {
        result.ok = false;
        result.message = what + ": expected shape " + std::to_string(expected.rows()) + "×" +
                         std::to_string(expected.cols()) + ", actual " +
                         std::to_string(actual.rows()) + "×" + std::to_string(actual.cols());
        return result;
    }
    double largest = 0.0;
    int mismatches = 0;
    std::ostringstream cells;
    for (Eigen::Index r = 0; r < expected.rows(); ++r) {
        for (Eigen::Index c = 0; c < expected.cols(); ++c) {
            const double e = expected(r, c);
            const double a = actual(r, c);
            double diff = 0.0;
            if (std::isinf(e) || std::isinf(a) || std::isnan(e) || std::isnan(a))
                diff = (e == a) ? 0.0 : std::numeric_limits<double>::infinity();
            else
                diff = std::abs(e - a);
            largest = std::max(largest, diff);
            if (diff > tolerance) {
                if (mismatches < 5)
                    cells << "\n  (" << r << ", " << c << "): expected " << cellText(e)
                          << ", actual " << cellText(a);
                ++mismatches;
            }
        }
    }
    if (mismatches > 0) {
        result.ok = false;
        result.message = what + ": " + std::to_string(mismatches) + " of " +
                         std::to_string(expected.size()) + " cells differ by more than " +
                         cellText(tolerance) + "; largest absolute difference " +
                         cellText(largest) + "; first mismatches:" + cells.str();
    }
    return result;
}

#define CHECK_MATRIX(what, expected, actual)                              \
    do {                                                                  \
        const Comparison cmp_ = compareMatrices((what), (expected), (actual)); \
        if (!cmp_.ok) FAIL_CHECK(cmp_.message);                           \
    } while (false)

std::vector<fs::path> fixtureFiles() {
    std::vector<fs::path> files;
    const fs::path dir = sourceDir() / "tests" / "reference" / "fixtures" / "lessons";
    if (fs::is_directory(dir))
        for (const auto& entry : fs::directory_iterator(dir))
            if (entry.path().extension() == ".json") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

Json loadFixture(const std::string& name) {
    const fs::path path = sourceDir() / "tests" / "reference" / "fixtures" / "lessons" / (name + ".json");
    const std::string text = readText(path);
    INFO("fixture: " << path.string());
    REQUIRE(!text.empty());
    return Json::parse(text);
}

Trace runFixture(const Json& fixture) {
    const Lesson lesson = loadLesson(fixture.at("lesson").get<std::string>());
    RunSettings settings;
    if (fixture.at("hand_rounding").is_null()) settings.exact = true;  // ignore the lesson's own
    else settings.handRounding = fixture.at("hand_rounding").get<int>();
    auto run = runLesson(lesson, fixture.at("sentence").get<std::string>(), settings);
    INFO("run error: " << (run ? std::string() : run.error().text()));
    REQUIRE(run.ok());
    return run.value();
}

void checkLayer(const Json& fixture, const LayerTrace& layer, const std::string& name) {
    CHECK_MATRIX(name + "x (the layer's input)", matrixFromJson(fixture.at("x")), layer.input);
    const Json& heads = fixture.at("heads");
    REQUIRE(layer.heads.size() == heads.size());
    for (std::size_t h = 0; h < heads.size(); ++h) {
        const std::string head = name + "head " + std::to_string(h + 1) + " ";
        const HeadTrace& actual = layer.heads[h];
        const Json& expected = heads[h];
        if (expected.contains("q_before_rope")) {  // RoPE lessons (format version 5)
            CHECK_MATRIX(head + "Q before RoPE", matrixFromJson(expected.at("q_before_rope")), actual.qBeforeRope);
            CHECK_MATRIX(head + "K before RoPE", matrixFromJson(expected.at("k_before_rope")), actual.kBeforeRope);
        } else {
            CHECK(actual.qBeforeRope.size() == 0);
        }
        CHECK_MATRIX(head + "Q", matrixFromJson(expected.at("q")), actual.q);
        CHECK_MATRIX(head + "K", matrixFromJson(expected.at("k")), actual.k);
        CHECK_MATRIX(head + "V", matrixFromJson(expected.at("v")), actual.v);
        CHECK_MATRIX(head + "scores", matrixFromJson(expected.at("scores")), actual.scores);
        CHECK_MATRIX(head + "scaled scores", matrixFromJson(expected.at("scaled_scores")),
                     actual.scaledScores);
        CHECK_MATRIX(head + "masked scores", matrixFromJson(expected.at("masked_scores")),
                     actual.maskedScores);
        CHECK_MATRIX(head + "weights", matrixFromJson(expected.at("weights")), actual.weights.exact());  // lessons: double
        CHECK_MATRIX(head + "weighted sum", matrixFromJson(expected.at("weighted_sum")),
                     actual.weightedSum);
    }
    CHECK_MATRIX(name + "concat", matrixFromJson(fixture.at("concat")), layer.concat);
    CHECK_MATRIX(name + "output", matrixFromJson(fixture.at("output")), layer.output);
}

// A list of T numbers (a norm's mean or variance per row) as a T×1 matrix.
Mat columnFromJson(const Json& values) {
    Json rows = Json::array();
    for (const Json& v : values) rows.push_back(Json::array({v}));
    return matrixFromJson(rows);
}

void checkNorm(const Json& expected, const NormTrace& actual, const std::string& name) {
    REQUIRE(actual.present());
    if (expected.contains("mean")) CHECK_MATRIX(name + " mean μ", columnFromJson(expected.at("mean")), actual.mean);
    const char* spread = expected.contains("variance") ? "variance" : "mean_square";
    CHECK_MATRIX(name + " " + spread, columnFromJson(expected.at(spread)), actual.variance);
    CHECK_MATRIX(name + " output", matrixFromJson(expected.at("output")), actual.output);
}

// The block after attention (format version 6): every intermediate the reference writes.
void checkBlock(const Json& expected, const BlockTrace& b) {
    if (expected.contains("residual_attention"))
        CHECK_MATRIX("block: X + attention", matrixFromJson(expected.at("residual_attention")), b.afterAttention);
    if (expected.contains("norm")) checkNorm(expected.at("norm"), b.norm, "block: norm");
    if (expected.contains("ffn")) {
        const Json& f = expected.at("ffn");
        if (f.contains("gate")) CHECK_MATRIX("block: FFN gate", matrixFromJson(f.at("gate")), b.ffn.gate);
        CHECK_MATRIX("block: FFN hidden / up", matrixFromJson(f.at("hidden")), b.ffn.hidden);
        CHECK_MATRIX("block: FFN activated", matrixFromJson(f.at("activated")), b.ffn.activated);
        CHECK_MATRIX("block: FFN output", matrixFromJson(f.at("output")), b.ffn.output);
    }
    if (expected.contains("residual_ffn"))
        CHECK_MATRIX("block: N + F", matrixFromJson(expected.at("residual_ffn")), b.afterFfn);
    if (expected.contains("final_norm")) checkNorm(expected.at("final_norm"), b.finalNorm, "block: final norm");
    if (!expected.contains("logits")) return;
    CHECK(b.vocabulary == expected.at("vocabulary").get<std::vector<std::string>>());
    CHECK_MATRIX("block: logits", matrixFromJson(expected.at("logits")), b.logits);
    CHECK_MATRIX("block: next-word probabilities", matrixFromJson(expected.at("probabilities")), b.probabilities);
}

void checkAgainstFixture(const Json& fixture) {
    const Trace trace = runFixture(fixture);

    std::vector<std::string> tokens;
    std::vector<bool> inTable;
    for (const Token& t : trace.tokens) {
        tokens.push_back(t.text);
        inTable.push_back(t.inTable);
    }
    CHECK(tokens == fixture.at("tokens").get<std::vector<std::string>>());
    CHECK(inTable == fixture.at("in_table").get<std::vector<bool>>());
    if (tokens != fixture.at("tokens").get<std::vector<std::string>>()) return;  // shapes differ

    const bool rounded = !fixture.at("hand_rounding").is_null();
    CHECK(trace.handRounding.has_value() == rounded);

    CHECK_MATRIX("embedding", matrixFromJson(fixture.at("embedding")), trace.embedding);
    CHECK_MATRIX("positional", matrixFromJson(fixture.at("positional")), trace.positional);
    // A single-layer fixture keeps x, heads, concat and output at the top level.
    const Json layers = fixture.contains("layers") ? fixture.at("layers") : Json::array({fixture});
    REQUIRE(trace.layers.size() == layers.size());
    for (std::size_t l = 0; l < layers.size(); ++l)
        checkLayer(layers[l], trace.layers[l], layers.size() > 1 ? "layer " + std::to_string(l + 1) + " " : "");
    CHECK(trace.block.present() == fixture.contains("block"));
    if (fixture.contains("block")) checkBlock(fixture.at("block"), trace.block);
}

}  // namespace

TEST_CASE("the matrix comparison reports the largest difference and the cells", "[reference]") {
    Mat expected(2, 2);
    expected << 1.0, 2.0, 3.0, -std::numeric_limits<double>::infinity();
    Mat actual = expected;
    CHECK(compareMatrices("same", expected, actual).ok);
    actual(0, 1) = 2.5;
    actual(1, 1) = 0.0;
    const Comparison cmp = compareMatrices("weights", expected, actual);
    CHECK_FALSE(cmp.ok);
    CHECK_THAT(cmp.message, Catch::Contains("2 of 4 cells"));
    CHECK_THAT(cmp.message, Catch::Contains("largest absolute difference inf"));
    CHECK_THAT(cmp.message, Catch::Contains("(0, 1): expected 2, actual 2.5"));
    CHECK_THAT(cmp.message, Catch::Contains("(1, 1): expected -inf, actual 0"));
    CHECK_FALSE(compareMatrices("shape", expected, Mat(2, 3)).ok);
}

TEST_CASE("every reference fixture matches the engine", "[reference]") {
    const auto files = fixtureFiles();
    // make_fixtures.py writes 25; fewer means a fixture went missing.
    REQUIRE(files.size() >= 25);
    for (const fs::path& file : files) {
        const std::string name = file.stem().string();
        DYNAMIC_SECTION("fixture " << name) {
            const Json fixture = loadFixture(name);
            INFO("fixture " << name << ": lesson " << fixture.at("lesson").get<std::string>()
                            << ", sentence \"" << fixture.at("sentence").get<std::string>()
                            << "\", hand_rounding " << fixture.at("hand_rounding").dump());
            checkAgainstFixture(fixture);
        }
    }
}

TEST_CASE("the hash rule reproduces the worked example of docs/lesson-format.md", "[reference]") {
    // FNV-1a-32 of "hi" + byte 0 / 1 / 2 = 2933011566 / 2949789185 / 2899456328;
    // mod 5 = 1 / 0 / 3; minus 2 = -1 / -2 / 1.
    CHECK(fnv1a32(std::string_view("hi\0", 3)) == 2933011566u);
    CHECK(fnv1a32(std::string_view("hi\1", 3)) == 2949789185u);
    CHECK(fnv1a32(std::string_view("hi\2", 3)) == 2899456328u);
    const RowVec v = hashedEmbedding("hi", 3);
    REQUIRE(v.size() == 3);
    CHECK(v[0] == -1.0);
    CHECK(v[1] == -2.0);
    CHECK(v[2] == 1.0);
}

TEST_CASE("lesson 1 by hand: scores and softmax", "[reference]") {
    // X (features animal, small, hunter, prey, action), Q = K = V = X, no scaling:
    //   cats  = [1, 0, 1, 0, 0]
    //   chase = [0, 0, 1, 0, 1]
    //   mice  = [1, 1, 0, 1, 0]
    // Scores S = X·Xᵀ (one dot product per cell):
    //   cats·cats  = 1·1 + 1·1         = 2   cats·chase = 1·1 (hunter) = 1   cats·mice  = 1·1 (animal) = 1
    //   chase·cats = 1                       chase·chase = 1·1 + 1·1    = 2   chase·mice = 0
    //   mice·cats  = 1                       mice·chase  = 0                  mice·mice  = 1 + 1 + 1    = 3
    // Softmax of each row (subtract the row maximum, exponentiate, divide by the sum):
    //   cats  [2, 1, 1] → [1, e⁻¹, e⁻¹]          = [1, 0.367879, 0.367879], sum 1.735759
    //         weights = [e/(e+2), 1/(e+2), 1/(e+2)] = [0.576117, 0.211942, 0.211942]
    //   chase [1, 2, 0] → [e⁻¹, 1, e⁻²]          = [0.367879, 1, 0.135335], sum 1.503215
    //         weights = [0.244728, 0.665241, 0.090031]
    //   mice  [1, 0, 3] → [e⁻², e⁻³, 1]          = [0.135335, 0.049787, 1], sum 1.185122
    //         weights = [0.114195, 0.042010, 0.843795]
    // Weighted sum, row cats = 0.576117·cats + 0.211942·chase + 0.211942·mice
    //   = [0.576117 + 0.211942, 0.211942, 0.576117 + 0.211942, 0.211942, 0.211942]
    //   = [0.788059, 0.211942, 0.788059, 0.211942, 0.211942]
    const Lesson lesson = loadLesson("resources/lessons/first-hand-exercise.json");
    auto run = runLesson(lesson, lesson.sentence, RunSettings{std::nullopt, true});
    REQUIRE(run.ok());
    const HeadTrace& head = run.value().layers.at(0).heads.at(0);

    Mat scores(3, 3);
    scores << 2, 1, 1,
              1, 2, 0,
              1, 0, 3;
    CHECK_MATRIX("lesson 1 scores", scores, head.scores);
    CHECK_MATRIX("lesson 1 scaled scores (no scaling)", scores, head.scaledScores);

    const double e = std::exp(1.0);
    const double chaseSum = std::exp(-1.0) + 1.0 + std::exp(-2.0);
    const double miceSum = std::exp(-2.0) + std::exp(-3.0) + 1.0;
    Mat weights(3, 3);
    weights << e / (e + 2), 1 / (e + 2), 1 / (e + 2),
               std::exp(-1.0) / chaseSum, 1.0 / chaseSum, std::exp(-2.0) / chaseSum,
               std::exp(-2.0) / miceSum, std::exp(-3.0) / miceSum, 1.0 / miceSum;
    CHECK_MATRIX("lesson 1 weights (closed form)", weights, head.weights.exact());

    // The six-decimal values written above.
    Mat written(3, 3);
    written << 0.576117, 0.211942, 0.211942,
               0.244728, 0.665241, 0.090031,
               0.114195, 0.042010, 0.843795;
    const Comparison sixDecimals = compareMatrices("lesson 1 weights (6 decimals)", written,
                                                   head.weights.exact(), 5e-7);
    if (!sixDecimals.ok) FAIL_CHECK(sixDecimals.message);

    RowVec catsRow(5);
    catsRow << e / (e + 2) + 1 / (e + 2), 1 / (e + 2), e / (e + 2) + 1 / (e + 2), 1 / (e + 2),
        1 / (e + 2);
    CHECK_MATRIX("lesson 1 weighted sum of cats", Mat(catsRow), Mat(head.weightedSum.row(0)));
}

TEST_CASE("coreference lesson: in head 1 \"it\" attends most to \"animal\"", "[reference]") {
    const Json fixture = loadFixture("coreference");
    const Trace trace = runFixture(fixture);
    const auto& tokens = trace.tokens;
    auto indexOf = [&](const std::string& text) {
        const auto found = std::find_if(tokens.begin(), tokens.end(),
                                        [&](const Token& t) { return t.text == text; });
        REQUIRE(found != tokens.end());
        return static_cast<Eigen::Index>(found - tokens.begin());
    };
    const Eigen::Index it = indexOf("it");
    const Eigen::Index animal = indexOf("animal");
    const Eigen::Index street = indexOf("street");
    const Mat weights = trace.layers.at(0).heads.at(0).weights.toMat();

    Eigen::Index strongest = -1;
    weights.row(it).maxCoeff(&strongest);
    CHECK(tokens[strongest].text == "animal");

    // The value the independent reference computed …
    const double expected = fixture.at("heads")[0].at("weights")[it][animal].get<double>();
    CHECK(weights(it, animal) == Approx(expected).margin(kTolerance));
    // … which is this closed form. Scores of "it": q(it) = [2, 2];
    // k(animal) = [2, 1] → 6, k(street) = [0, 1] → 2, k(the | because | too) = [0, −1] → −2 (4×),
    // k(didn't | cross | it | was | tired) = [0, 0] → 0 (5×). Divided by √2, then softmax:
    const double s = std::sqrt(2.0);
    const double sum = std::exp(6 / s) + std::exp(2 / s) + 4 * std::exp(-2 / s) + 5.0;
    CHECK(weights(it, animal) == Approx(std::exp(6 / s) / sum).margin(1e-12));
    CHECK(weights(it, street) == Approx(std::exp(2 / s) / sum).margin(1e-12));
    // Clearly more than "street": about 0.873 against 0.052.
    CHECK(weights(it, animal) > 0.85);
    CHECK(weights(it, street) < 0.06);

    // Head 2, the property head: "tired" attends most to "animal".
    const Mat property = trace.layers.at(0).heads.at(1).weights.toMat();
    Eigen::Index tiredTarget = -1;
    property.row(indexOf("tired")).maxCoeff(&tiredTarget);
    CHECK(tokens[tiredTarget].text == "animal");
}

TEST_CASE("coreference lesson with hand-rounding 1 keeps \"it\" on \"animal\"", "[reference]") {
    const Json fixture = loadFixture("coreference-round1");
    const Trace trace = runFixture(fixture);
    REQUIRE(trace.handRounding == std::optional<int>(1));
    const Mat weights = trace.layers.at(0).heads.at(0).weights.toMat();
    const Eigen::Index it = 7, animal = 1;
    REQUIRE(trace.tokens[it].text == "it");
    Eigen::Index strongest = -1;
    weights.row(it).maxCoeff(&strongest);
    CHECK(strongest == animal);
    CHECK(weights(it, animal) ==
          Approx(fixture.at("heads")[0].at("weights")[it][animal].get<double>()).margin(kTolerance));
}

namespace {

// Runs the two-layer lesson (exact arithmetic) on one of its fixtures' sentences.
struct TwoLayerRun {
    Json fixture;
    Trace trace;
    Eigen::Index it = -1, animal = -1, street = -1;
};

TwoLayerRun runTwoLayerFixture(const std::string& name) {
    TwoLayerRun run{loadFixture(name), {}};
    run.trace = runFixture(run.fixture);
    REQUIRE(run.trace.layers.size() == 2);
    REQUIRE(run.trace.tokenCount() == 11);
    run.it = 7, run.animal = 1, run.street = 5;
    REQUIRE(run.trace.tokens[run.it].text == "it");
    REQUIRE(run.trace.tokens[run.animal].text == "animal");
    REQUIRE(run.trace.tokens[run.street].text == "street");
    return run;
}

// By hand (resources/lessons/two-layers.json, no scaling, 11 tokens):
// Layer 1: q(it) = 3·W_Q[pronoun] = [3, 0]; k(tired) = k(wide) = [2, 0], every other key [0, 0].
//   Row "it" of the scores: 6 on the state word, 0 on the ten others, so
//   A₁[it, state] = e⁶ / (e⁶ + 10) = 403.4288 / 413.4288 = 0.9758120379.
//   v(tired) = [1, 0], v(wide) = [0, 1], the others [0, 0], so A₁·V of "it" is 0.9758·v(state),
//   and W_O writes it into the tired (or wide) column: X₂[it] = pronoun 1 + state 0.9758.
// Layer 2: q(it) = 0.9758·W_Q[state] = [1.9516, 0] for tired, [0, 1.9516] for wide;
//   k(animal) = [2, 0], k(street) = [0, 2], every other key [0, 0] (layer 1 only wrote the
//   tired and wide columns, so animate and place are unchanged).
//   The matching noun scores 2·1.9516 = 3.9032 = 4·A₁[it, state], the ten others 0:
//   A₂[it, match] = e^3.9032 / (e^3.9032 + 10) = 49.5632 / 59.5632 = 0.8321110363,
//   A₂[it, other noun] = 1 / 59.5632 = 0.0167888964.
const double kStateWeight = std::exp(6.0) / (std::exp(6.0) + 10.0);
const double kMatchScore = 4 * kStateWeight;
const double kMatchWeight = std::exp(kMatchScore) / (std::exp(kMatchScore) + 10.0);
const double kOtherWeight = 1.0 / (std::exp(kMatchScore) + 10.0);

}  // namespace

TEST_CASE("two layers: with \"tired\", layer 2 links \"it\" to \"animal\"", "[reference][layers]") {
    const TwoLayerRun run = runTwoLayerFixture("two-layers");
    const Eigen::Index tired = 10;
    CHECK(run.trace.layers[0].heads[0].weights(run.it, tired) == Approx(kStateWeight).margin(1e-15));
    CHECK(kStateWeight == Approx(0.9758120379).margin(1e-10));
    CHECK(run.trace.layers[1].input(run.it, 5) == Approx(kStateWeight).margin(1e-15));  // column "tired"
    CHECK(run.trace.layers[1].input(run.it, 6) == 0.0);                                 // column "wide"
    CHECK(run.trace.layers[1].heads[0].scores(run.it, run.animal) == Approx(3.9032481515).margin(1e-9));

    const Mat weights = run.trace.layers[1].heads[0].weights.toMat();
    CHECK(weights(run.it, run.animal) == Approx(kMatchWeight).margin(1e-12));
    CHECK(weights(run.it, run.street) == Approx(kOtherWeight).margin(1e-12));
    CHECK(weights(run.it, run.animal) == Approx(0.8321110363).margin(1e-10));
    CHECK(weights(run.it, run.street) == Approx(0.0167888964).margin(1e-10));
    CHECK(weights(run.it, run.animal) > weights(run.it, run.street));
    // The independent reference agrees.
    const Json& fixtureWeights = run.fixture.at("layers")[1].at("heads")[0].at("weights");
    CHECK(weights(run.it, run.animal) == Approx(fixtureWeights[run.it][run.animal].get<double>()).margin(kTolerance));
}

TEST_CASE("two layers: with \"wide\", layer 2 links \"it\" to \"street\"", "[reference][layers]") {
    const TwoLayerRun run = runTwoLayerFixture("two-layers-wide");
    const Eigen::Index wide = 10;
    CHECK(run.trace.layers[0].heads[0].weights(run.it, wide) == Approx(kStateWeight).margin(1e-15));
    CHECK(run.trace.layers[1].input(run.it, 6) == Approx(kStateWeight).margin(1e-15));  // column "wide"
    CHECK(run.trace.layers[1].input(run.it, 5) == 0.0);                                 // column "tired"

    const Mat weights = run.trace.layers[1].heads[0].weights.toMat();
    CHECK(weights(run.it, run.street) == Approx(0.8321110363).margin(1e-10));
    CHECK(weights(run.it, run.animal) == Approx(0.0167888964).margin(1e-10));
    CHECK(weights(run.it, run.street) > weights(run.it, run.animal));
    const Json& fixtureWeights = run.fixture.at("layers")[1].at("heads")[0].at("weights");
    CHECK(weights(run.it, run.street) == Approx(fixtureWeights[run.it][run.street].get<double>()).margin(kTolerance));
}

TEST_CASE("two layers with hand-rounding 2: 0.98 → 1.96 → 3.92 → 0.83", "[reference][layers]") {
    // A₁[it, tired] = 0.9758 → 0.98; X₂[it, tired] = 0.98; q(it) = [1.96, 0]; score 3.92;
    // A₂[it, animal] = e^3.92 / (e^3.92 + 10) = 50.4004 / 60.4004 = 0.8344 → 0.83, street → 0.02.
    const TwoLayerRun run = runTwoLayerFixture("two-layers-round2");
    CHECK(run.trace.layers[1].input(run.it, 5) == 0.98);
    CHECK(run.trace.layers[1].heads[0].q(run.it, 0) == 1.96);
    CHECK(run.trace.layers[1].heads[0].scores(run.it, run.animal) == 3.92);
    CHECK(run.trace.layers[1].heads[0].weights(run.it, run.animal) == 0.83);
    CHECK(run.trace.layers[1].heads[0].weights(run.it, run.street) == 0.02);
}
