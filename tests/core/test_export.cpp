// Exports: the printed numbers, the CSV layout, the Markdown worksheet and the JSON schema.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/export/export.hpp"
#include "core/lesson/lesson.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/text/message_id.hpp"

using namespace attnscope;

namespace {

Trace firstLessonTrace(std::optional<int> rounding = std::nullopt) {
    std::ifstream in(std::string(ATTNSCOPE_SOURCE_DIR) + "/resources/lessons/first-hand-exercise.json");
    std::ostringstream s;
    s << in.rdbuf();
    const Lesson lesson = parseLesson(s.str(), "first").value();
    return runLesson(lesson, "cats chase mice", RunSettings{rounding, !rounding}).value();
}

}  // namespace

TEST_CASE("text export aligns a labelled matrix", "[export]") {
    const std::string text = exportTrace(firstLessonTrace(), ExportFormat::Text,
                                         ExportRequest{Step::Scores, std::nullopt, 1, false, std::nullopt});
    // S = [[2,1,1],[1,2,0],[1,0,3]] (dot products of the three embeddings)
    CHECK(text == "tokens: cats | chase | mice\n"
                  "\n== Scores S = Q·Kᵀ ==\n"
                  "       cats  chase  mice\n"
                  "cats      2      1     1\n"  // integers as the lesson writes them
                  "chase     1      2     0\n"
                  "mice      1      0     3\n");
}

TEST_CASE("the printed token line names repeated tokens apart, as the table headers do", "[export]") {
    // "mice chase mice": mice is the 1st and the 3rd token. S = [[3,0,3],[0,2,0],[3,0,3]]
    // (lesson 1: mice = (1,1,0,1,0), chase = (0,0,1,0,1); mice·mice = 3, chase·chase = 2, mice·chase = 0).
    std::ifstream in(std::string(ATTNSCOPE_SOURCE_DIR) + "/resources/lessons/first-hand-exercise.json");
    std::ostringstream s;
    s << in.rdbuf();
    const Trace trace = runLesson(parseLesson(s.str(), "first").value(), "mice chase mice").value();
    const std::string text = exportTrace(trace, ExportFormat::Text, ExportRequest{Step::Scores, std::nullopt, 1, false, std::nullopt});
    CHECK(text.rfind("tokens: mice#1 | chase | mice#3\n", 0) == 0);
    CHECK(text.find("mice#3       3      0       3\n") != std::string::npos);
}

TEST_CASE("the heads a print reads: --head, --heads, both, or every head", "[export]") {
    ExportRequest request;
    CHECK(headsPrinted(request, 4) == std::vector<bool>{true, true, true, true});
    request.selection.heads = {0, 3};
    CHECK(headsPrinted(request, 4) == std::vector<bool>{true, false, false, true});
    request.head = 3;  // and --head 4 of those
    CHECK(headsPrinted(request, 4) == std::vector<bool>{false, false, false, true});
    request.selection.heads.clear();
    request.head = 1;
    CHECK(headsPrinted(request, 4) == std::vector<bool>{false, true, false, false});
}

TEST_CASE("csv export is one tidy row per cell", "[export]") {
    const std::string csv = exportTrace(firstLessonTrace(), ExportFormat::Csv,
                                        ExportRequest{Step::Weights, 0, 4, false, std::nullopt});
    std::istringstream lines(csv);
    std::string header, first;
    std::getline(lines, header);
    std::getline(lines, first);
    CHECK(header == "step,layer,head,row,row_label,col,col_label,value");
    CHECK(first == "weights,1,1,1,cats,1,cats,0.5761");  // e^0 / (1 + 2e^−1) = 0.57611688
    CHECK(csv.find("weights,1,1,3,mice,3,mice,0.8438\n") != std::string::npos);
}

TEST_CASE("markdown worksheet includes explanations on request", "[export]") {
    const std::string md = exportTrace(firstLessonTrace(), ExportFormat::Markdown,
                                       ExportRequest{Step::Scores, std::nullopt, 0, true, std::nullopt});
    CHECK(md.find("| **cats** | 2 | 1 | 1 |") != std::string::npos);
    CHECK(md.find("q[mice,1]·k[mice,1] = 1 × 1 = 1") != std::string::npos);
}

TEST_CASE("json export holds the whole trace under the versioned schema", "[export][json]") {
    const auto doc = nlohmann::json::parse(traceToJson(firstLessonTrace()));
    CHECK(doc["format"] == "attnscope-trace");
    CHECK(doc["version"] == 2);
    CHECK(doc["tokens"] == nlohmann::json({"cats", "chase", "mice"}));
    const auto& head = doc["layers"][0]["heads"][0];
    for (const char* key : {"q", "k", "v", "scores", "scaled_scores", "weights", "output"}) {
        INFO(key);
        CHECK(head[key].size() == 3);
    }
    CHECK(head["scores"][2][2] == 3.0);
    CHECK(head["weights"][2][2].get<double>() == Approx(0.84379473).margin(1e-8));
    CHECK(doc["layers"][0]["concat"].size() == 3);
    CHECK(doc["layers"][0]["output"][0].size() == 5);
}

TEST_CASE("json export writes infinities as strings", "[export][json]") {
    Trace trace = firstLessonTrace();
    trace.layers[0].heads[0].maskedScores(0, 1) = -std::numeric_limits<double>::infinity();
    const auto doc = nlohmann::json::parse(traceToJson(trace));
    CHECK(doc["layers"][0]["heads"][0]["masked_scores"][0][1] == "-inf");
}

TEST_CASE("format names", "[export]") {
    CHECK(exportFormatFromName("markdown") == ExportFormat::Markdown);
    CHECK(exportFormatFromName("csv") == ExportFormat::Csv);
    CHECK_FALSE(exportFormatFromName("xml"));
}

TEST_CASE("text and Markdown exports label tokens, hand rounding and notices in the reader's language", "[export][i18n]") {
    Trace trace = firstLessonTrace(2);
    trace.notices.push_back(Notice{MessageId::NoticeDecoderTied, {}});
    ExportRequest request;
    request.step = Step::Scores;
    const std::string english = exportTrace(trace, ExportFormat::Text, request);
    CHECK(english.find("tokens: cats | chase | mice\n") == 0);
    CHECK(english.find("hand-rounding: every step rounded to 2 decimals\n") != std::string::npos);
    CHECK(english.find("notice: the masked-LM decoder is tied to the word embeddings\n") != std::string::npos);
    request.language = Language::Chinese;
    const std::string chinese = exportTrace(trace, ExportFormat::Text, request);
    CHECK(chinese.find("词元：cats | chase | mice\n") == 0);
    CHECK(chinese.find("手算舍入：每一步舍入到 2 位小数\n") != std::string::npos);
    CHECK(chinese.find("提示：掩码语言模型的解码器与词嵌入共享权重\n") != std::string::npos);
    CHECK(chinese.find("tokens:") == std::string::npos);
    const std::string markdown = exportTrace(trace, ExportFormat::Markdown, request);
    CHECK(markdown.find("**词元：** cats · chase · mice\n") == 0);
    CHECK(markdown.find("> 提示：掩码语言模型的解码器与词嵌入共享权重\n") != std::string::npos);
}
