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

}  // namespace attnscope
