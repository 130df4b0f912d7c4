#pragma once
// A cell's sum followed term by term, as a class does with a clicker (issue 28 §1): the window
// shows the rule, then adds one product at a time with the sum so far, then the whole explanation.
// Kept apart from explain.hpp, which most of the program includes.
#include <cstddef>
#include <string>
#include <vector>

#include "core/trace/explain.hpp"

namespace attnscope {

// The running sum after each term of `e` (explainCell(trace, …, decimals)), printed as its lines
// print numbers; empty when `e` is not a sum of several terms (a softmax, a lookup, a division).
std::vector<std::string> runningSums(const Trace& trace, const Explanation& e, int decimals);

// `e`'s lines up to its first `shown` terms: its title, rule and details, then those terms.
std::vector<std::string> linesUpToTerm(const Explanation& e, std::size_t shown);

}  // namespace attnscope
