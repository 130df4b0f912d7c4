// Cell explanations, notices and printed traces in Chinese (issue 12): the words come from core's
// catalogue, the numbers are the English explanation's, digit for digit.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>

#include "core/export/export.hpp"
#include "core/export/model_export.hpp"
#include "core/lab/exercise.hpp"
#include "core/lab/multi_head_lab.hpp"
#include "core/lab/worksheet.hpp"
#include "core/lesson/lesson.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/text/messages.hpp"
#include "core/trace/explain.hpp"

using namespace attnscope;

namespace {

Lesson lessonFile(const std::string& name) {
    std::ifstream in(std::string(ATTNSCOPE_SOURCE_DIR) + "/resources/lessons/" + name + ".json");
    std::ostringstream s;
    s << in.rdbuf();
    auto lesson = parseLesson(s.str(), name);
    INFO((lesson.ok() ? "" : lesson.error().text()));
    REQUIRE(lesson.ok());
    return lesson.value();
}

// Every number of a line ("1.00", "−∞", "3"), sorted: Chinese may put them in another order.
std::vector<std::string> numbersOf(const std::string& line) {
    static const std::regex number(R"(−∞|\+∞|NaN|-?[0-9]+(\.[0-9]+)?)");
    std::vector<std::string> found;
    for (auto it = std::sregex_iterator(line.begin(), line.end(), number); it != std::sregex_iterator(); ++it)
        found.push_back(it->str());
    std::sort(found.begin(), found.end());
    return found;
}

bool hasChinese(const std::string& text) {  // a UTF-8 lead byte of U+4E00…U+9FFF (E4–E9)
    return std::any_of(text.begin(), text.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u >= 0xE4 && u <= 0xE9;
    });
}

// Words of the English explanations that no built-in lesson uses as a token.
bool hasEnglishWords(const std::string& text) {
    static const std::regex words(R"(\b(query|key|value|sum|layer|head|hidden|visible|row|column|weight|token|position|bias|looked|residual|exponentials)\b)");
    return std::regex_search(text, words);
}

// The same cell explained in English and in Chinese: as many lines, the same numbers in each.
void checkSameNumbers(const Trace& trace, const CellRef& cell) {
    const auto english = explainCell(trace, cell, 4, Language::English);
    const auto chinese = explainCell(trace, cell, 4, Language::Chinese);
    REQUIRE(english.ok());
    REQUIRE(chinese.ok());
    REQUIRE(chinese.value().lines.size() == english.value().lines.size());
    CHECK(chinese.value().value == english.value().value);
    for (std::size_t i = 0; i < english.value().lines.size(); ++i) {
        const std::string& en = english.value().lines[i];
        const std::string& zh = chinese.value().lines[i];
        INFO(en << "\n" << zh);
        CHECK(numbersOf(zh) == numbersOf(en));
        CHECK_FALSE(hasEnglishWords(zh));
    }
    CHECK(hasChinese(chinese.value().lines[0]));  // the title
    CHECK(hasChinese(chinese.value().lines.back()));  // "值 = …" or "手算舍入到 …"
}

}  // namespace

TEST_CASE("a score's explanation in Chinese: Chinese words, the English explanation's numbers", "[explain][i18n]") {
    const auto trace = runLesson(lessonFile("first-hand-exercise"), "cats chase mice").value();
    const CellRef cell{Step::Scores, 0, 0, 0, 2};  // S[cats, mice] = 1·1 + 0·1 + 1·0 + 0·1 + 0·0 = 1
    const auto zh = explainCell(trace, cell, 2, Language::Chinese).value();
    const auto en = explainCell(trace, cell, 2).value();
    REQUIRE(zh.lines.size() == 9);  // title, rule, 5 products, sum, value
    CHECK(en.lines[1] == "S[i,j] = q_i · k_j = Σ_c Q[i,c] · K[j,c]  (how well cats's query matches mice's key)");
    CHECK(en.lines[0] == "Scores S = Q·Kᵀ: S[cats, mice]");
    CHECK(zh.lines[0] == "分数 S = Q·Kᵀ：S[cats, mice]");
    CHECK(zh.lines[1] == "S[i,j] = q_i · k_j = Σ_c Q[i,c] · K[j,c]  （cats 的查询与 mice 的键有多匹配）");
    CHECK(zh.lines[2] == en.lines[2]);  // a product is symbols and numbers only
    CHECK(zh.lines[2] == "  q[cats,1]·k[mice,1] = 1 × 1 = 1");  // whole numbers print as written
    CHECK(zh.lines[7] == "和 = 1");
    CHECK(zh.lines[8] == "值 = 1");
    CHECK(zh.terms.size() == en.terms.size());
    CHECK(zh.termsTotal == en.termsTotal);
    CHECK(zh.sources == en.sources);
}

