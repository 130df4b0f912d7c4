#pragma once
// Attention between words instead of pieces, by the rule of Clark et al. 2019 ("What does BERT
// look at?", §4.1 footnote): attention *to* a word is the sum of the attention to its pieces,
// attention *from* a word the mean over its pieces, so each word's row still sums to 1.
//
// Shapes: T pieces, W words. weights T_q×T_k → W_q×W_k; group[i] is piece i's word (0…W−1, from
// ModelTokenizer::wordGroups, in order).
#include <string>
#include <vector>

#include "core/base/matrix.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

Mat wordLevelAttention(const GridRef& weights, const std::vector<int>& queryGroup, const std::vector<int>& keyGroup);

// One token per word: the pieces' reader texts joined (a character split over byte pieces is
// already on one of them), special when every piece is, the first piece's id and word.
std::vector<Token> wordLevelTokens(const std::vector<Token>& tokens, const std::vector<int>& group);

// True when the trace's word groups (Trace::wordGroups) join some pieces: its word-level Trace
// differs from it. Lessons (no groups) and sentences of one-piece words: false.
bool hasMultiPieceWords(const Trace& trace);

// The Trace between words that the heatmap, head view, model view and Coreference tab draw when
// View ▸ Attention between words is on: one token per word (wordLevelTokens, each its own word),
// every head's weights by wordLevelAttention (W×W, in the precision of the run), each layer's
// kvHeadOf, ablated flags and settings (causal, notices) kept; nothing else (no Q, K, V, scores:
// they have no meaning between words). A padded run's padding starts at its first padded word.
// Without word groups, the trace's tokens as they are (W = T). O(L·H·T²): run it off the GUI
// thread beyond a few dozen tokens.
Trace wordLevelTrace(const Trace& trace);

}  // namespace attnscope
