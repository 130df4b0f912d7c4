// Worksheets for exercises (core/lab/worksheet.hpp) on lesson 1 ("cats chase mice").
#include <catch2/catch.hpp>
#include <filesystem>

#include "core/lab/worksheet.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/io/text_file.hpp"

#include "builtin_lesson.hpp"

using namespace attnscope;

namespace {

Exercise rowOfWeights(const Trace& trace, int row) {
    ExerciseSpec spec;
    spec.step = Step::Weights;
    spec.hide = HideKind::OneRow;
    spec.row = row;
    spec.decimals = 4;
    auto e = makeExercise(trace, spec);
    REQUIRE(e.ok());
    return std::move(e).value();
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("a Markdown worksheet hides the asked row, the key has the values and how", "[lab]") {
    // Lesson 1's weights, row "cats": 0.5761 0.2119 0.2119 (the softmax of its scores row).
    const Trace trace = testing::runBuiltInLesson("first-hand-exercise");
    auto sheet = exerciseWorksheet(trace, rowOfWeights(trace, 0), WorksheetFormat::Markdown, "Lesson 1");
    REQUIRE(sheet.ok());
    const std::string& q = sheet.value().questions;
    const std::string& a = sheet.value().answers;
    CHECK(q.rfind("# Lesson 1\n", 0) == 0);
    CHECK(q.find("Tokens: cats · chase · mice") != std::string::npos);
    CHECK(q.find("## Given") != std::string::npos);
    CHECK(q.find("Write each answer with 4 decimals.") != std::string::npos);
    CHECK(count(q, "____") == 3);                                    // the three cells of row "cats"
    CHECK(q.find("| **chase** | 0.2447 | 0.6652 | 0.0900 |") != std::string::npos);  // other rows shown
    CHECK(q.find("0.5761") == std::string::npos);                    // the answer is not given away
    CHECK(a.find("| **cats** | 0.5761 | 0.2119 | 0.2119 |") != std::string::npos);
    CHECK(a.find("Answer key") != std::string::npos);
    CHECK(count(a, "softmax") >= 3);                                 // one explanation per blank
}

TEST_CASE("a LaTeX worksheet is a whole document with balanced tables", "[lab]") {
    const Trace trace = testing::runBuiltInLesson("first-hand-exercise");
    auto sheet = exerciseWorksheet(trace, rowOfWeights(trace, 2), WorksheetFormat::Latex, "Lesson_1 & more");
    REQUIRE(sheet.ok());
    for (const std::string& doc : {sheet.value().questions, sheet.value().answers}) {
        CHECK(doc.rfind("\\documentclass{article}", 0) == 0);
        CHECK(doc.find("\\end{document}\n") == doc.size() - 15);
        CHECK(count(doc, "\\begin{tabular}") == count(doc, "\\end{tabular}"));
        CHECK(doc.find("Lesson\\_1 \\& more") != std::string::npos);  // escaped
    }
    CHECK(count(sheet.value().questions, "& \\_\\_\\_\\_") == 3);  // the blank, escaped: it prints as ____
}

TEST_CASE("every fixed phrase of a worksheet can be replaced", "[lab]") {
    WorksheetPhrases german;
    german.tokens = "Tokens (Wörter)";
    german.given = "Gegeben";
    german.compute = "Fülle die Lücken";
    german.decimals = "Schreibe jede Antwort mit {n} Nachkommastellen.";
    german.answerKey = "Lösungen";
    german.howComputed = "So wird gerechnet";
    german.blank = "…";
    const Trace trace = testing::runBuiltInLesson("first-hand-exercise");
    auto sheet = exerciseWorksheet(trace, rowOfWeights(trace, 1), WorksheetFormat::Markdown, "Lektion 1", german);
    REQUIRE(sheet.ok());
    CHECK(sheet.value().questions.find("## Gegeben") != std::string::npos);
    CHECK(sheet.value().questions.find("Schreibe jede Antwort mit 4 Nachkommastellen.") != std::string::npos);
    CHECK(count(sheet.value().questions, "| … ") == 3);
    CHECK(sheet.value().answers.find("# Lektion 1 — Lösungen") != std::string::npos);
    CHECK(sheet.value().questions.find("Given") == std::string::npos);
}

TEST_CASE("a worksheet tells repeated tokens apart by their position, counted from 1", "[lab][zh]") {
    // 小猫看见小狗: 小 is the 1st and the 5th token. The token line, the tables' row and column
    // headers and the answer key's explanations say 小#1 and 小#5, never 小 twice.
    const Trace trace = testing::runBuiltInLesson("causal-mask-zh");
    REQUIRE(trace.tokenCount() == 6);
    REQUIRE(trace.tokens[0].text == "小");
    REQUIRE(trace.tokens[4].text == "小");
    auto sheet = exerciseWorksheet(trace, rowOfWeights(trace, 4), WorksheetFormat::Markdown, "小猫看见小狗",
                                   chineseWorksheetPhrases());
    REQUIRE(sheet.ok());
    const std::string& q = sheet.value().questions;
    const std::string& a = sheet.value().answers;
    CHECK(q.find("小#1 · 猫 · 看 · 见 · 小#5 · 狗") != std::string::npos);
    CHECK(q.find("| **小#1** |") != std::string::npos);
    CHECK(a.find("| **小#5** |") != std::string::npos);
    CHECK(q.find("| **小** |") == std::string::npos);
    CHECK(count(a, "小#5") >= 5);  // the row header and each of the row's explanations
}
