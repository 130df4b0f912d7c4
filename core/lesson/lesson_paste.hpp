#pragma once
// Numbers pasted from a blog or a textbook into a lesson: lines like `笔=[1,2,1,2,1]`,
// `"记": [1, 1, 1, 2, 1]`, `本 1 3 2 3 1`, a Markdown table (`| 笔 | 1 | 2 |`) or tab-separated
// rows, for the embedding table; a line naming a weight matrix (`W_Q =`, `W_K:`) starts that
// matrix's rows (`[1, 0]`, `1 0`, or `W_Q = [[1, 0], [0, 1]]` on one line). What cannot be read is
// an Error naming its line. Shape legend: d model width, d_k, d_v head widths, H heads.
#include <string>
#include <string_view>
#include <vector>

#include "core/base/result.hpp"
#include "core/lesson/lesson_edit.hpp"

namespace attnscope {

struct PastedRow {
    int line = 0;              // 1-based, in the pasted text
    std::string word;          // the embedding table's word; empty for a row of a weight matrix
    std::vector<double> values;
};

// Rows under one name: the embedding table (kind Embeddings, rows with words) or a weight matrix
// named by a heading line.
struct PastedBlock {
    LessonMatrixKind kind = LessonMatrixKind::Embeddings;
    int line = 0;  // where it starts (its heading, or its first row)
    std::vector<PastedRow> rows;
};

// `source` names the text in errors (ErrorId::WhereText, or a file name verbatim).
Result<std::vector<PastedBlock>> parsePastedTable(std::string_view text, const ErrorText& source);

// The lesson with the pasted numbers: a word already in the table gets its new row, a new word is
// added at the end (it must be one token, as addLessonWord checks); a weight matrix is replaced as
// a whole (its rows × columns must match). Rows without a word go to `selected` when it is a
// weight matrix; a named weight goes to `selected`'s layer and head. Nothing changes on an error.
Result<Lesson> pasteIntoLesson(const Lesson& lesson, const std::vector<PastedBlock>& blocks,
                               const LessonMatrixRef& selected, const ErrorText& source);

}  // namespace attnscope
