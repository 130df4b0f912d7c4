#pragma once
// Every cell explains itself: which products were summed, which exponentials were normalised.
// The explanation is structured data; the GUI panel and every export render the same `lines`.
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/base/result.hpp"
#include "core/text/language.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

struct CellRef {
    Step step = Step::Embedding;
    int layer = 0;
    int head = 0;   // ignored for steps that are not per head
    int row = 0;
    int col = 0;
    bool operator==(const CellRef&) const = default;
};

enum class ExplanationKind {
    Lookup,      // an embedding row, from the table or the hash rule
    Given,       // a weight or positional entry the lesson states
    Sum,         // X = E + P: the addends
    DotProduct,  // Σ a·b (+ bias): the products
    Division,    // scaled = score / √d_k
    Mask,        // masked = scaled + mask
    Softmax,     // exp(s_ij − max) / Σ_j exp(s_ij − max)
    Copy,        // concat: a head's output copied into place
    Rotation     // RoPE: x[i]·cos(m·θ_i) ∓ x[partner]·sin(m·θ_i), the two products as terms
};

struct Term {
    std::string label;  // e.g. "q[it,0]·k[animal,0] = 1·2"
    double value = 0;   // the term's value (a product, an exponential, an addend)
};

struct Explanation {
    CellRef cell;
    ExplanationKind kind = ExplanationKind::Given;
    std::string title;                 // e.g. "Scores[it, animal], head 1"
    std::string rule;                  // the formula in words and symbols
    std::vector<std::string> details;  // lines between the rule and the terms (RoPE: the formula, angle, cos, sin)
    std::vector<Term> terms;           // addends / products / the row's shifted exponentials
    double termsTotal = 0;             // Σ terms.value
    std::optional<double> numerator;   // Division: the score; Softmax: exp(s_ij − max)
    std::optional<double> divisor;     // Division: √d_k; Softmax: Σ of the row's exponentials
    std::optional<double> rowMax;      // Softmax: the maximum subtracted
    double value = 0;                  // the cell as the Trace holds it
    std::vector<CellRef> sources;      // the cells it was computed from
    std::vector<std::string> lines;    // the explanation as text, numbers to `decimals`
};

// Explains one cell, its words in `language` (core's message catalogue; the numbers and formulas
// are the same in every language). Errors name the step and the out-of-range index.
Result<Explanation> explainCell(const Trace& trace, const CellRef& cell, int decimals,
                                Language language = Language::English);

// Formats a number as the app shows it: fixed decimals, "−∞"/"+∞"/"NaN" spelled out, −0 as 0.
std::string formatNumber(double value, int decimals);

// The decimals values print with, as a lesson's data are written: none when every finite value
// is a whole number (a lesson of integers prints "1", "12", not "1.0000"), else `decimals` for
// all of them, so a column stays aligned. The one rule of the tables, worked example and exports.
int decimalsFor(double value, int decimals);
int decimalsFor(GridRef values, int decimals);

// A column's finite range and which non-finite values it holds: in fixed-point notation its
// widest text is that of its smallest or largest finite value, or NaN, −∞, +∞ (a table's column
// widths). Low > high: no finite value.
struct ColumnRange {
    double low = std::numeric_limits<double>::infinity();
    double high = -std::numeric_limits<double>::infinity();
    bool nan = false, negativeInfinity = false, positiveInfinity = false;
};
// Every column's, in one pass along the rows (a column at a time read a 4,096-token layer's
// T×T weights 16 KB a step: 0.2 s of a layer switch).
std::vector<ColumnRange> columnRanges(GridRef values);

}  // namespace attnscope