TEST_CASE("a softmax and a masked cell explained in Chinese", "[explain][i18n]") {
    const auto first = runLesson(lessonFile("first-hand-exercise"), "cats chase mice").value();
    // row "mice" of S = [1, 0, 3]: exps e^−2, e^−3, 1; sum 1.18512235; A[mice, mice] = 0.84379473
    const auto w = explainCell(first, CellRef{Step::Weights, 0, 0, 2, 2}, 8, Language::Chinese).value();
    CHECK(w.lines[1] == "A[i,j] = exp(s_ij − max) / Σ_j' exp(s_ij' − max)，先减去行最大值 3，使指数不会溢出");
    CHECK(w.lines[2] == "  cats 的 exp(1 − 3) = 0.13533528");  // whole numbers as written
    CHECK(w.lines[5] == "指数之和 = 1.18512235");
    CHECK(w.lines[6] == "A = 1 / 1.18512235 = 0.84379473");
    CHECK(w.lines[7] == "A[i,j] = e^s_ij / Σ_j' e^s_ij'");  // the textbook form: symbols, no words
    CHECK(w.lines[8] == "  A = e³ / (e¹ + e⁰ + e³)");
    const auto causal = runLesson(lessonFile("causal-mask"), "the cat saw the dog").value();
    const auto hidden = explainCell(causal, CellRef{Step::Mask, 0, 0, 1, 2}, 2, Language::Chinese).value();
    CHECK(hidden.rule == "saw 在 cat 之后：屏蔽（−∞，因此其权重为 0）");
    const auto shown = explainCell(causal, CellRef{Step::Mask, 0, 0, 2, 1}, 2, Language::Chinese).value();
    CHECK(shown.rule == "cat 在 saw 处或之前：可见（加 0）");
}

TEST_CASE("every cell of every built-in lesson: the Chinese explanation has the English one's numbers", "[explain][i18n]") {
    for (const char* name : {"first-hand-exercise", "two-heads", "coreference", "causal-mask", "two-layers", "rope", "rope-zh", "whole-block", "whole-block-zh", "grouped-query"}) {
        INFO(name);
        const Lesson lesson = lessonFile(name);
        const auto trace = runLesson(lesson, lesson.sentence).value();
        for (int layer = 0; layer < trace.layerCount(); ++layer)
            for (const Step step : stepsOf(trace, layer))
                for (int h = 0; h < (isPerHead(step) ? trace.headCount() : 1); ++h) {
                    INFO(stepKey(step) << " layer " << layer << " head " << h);
                    const GridRef m = stepMatrix(trace, step, layer, h);
                    checkSameNumbers(trace, CellRef{step, layer, h, 0, 0});
                    checkSameNumbers(trace, CellRef{step, layer, h, static_cast<int>(m.rows()) - 1,
                                                    static_cast<int>(m.cols()) - 1});
                }
    }
}

TEST_CASE("notices are data, each reader renders them in its language", "[notices][i18n]") {
    RunSettings settings;
    settings.ablate = {HeadRef{0, 1}};
    const auto trace = runLesson(lessonFile("two-heads"), lessonFile("two-heads").sentence, settings).value();
    REQUIRE(trace.notices.size() == 1);
    CHECK(trace.notices[0] == Notice{MessageId::NoticeAblation, {"1:2"}});
    CHECK(noticeText(trace.notices[0], Language::English) ==
          "heads switched off (layer:head): 1:2; their weights are shown as computed, their output is zero");
    CHECK(noticeText(trace.notices[0], Language::Chinese) == "已关闭的头（层:头）：1:2；其注意力权重按计算结果显示，输出为零");
    // Where the softmax met a row: "layer 2, head 1: …".
    const Notice inHead{MessageId::NoticeRowMasked, {"dog"}, 1, 0};
    CHECK(noticeText(inHead, Language::English) == "layer 2, head 1: every score of \"dog\" is masked: it attends to nothing (weights 0)");
    CHECK(noticeText(inHead, Language::Chinese) == "第 2 层，第 1 头：“dog”的每个分数都被掩码：它不关注任何词元（权重为 0）");
}

