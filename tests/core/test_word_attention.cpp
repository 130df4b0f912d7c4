// Word-level attention (issue 27): pieces grouped into words (ICU's word boundaries, its
// dictionary for Chinese) and Clark et al. 2019's rule: to a word = sum over its pieces, from a
// word = mean over its pieces. Expected values by hand in the comments.
#include <catch2/catch.hpp>

#include "core/analysis/word_attention.hpp"
#include "core/tokenizers/word_groups.hpp"

using namespace attnscope;
using Groups = std::vector<int>;

TEST_CASE("attention to a word sums its pieces, from a word averages them", "[word-attention]") {
    Mat a(3, 3);
    a << 0.5, 0.3, 0.2,  //
        0.1, 0.6, 0.3,   //
        0.25, 0.25, 0.5;
    const Groups group{0, 0, 1};
    // Word 0 = pieces 0, 1. Piece 0 gives word 0: 0.5 + 0.3 = 0.8, word 1: 0.2; piece 1 gives
    // 0.7 and 0.3; their mean is 0.75, 0.25. Word 1 = piece 2: 0.25 + 0.25 = 0.5 and 0.5.
    const Mat w = wordLevelAttention(a, group, group);
    REQUIRE((w.rows() == 2 && w.cols() == 2));
    CHECK(w(0, 0) == Approx(0.75));
    CHECK(w(0, 1) == Approx(0.25));
    CHECK(w(1, 0) == Approx(0.5));
    CHECK(w(1, 1) == Approx(0.5));
}

TEST_CASE("word-level tokens join the pieces' texts and drop the part marks inside a word", "[word-attention]") {
    std::vector<Token> pieces(3);
    pieces[0].text = "◌", pieces[0].piece = "ä", pieces[0].completedAhead = 1;
    pieces[1].text = "你", pieces[1].piece = "½ł";
    pieces[2].text = "好", pieces[2].piece = "å¥½";
    const auto words = wordLevelTokens(pieces, {0, 0, 0});
    REQUIRE(words.size() == 1);
    CHECK(words[0].text == "你好");
    CHECK(words[0].piece == "ä½łå¥½");
}

TEST_CASE("pieces grouped into words: byte-level, word pieces, Chinese, specials", "[word-attention]") {
    // " wor" starts at a boundary (before the space), "ld" does not.
    CHECK(wordGroups({{"Hello", false, 0}, {" wor", false, 1}, {"ld", false, 1}, {"!", false, 2}}, false) == Groups{0, 1, 1, 2});
    // BERT: "##ing" (given without its prefix) continues "play"; a new word is a new group.
    CHECK(wordGroups({{"", true, -1}, {"play", false, 0}, {"ing", false, 0}, {"the", false, 1}, {"", true, -1}}, true) ==
          Groups{0, 1, 1, 2, 3});
    // BERT splits 我喜欢学习 into characters; ICU's dictionary joins 喜欢 and 学习.
    CHECK(wordGroups({{"我", false, 0}, {"喜", false, 1}, {"欢", false, 2}, {"学", false, 3}, {"习", false, 4}}, true) ==
          Groups{0, 1, 1, 2, 2});
    // Byte pieces: 你 (E4 BD A0) cut after its first byte; 你好 is one word.
    CHECK(wordGroups({{"\xE4", false, 0}, {"\xBD\xA0", false, 0}, {"好", false, 0}}, false) == Groups{0, 0, 0});
}
