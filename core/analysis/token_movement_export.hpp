#pragma once
// The exports of what attention did to each word (token_movement.hpp): JSON, CSV and a text table
// for the command line (attnscope movement) and the window's data export. Indices are 1-based.
//
// Shape legend: T tokens, d model width, L layers.
#include <string>
#include <vector>

#include "core/analysis/token_movement.hpp"
#include "core/text/language.hpp"

namespace attnscope {

// The same word in two contexts, ready to show: which tokens, and cos per state (L+1).
struct SameWordCurve {
    int tokenA = 0, tokenB = 0;  // 0-based
    std::string textA, textB;
    std::vector<double> cosines;  // L+1: entering layer 1 … L, leaving L
};

// The curve of token `tokenA` of A and `tokenB` of B (0-based), with the tokens' texts.
Result<SameWordCurve> sameWordCurve(const Trace& a, const std::vector<Mat>& statesA, int tokenA,
                                    const Trace& b, const std::vector<Mat>& statesB, int tokenB);

// "entering layer 1", …, "leaving layer L" (L+1 names) in `language`.
std::vector<std::string> stateNames(int layers, Language language);

// JSON: {"layer" (null: the whole stack), "tokens": [{"token", "text", "distance", "cosine", "x", "y",
// "sources": [{"token", "text", "norm"}]}]}; CSV: one row per token and source, largest first;
// text: the note and a table, each token's `top` largest sources.
std::string movementToJson(const TokenMovement& m, const Trace& trace, const std::string& source);
std::string movementToCsv(const TokenMovement& m, const Trace& trace);
std::string movementToText(const TokenMovement& m, const Trace& trace, int decimals, int top, Language language);

std::string sameWordToJson(const SameWordCurve& c, const std::string& source);
std::string sameWordToCsv(const SameWordCurve& c);
std::string sameWordToText(const SameWordCurve& c, int decimals, Language language);

}  // namespace attnscope
