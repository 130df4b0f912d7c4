#pragma once
// What a cell explanation is built from (core/trace/explain.cpp and explain_block.cpp): the trace,
// the cell, the number format and the language, and the helper that lists products as terms.
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/text/messages.hpp"
#include "core/trace/explain.hpp"
#include "core/trace/token_names.hpp"

namespace attnscope::explain_detail {

// A row, column, feature or pair as people count them, from 1; the formulas' own variables (a
// position m or pos, a hash byte) keep their values.
inline std::string nth(int index) { return std::to_string(index + 1); }

// Everything one explanation needs, so the per-step builders stay short.
struct Context {
    const Trace& trace;
    CellRef cell;
    int decimals;
    const LayerTrace& layer;
    const HeadTrace& head;
    Language language;
    std::vector<std::string> names = tokenNames(trace.tokens), keyNames = tokenNames(trace.columnTokens());  // "小#1"
    // Whole numbers as whole numbers ("exp(11 − 16)", "A = 1 / 1.185"), the rest to `decimals`.
    std::string num(double v) const { return formatNumber(v, decimalsFor(v, decimals)); }
    // A catalogue text in the explanation's language, its {1}, {2}, … filled in.
    std::string say(MessageId id, std::initializer_list<std::string_view> args = {}) const {
        return fillMessage(message(id, language), args);
    }
    const std::string& token(int i) const { return names.at(static_cast<std::size_t>(i)); }        // a query's token
    const std::string& keyToken(int j) const { return keyNames.at(static_cast<std::size_t>(j)); }  // a key's / value's token
    GridRef m(Step s) const { return stepMatrix(trace, s, cell.layer, cell.head); }
    CellRef at(Step s, int r, int c) const { return CellRef{s, cell.layer, cell.head, r, c}; }
};

// Σ_r a(r)·b(r) over n terms, each product a term; the sources are both factors' cells.
void addProducts(Explanation& e, const Context& c, int n, const std::function<double(int)>& a,
                 const std::function<double(int)>& b, const std::function<std::string(int)>& label,
                 const std::function<std::pair<CellRef, CellRef>(int)>& refs);

// The block after attention (explain_block.cpp): false when the cell's step is not one of its steps.
bool explainBlockCell(Explanation& e, const Context& c);
// The step whose row a block softmax (next-word probabilities) reads: the logits.
const Mat& softmaxSourceOf(const Context& c);

}  // namespace attnscope::explain_detail
