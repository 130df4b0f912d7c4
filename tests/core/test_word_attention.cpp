// Word-level attention (issue 27): pieces grouped into words (ICU's word boundaries, its
// dictionary for Chinese) and Clark et al. 2019's rule: to a word = sum over its pieces, from a
// word = mean over its pieces. Expected values by hand in the comments.
#include <catch2/catch.hpp>
#include <filesystem>
#include <unistd.h>

#include "core/analysis/coreference.hpp"
#include "core/analysis/word_attention.hpp"
#include "core/source/model_session.hpp"
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

TEST_CASE("a word-level Trace: word tokens, each head's weights between words, the run's settings", "[word-attention]") {
    Trace pieces;
    for (const char* text : {"[CLS]", "play", "ing", "it", "[SEP]"}) {
        Token t;
        t.text = text;
        t.special = text[0] == '[';
        pieces.tokens.push_back(t);
    }
    pieces.wordGroups = {0, 1, 1, 2, 3};
    pieces.causal = true;
    Mat a = Mat::Zero(5, 5);
    a.row(0) << 1, 0, 0, 0, 0;
    a.row(1) << 0.5, 0.5, 0, 0, 0;
    a.row(2) << 0.2, 0.3, 0.5, 0, 0;
    a.row(3) << 0.1, 0.2, 0.3, 0.4, 0;
    a.row(4) << 0.1, 0.1, 0.1, 0.3, 0.4;
    pieces.layers.resize(1);
    pieces.layers[0].heads.resize(2);
    pieces.layers[0].heads[0].weights = AttentionWeights(MatF(a.cast<float>()));
    pieces.layers[0].heads[1].weights = AttentionWeights(MatF(a.transpose().cast<float>()));
    pieces.layers[0].heads[1].ablated = true;
    pieces.layers[0].kvHeadOf = {0, 0};
    REQUIRE(hasMultiPieceWords(pieces));

    const Trace words = wordLevelTrace(pieces);
    REQUIRE(words.tokenCount() == 4);
    CHECK(words.tokens[1].text == "playing");
    CHECK(words.tokens[0].special);
    CHECK(words.tokens[2].word == 2);  // each word a word of its own (coreference reads it so)
    CHECK(words.causal);
    CHECK(words.layers[0].kvHeadOf == std::vector<int>{0, 0});
    CHECK(words.layers[0].heads[1].ablated);
    const AttentionWeights& w = words.layers[0].heads[0].weights;
    REQUIRE(w.isFloat());  // the precision of the run
    // Row "playing" = mean of rows 1 and 2: to [CLS] (0.5 + 0.2) / 2 = 0.35; to "playing"
    // ((0.5 + 0) + (0.3 + 0.5)) / 2 = 0.65. Row "it": to "playing" 0.2 + 0.3 = 0.5, to itself 0.4.
    CHECK(w(1, 0) == Approx(0.35));
    CHECK(w(1, 1) == Approx(0.65));
    CHECK(w(2, 1) == Approx(0.5));
    CHECK(w(2, 2) == Approx(0.4));
    CHECK(w(3, 1) == Approx(0.2));  // [SEP] → 0.1 + 0.1
    // A trace without groups (a lesson) keeps its tokens: W = T.
    Trace lesson = pieces;
    lesson.wordGroups.clear();
    CHECK_FALSE(hasMultiPieceWords(lesson));
    CHECK(wordLevelTrace(lesson).layers[0].heads[0].weights.toMat().isApprox(a, 1e-6));  // float, as the run stored it
}

namespace {

namespace fs = std::filesystem;

// qwen2-tiny's weights with the Chinese tokenizer of make_tiny_tokenizers.py (Qwen's pattern).
fs::path chineseQwenFolder() {
    const fs::path source = fs::path(ATTNSCOPE_SOURCE_DIR) / "tests/reference";
    const fs::path folder = fs::temp_directory_path() / ("attnscope-words-" + std::to_string(::getpid()));
    fs::create_directories(folder);
    for (const char* name : {"config.json", "model.safetensors"})
        fs::copy_file(source / "models/qwen2-tiny" / name, folder / name, fs::copy_options::overwrite_existing);
    fs::copy_file(source / "fixtures/tokenizer-zh-tiny.json", folder / "tokenizer.json", fs::copy_options::overwrite_existing);
    return folder;
}

}  // namespace

TEST_CASE("a Chinese sentence through a Qwen-style tokenizer: words by ICU, attention and coreference between them",
          "[word-attention][models]") {
    const fs::path folder = chineseQwenFolder();
    auto opened = openModel(folder.string());
    fs::remove_all(folder);
    REQUIRE(opened.ok());
    auto run = runSentence(opened.value(), "马路很宽，它很长。", RunControl{});
    REQUIRE(run.ok());
    const Trace& pieces = run.value().trace;
    // Ids as transformers.js gives them for this file (node, @lenml/tokenizers): 马 路 很 E5AE BD
    // ， 它 很 长 。; 宽 is split over two byte pieces. ICU's words: 马路|很|宽|，|它|很|长|。
    std::vector<int> ids;
    for (const Token& t : pieces.tokens) ids.push_back(t.id);
    CHECK(ids == std::vector<int>{25, 27, 29, 30, 14, 32, 33, 29, 35, 37});
    CHECK(pieces.wordGroups == Groups{0, 0, 1, 2, 2, 3, 4, 5, 6, 7});

    const Trace words = wordLevelTrace(pieces);
    std::vector<std::string> texts;
    for (const Token& t : words.tokens) texts.push_back(t.text);
    CHECK(texts == std::vector<std::string>{"马路", "很", "宽", "，", "它", "很", "长", "。"});
    for (int head = 0; head < pieces.headCount(); ++head) {
        INFO("head " << head + 1);
        const AttentionWeights& a = pieces.layers[1].heads[static_cast<std::size_t>(head)].weights;
        const AttentionWeights& w = words.layers[1].heads[static_cast<std::size_t>(head)].weights;
        CHECK(w(4, 0) == Approx(a(6, 0) + a(6, 1)).epsilon(1e-6));                   // 它 → 马路: to a word sums
        CHECK(w(2, 1) == Approx((a(3, 2) + a(4, 2)) / 2).epsilon(1e-6));             // 宽 → 很: from a word averages
        CHECK(w(2, 2) == Approx((a(3, 3) + a(4, 3) + a(4, 4)) / 2).epsilon(1e-6));   // 宽 → 宽 (causal: a(3,4) = 0)
    }

    // Coreference on the words: 它's candidates are 马路 and 宽 (很 is a stop word, ， punctuation).
    auto resolved = resolveSentence(words, ResolveOptions{Scoring::oneHead(1, 0), false, std::nullopt});
    REQUIRE(resolved.ok());
    REQUIRE(resolved.value().mentions.size() == 1);
    const Resolution& r = resolved.value().mentions[0];
    CHECK(r.mention.text == "它");
    REQUIRE(r.candidates == std::vector<int>{0, 2});
    CHECK(resolved.value().words[0].text == "马路");
    const AttentionWeights& a = pieces.layers[1].heads[0].weights;
    const double toRoad = a(6, 0) + a(6, 1), toWide = a(6, 3) + a(6, 4);
    CHECK(r.scores(0) == Approx(toRoad / (toRoad + toWide)).epsilon(1e-6));
}
