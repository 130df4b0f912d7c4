// Numbers print as the lesson's data are written (issue 13 §4): a lesson of integers shows "1" and
// "12", not "1.0000"; a step whose values are not all whole keeps the lesson's decimals.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "core/export/table_format.hpp"
#include "core/lesson/lesson.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/text/messages.hpp"
#include "core/trace/explain.hpp"

using namespace attnscope;

namespace {

Trace firstLessonTrace(const std::string& sentence) {
    std::ifstream in(std::string(ATTNSCOPE_SOURCE_DIR) + "/resources/lessons/first-hand-exercise.json");
    std::ostringstream s;
    s << in.rdbuf();
    auto lesson = parseLesson(s.str(), "first-hand-exercise");
    REQUIRE(lesson.ok());
    REQUIRE(lesson.value().decimals == 4);  // the lesson asks for 4 decimals
    return runLesson(lesson.value(), sentence).value();
}

}  // namespace

TEST_CASE("decimalsFor: none for whole numbers, the given decimals as soon as one value needs them", "[format]") {
    CHECK(decimalsFor(1.0, 4) == 0);
    CHECK(decimalsFor(12.0, 4) == 0);
    CHECK(decimalsFor(-3.0, 4) == 0);
    CHECK(decimalsFor(0.5, 4) == 4);
    CHECK(decimalsFor(0.99999999, 4) == 4);  // rounds to 1.0000 but is no integer
    CHECK(decimalsFor(-std::numeric_limits<double>::infinity(), 3) == 0);  // −∞ prints as itself
    Mat whole(2, 2);
    whole << 1, 12, 0, -2;
    CHECK(decimalsFor(whole, 4) == 0);
    Mat mixed = whole;
    mixed(1, 1) = 0.25;
    CHECK(decimalsFor(mixed, 4) == 4);  // every cell keeps 4 decimals, the column stays aligned
}

TEST_CASE("columnRanges: each column's smallest and largest finite value, and its NaN and infinities", "[format]") {
    constexpr float inf = std::numeric_limits<float>::infinity();
    MatF m(3, 4);  // a float matrix, as a model's weights: read through GridRef as double
    m << 0.5f, -inf, 2.0f, NAN,
         -1.25f, 3.0f, inf, NAN,
         0.75f, -7.0f, -2.0f, inf;
    const std::vector<ColumnRange> ranges = columnRanges(m);
    REQUIRE(ranges.size() == 4);
    CHECK(ranges[0].low == -1.25);  // 0.5, −1.25, 0.75
    CHECK(ranges[0].high == 0.75);
    CHECK_FALSE((ranges[0].nan || ranges[0].negativeInfinity || ranges[0].positiveInfinity));
    CHECK(ranges[1].low == -7.0);  // −∞ apart: 3, −7
    CHECK(ranges[1].high == 3.0);
    CHECK(ranges[1].negativeInfinity);
    CHECK_FALSE(ranges[1].positiveInfinity);
    CHECK(ranges[2].low == -2.0);  // 2, +∞, −2
    CHECK(ranges[2].high == 2.0);
    CHECK(ranges[2].positiveInfinity);
    CHECK(ranges[3].low > ranges[3].high);  // NaN, NaN, +∞: no finite value
    CHECK(ranges[3].nan);
    CHECK(ranges[3].positiveInfinity);
}

TEST_CASE("formatNumber: −0 prints as 0, integers as written once decimalsFor says so", "[format]") {
    CHECK(formatNumber(-0.0, 0) == "0");
    CHECK(formatNumber(-0.0, 4) == "0.0000");
    CHECK(formatNumber(-0.00001, 4) == "0.0000");
    CHECK(formatNumber(12.0, decimalsFor(12.0, 4)) == "12");
    CHECK(formatNumber(-3.0, decimalsFor(-3.0, 4)) == "-3");
}

TEST_CASE("lesson 1: the tables of integer steps print integers, softmax keeps 4 decimals", "[format]") {
    const Trace trace = firstLessonTrace("cats chase mice");
    // cats = [1,0,1,0,0], mice = [1,1,0,1,0]: q·k = 1 (tests/core/test_explain.cpp works it out).
    const Table scores = tableOf(trace, Step::Scores, 0, 0, 4);
    CHECK(scores.cells[0][2] == "1");
    CHECK(scores.cells[0][0] == "2");  // cats·cats = 1 + 1
    const Table embedding = tableOf(trace, Step::Embedding, 0, 0, 4);
    CHECK(embedding.cells[0][0] == "1");
    CHECK(embedding.cells[0][1] == "0");
    const Table weights = tableOf(trace, Step::Weights, 0, 0, 4);
    for (const auto& row : weights.cells)
        for (const std::string& cell : row) CHECK(cell.size() == 6);  // "0.xxxx": the lesson's 4 decimals
    CHECK(textTable(scores).find(".0000") == std::string::npos);
}

TEST_CASE("explanations: whole-number steps print integers, softmax steps the lesson's decimals", "[format]") {
    const Trace trace = firstLessonTrace("cats chase mice");
    const auto score = explainCell(trace, CellRef{Step::Scores, 0, 0, 0, 2}, 4).value();
    CHECK(score.lines.back() == "value = 1");
    const auto weight = explainCell(trace, CellRef{Step::Weights, 0, 0, 0, 2}, 4).value();
    CHECK(weight.lines.back().find(".") != std::string::npos);  // a softmax weight needs its decimals
    const auto weighted = explainCell(trace, CellRef{Step::WeightedSum, 0, 0, 0, 0}, 4).value();
    CHECK(weighted.terms[0].label.find("0.") != std::string::npos);  // A·V: A has decimals, so all do
}

TEST_CASE("a lesson without projections says Q = X, K = X, V = X", "[format][messages]") {
    const Trace trace = firstLessonTrace("cats chase mice");
    REQUIRE_FALSE(trace.projections);
    CHECK(stepTitleIn(trace, Step::Query, 0) == "Queries Q = X (no projection)");
    CHECK(stepTitleIn(trace, Step::Value, 0, Language::Chinese) == "值 V = X（无投影）");
    Trace projected = trace;
    projected.projections = true;
    CHECK(stepTitleIn(projected, Step::Query, 0) == "Queries Q = X·W_Q");
    CHECK(stepTitleIn(projected, Step::Key, 0) == "Keys K = X·W_K");
}

TEST_CASE("text tables line up Chinese headers and labels: a CJK character takes two terminal columns", "[format][zh]") {
    // Worked out by hand: "动" and "，" are two columns wide each, "0.071" five, so every column is
    // five wide; the row labels are two wide. Every line is then 2 + 2 × (2 + 5) = 16 columns, and each
    // number ends at column 9 or 16 — exactly under the end of its header.
    CHECK(displayWidth("动") == 2);
    CHECK(displayWidth("，") == 2);
    CHECK(displayWidth("ab") == 2);
    CHECK(displayWidth("它→累") == 5);  // the arrow is one column
    const Table t{{"动", "，"}, {"它", "累"}, {{"0.002", "0.969"}, {"0.071", "0.071"}}};
    std::istringstream lines(textTable(t));
    std::vector<std::string> got;
    for (std::string line; std::getline(lines, line);) got.push_back(line);
    REQUIRE(got.size() == 3);
    CHECK(got[0] == "       动     ，");
    CHECK(got[1] == "它  0.002  0.969");
    CHECK(got[2] == "累  0.071  0.071");
    for (const std::string& line : got) CHECK(displayWidth(line) == 16);
}
