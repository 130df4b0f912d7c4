// What sharing keys and values costs (issue 29 §3), for the lessons as Lab ▸ Multi-head shows it:
// the parameters of W_Q, W_K, W_V (and W_O) and the K/V cache per token for H_kv = H, H/2 and 1,
// worked by hand in the comments.
#include <catch2/catch.hpp>

#include <string>

#include "builtin_lesson.hpp"
#include "core/export/export.hpp"
#include "core/lab/exercise.hpp"
#include "core/lab/multi_head_lab.hpp"
#include "core/lab/worksheet.hpp"
#include "core/trace/kv_cost.hpp"

using namespace attnscope;
using attnscope::testing::builtInLesson;
using attnscope::testing::runBuiltInLesson;

TEST_CASE("lesson 13's counts: d = 4, H = 4, d_k = d_v = 2, no W_O", "[gqa][kv_cost]") {
    const Trace trace = runBuiltInLesson("grouped-query");
    const AttentionWidths w = attentionWidths(trace, 0);
    CHECK(w.d == 4);
    CHECK(w.heads == 4);
    CHECK(w.dK == 2);
    CHECK(w.dV == 2);
    CHECK(w.outputWidth == 0);  // the lesson has no W_O: the concat is the output
    CHECK(kvHeadCount(trace.layers[0]) == 2);
    // W_Q: d·H·d_k = 4·4·2 = 32; W_K and W_V: d·H_kv·(d_k + d_v) = 4·H_kv·4 = 16·H_kv.
    // H_kv = 4: 32 + 64 = 96, cache 4·(2 + 2) = 16; H_kv = 2: 32 + 32 = 64, cache 8; H_kv = 1: 32 + 16 = 48, cache 4
    // (the lesson's text: "8 numbers per token instead of 16").
    const long long parameters[] = {96, 64, 48}, cache[] = {16, 8, 4};
    const std::vector<int> choices = kvHeadChoices(4);
    REQUIRE(choices == std::vector<int>{4, 2, 1});
    for (std::size_t i = 0; i < choices.size(); ++i) {
        const KeyValueCost cost = keyValueCost(w, choices[i]);
        CHECK(cost.kvHeads == choices[i]);
        CHECK(cost.parameters == parameters[i]);
        CHECK(cost.kvPerToken == cache[i]);
    }
}

TEST_CASE("the lines --print and the worksheets show, worked out, in English and Chinese", "[gqa][kv_cost]") {
    const Trace trace = runBuiltInLesson("grouped-query");
    const auto english = keyValueCostLines(trace, Language::English);
    REQUIRE(english.size() == 4);  // the formula, then H_kv = 4, 2, 1
    CHECK(english[0].find("4 query heads read 2 key/value heads") != std::string::npos);
    CHECK(english[0].find("(W_O)") == std::string::npos);
    CHECK(english[1] == "H_kv = 4 (multi-head): 4·4·2 + 4·4·(2 + 2) = 96 parameters; K/V cache 4·(2 + 2) = 16 numbers per token");
    CHECK(english[2] == "H_kv = 2 (grouped-query): 4·4·2 + 4·2·(2 + 2) = 64 parameters; K/V cache 2·(2 + 2) = 8 numbers "
                        "per token  ← this run");
    CHECK(english[3] == "H_kv = 1 (multi-query): 4·4·2 + 4·1·(2 + 2) = 48 parameters; K/V cache 1·(2 + 2) = 4 numbers per token");
    const auto chinese = keyValueCostLines(trace, Language::Chinese);
    REQUIRE(chinese.size() == 4);
    CHECK(chinese[2] == "H_kv = 2（分组查询）：4·4·2 + 4·2·(2 + 2) = 64 个参数；K/V 缓存每个词元 2·(2 + 2) = 8 个数  ← 本次运行");

    ExportRequest request;
    const std::string text = exportTrace(trace, ExportFormat::Text, request);
    CHECK(text.find("\n  H_kv = 1 (multi-query): 4·4·2 + 4·1·(2 + 2) = 48 parameters") != std::string::npos);
    const std::string markdown = exportTrace(trace, ExportFormat::Markdown, request);
    CHECK(markdown.find("\n- H_kv = 4 (multi-head): 4·4·2 + 4·4·(2 + 2) = 96 parameters") != std::string::npos);

    const auto exercise = makeExercise(trace, ExerciseSpec{Step::Weights, 0, 1});
    REQUIRE(exercise.ok());
    const auto sheet = exerciseWorksheet(trace, exercise.value(), WorksheetFormat::Markdown, "GQA");
    REQUIRE(sheet.ok());
    CHECK(sheet.value().questions.find("= 64 parameters") != std::string::npos);
}

TEST_CASE("with W_O the count adds H·d_v·d, a run without shared keys shows no lines", "[gqa][kv_cost]") {
    // The lab's H = 4 heads over d = 8 (d_k = d_v = 2, W_O 8×8), H_kv = 2:
    // W_Q 8·4·2 = 64, W_K + W_V 8·2·(2 + 2) = 64, W_O 4·2·8 = 64: 192, cache 2·4 = 8, as the lab's table.
    const KeyValueCost cost = keyValueCost(AttentionWidths{8, 4, 2, 2, 8}, 2);
    CHECK(cost.parameters == 192);
    CHECK(cost.kvPerToken == 8);
    CHECK(keyValueSharing(8, 4, 2).value().parameters == 192);
    CHECK(keyValueCostLines(runBuiltInLesson("two-heads"), Language::English).empty());
}