TEST_CASE("a printed trace in Chinese: step titles, notices and explanations, JSON stays English", "[export][i18n]") {
    RunSettings settings;
    settings.ablate = {HeadRef{0, 0}};
    const auto trace = runLesson(lessonFile("first-hand-exercise"), "cats chase mice", settings).value();
    ExportRequest request;
    request.step = Step::Scores;
    request.explain = true;
    request.decimals = 2;
    const std::string english = exportTrace(trace, ExportFormat::Text, request);
    request.language = Language::Chinese;
    const std::string chinese = exportTrace(trace, ExportFormat::Text, request);
    CHECK(english.find("== Scores S = Q·Kᵀ ==") != std::string::npos);
    CHECK(english.find("notice: heads switched off (layer:head): 1:1") != std::string::npos);
    CHECK(chinese.find("== 分数 S = Q·Kᵀ ==") != std::string::npos);
    CHECK(chinese.find("提示：已关闭的头（层:头）：1:1") != std::string::npos);
    CHECK(chinese.find("（cats 的查询与 mice 的键有多匹配）") != std::string::npos);
    CHECK(chinese.find("how well") == std::string::npos);
    CHECK(numbersOf(chinese) == numbersOf(english));
    const std::string json = exportTrace(trace, ExportFormat::Json, request);
    CHECK(json.find("heads switched off (layer:head): 1:1") != std::string::npos);
    CHECK_FALSE(hasChinese(json));
}

TEST_CASE("a Chinese worksheet's answer key explains each blank in Chinese", "[lab][i18n]") {
    const auto trace = runLesson(lessonFile("first-hand-exercise"), "cats chase mice").value();
    ExerciseSpec spec;
    spec.hide = HideKind::OneRow;
    spec.decimals = 4;
    const auto exercise = makeExercise(trace, spec);
    REQUIRE(exercise.ok());
    const auto sheet = exerciseWorksheet(trace, exercise.value(), WorksheetFormat::Markdown, "第一课", chineseWorksheetPhrases());
    REQUIRE(sheet.ok());
    const std::string& answers = sheet.value().answers;
    // Row "cats" of the weights: softmax(2, 1, 1); e² + 2e = 12.8256 shifted by the maximum 2: 1 + 2/e = 1.7358.
    CHECK(answers.find("## 注意力权重 A = softmax（按行）") != std::string::npos);
    CHECK(answers.find("指数之和 = 1.7358") != std::string::npos);
    CHECK(answers.find("值 = 0.5761") != std::string::npos);
    CHECK(answers.find("sum of exponentials") == std::string::npos);
    // The English phrases are the catalogue's too.
    const WorksheetPhrases english = worksheetPhrases(Language::English), defaults;
    CHECK(english.tokens == defaults.tokens);
    CHECK(english.decimals == defaults.decimals);
    CHECK(english.howComputed == defaults.howComputed);
    CHECK(chineseWorksheetPhrases().decimals == "每个答案保留 {n} 位小数。");
}

TEST_CASE("the multi-head lab's shapes in Chinese: the same shapes, the heads in Chinese words", "[lab][i18n]") {
    const std::string english = multiHeadShapes(3, 12, 4), chinese = multiHeadShapes(3, 12, 4, Language::Chinese);
    CHECK(english.find("(each of 4 heads)") != std::string::npos);
    CHECK(chinese.find("（4 个头各一份）") != std::string::npos);
    CHECK(chinese.find("each of") == std::string::npos);
    CHECK(numbersOf(chinese) == numbersOf(english));
    CHECK(multiHeadShapes(3, 12, 1, Language::Chinese).find("（1 个头）") != std::string::npos);
}

TEST_CASE("a model's predictions printed in Chinese: the same tokens and probabilities", "[export][i18n]") {
    ModelRun run;
    run.trace.tokens = {Token{"the"}, Token{"[MASK]"}, Token{"sat"}};
    run.predictions = {Prediction{1, {TokenScore{7, 0.5f, 2.f}, TokenScore{9, 0.25f, 1.f}}, {}}};
    const TokenLabeler label = [](int id) { return id == 7 ? std::string("cat") : std::string("dog"); };
    CHECK(predictionsToText(run, ModelFamily::Bert, label, 2) == "[MASK] at position 2: cat 0.50, dog 0.25\n");
    CHECK(predictionsToText(run, ModelFamily::Bert, label, 2, Language::Chinese) == "位置 2 的 [MASK]: cat 0.50, dog 0.25\n");
    CHECK(predictionsToText(run, ModelFamily::Gpt2, label, 2, Language::Chinese) ==
          "位置 2（[MASK]）之后的下一个词元: cat 0.50, dog 0.25\n");
}
