#pragma once
// Matrices as tables of formatted cells with labels, shared by the trace exports and the
// worksheets: aligned text (CJK-aware widths), Markdown and LaTeX.
#include <string>
#include <vector>

#include "core/trace/trace.hpp"

namespace attnscope {

// The cells of one step's matrix as strings, with labels, ready for any tabular format.
struct Table {
    std::vector<std::string> columns;
    std::vector<std::string> rows;
    std::vector<std::vector<std::string>> cells;
};
Table tableOf(const Trace& trace, Step step, int layer, int head, int decimals);

int displayWidth(const std::string& text);  // terminal columns: CJK and full-width take two
std::string textTable(const Table& t);
std::string markdownEscape(const std::string& text);
std::string markdownTable(const Table& t);
std::string latexEscape(const std::string& text);
std::string latexTable(const Table& t);  // a tabular with the row labels in bold

}  // namespace attnscope
