#pragma once
// Which tokens form one word, for the word-level attention views (core/analysis/word_attention).
// A word is what ICU's word-boundary rules (UAX #29, with ICU's dictionary for Chinese and
// Japanese) say it is, over the text the tokens cover; a token whose start is not such a boundary
// (a word piece, the second byte piece of a character, a piece spanning two dictionary words)
// belongs to the word of the token before it. Special tokens are words of their own.
#include <string>
#include <vector>

namespace attnscope {

struct GroupingToken {
    std::string bytes;     // the text this token covers ("play", "ing" for "play" "##ing"; " world")
    bool special = false;  // [CLS], <s>, <|im_start|>: a word of its own
    // The tokenizer's pre-tokenized word (Token::word): WordPiece drops the spaces between words,
    // so a change of word is a boundary there even without a space in `bytes`.
    int word = -1;
};

// For each token, the index of its word (0, 1, 2, … in order). spacesDropped: WordPiece.
std::vector<int> wordGroups(const std::vector<GroupingToken>& tokens, bool spacesDropped);

}  // namespace attnscope
