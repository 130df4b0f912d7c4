// Lesson files: round trip, the hash rule, and an error naming the field for each malformed file.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "core/lesson/lesson.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/text/messages.hpp"
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
    for (const char* name : {"first-hand-exercise", "two-heads", "coreference", "causal-mask", "two-layers",
                             "first-hand-exercise-zh", "coreference-zh", "causal-mask-zh", "rope", "rope-zh", "whole-block", "whole-block-zh", "grouped-query", "translation", "translation-zh"}) {
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
        REQUIRE(a.value().layers.size() == lesson.value().layers.size());
        for (std::size_t l = 0; l < a.value().layers.size(); ++l)
            REQUIRE_MATRIX_NEAR(a.value().layers[l].output, b.value().layers[l].output, 0);
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

TEST_CASE("words missing from the table get the lesson's rule, and are named (issue 28)", "[lesson][hash]") {
    auto lesson = parseLesson(kMinimal, "minimal");
    REQUIRE(lesson.ok());
    SECTION("the hash rule, said in a notice naming each word once") {
        const auto trace = runLesson(lesson.value(), "a hi b hi x");
        REQUIRE(trace.ok());
        REQUIRE(trace.value().notices.size() == 1);
        CHECK(noticeText(trace.value().notices[0], Language::English) ==
              "not in the lesson's embedding table, so their vectors are made up by the hash rule: hi, x");
        CHECK(noticeText(trace.value().notices[0], Language::Chinese) == "课程的嵌入表中没有这些词，它们的向量由哈希规则编造：hi, x");
        CHECK(trace.value().embedding(1, 1) == -2);  // "hi", by hand above
    }
    SECTION("zeros: Q = K = 0 for the word, so its scores are 0 and its weights uniform") {
        lesson.value().unknownWords = UnknownWords::Zeros;
        const auto trace = runLesson(lesson.value(), "a hi b");
        REQUIRE(trace.ok());
        CHECK(noticeText(trace.value().notices.at(0), Language::English) ==
              "not in the lesson's embedding table, so their vectors are zeros: hi");
        const Token& hi = trace.value().tokens[1];
        CHECK_FALSE(hi.inTable);
        CHECK(hi.zeroVector);
        CHECK(trace.value().embedding.row(1).isZero(0));
        // W_Q = W_K = I, d_k = 2: row "hi" of S/√2 is 0·k = 0 everywhere → softmax = 1/3 each.
        const auto& weights = trace.value().layers[0].heads[0].weights;
        for (int j = 0; j < 3; ++j) CHECK(weights(1, j) == Approx(1.0 / 3).epsilon(1e-12));
        // Column "a" of "hi" → "a": 0, and the row a·a = 1 still counts for "a".
        CHECK(trace.value().layers[0].heads[0].scores(0, 0) == 1);
    }
    SECTION("ask: no run, the missing words named") {
        lesson.value().unknownWords = UnknownWords::Ask;
        const auto trace = runLesson(lesson.value(), "a 猫 b 狗 猫");
        REQUIRE_FALSE(trace.ok());
        CHECK(trace.error().text().find("sentence: not in the lesson's embedding table: 猫, 狗; add their vectors") == 0);
        CHECK(runLesson(lesson.value(), "a b").ok());  // every word known: it runs, without a notice
        CHECK(runLesson(lesson.value(), "a b").value().notices.empty());
    }
    SECTION("a rule other than the hash rule is written as version 4, and read back") {
        lesson.value().unknownWords = UnknownWords::Zeros;
        const std::string written = serializeLesson(lesson.value());
        CHECK(written.find("\"version\": 4") != std::string::npos);
        CHECK(written.find("\"unknown_words\": \"zeros\"") != std::string::npos);
        const auto again = parseLesson(written, "again");
        REQUIRE(again.ok());
        CHECK(again.value().unknownWords == UnknownWords::Zeros);
        lesson.value().unknownWords = UnknownWords::Hash;
        CHECK(serializeLesson(lesson.value()).find("unknown_words") == std::string::npos);  // version 1 as before
    }
}

TEST_CASE("malformed lessons name the field at fault", "[lesson][errors]") {
    requireErrorNaming("{\"format\": \"attnscope-lesson\", ", "broken.json", "not valid JSON");
    requireErrorNaming("[1, 2]", "broken.json: expected a JSON object", "found a list of 2");
    requireErrorNaming(minimalWith("\"attnscope-lesson\"", "\"something\""), "format", "attnscope-lesson");
    requireErrorNaming(minimalWith("\"version\": 1", "\"version\": 9"), "version", "version 9");
    requireErrorNaming(minimalWith("\"d_model\": 2, ", ""), "d_model", "missing");
    requireErrorNaming(minimalWith("\"d_model\": 2", "\"d_model\": \"two\""), "d_model", "whole number");
    requireErrorNaming(minimalWith("\"a\": [1, 0]", "\"a\": [1, 0, 5]"), "embeddings.a", "expected 2 numbers, found 3");
    requireErrorNaming(minimalWith("\"b\": [0, 1]", "\"b\": [0, \"x\"]"), "embeddings.b[1]", "expected a number");
    requireErrorNaming(minimalWith("\"W_Q\": [[1, 0], [0, 1]]", "\"W_Q\": [[1, 0]]"), "heads_weights[0].W_Q",
                       "expected 2×2, found 1×2 (W_Q is d_model×d_k)");
    requireErrorNaming(minimalWith("\"W_K\": [[1, 0], [0, 1]], ", ""), "heads_weights[0].W_K", "missing");
    requireErrorNaming(minimalWith("\"W_V\": [[1, 0], [0, 1]]", "\"W_V\": [[1, 0], [0, true]]"),
                       "heads_weights[0].W_V[1][1]", "a boolean");
    requireErrorNaming(minimalWith("\"heads\": 1", "\"heads\": 2"), "heads_weights", "2 heads");
    requireErrorNaming(minimalWith("\"version\": 1", "\"version\": 1, \"positional_encoding\": \"learned\""),
                       "positional_encoding", "learned");
    requireErrorNaming(minimalWith("\"version\": 1", "\"version\": 1, \"W_O\": [[1, 0]]"), "W_O",
                       "expected 2×2, found 1×2");
    requireErrorNaming(minimalWith("\"version\": 1", "\"version\": 1, \"display\": {\"decimals\": 40}"),
                       "display.decimals", "0 to 12");
}

TEST_CASE("validateLesson catches edits that break a lesson", "[lesson][errors]") {
    auto lesson = parseLesson(kMinimal, "minimal").value();
    lesson.layers[0].heads[0].wq(1, 1) = std::numeric_limits<double>::quiet_NaN();
    const auto error = validateLesson(lesson, "minimal");
    REQUIRE_FALSE(error.ok());
    CHECK(error.error().text().find("heads_weights[0].W_Q") != std::string::npos);
    CHECK(error.error().text().find("NaN") != std::string::npos);
}

TEST_CASE("enormous sentences are cut with a notice", "[lesson]") {
    const auto lesson = parseLesson(kMinimal, "minimal").value();
    std::string sentence;
    for (int i = 0; i < 1000; ++i) sentence += "a b ";
    const auto trace = runLesson(lesson, sentence);
    REQUIRE(trace.ok());
    CHECK(trace.value().tokenCount() == kMaxLessonTokens);
    REQUIRE(trace.value().notices.size() == 1);
    CHECK(noticeText(trace.value().notices[0], Language::English).find("2000 tokens") != std::string::npos);
}

TEST_CASE("an empty sentence is refused: there are no matrices to show (issue 10)", "[lesson]") {
    const auto lesson = parseLesson(kMinimal, "minimal").value();
    for (const char* sentence : {"", "   ", "\t\n"}) {
        const auto trace = runLesson(lesson, sentence);
        REQUIRE_FALSE(trace.ok());
        CHECK(trace.error().text() == "sentence: the sentence has no tokens; type at least one word");
    }
}

TEST_CASE("b_O without W_O must fit the concatenation", "[lesson][errors]") {
    // two heads of d_v 3 concatenate to 6 columns; a b_O of d_model = 2 numbers cannot be added
    const std::string json = R"({"format": "attnscope-lesson", "version": 1, "d_model": 2, "heads": 2, "d_k": 3,
      "embeddings": {"a": [1, 0]}, "b_O": [1, 1], "heads_weights": [
        {"W_Q": [[1,0,0],[0,1,0]], "W_K": [[1,0,0],[0,1,0]], "W_V": [[1,0,0],[0,1,0]]},
        {"W_Q": [[1,0,0],[0,1,0]], "W_K": [[1,0,0],[0,1,0]], "W_V": [[1,0,0],[0,1,0]]}]})";
    requireErrorNaming(json, "b_O", "6 wide");
}

