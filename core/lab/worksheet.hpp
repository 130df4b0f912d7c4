#pragma once
// Worksheets for an exercise: the inputs of the step, the step with blanks where the exercise
// hides cells, and a separate answer key with every blank's value and how it is computed.
// Markdown or a complete LaTeX document; every fixed phrase can be given in another language.
#include <string>

#include "core/lab/exercise.hpp"
#include "core/base/result.hpp"
#include "core/text/language.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

enum class WorksheetFormat { Markdown, Latex };

// Every phrase a worksheet prints besides numbers and labels; `language` is that of the step
// titles and the explanation lines (core's catalogue). {n} is replaced by the number of decimals.
struct WorksheetPhrases {
    std::string tokens = "Tokens";
    std::string given = "Given";
    std::string compute = "Fill in the blanks";
    std::string decimals = "Write each answer with {n} decimals.";
    std::string answerKey = "Answer key";
    std::string howComputed = "How each answer is computed";
    std::string blank = "____";
    Language language = Language::English;
};

// The phrases of `language` from core's catalogue (English: the defaults above).
WorksheetPhrases worksheetPhrases(Language language);
// The phrases in simplified Chinese (中文), for a class that reads Chinese.
WorksheetPhrases chineseWorksheetPhrases();

struct Worksheet {
    std::string questions;  // for the students
    std::string answers;    // for the teacher
};

Result<Worksheet> exerciseWorksheet(const Trace& trace, const Exercise& exercise, WorksheetFormat format,
                                    const std::string& title, const WorksheetPhrases& phrases = {});

}  // namespace attnscope
