#pragma once
// Worksheets for an exercise: the inputs of the step, the step with blanks where the exercise
// hides cells, and a separate answer key with every blank's value and how it is computed.
// Markdown or a complete LaTeX document; every fixed phrase can be given in another language.
#include <string>

#include "core/base/matrix.hpp"
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

struct GroupedQueryRun;  // core/lab/multi_head_lab.hpp

// Lab ▸ Multi-head's grouped-query section: every score of query head 2, which reads the K of
// key/value head 1 as query head 1 does (query head 1 when H = 1), with the K/V cost of H_kv = H,
// H/2 and 1 above the given matrices. Titled "Scores S = Q·Kᵀ — head 2, K/V head 1, shared by
// query heads 1–2" in `language`.
Result<Worksheet> groupedQueryWorksheet(const GroupedQueryRun& run, int decimals, WorksheetFormat format,
                                        Language language);

// Lab ▸ Positional encoding's RoPE page: q turned at position m and k at position n pair by pair
// (θ_i, the angle, cos, sin, the turned pair), their score, and the score at (m + s, n + s): the
// same number, RoPE keeps only m − n. The words come from the caller in the reader's language
// (the lab passes its translated texts); {1}, {2}, … as each member says.
struct RopeSheetPhrases {
    std::string title;    // "RoPE by hand"
    std::string rule;     // {1} q, {2} k, {3} d_k, {4} base: the pairing and the rotation's rule
    std::string queryAt;  // {1} m
    std::string keyAt;    // {1} n
    std::string score;    // {1} m, {2} n
    std::string shifted;  // {1} s, {2} m + s, {3} n + s
    std::string why;      // the question under the two scores
    std::string because;  // its answer in the key
    std::string pair;     // a row's label, {1} the pair counted from 1
    WorksheetPhrases sheet;  // "Fill in the blanks", the decimals, "Answer key", the blank
};
struct RopeSheetInput {
    RowVec q, k;          // 1×d_k each, d_k even
    int m = 0, n = 0;     // the positions of q and k
    int shift = 1;        // s
    double base = 10000;  // θ_i = base^(−2i/d_k), the Hugging Face pairing (i, i + d_k/2)
    int decimals = 3;
};
// Error as ropeShiftDemo's (widths, an odd d_k, a position out of range).
Result<Worksheet> ropeWorksheet(const RopeSheetInput& input, WorksheetFormat format, const RopeSheetPhrases& phrases);

}  // namespace attnscope
