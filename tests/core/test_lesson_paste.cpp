// Tables pasted from a blog or a textbook (core/lesson/lesson_paste): every form a teacher meets,
// the numbers they land on, and the line named when one cannot be read.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/lesson/lesson.hpp"
#include "core/lesson/lesson_paste.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/text/error_messages.hpp"

using namespace attnscope;

namespace {

// d_model 5, no projections, no scaling: the blog exercise's shape (scores = X·Xᵀ).
const char* kBlank = R"({"format": "attnscope-lesson", "version": 1, "title": "笔记本", "sentence": "笔记本",
  "d_model": 5, "projections": false, "scale": false, "embeddings": {"笔": [0, 0, 0, 0, 0]}})";

// d_model 2, one head, d_k 2, d_v 1: weight matrices to paste into.
const char* kWeights = R"({"format": "attnscope-lesson", "version": 1, "title": "w", "sentence": "a",
  "d_model": 2, "heads": 1, "d_k": 2, "d_v": 1, "embeddings": {"a": [1, 2]},
  "heads_weights": [{"W_Q": [[1, 2], [3, 4]], "W_K": [[5, 6], [7, 8]], "W_V": [[9], [10]]}]})";

Lesson parsed(const char* json) {
    auto lesson = parseLesson(json, "paste.json");
    REQUIRE(lesson.ok());
    return lesson.value();
}

const ErrorText kSource = errorText(ErrorId::WhereText);

Result<Lesson> paste(const Lesson& lesson, const std::string& text, LessonMatrixRef selected = {}) {
    auto blocks = parsePastedTable(text, kSource);
    if (!blocks) return blocks.error();
    return pasteIntoLesson(lesson, blocks.value(), selected, kSource);
}

std::vector<double> row(const Lesson& lesson, const std::string& word) {
    const RowVec* v = lesson.findEmbedding(word);
    REQUIRE(v);
    return {v->data(), v->data() + v->size()};
}

std::string failure(const Lesson& lesson, const std::string& text, LessonMatrixRef selected = {}) {
    auto result = paste(lesson, text, selected);
    REQUIRE_FALSE(result.ok());
    return result.error().text();
}

}  // namespace

TEST_CASE("the blog's lines become the embedding table and the run is the blog's", "[lesson][paste]") {
    // 笔 was in the table (zeros): its row is replaced; 记 and 本 are added after it, in order.
    const auto lesson = paste(parsed(kBlank), "笔=[1,2,1,2,1]\n\"记\": [1, 1, 1, 2, 1],\n本 1 3 2 3 1\n");
    REQUIRE(lesson.ok());
    CHECK(lesson.value().embeddings.size() == 3);
    CHECK(lesson.value().embeddings[1].first == "记");
    CHECK(row(lesson.value(), "笔") == std::vector<double>{1, 2, 1, 2, 1});
    CHECK(row(lesson.value(), "记") == std::vector<double>{1, 1, 1, 2, 1});
    CHECK(row(lesson.value(), "本") == std::vector<double>{1, 3, 2, 3, 1});
    // Scores of 笔 (Q = K = X, no scaling): 笔·笔 = 1+4+1+4+1 = 11, 笔·记 = 1+2+1+4+1 = 9,
    // 笔·本 = 1+6+2+6+1 = 16. Softmax: e⁹ / (e¹¹ + e⁹ + e¹⁶) = 8103.0839 / 8954087.7462 = 0.00090496.
    const auto trace = runLesson(lesson.value(), "笔记本");
    REQUIRE(trace.ok());
    const HeadTrace& head = trace.value().layers[0].heads[0];
    CHECK(head.scores(0, 0) == 11);
    CHECK(head.scores(0, 1) == 9);
    CHECK(head.scores(0, 2) == 16);
    CHECK(head.weights(0, 1) == Approx(0.0009049591825877).epsilon(1e-12));
    CHECK(head.weights(0, 2) == Approx(0.9924082466500291).epsilon(1e-12));
}

