// Lessons with grouped-query and multi-query attention (format version 7, issue 29 §3): H query
// heads share H_kv key/value heads, query head h reading key/value head h / (H / H_kv) as Hugging
// Face's repeat_kv does. Every value of the built-in lesson grouped-query (and of a two-layer
// multi-query lesson with biases) is also checked against the independent Python reference
// (tests/reference/fixtures/lessons/grouped-query*.json, multi-query-layers*.json;
// test_reference_traces.cpp); the numbers below are worked by hand.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "builtin_lesson.hpp"
#include "core/lab/multi_head_lab.hpp"
#include "core/lesson/lesson.hpp"
#include "core/lesson/lesson_edit.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/text/messages.hpp"

using namespace attnscope;

namespace {

// Four query heads of width 1 over d_model = 2 sharing `kv` key/value heads; `kvLine` is the
// kv_heads member and `weights` the heads_weights / kv_heads_weights members.
std::string gqaLesson(const std::string& kvLine, const std::string& weights, int version = 7) {
    return R"({"format": "attnscope-lesson", "version": )" + std::to_string(version) +
           R"(, "d_model": 2, "heads": 4, "d_k": 1, )" + kvLine +
           R"("embeddings": {"a": [1, 0], "b": [0, 1]}, )" + weights + "}";
}

const std::string kFourQueries =
    R"("heads_weights": [{"W_Q": [[1], [0]]}, {"W_Q": [[0], [1]]}, {"W_Q": [[1], [1]]}, {"W_Q": [[2], [0]]}])";
const std::string kTwoKv =
    R"(, "kv_heads_weights": [{"W_K": [[1], [0]], "W_V": [[0], [1]]}, {"W_K": [[0], [1]], "W_V": [[1], [0]]}])";

Error parseError(const std::string& json) {
    auto lesson = parseLesson(json, "gqa.json");
    REQUIRE_FALSE(lesson.ok());
    return lesson.error();
}

// Every number the two runs' heads computed agrees exactly.
void requireSameHeads(const Trace& a, const Trace& b) {
    REQUIRE(a.layers.size() == b.layers.size());
    for (std::size_t l = 0; l < a.layers.size(); ++l) {
        REQUIRE(a.layers[l].heads.size() == b.layers[l].heads.size());
        for (std::size_t h = 0; h < a.layers[l].heads.size(); ++h) {
            INFO("layer " << l << " head " << h);
            CHECK(a.layers[l].heads[h].k == b.layers[l].heads[h].k);
            CHECK(a.layers[l].heads[h].v == b.layers[l].heads[h].v);
            CHECK(a.layers[l].heads[h].weights.exact() == b.layers[l].heads[h].weights.exact());
        }
        CHECK(a.layers[l].output == b.layers[l].output);
    }
}

// The lesson with H_kv = kv (the editor's key/value heads box), or the refusal.
Result<Lesson> withKvHeads(const Lesson& lesson, int kv) {
    LessonDimensions dims = dimensionsOf(lesson);
    dims.numKvHeads = kv;
    return resizeLesson(lesson, dims);
}

}  // namespace

