// The X → Y tab's worksheet (see token_movement_worksheet.hpp).
//
// Shape legend: T tokens, d model width.
#include "core/analysis/token_movement_worksheet.hpp"

#include <algorithm>
#include <cmath>

#include "core/lab/worksheet_writer.hpp"
#include "core/text/error_messages.hpp"
#include "core/text/messages.hpp"
#include "core/trace/token_names.hpp"

namespace attnscope {

namespace {

// Up to this width the working writes every term of a sum; past it Σ_k (a model's 768 terms on one
// line help nobody: the table above has them).
constexpr Eigen::Index kTermsWritten = 8;

// The blank of the questions, or the number of the answers.
struct Cell {
    const std::string* blank;  // null: the answer
    int decimals;
    std::string operator()(double v) const { return blank ? *blank : formatNumber(v, decimals); }
};

// One token's x and y, and the four sums the student adds up in the table's last row.
struct Components {
    RowVec x, y, diff;  // 1×d
    double diff2, x2, y2, xy;
};

Components componentsOf(const TokenMovement& m, int token) {
    Components c{m.x.row(token), m.y.row(token), m.y.row(token) - m.x.row(token), 0, 0, 0, 0};
    c.diff2 = c.diff.squaredNorm(), c.x2 = c.x.squaredNorm(), c.y2 = c.y.squaredNorm(), c.xy = c.x.dot(c.y);
    return c;
}

// Rows k = 1 … d and Σ; x_k and y_k given, the rest the student's.
Table componentTable(const Components& c, const Cell& cell) {
    const Cell given{nullptr, cell.decimals};
    Table t{{"x_k", "y_k", "y_k − x_k", "(y_k − x_k)²", "x_k²", "y_k²", "x_k·y_k"}, {}, {}};
    for (Eigen::Index k = 0; k < c.x.size(); ++k) {
        const double x = c.x(k), y = c.y(k), d = c.diff(k);
        t.rows.push_back("k = " + std::to_string(k + 1));
        t.cells.push_back({given(x), given(y), cell(d), cell(d * d), cell(x * x), cell(y * y), cell(x * y)});
    }
    t.rows.push_back("Σ");
    t.cells.push_back({"", "", "", cell(c.diff2), cell(c.x2), cell(c.y2), cell(c.xy)});
    return t;
}

std::string number(double v, int decimals) { return formatNumber(v, decimals); }
std::string inParentheses(double v, int decimals) { return v < 0 ? "(" + number(v, decimals) + ")" : number(v, decimals); }

// "a² + b² + …" of the row (or Σ_k `symbol` when it is long).
std::string squares(const RowVec& v, const char* symbol, int decimals) {
    if (v.size() > kTermsWritten) return std::string("Σ_k ") + symbol;
    std::string out;
    for (Eigen::Index k = 0; k < v.size(); ++k) out += (k ? " + " : "") + inParentheses(v(k), decimals) + "²";
    return out;
}

std::string products(const RowVec& a, const RowVec& b, int decimals) {
    if (a.size() > kTermsWritten) return "Σ_k x_k·y_k";
    std::string out;
    for (Eigen::Index k = 0; k < a.size(); ++k)
        out += (k ? " + " : "") + inParentheses(a(k), decimals) + "·" + inParentheses(b(k), decimals);
    return out;
}

// The four results, with their formulas; `cell` blanks them on the questions.
std::vector<std::string> resultLines(const TokenMove& move, const Components& c, const Cell& cell) {
    return {"‖y − x‖ = √(Σ_k (y_k − x_k)²) = " + cell(move.distance), "‖x‖ = √(Σ_k x_k²) = " + cell(std::sqrt(c.x2)),
            "‖y‖ = √(Σ_k y_k²) = " + cell(std::sqrt(c.y2)),
            "cos(x, y) = Σ_k x_k·y_k / (‖x‖·‖y‖) = " + cell(move.cosine)};
}

// The answer key's working with the numbers put in.
std::vector<std::string> workingLines(const TokenMove& move, const Components& c, int n) {
    const double nx = std::sqrt(c.x2), ny = std::sqrt(c.y2);
    const std::string cosine = nx * ny > 0 ? number(c.xy, n) + " / (" + number(nx, n) + "·" + number(ny, n) + ") = " + number(move.cosine, n)
                                           : number(move.cosine, n) + " (‖x‖·‖y‖ = 0)";
    return {"y − x = " + vectorText(c.diff, n),
            "‖y − x‖ = √(" + squares(c.diff, "(y_k − x_k)²", n) + ") = √" + number(c.diff2, n) + " = " + number(move.distance, n),
            "‖x‖ = √(" + squares(c.x, "x_k²", n) + ") = √" + number(c.x2, n) + " = " + number(nx, n),
            "‖y‖ = √(" + squares(c.y, "y_k²", n) + ") = √" + number(c.y2, n) + " = " + number(ny, n),
            "x·y = " + products(c.x, c.y, n) + " = " + number(c.xy, n),
            "cos(x, y) = x·y / (‖x‖·‖y‖) = " + cosine};
}

double sourceTotal(const TokenMove& move) {
    double total = 0;
    for (const SourceContribution& s : move.sources) total += s.norm;
    return total;
}

// Every source, largest first, with its ‖c_j‖ given; the top ones' shares to work out, and Σ.
Table sourceTable(const TokenMove& move, const std::vector<std::string>& names, int top, const Cell& cell) {
    Table t{{"‖c_j‖", "‖c_j‖ / Σ_j′ ‖c_j′‖"}, {}, {}};
    for (std::size_t r = 0; r < move.sources.size(); ++r) {
        const SourceContribution& s = move.sources[r];
        t.rows.push_back(std::to_string(s.token + 1) + " " + names[static_cast<std::size_t>(s.token)]);
        t.cells.push_back({number(s.norm, cell.decimals), static_cast<int>(r) < top ? cell(s.share) : ""});
    }
    t.rows.push_back("Σ");
    t.cells.push_back({cell(sourceTotal(move)), ""});
    return t;
}

std::vector<std::string> shareLines(const TokenMove& move, const std::vector<std::string>& names, int top, int n) {
    const double total = sourceTotal(move);
    const bool termsWritten = static_cast<Eigen::Index>(move.sources.size()) <= kTermsWritten;
    std::string sum = "Σ_j ‖c_j‖ = ";
    for (std::size_t r = 0; r < move.sources.size() && termsWritten; ++r) sum += (r ? " + " : "") + number(move.sources[r].norm, n);
    std::vector<std::string> lines{sum + (termsWritten ? " = " : "") + number(total, n)};
    for (std::size_t r = 0; r < move.sources.size() && static_cast<int>(r) < top; ++r) {
        const SourceContribution& s = move.sources[r];
        lines.push_back(names[static_cast<std::size_t>(s.token)] + ": " + number(s.norm, n) + " / " + number(total, n) + " = " +
                        number(s.share, n) + " (" + number(100 * s.share, 0) + " %)");
    }
    return lines;
}

}  // namespace

Result<Worksheet> movementWorksheet(const TokenMovement& m, const Trace& trace, int token, int top, int decimals,
                                    WorksheetFormat format, const MovementSheetPhrases& p) {
    if (token < 0 || token >= static_cast<int>(m.tokens.size()) || token >= m.x.rows())
        return Error{ErrorText(ErrorId::WhereTokenMovement), errorText(ErrorId::HasNoTokenOf, token + 1, static_cast<int>(m.tokens.size()))};
    const TokenMove& move = m.tokens[static_cast<std::size_t>(token)];
    const Components c = componentsOf(m, token);
    const std::vector<std::string> sourceNames = tokenNames(trace.columnTokens());
    const std::string title = fillMessage(p.title, {tokenNames(trace.tokens)[static_cast<std::size_t>(token)], std::to_string(token + 1)});
    const bool sources = m.layer && !move.sources.empty();
    const auto write = [&](WorksheetWriter& w, bool blanks) {
        const Cell cell{blanks ? &p.sheet.blank : nullptr, decimals};
        w.heading(blanks ? title : title + " — " + p.sheet.answerKey, 1);
        if (blanks) {
            w.paragraph(p.sheet.tokens + ": " + tokenLine(trace.tokens, " · "));
            w.heading(p.sheet.given, 2);
            w.paragraph(p.vectors);
            w.paragraph(p.sheet.compute + ". " + withDecimals(p.sheet.decimals, decimals));
        }
        w.table(componentTable(c, cell));
        w.heading(p.moved, 2);
        w.lines(resultLines(move, c, cell));
        if (sources) {
            w.heading(p.sources, 2);
            if (blanks) w.paragraph(fillMessage(p.shareRule, {std::to_string(std::min<std::size_t>(top, move.sources.size()))}));
            w.table(sourceTable(move, sourceNames, top, cell));
        }
        if (blanks) return;
        w.heading(p.sheet.howComputed, 2);
        w.lines(workingLines(move, c, decimals));
        if (sources) w.lines(shareLines(move, sourceNames, top, decimals));
    };
    WorksheetWriter questions{format, {}}, answers{format, {}};
    write(questions, true);
    write(answers, false);
    return Worksheet{questions.finish(), answers.finish()};
}

}  // namespace attnscope
