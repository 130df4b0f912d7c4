#pragma once
// How a worksheet is written (core/lab/worksheet.hpp and the other worksheets in core): headings,
// paragraphs, tables and lines of working in Markdown or as a complete LaTeX document.
#include <sstream>
#include <string>
#include <vector>

#include "core/base/matrix.hpp"
#include "core/export/table_format.hpp"
#include "core/lab/worksheet.hpp"
#include "core/trace/explain.hpp"

namespace attnscope {

struct WorksheetWriter {
    WorksheetFormat format;
    std::ostringstream out;

    bool latex() const { return format == WorksheetFormat::Latex; }
    std::string text(const std::string& s) const { return latex() ? latexEscape(s) : markdownEscape(s); }
    void heading(const std::string& s, int level) {
        if (latex()) out << (level == 1 ? "\\section*{" : "\\subsection*{") << text(s) << "}\n\n";
        else out << std::string(static_cast<std::size_t>(level), '#') << " " << text(s) << "\n\n";
    }
    void paragraph(const std::string& s) { out << text(s) << "\n\n"; }
    void table(const Table& t) { out << (latex() ? latexTable(t) : markdownTable(t)) << "\n"; }
    void lines(const std::vector<std::string>& ls) {
        if (latex()) {
            out << "\\begin{itemize}\n";
            for (const std::string& l : ls) out << "\\item " << latexEscape(l) << "\n";
            out << "\\end{itemize}\n\n";
        } else {
            for (const std::string& l : ls) out << "    " << l << "\n";
            out << "\n";
        }
    }
    std::string finish() {
        if (!latex()) return out.str();
        return "\\documentclass{article}\n\\usepackage[margin=2cm]{geometry}\n\\begin{document}\n\n" + out.str() +
               "\\end{document}\n";
    }
};

inline std::string withDecimals(std::string phrase, int decimals) {
    const auto at = phrase.find("{n}");
    if (at != std::string::npos) phrase.replace(at, 3, std::to_string(decimals));
    return phrase;
}

// "[1.000, −2.000]": a vector as a worksheet prints it.
inline std::string vectorText(const RowVec& v, int decimals) {
    std::string text = "[";
    for (Eigen::Index i = 0; i < v.size(); ++i) text += (i ? ", " : "") + formatNumber(v(i), decimals);
    return text + "]";
}

}  // namespace attnscope