TEST_CASE("grouped-query lesson: heads 1–2 read K₁, V₁ and heads 3–4 read K₂, V₂", "[gqa][lesson]") {
    const Trace t = testing::runBuiltInLesson("grouped-query");  // "the cat sat"
    const LayerTrace& layer = t.layers.at(0);
    REQUIRE(layer.heads.size() == 4);
    CHECK(layer.kvHeadOf == std::vector<int>{0, 0, 1, 1});
    // The same grouping as the lab's grouped-query box (core/lab/multi_head_lab).
    CHECK(layer.kvHeadOf == keyValueSharing(8, 4, 2).value().kvHeadOf);
    // By hand: the = [1, 0, 1, 0], cat = [0, 1, 0, 1], sat = [1, 1, 0, 0]. K₁ = X·W_K₁ takes
    // features 1, 2: [[1, 0], [0, 1], [1, 1]]; K₂ features 3, 4: [[1, 0], [0, 1], [0, 0]].
    // V₁ = (features 1, 3) [[1, 1], [0, 0], [1, 0]]; V₂ = (features 4, 2) [[0, 0], [1, 1], [0, 1]].
    Mat k1(3, 2), k2(3, 2), v1(3, 2), v2(3, 2);
    k1 << 1, 0, 0, 1, 1, 1;
    k2 << 1, 0, 0, 1, 0, 0;
    v1 << 1, 1, 0, 0, 1, 0;
    v2 << 0, 0, 1, 1, 0, 1;
    CHECK(layer.heads[0].k == k1);
    CHECK(layer.heads[1].k == k1);
    CHECK(layer.heads[2].k == k2);
    CHECK(layer.heads[3].k == k2);
    CHECK(layer.heads[0].v == v1);
    CHECK(layer.heads[1].v == v1);
    CHECK(layer.heads[2].v == v2);
    CHECK(layer.heads[3].v == v2);
    // Heads 1 and 2 share K₁ but ask different questions: Q₁ = features 1, 2, Q₂ = features 2, 1.
    // Row "the": q₁ = [1, 0] scores [1, 0, 1]; q₂ = [0, 1] scores [0, 1, 1].
    CHECK(layer.heads[0].scores.row(0) == RowVec{{1, 0, 1}});
    CHECK(layer.heads[1].scores.row(0) == RowVec{{0, 1, 1}});
    // Head 1, row "the": softmax([1, 0, 1]/√2): e^0.70711 = 2.02811, sum 2·2.02811 + 1 = 5.05622,
    // weights [0.40111, 0.19778, 0.40111]; weighted sum 0.40111·[1, 1] + 0.40111·[1, 0] = [0.80222, 0.40111].
    const Mat& w1 = layer.heads[0].weights.exact();
    CHECK(w1(0, 0) == Approx(0.40111).margin(5e-6));
    CHECK(w1(0, 1) == Approx(0.19778).margin(5e-6));
    CHECK(layer.heads[0].weightedSum(0, 0) == Approx(0.80222).margin(5e-6));
    CHECK(layer.heads[0].weightedSum(0, 1) == Approx(0.40111).margin(5e-6));
    // Head 3, row "sat": q₃ = [0, 0] scores every key 0, weights 1/3 each: (sum of V₂'s rows)/3 = [1/3, 2/3].
    CHECK(layer.heads[2].weightedSum(2, 0) == Approx(1.0 / 3).epsilon(1e-12));
    CHECK(layer.heads[2].weightedSum(2, 1) == Approx(2.0 / 3).epsilon(1e-12));
}

TEST_CASE("the views say which query heads share a K and V, in English and Chinese", "[gqa][lesson]") {
    const Trace t = testing::runBuiltInLesson("grouped-query");
    CHECK(kvSharingText(t, 0, 2, Language::English) == "K/V head 2, shared by query heads 3–4");
    CHECK(kvSharingText(t, 0, 0, Language::Chinese) == "K/V 头 1，由查询头 1–2 共用");
    CHECK(queryHeadsSharingKv(t.layers[0], 3) == std::vector<int>{2, 3});
    // A multi-head lesson has nothing to say.
    const Trace own = testing::runBuiltInLesson("two-heads");
    CHECK(own.layers[0].kvHeadOf.empty());
    CHECK(kvSharingText(own, 0, 1, Language::English).empty());
}

TEST_CASE("kv_heads must divide heads, errors name the field in English and Chinese", "[gqa][lesson]") {
    const Error three = parseError(gqaLesson(R"("kv_heads": 3, )", kFourQueries + kTwoKv));
    CHECK(three.text() == "gqa.json: kv_heads: expected a number of key/value heads that divides heads = 4, found the number 3");
    CHECK(three.textIn(Language::Chinese).find("能整除 “heads” = 4 的键/值头数") != std::string::npos);
    const Error zero = parseError(gqaLesson(R"("kv_heads": 0, )", kFourQueries + kTwoKv));
    CHECK(zero.text().find("kv_heads") != std::string::npos);
    CHECK(zero.text().find("found 0") != std::string::npos);
    const Error old = parseError(gqaLesson(R"("kv_heads": 2, )", kFourQueries + kTwoKv, 6));
    CHECK(old.text() == "gqa.json: kv_heads: \"kv_heads\" needs \"version\": 7");
    CHECK(old.textIn(Language::Chinese) == "gqa.json: kv_heads: \"kv_heads\" 需要 \"version\": 7");
}