namespace {

// Two layers, two heads of d_v 2 (concatenation 4 wide) and d_model 3: W_O must be 4×3 so the
// output can be added back to X.
const char* kTwoLayers = R"({"format": "attnscope-lesson", "version": 2, "d_model": 3, "heads": 2, "d_k": 2,
  "sentence": "a b", "embeddings": {"a": [1, 0, 0], "b": [0, 1, 0]},
  "layers": [
    {"heads_weights": [{"W_Q": [[1, 0], [0, 1], [0, 0]], "W_K": [[1, 0], [0, 1], [0, 0]], "W_V": [[1, 0], [0, 1], [0, 0]]},
                       {"W_Q": [[0, 1], [1, 0], [0, 0]], "W_K": [[1, 0], [0, 1], [0, 0]], "W_V": [[0, 0], [0, 0], [1, 1]]}],
     "W_O": [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 1]]},
    {"heads_weights": [{"W_Q": [[2, 0], [0, 2], [0, 0]], "W_K": [[1, 0], [0, 1], [0, 0]], "W_V": [[1, 0], [0, 1], [0, 0]]},
                       {"W_Q": [[0, 1], [1, 0], [0, 0]], "W_K": [[1, 0], [0, 1], [0, 0]], "W_V": [[0, 0], [0, 0], [1, 1]]}],
     "W_O": [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 1]], "b_O": [0, 0, 1]}
  ]})";

