#pragma once
// The X → Y tab's worksheet (issue 29 §5): for one chosen word, a student checks with a calculator
// what the tab shows — x entering a layer (or the stack) and y leaving it component by component,
// ‖y − x‖, ‖x‖, ‖y‖, cos(x, y) = x·y / (‖x‖·‖y‖) and, for one layer, the shares of the top sources
// ‖c_j‖ / Σ_j′ ‖c_j′‖. Every number is core's (TokenMovement); the words come from the caller in the
// reader's language (the window passes its translated texts), as ropeWorksheet's do.
//
// Shape legend: T tokens, d model width.
#include <string>

#include "core/analysis/token_movement.hpp"
#include "core/lab/worksheet.hpp"

namespace attnscope {

struct MovementSheetPhrases {
    std::string title;    // {1} the word, {2} its token number (1-based): "What layer 2 did to “it” (token 8)"
    std::string vectors;  // under "Given": what x and y are
    std::string moved;    // the heading of ‖y − x‖ and cos(x, y)
    std::string sources;  // the heading of the sources (a layer only)
    std::string shareRule;  // what c_j and a share are, {1} the number of sources to work
    WorksheetPhrases sheet;  // "Tokens", "Given", "Fill in the blanks", the decimals, "Answer key", the blank
};

// Token `token` (0-based) of `movement` (tokenMovement of `trace`); `top` sources' shares to work out
// (a layer's movement; the whole stack has none). Error naming the token when `trace` has no such one.
Result<Worksheet> movementWorksheet(const TokenMovement& movement, const Trace& trace, int token, int top, int decimals,
                                    WorksheetFormat format, const MovementSheetPhrases& phrases);

}  // namespace attnscope
