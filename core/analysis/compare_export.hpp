#pragma once
// Two sentences side by side (compare.hpp) for several heads at once, as text, JSON and CSV: one
// function per format shared by `attnscope compare` and the Compare tab's data export. Layers and
// heads count from 1 in every format, as on the command line.
#include <string>
#include <vector>

#include "core/analysis/compare.hpp"
#include "core/text/language.hpp"

namespace attnscope {

struct SentenceComparison {
    std::vector<Token> tokensA, tokensB;
    std::vector<HeadRef> ablated;         // switched off in both runs (0-based)
    std::vector<HeadComparison> heads;    // one alignment: the same tokens for every head
    // The matrices are of norm-weighted Traces (normWeightedTrace: each row's weight × ‖value‖
    // shares), not of the weights: the window's Compare tab under "Weight × ‖value‖".
    bool normWeighted = false;
    const Alignment& alignment() const { return heads.front().alignment; }
};

// compareHead for each of `heads` (at least one). Errors: compareHead's, or traces ablated differently.
Result<SentenceComparison> compareHeads(const Trace& a, const Trace& b, const std::vector<HeadRef>& heads);

// Both token lists, the alignment (by position or by word, what was left out), then A, B and A − B
// of every head as aligned tables with `decimals` decimals, worded in `language` (normWeighted is the
// caller's to say: attnscope compare --norms prints a line above).
std::string comparisonToText(const SentenceComparison& c, int decimals = 3, Language language = Language::English);
// {"format": "attnscope-compare", "version": 2, "alignment": "position"|"word",
//  "tokens_a"/"tokens_b": [{"text", "id"}], "units": [{"a", "b", "tokens_a", "tokens_b"}] (token positions
//  from 1, docs/cli.md), "only_in_a", "only_in_b", "ablated": [[layer, head]], "heads": [{"layer", "head", "a", "b",
//  "difference"}], "shading": "weights"|"norms" (normWeighted)} with U×U matrices as arrays of rows
//  (full precision).
std::string comparisonToJson(const SentenceComparison& c);
// layer,head,query,key,query_text,key_text,a,b,difference,shading: one row per head and aligned cell
// (query and key: aligned units counted from 1; shading: "weights"|"norms", as in the JSON).
std::string comparisonToCsv(const SentenceComparison& c);

}  // namespace attnscope
