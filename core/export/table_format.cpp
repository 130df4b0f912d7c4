// Matrices as tables: aligned text, Markdown, LaTeX.
#include "core/export/table_format.hpp"

#include <algorithm>
#include <charconv>
#include <sstream>

#include "core/trace/explain.hpp"
#include "core/text/utf8.hpp"

namespace attnscope {

// Terminal columns a string takes: CJK and full-width characters take two.
int displayWidth(const std::string& text) {
    // Numbers and most labels are ASCII, one column a byte: no decoding (a wide table has millions).
    if (std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; }))
        return static_cast<int>(text.size());
    int width = 0;
    for (const auto& cp : utf8::decode(text).points)
        width += (cp.value >= 0x1100 && (cp.value <= 0x115F || (cp.value >= 0x2E80 && cp.value <= 0xA4CF) ||
                                         (cp.value >= 0xAC00 && cp.value <= 0xD7A3) ||
                                         (cp.value >= 0xF900 && cp.value <= 0xFAFF) ||
                                         (cp.value >= 0xFF00 && cp.value <= 0xFF60) || cp.value >= 0x20000))
                     ? 2
                     : 1;
    return width;
}

namespace {

std::string padLeft(const std::string& text, int width) {
    return std::string(std::max(0, width - displayWidth(text)), ' ') + text;
}

std::string padRight(const std::string& text, int width) {
    return text + std::string(std::max(0, width - displayWidth(text)), ' ');
}

}  // namespace

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string out = "\"";
    for (const char ch : text) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return out + "\"";
}

std::string shortestNumber(double value) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;
    return std::string(text, end);
}

Table tableOf(const Trace& trace, Step step, int layer, int head, int decimals, Language language) {
    const GridRef m = stepMatrix(trace, step, layer, head);
    const char* code = languageCode(language);
    Table t{columnLabels(trace, step, layer, head, code), rowLabels(trace, step, layer, head, code), {}};
    decimals = decimalsFor(m, decimals);  // a lesson's integers print as written
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        t.cells.emplace_back();
        for (Eigen::Index c = 0; c < m.cols(); ++c) t.cells.back().push_back(formatNumber(m(r, c), decimals));
    }
    return t;
}

void writeTextTable(std::ostream& out, const Table& t) {
    int labelWidth = 0;
    for (const auto& r : t.rows) labelWidth = std::max(labelWidth, displayWidth(r));
    std::vector<int> widths;
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
        int w = displayWidth(t.columns[c]);
        for (const auto& row : t.cells) w = std::max(w, displayWidth(row[c]));
        widths.push_back(w);
    }
    out << std::string(labelWidth, ' ');
    for (std::size_t c = 0; c < widths.size(); ++c) out << "  " << padLeft(t.columns[c], widths[c]);
    out << "\n";
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        out << padRight(t.rows[r], labelWidth);
        for (std::size_t c = 0; c < widths.size(); ++c) out << "  " << padLeft(t.cells[r][c], widths[c]);
        out << "\n";
    }
}

std::string textTable(const Table& t) {
    std::ostringstream out;
    writeTextTable(out, t);
    return out.str();
}

std::string markdownEscape(const std::string& text) {
    std::string out;
    for (const char ch : text) {
        if (ch == '|' || ch == '\\' || ch == '*' || ch == '_' || ch == '`') out += '\\';
        out += ch;
    }
    return out;
}

void writeMarkdownTable(std::ostream& out, const Table& t) {
    out << "| |";
    for (const auto& c : t.columns) out << " " << markdownEscape(c) << " |";
    out << "\n|---|";
    for (std::size_t c = 0; c < t.columns.size(); ++c) out << "---:|";
    out << "\n";
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        out << "| **" << markdownEscape(t.rows[r]) << "** |";
        for (const auto& cell : t.cells[r]) out << " " << cell << " |";
        out << "\n";
    }
}

std::string markdownTable(const Table& t) {
    std::ostringstream out;
    writeMarkdownTable(out, t);
    return out.str();
}

// Also spells the minus sign and infinity the numbers use ("−", "∞") in math mode, so the
// table compiles with plain pdflatex; tokens in other scripts need xelatex (docs/worksheets.md).
std::string latexEscape(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text.compare(i, 3, "\xE2\x88\x92") == 0 || text.compare(i, 3, "\xE2\x88\x9E") == 0) {
            out += text[i + 2] == '\x92' ? "$-$" : "$\\infty$";
            i += 2;
            continue;
        }
        const char ch = text[i];
        switch (ch) {
            case '\\': out += "\\textbackslash{}"; break;
            case '~': out += "\\textasciitilde{}"; break;
            case '^': out += "\\textasciicircum{}"; break;
            case '&': case '%': case '$': case '#': case '_': case '{': case '}':
                out += '\\';
                out += ch;
                break;
            default: out += ch;
        }
    }
    return out;
}

std::string latexTable(const Table& t) {
    std::ostringstream out;
    out << "\\begin{tabular}{l" << std::string(t.columns.size(), 'r') << "}\n\\hline\n";
    for (const auto& c : t.columns) out << " & " << latexEscape(c);
    out << " \\\\\n\\hline\n";
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        out << "\\textbf{" << latexEscape(t.rows[r]) << "}";
        for (const auto& cell : t.cells[r]) out << " & " << latexEscape(cell);
        out << " \\\\\n";
    }
    out << "\\hline\n\\end{tabular}\n";
    return out.str();
}

}  // namespace attnscope