TEST_CASE("Markdown and tab-separated tables: the header and the rule are skipped", "[lesson][paste]") {
    const std::string markdown = "| 字 | a | b | c | d | e |\n|:---|---:|---|---|---|---|\n| 笔 | 1 | 2 | 1 | 2 | 1 |\n"
                                 "| 记 | 1 | 1 | 1 | 2 | −1 |\n";
    const auto md = paste(parsed(kBlank), markdown);
    REQUIRE(md.ok());
    CHECK(row(md.value(), "记") == std::vector<double>{1, 1, 1, 2, -1});  // the minus sign U+2212 reads as -
    const auto tsv = paste(parsed(kBlank), "word\tf1\tf2\tf3\tf4\tf5\n笔\t0.5\t0\t0\t0\t2.25\r\n");
    REQUIRE(tsv.ok());
    CHECK(row(tsv.value(), "笔") == std::vector<double>{0.5, 0, 0, 0, 2.25});
}

TEST_CASE("a named weight matrix, or bare rows into the selected one", "[lesson][paste]") {
    const Lesson lesson = parsed(kWeights);
    const auto named = paste(lesson, "W_Q =\n[1, 0]\n[0, 1]\nW_V = [[2], [3]]\n");
    REQUIRE(named.ok());
    const HeadWeights& w = named.value().layers[0].heads[0];
    CHECK(w.wq(0, 0) == 1);
    CHECK(w.wq(0, 1) == 0);
    CHECK(w.wq(1, 1) == 1);
    CHECK(w.wk(1, 1) == 8);  // untouched
    CHECK(w.wv(0, 0) == 2);
    CHECK(w.wv(1, 0) == 3);
    const auto bare = paste(lesson, "| -1 | 2 |\n| 3 | 0.5 |\n", {LessonMatrixKind::WK, 0, 0});
    REQUIRE(bare.ok());
    CHECK(bare.value().layers[0].heads[0].wk(0, 0) == -1);
    CHECK(bare.value().layers[0].heads[0].wk(1, 1) == 0.5);
}

TEST_CASE("what cannot be read is named with its line, and nothing changes", "[lesson][paste][errors]") {
    const Lesson blank = parsed(kBlank);
    CHECK(failure(blank, "笔=[1,2,1,2,1]\n记=[1,1,x,2,1]\n") == "text: line 2: expected a number, found the text \"x\"");
    CHECK(failure(blank, "笔=[1,2,1,2,1]\n\n记=[1,1,1,2]\n") == "text: line 3: expected 5 numbers, found 4 (d_model)");
    CHECK(failure(blank, "笔 =\n") == "text: line 1: 笔: expected a list of numbers, found nothing");
    CHECK(failure(blank, "\n  \n") == "text: expected a list of numbers, found nothing");
    CHECK(failure(blank, "1 2 1 2 1\n") == "text: line 1: expected a word, found the number 1");
    CHECK(failure(blank, "two words=[1,2,1,2,1]\n").rfind("text: line 1: \"two words\" is read as 2 token(s)", 0) == 0);
    CHECK(failure(blank, "W_Q = [[1, 0]]\n") == "text: line 1: W_Q: is missing");
    const Lesson weights = parsed(kWeights);
    CHECK(failure(weights, "W_K:\n1 2\n") == "text: line 1: expected 2 rows, found 1 (W_K)");
    CHECK(failure(weights, "W_K:\n1 2\n3 4 5\n") == "text: line 3: expected 2 numbers, found 3 (W_K)");
    CHECK(failure(weights, "1 2\ncat 3\n", {LessonMatrixKind::WK, 0, 0}) == "text: line 2: expected a number, found the text \"cat\"");
    // The same in Chinese, a space between Han characters and numbers.
    auto chinese = paste(blank, "笔=[1,2,1,2,1]\n记=[1,1,1,2]\n");
    REQUIRE_FALSE(chinese.ok());
    CHECK(chinese.error().textIn(Language::Chinese) == "文本: 第 2 行: 应为 5 个数，实际为 4（d_model）");
}
