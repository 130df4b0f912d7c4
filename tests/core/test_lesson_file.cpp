// Lesson files: round trip, the hash rule, and an error naming the field for each malformed file.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "core/lesson.hpp"
#include "core/run_lesson.hpp"
#include "matrix_compare.hpp"

using namespace attnscope;

namespace {

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string builtIn(const std::string& name) {
    return readFile(std::string(ATTNSCOPE_SOURCE_DIR) + "/resources/lessons/" + name + ".json");
}

const char* kMinimal = R"({"format": "attnscope-lesson", "version": 1, "d_model": 2, "heads": 1, "d_k": 2,
  "embeddings": {"a": [1, 0], "b": [0, 1]},
  "heads_weights": [{"W_Q": [[1, 0], [0, 1]], "W_K": [[1, 0], [0, 1]], "W_V": [[1, 0], [0, 1]]}]})";

// Replaces the first occurrence of `from` in the minimal lesson.
std::string minimalWith(const std::string& from, const std::string& to) {
    std::string text = kMinimal;
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

void requireErrorNaming(const std::string& json, const std::string& field, const std::string& detail) {
    const auto result = parseLesson(json, "broken.json");
    REQUIRE_FALSE(result.ok());
    INFO(result.error().text());
    CHECK(result.error().where.find("broken.json") != std::string::npos);
    CHECK(result.error().text().find(field) != std::string::npos);
    CHECK(result.error().text().find(detail) != std::string::npos);
}

}  // namespace

TEST_CASE("every built-in lesson parses and round-trips", "[lesson]") {
    for (const char* name : {"first-hand-exercise", "two-heads", "coreference", "causal-mask"}) {
        const std::string text = builtIn(name);
        if (text.empty()) continue;  // lessons still being written are checked once they exist
        INFO(name);
        const auto lesson = parseLesson(text, name);
        INFO((lesson.ok() ? std::string() : lesson.error().text()));
        REQUIRE(lesson.ok());
        const std::string written = serializeLesson(lesson.value());
        const auto again = parseLesson(written, "written");
        REQUIRE(again.ok());
        CHECK(serializeLesson(again.value()) == written);
        const auto a = runLesson(lesson.value(), lesson.value().sentence);
        const auto b = runLesson(again.value(), again.value().sentence);
        REQUIRE(a.ok());
        REQUIRE_MATRIX_NEAR(a.value().layers[0].output, b.value().layers[0].output, 0);
    }
}

TEST_CASE("the hash rule for tokens missing from the table", "[lesson][hash]") {
    // FNV-1a-32 of "hi" + byte 0 = 2933011566 → mod 5 = 1 → −1
    //            "hi" + byte 1 = 2949789185 → mod 5 = 0 → −2
    //            "hi" + byte 2 = 2899456328 → mod 5 = 3 → +1
    CHECK(fnv1a32("") == 2166136261u);
    CHECK(fnv1a32("a") == 3826002220u);
    const RowVec v = hashedEmbedding("hi", 3);
    CHECK(v[0] == -1);
    CHECK(v[1] == -2);
    CHECK(v[2] == 1);
    const auto lesson = parseLesson(kMinimal, "minimal");
    const auto trace = runLesson(lesson.value(), "a hi");
    REQUIRE(trace.ok());
    CHECK(trace.value().tokens[0].inTable);
    CHECK_FALSE(trace.value().tokens[1].inTable);
}