std::string twoLayersWith(const std::string& from, const std::string& to) {
    std::string text = kTwoLayers;
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

// The second W_O of the two-layer lesson (the first one is written identically).
const std::string kSecondWO = R"("W_O": [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 1]], "b_O")";

}  // namespace

TEST_CASE("a lesson with layers parses, round-trips and is written as version 2", "[lesson][layers]") {
    const auto lesson = parseLesson(kTwoLayers, "two-layers.json");
    INFO((lesson.ok() ? std::string() : lesson.error().text()));
    REQUIRE(lesson.ok());
    REQUIRE(lesson.value().layers.size() == 2);
    CHECK(lesson.value().residual);
    CHECK(lesson.value().layers[1].heads[0].wq(0, 0) == 2.0);
    CHECK(lesson.value().layers[1].bo[2] == 1.0);
    const std::string written = serializeLesson(lesson.value());
    CHECK(written.find("\"version\": 2") != std::string::npos);
    CHECK(written.find("\"layers\"") != std::string::npos);
    const auto again = parseLesson(written, "written");
    REQUIRE(again.ok());
    CHECK(serializeLesson(again.value()) == written);
    const auto a = runLesson(lesson.value(), "a b");
    const auto b = runLesson(again.value(), "a b");
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    REQUIRE(a.value().layers.size() == 2);
    REQUIRE_MATRIX_NEAR(a.value().layers[1].output, b.value().layers[1].output, 0);
}

TEST_CASE("a version 1 lesson is still written as version 1, without layers", "[lesson][layers]") {
    const auto lesson = parseLesson(kMinimal, "minimal");
    REQUIRE(lesson.ok());
    CHECK_FALSE(lesson.value().residual);
    REQUIRE(lesson.value().layers.size() == 1);
    const std::string written = serializeLesson(lesson.value());
    CHECK(written.find("\"version\": 1") != std::string::npos);
    CHECK(written.find("\"layers\"") == std::string::npos);
    CHECK(written.find("\"heads_weights\"") != std::string::npos);
}

TEST_CASE("malformed layers name the layer and the field", "[lesson][layers][errors]") {
    // W_O of the second layer maps the 4-wide concatenation to 2 columns instead of d_model = 3.
    requireErrorNaming(twoLayersWith(kSecondWO, R"("W_O": [[1, 0], [0, 1], [0, 0], [0, 0]], "b_O")"),
                       "layers[1].W_O", "expected 4×3, found 4×2");
    // Without W_O the output is the 4-wide concatenation, which cannot be added to a 3-wide X.
    requireErrorNaming(twoLayersWith(kSecondWO, R"("b_O")"), "layers[1].W_O",
                       "is missing: the residual connection adds the output to X, which is d_model = 3 wide");
    requireErrorNaming(twoLayersWith(R"("b_O": [0, 0, 1])", R"("b_O": [0, 1])"), "layers[1].b_O",
                       "expected 3 numbers, found 2");
    requireErrorNaming(twoLayersWith(R"("W_Q": [[2, 0], [0, 2], [0, 0]])", R"("W_Q": [[2, 0], [0, 2]])"),
                       "layers[1].heads_weights[0].W_Q", "expected 3×2, found 2×2");
    requireErrorNaming(twoLayersWith(R"({"heads_weights": [{"W_Q": [[2, 0])", R"({"heads": [{"W_Q": [[2, 0])"),
                       "layers[1].heads_weights", "missing");
    requireErrorNaming(twoLayersWith("\"version\": 2", "\"version\": 1"), "layers", "needs \"version\": 2");
    requireErrorNaming(twoLayersWith("\"sentence\"", "\"W_O\": [[1]], \"sentence\""), "W_O",
                       "inside each layer");
    requireErrorNaming(twoLayersWith("\"layers\": [", "\"layers\": [], \"unused\": ["), "layers", "1 to 64 layers");
    requireErrorNaming(twoLayersWith("\"layers\": [\n    {", "\"layers\": [\n    7, {"), "layers[0]", "an object");
}

TEST_CASE("validateLesson names the layer of a broken edit", "[lesson][layers][errors]") {
    auto lesson = parseLesson(kTwoLayers, "two-layers").value();
    lesson.layers[1].wo(3, 2) = std::numeric_limits<double>::infinity();
    const auto error = validateLesson(lesson, "two-layers");
    REQUIRE_FALSE(error.ok());
    CHECK(error.error().text() == "two-layers: layers[1].W_O: contains NaN or infinity; every weight must be a finite number");
}