TEST_CASE("shared keys and values live in kv_heads_weights, one entry per key/value head", "[gqa][lesson]") {
    const Error missing = parseError(gqaLesson(R"("kv_heads": 2, )", kFourQueries));
    CHECK(missing.where == "gqa.json: kv_heads_weights");
    const Error count = parseError(gqaLesson(R"("kv_heads": 1, )", kFourQueries + kTwoKv));
    CHECK(count.text().find("kv_heads_weights: expected a list of 1 key/value heads") != std::string::npos);
    const std::string ownKey = R"("heads_weights": [{"W_Q": [[1], [0]], "W_K": [[1], [0]]}, {"W_Q": [[0], [1]]}, )"
                               R"({"W_Q": [[1], [1]]}, {"W_Q": [[2], [0]]}])";
    const Error stray = parseError(gqaLesson(R"("kv_heads": 2, )", ownKey + kTwoKv));
    CHECK(stray.where == "gqa.json: heads_weights[0].W_K");
    const std::string ownHeads = R"("heads_weights": [{"W_Q": [[1], [0]], "W_K": [[1], [0]], "W_V": [[1], [0]]}, )"
                                 R"({"W_Q": [[1], [0]], "W_K": [[1], [0]], "W_V": [[1], [0]]}, )"
                                 R"({"W_Q": [[1], [0]], "W_K": [[1], [0]], "W_V": [[1], [0]]}, )"
                                 R"({"W_Q": [[1], [0]], "W_K": [[1], [0]], "W_V": [[1], [0]]}])";
    const Error unshared = parseError(gqaLesson(R"("kv_heads": 4, )", ownHeads + kTwoKv));
    CHECK(unshared.where == "gqa.json: kv_heads_weights");
}

TEST_CASE("query head h reads key/value head h / (H / H_kv) of a hand-made lesson", "[gqa][lesson]") {
    auto lesson = parseLesson(gqaLesson(R"("kv_heads": 2, )", kFourQueries + kTwoKv), "gqa.json");
    INFO((lesson.ok() ? std::string() : lesson.error().text()));
    REQUIRE(lesson.ok());
    RunSettings exact;
    exact.exact = true;
    auto trace = runLesson(lesson.value(), "a b", exact);
    REQUIRE(trace.ok());
    const LayerTrace& layer = trace.value().layers[0];
    // X = I (a, b). Key/value head 1: K = [1, 0]ᵀ, V = [0, 1]ᵀ; head 2: K = [0, 1]ᵀ, V = [1, 0]ᵀ.
    // Query head 4 (W_Q = [2, 0]ᵀ, q = [2, 0]ᵀ) reads head 2: scores [[0, 2], [0, 0]] (÷√1),
    // row a: softmax [0, 2] = [1, e²]/(1 + e²) → weighted sum e²·0/(1 + e²) + 1/(1 + e²) = 0.119203.
    CHECK(layer.heads[3].scores(0, 0) == 0);
    CHECK(layer.heads[3].scores(0, 1) == 2);
    CHECK(layer.heads[3].scores(1, 0) == 0);
    CHECK(layer.heads[3].weightedSum(0, 0) == Approx(1 / (1 + std::exp(2.0))).epsilon(1e-12));
    // Query head 1 (q = [1, 0]ᵀ) reads head 1: scores row a [1, 0], V = [0, 1]: e⁰/(e + 1) = 0.268941.
    CHECK(layer.heads[0].weightedSum(0, 0) == Approx(1 / (std::exp(1.0) + 1)).epsilon(1e-12));
}

TEST_CASE("a lesson with kv_heads is written as version 7 and reads back identically", "[gqa][lesson]") {
    const Lesson lesson = testing::builtInLesson("grouped-query");
    const std::string written = serializeLesson(lesson);
    CHECK(written.find("\"version\": 7") != std::string::npos);
    CHECK(written.find("\"kv_heads\": 2") != std::string::npos);
    auto again = parseLesson(written, "written");
    REQUIRE(again.ok());
    CHECK(serializeLesson(again.value()) == written);
    requireSameHeads(testing::runBuiltInLesson("grouped-query"), runLesson(again.value(), lesson.sentence).value());
    // A lesson without shared heads keeps the older version it needs (two-heads: 3).
    CHECK(serializeLesson(testing::builtInLesson("two-heads")).find("\"version\": 3") != std::string::npos);
}