TEST_CASE("malformed lessons name the field at fault", "[lesson][errors]") {
    requireErrorNaming("{\"format\": \"attnscope-lesson\", ", "broken.json", "not valid JSON");
    requireErrorNaming("[1, 2]", "(top level)", "JSON object");
    requireErrorNaming(minimalWith("\"attnscope-lesson\"", "\"something\""), "format", "attnscope-lesson");
    requireErrorNaming(minimalWith("\"version\": 1", "\"version\": 7"), "version", "version 7");
    requireErrorNaming(minimalWith("\"d_model\": 2, ", ""), "d_model", "missing");
    requireErrorNaming(minimalWith("\"d_model\": 2", "\"d_model\": \"two\""), "d_model", "whole number");
    requireErrorNaming(minimalWith("\"a\": [1, 0]", "\"a\": [1, 0, 5]"), "embeddings.a", "expected 2 numbers, found 3");
    requireErrorNaming(minimalWith("\"b\": [0, 1]", "\"b\": [0, \"x\"]"), "embeddings.b[1]", "expected a number");
    requireErrorNaming(minimalWith("\"W_Q\": [[1, 0], [0, 1]]", "\"W_Q\": [[1, 0]]"), "heads_weights[0].W_Q",
                       "2 rows");
    requireErrorNaming(minimalWith("\"W_K\": [[1, 0], [0, 1]], ", ""), "heads_weights[0].W_K", "missing");
    requireErrorNaming(minimalWith("\"W_V\": [[1, 0], [0, 1]]", "\"W_V\": [[1, 0], [0, true]]"),
                       "heads_weights[0].W_V[1][1]", "a boolean");
    requireErrorNaming(minimalWith("\"heads\": 1", "\"heads\": 2"), "heads_weights", "2 heads");
    requireErrorNaming(minimalWith("\"version\": 1", "\"version\": 1, \"positional_encoding\": \"learned\""),
                       "positional_encoding", "learned");
    requireErrorNaming(minimalWith("\"version\": 1", "\"version\": 1, \"W_O\": [[1, 0]]"), "W_O", "2 rows");
    requireErrorNaming(minimalWith("\"version\": 1", "\"version\": 1, \"display\": {\"decimals\": 40}"),
                       "display.decimals", "0 to 12");
}

TEST_CASE("validateLesson catches edits that break a lesson", "[lesson][errors]") {
    auto lesson = parseLesson(kMinimal, "minimal").value();
    lesson.heads[0].wq(1, 1) = std::numeric_limits<double>::quiet_NaN();
    const auto error = validateLesson(lesson, "minimal");
    REQUIRE(error);
    CHECK(error->text().find("heads_weights[0].W_Q") != std::string::npos);
    CHECK(error->text().find("NaN") != std::string::npos);
}

TEST_CASE("enormous sentences are cut with a notice", "[lesson]") {
    const auto lesson = parseLesson(kMinimal, "minimal").value();
    std::string sentence;
    for (int i = 0; i < 1000; ++i) sentence += "a b ";
    const auto trace = runLesson(lesson, sentence);
    REQUIRE(trace.ok());
    CHECK(trace.value().tokenCount() == kMaxLessonTokens);
    REQUIRE(trace.value().notices.size() == 1);
    CHECK(trace.value().notices[0].find("2000 tokens") != std::string::npos);
}

TEST_CASE("an empty sentence gives an empty trace, not an error", "[lesson]") {
    const auto lesson = parseLesson(kMinimal, "minimal").value();
    const auto trace = runLesson(lesson, "");
    REQUIRE(trace.ok());
    CHECK(trace.value().tokenCount() == 0);
    CHECK(trace.value().layers[0].heads[0].weights.size() == 0);
}

TEST_CASE("b_O without W_O must fit the concatenation", "[lesson][errors]") {
    // two heads of d_v 3 concatenate to 6 columns; a b_O of d_model = 2 numbers cannot be added
    const std::string json = R"({"format": "attnscope-lesson", "version": 1, "d_model": 2, "heads": 2, "d_k": 3,
      "embeddings": {"a": [1, 0]}, "b_O": [1, 1], "heads_weights": [
        {"W_Q": [[1,0,0],[0,1,0]], "W_K": [[1,0,0],[0,1,0]], "W_V": [[1,0,0],[0,1,0]]},
        {"W_Q": [[1,0,0],[0,1,0]], "W_K": [[1,0,0],[0,1,0]], "W_V": [[1,0,0],[0,1,0]]}]})";
    requireErrorNaming(json, "b_O", "6 wide");
}
