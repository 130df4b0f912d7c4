#pragma once
// Two sentences side by side (issue 14 §4): the same head's attention in sentence A and in
// sentence B on common rows and columns, and the difference A − B. Tokens line up by position when
// both sentences have as many tokens; otherwise by word: words (wordsOf; special tokens stay
// units of their own) are matched by the longest common subsequence of their lower-cased texts,
// and the words between two matches are paired in order when both gaps hold as many words (…too
// tired / …too wide); what stays unpaired is left out and named.
//
// Shape legend: U aligned units (tokens or words), T_A / T_B tokens of A / B.
#include <optional>
#include <string>
#include <vector>

#include "core/base/result.hpp"
#include "core/trace/explain.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

struct AlignedUnit {
    std::string textA, textB;          // the token or word in each sentence
    std::vector<int> tokensA, tokensB;  // its token indices in each trace
};

struct Alignment {
    enum class By { Position, Word };
    By by = By::Position;
    std::vector<AlignedUnit> units;                // U, in sentence order
    std::vector<std::string> onlyInA, onlyInB;     // words left out (By::Word)
};

Alignment alignTokens(const std::vector<Token>& a, const std::vector<Token>& b);

// "tired | wide" where the two texts differ, else the text.
std::string unitLabel(const AlignedUnit& unit);

// Attention between aligned units: from a unit, the mean over its query tokens; to a unit, the
// sum over its key tokens (as coreference reads words). By::Position: the weights themselves.
Mat unitAttention(GridRef weights, const std::vector<AlignedUnit>& units, bool sideA);  // U×U
Mat unitAttention(GridRef weights, const std::vector<AlignedUnit>& rows, const std::vector<AlignedUnit>& columns,
                  bool sideA);  // U_q×U

// A cross-attention's rows (the decoder's tokens) and columns (the source's) are aligned apart:
// `alignment` holds the key columns' units, `rows` the query rows' (for self-attention the same).
struct HeadComparison {
    HeadRef head;
    Alignment alignment;
    Mat a, b;         // U_q×U (U×U for self-attention)
    Mat difference;   // U_q×U  a − b
    Alignment rows;   // U_q: the query rows' units
};

// A's cell as the aligned cell of B (the worked example for both): its row token, and for the
// T×T steps its column token, moved to the first token of the unit that holds it in B; weight
// matrices (W_Q, …) keep the cell. nullopt when a token of A has no partner in B (left out).
std::optional<CellRef> alignedCellInB(const Alignment& alignment, const CellRef& cell);
// The same with a cross-attention's rows (the decoder's tokens) and columns (the source's) aligned apart.
std::optional<CellRef> alignedCellInB(const Alignment& rows, const Alignment& columns, const CellRef& cell);

// The head's weights in both traces, aligned (two cross-attention traces: rows and columns apart).
// Errors: a head or layer one trace lacks, no weights kept, one cross-attention trace and one not.
Result<HeadComparison> compareHead(const Trace& a, const Trace& b, HeadRef head);

}  // namespace attnscope