TEST_CASE("ungrouping repeats the shared K and V (repeat_kv) and changes no number", "[gqa][lesson_edit]") {
    const Lesson grouped = testing::builtInLesson("grouped-query");
    CHECK(dimensionsOf(grouped).numKvHeads == 2);
    auto own = withKvHeads(grouped, 4);  // one per head: multi-head attention
    REQUIRE(own.ok());
    CHECK_FALSE(own.value().sharesKeyValues());
    CHECK(own.value().layers[0].heads[1].wk == grouped.layers[0].kvHeads[0].wk);
    CHECK(own.value().layers[0].heads[3].wv == grouped.layers[0].kvHeads[1].wv);
    const Trace a = testing::runBuiltInLesson("grouped-query");
    const Trace b = runLesson(own.value(), grouped.sentence).value();
    requireSameHeads(a, b);
    CHECK(b.layers[0].kvHeadOf.empty());
}

TEST_CASE("multi-query: every head reads the K and V of query head 1", "[gqa][lesson_edit]") {
    const Lesson grouped = testing::builtInLesson("grouped-query");
    auto mqa = withKvHeads(grouped, 1);
    REQUIRE(mqa.ok());
    REQUIRE(mqa.value().layers[0].kvHeads.size() == 1);
    CHECK(mqa.value().layers[0].kvHeads[0].wk == grouped.layers[0].kvHeads[0].wk);  // K₁ of head 1
    const Trace t = runLesson(mqa.value(), grouped.sentence).value();
    CHECK(t.layers[0].kvHeadOf == std::vector<int>{0, 0, 0, 0});
    Mat k1(3, 2);
    k1 << 1, 0, 0, 1, 1, 1;  // as in the grouped-query test above
    CHECK(t.layers[0].heads[3].k == k1);
    CHECK(kvSharingText(t, 0, 3, Language::English) == "K/V head 1, shared by query heads 1–4");
    // The editor's W_K of key/value head 1 is the one matrix all four read.
    Lesson edited = mqa.value();
    Mat* wk = lessonMatrix(edited, {LessonMatrixKind::WK, 0, 0});
    REQUIRE(wk != nullptr);
    CHECK(wk == &edited.layers[0].kvHeads[0].wk);
    CHECK(lessonMatrix(edited, {LessonMatrixKind::WK, 0, 1}) == nullptr);  // there is no key/value head 2
    CHECK(lessonMatrix(edited, {LessonMatrixKind::WQ, 0, 3}) == &edited.layers[0].heads[3].wq);
}

TEST_CASE("an H_kv that does not divide H is refused", "[gqa][lesson_edit]") {
    const Lesson grouped = testing::builtInLesson("grouped-query");
    auto bad = withKvHeads(grouped, 3);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().text() == "kv_heads: expected a number of key/value heads that divides heads = 4, found 3");
    LessonDimensions dims = dimensionsOf(grouped);
    dims.numHeads = 3;  // 2 key/value heads cannot serve 3 query heads
    CHECK_FALSE(resizeLesson(grouped, dims).ok());
    dims.numHeads = 6;  // but 6: three query heads per key/value head
    auto six = resizeLesson(grouped, dims);
    REQUIRE(six.ok());
    CHECK(runLesson(six.value(), "the cat").value().layers[0].kvHeadOf == std::vector<int>{0, 0, 0, 1, 1, 1});
}

TEST_CASE("New lesson can share key/value heads", "[gqa][lesson_edit]") {
    NewLessonSpec spec;
    spec.words = "a b";
    spec.numHeads = 4;
    spec.dK = 2;
    spec.numKvHeads = 2;
    auto lesson = newLesson(spec);
    REQUIRE(lesson.ok());
    CHECK(lesson.value().kvHeadCount() == 2);
    CHECK(lesson.value().layers[0].kvHeads.size() == 2);
    CHECK(lesson.value().layers[0].kvHeads[1].wv == Mat::Zero(4, 2));
    CHECK(lesson.value().layers[0].heads[0].wk.size() == 0);
    spec.numKvHeads = 3;
    auto bad = newLesson(spec);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().where == "kv_heads");
}
