#pragma once
// Matrices as tables of formatted cells with labels, shared by the trace exports and the
// worksheets: aligned text (CJK-aware widths), Markdown and LaTeX.
#include <iosfwd>
#include <string>
#include <vector>

#include "core/text/language.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

// One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break, quotes doubled.
std::string csvField(const std::string& text);
// The shortest text that reads back as the same double (std::to_chars), for CSV and JSON-like output.
std::string shortestNumber(double value);

// The cells of one step's matrix as strings, with labels, ready for any tabular format.
struct Table {
    std::vector<std::string> columns;
    std::vector<std::string> rows;
    std::vector<std::vector<std::string>> cells;
};
// The lesson-file code of `language` ("en", "zh_CN"): what LocalizedText::in takes.
inline const char* languageCode(Language language) { return language == Language::Chinese ? "zh_CN" : "en"; }

// Feature names in `language` (a lesson's "features" may give several); CSV keeps English.
Table tableOf(const Trace& trace, Step step, int layer, int head, int decimals, Language language = Language::English);

int displayWidth(const std::string& text);  // terminal columns: CJK and full-width take two
std::string textTable(const Table& t);
// The same into `out`, with no copy of the text between: a 4,096-token head's table is about
// 120 MB of text (exportText, the command line's --print).
void writeTextTable(std::ostream& out, const Table& t);
std::string markdownEscape(const std::string& text);
std::string markdownTable(const Table& t);
void writeMarkdownTable(std::ostream& out, const Table& t);
std::string latexEscape(const std::string& text);
std::string latexTable(const Table& t);  // a tabular with the row labels in bold

}  // namespace attnscope
