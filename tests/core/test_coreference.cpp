// Coreference from attention (core/analysis/coreference, coref_eval, head_stats) on attention
// tensors built by hand, with every expected number worked out in the comment above its test.
#include <algorithm>
#include <cmath>
#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "core/analysis/coref_eval.hpp"
#include "core/analysis/coreference.hpp"
#include "core/analysis/head_stats.hpp"
#include "core/lesson/lesson.hpp"
#include "core/model/transformer.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/source/model_tokenizer.hpp"
#include "core/io/text_file.hpp"
#include "core/text/messages.hpp"
#include "core/tokenizers/load.hpp"
#include "core/tokenizers/tokenizer.hpp"
#include "builtin_lesson.hpp"
#include "matrix_compare.hpp"

#include "tests/matrix_literal.hpp"
#include "tests/tiny_coref_set.hpp"

using namespace attnscope;
using Catch::Matchers::Contains;

namespace {

namespace fs = std::filesystem;
using testing::layerOf;
using testing::runBuiltInLesson;
using testing::rows;

constexpr double kExact = 1e-12;

Token piece(const std::string& text, int word, bool special = false) {
    Token t;
    t.text = text;
    t.word = word;
    t.special = special;
    return t;
}

// Lesson-style tokens: one word each.
std::vector<Token> lessonTokens(const std::vector<std::string>& texts) {
    std::vector<Token> tokens;
    for (const std::string& t : texts) tokens.push_back(piece(t, -1));
    return tokens;
}


std::vector<std::string> wordTexts(const std::vector<Word>& words) {
    std::vector<std::string> out;
    for (const Word& w : words) out.push_back(w.text);
    return out;
}

std::string wordOf(const Resolution& r, const std::vector<Word>& words, int candidate) {
    if (candidate < 0) return "(none)";
    return words[static_cast<std::size_t>(r.candidates[static_cast<std::size_t>(candidate)])].text;
}

// [CLS] ele ##phant mouse and kit ##ten [SEP]: T = 8, words elephant{1,2} mouse{3} and{4} kitten{5,6}.
std::vector<Token> elephantTokens() {
    return {piece("[CLS]", -1, true), piece("ele", 0),  piece("##phant", 0), piece("mouse", 1),
            piece("and", 2),          piece("kit", 3),  piece("##ten", 3),   piece("[SEP]", -1, true)};
}

// Rows 5 and 6 (the pieces of "kitten") are what matters; the other rows are uniform.
//            [CLS] ele ##phant mouse and  kit  ##ten [SEP]
//   row 5:   .30   .10  .10    .20   .10  .05  .05   .10
//   row 6:   .10   .20  .00    .10   .20  .10  .10   .20
Mat kittenHead() {
    Mat w = Mat::Constant(8, 8, 1.0 / 8);
    w.row(5) << .30, .10, .10, .20, .10, .05, .05, .10;
    w.row(6) << .10, .20, .00, .10, .20, .10, .10, .20;
    return w;
}

// Head 2 of the same layer: row 5 all on mouse, row 6 half on mouse, half on [SEP].
Mat mouseHead() {
    Mat w = Mat::Constant(8, 8, 1.0 / 8);
    w.row(5) << 0, 0, 0, 1, 0, 0, 0, 0;
    w.row(6) << 0, 0, 0, .5, 0, 0, 0, .5;
    return w;
}

Trace elephantTrace() {
    Trace t;
    t.tokens = elephantTokens();
    t.layers = {layerOf({kittenHead(), mouseHead()})};
    return t;
}

fs::path sourceDir() { return fs::path(ATTNSCOPE_SOURCE_DIR); }

}  // namespace

// ---------------------------------------------------------------- words

TEST_CASE("words are rebuilt from BERT pieces; special tokens belong to no word", "[coref]") {
    const std::vector<Word> words = wordsOf(elephantTokens());
    CHECK(wordTexts(words) == std::vector<std::string>{"elephant", "mouse", "and", "kitten"});
    CHECK(words[0].tokens == std::vector<int>{1, 2});
    CHECK(words[3].tokens == std::vector<int>{5, 6});
    CHECK(words[2].stopWord);
    CHECK_FALSE(words[0].stopWord);
}

TEST_CASE("words are rebuilt from GPT-2 pieces, raw or as the app shows them", "[coref]") {
    // "The elephant sat." in byte-level BPE: The | Ġele phant | Ġsat | .  (words 0, 1, 2, 3)
    const std::vector<Token> raw = {piece("The", 0), piece("\xC4\xA0" "ele", 1), piece("phant", 1),
                                    piece("\xC4\xA0" "sat", 2), piece(".", 3)};
    const std::vector<Word> words = wordsOf(raw);
    CHECK(wordTexts(words) == std::vector<std::string>{"The", "elephant", "sat", "."});
    CHECK(words[3].punctuation);
    CHECK(words[0].stopWord);  // "The": stop-words are looked up lower-cased
    const std::vector<Token> shown = {piece("\xE2\x90\xA3" "sat", 0), piece("\xE2\x90\xA3" ",", 1)};
    CHECK(wordTexts(wordsOf(shown)) == std::vector<std::string>{"sat", ","});
    CHECK(wordsOf(shown)[1].punctuation);
}

TEST_CASE("a Chinese pronoun read one character at a time is one mention", "[coref]") {
    // 学 生 们 说 他 们 累 了: 他们 spans words 4..5; 们 and 了 are function characters.
    const std::vector<Word> words = wordsOf(lessonTokens({"学", "生", "们", "说", "他", "们", "累", "了"}));
    const std::vector<Mention> mentions = findPronouns(words);
    REQUIRE(mentions.size() == 1);
    CHECK(mentions[0].firstWord == 4);
    CHECK(mentions[0].lastWord == 5);
    CHECK(mentions[0].text == "他们");
    REQUIRE(mentions[0].pronoun);
    CHECK(mentions[0].pronoun->number == GrammaticalNumber::Plural);
    CHECK(candidatesFor(words, mentions[0], false) == std::vector<int>{0, 1, 3});
    CHECK(candidatesFor(words, mentions[0], true) == std::vector<int>{0, 1, 3, 6});
}

TEST_CASE("findWordSpan matches whole words across pieces, any case", "[coref]") {
    // BERT splits "didn't" into didn ' t; the span is found from the text.
    const std::vector<Word> words = wordsOf(lessonTokens({"The", "cat", "didn", "'", "t", "see", "the", "cat"}));
    CHECK(findWordSpan(words, "didn't") == std::make_pair(2, 4));
    CHECK(findWordSpan(words, "the", 2) == std::make_pair(6, 6));
    CHECK(findWordSpan(words, "cat", 2) == std::make_pair(7, 7));
    CHECK_FALSE(findWordSpan(words, "cat", 3));
    CHECK_FALSE(findWordSpan(words, "ca"));
}

// ---------------------------------------------------------------- scoring

// Mention "kitten" = pieces 5, 6. FROM a word = mean of its rows:
//   (row5 + row6)/2 = [CLS] .20, ele .15, ##phant .05, mouse .15, and .15, kit .075, ##ten .075, [SEP] .15
// TO a word = sum over its pieces: elephant .15 + .05 = .20, mouse .15, and .15, kitten .075 + .075 = .15
// ([CLS] .20 and [SEP] .15 are in no word). Candidates (before, not stop-words): elephant, mouse.
// Renormalised over them: elephant .20 / .35 = 4/7 = 0.571428…, mouse .15 / .35 = 3/7.
TEST_CASE("piece merging: to a word sums its pieces, from a word averages them; specials excluded", "[coref]") {
    const std::vector<Word> words = wordsOf(elephantTokens());
    const Mention kitten = mentionAtWord(words, 3).value();
    CHECK_FALSE(kitten.pronoun);
    REQUIRE_MATRIX_NEAR(rows({{.20, .15, .15, .15}}), attentionToWords(kittenHead(), words, kitten), kExact);
    const std::vector<int> candidates = candidatesFor(words, kitten, false);
    REQUIRE(candidates == std::vector<int>{0, 1});
    REQUIRE_MATRIX_NEAR(rows({{4.0 / 7, 3.0 / 7}}), candidateDistribution(kittenHead(), words, kitten, candidates),
                               kExact);
}

// One head: the distribution above, argmax elephant. Nearest baseline: mouse (word 1, next to
// kitten's word 3 once "and" is left out); the rule baseline falls back to nearest for a non-pronoun.
// Two heads (mean): head 2 gives from = mouse .75, [SEP] .25 → candidates [0, .75] → [0, 1];
// mean = [(4/7 + 0)/2, (3/7 + 1)/2] = [2/7, 5/7] → mouse. The whole layer is the same two heads.
TEST_CASE("one head, a set of heads, a whole layer; per-head contributions", "[coref]") {
    const Trace trace = elephantTrace();
    const std::vector<Word> words = wordsOf(trace.tokens);
    const Mention kitten = mentionAtWord(words, 3).value();

    auto one = resolveMention(trace, words, kitten, Scoring::oneHead(0, 0), false);
    REQUIRE(one.ok());
    REQUIRE_MATRIX_NEAR(rows({{4.0 / 7, 3.0 / 7}}), one.value().scores, kExact);
    CHECK(wordOf(one.value(), words, one.value().chosen) == "elephant");
    CHECK(wordOf(one.value(), words, one.value().baselines.nearest) == "mouse");
    CHECK(wordOf(one.value(), words, one.value().baselines.rule) == "mouse");
    CHECK(scoringText(one.value()) == "layer 1 head 1");
    CHECK(scoringText(one.value(), Language::Chinese) == "第 1 层第 1 头");

    auto both = resolveMention(trace, words, kitten, Scoring::headSet({{0, 0}, {0, 1}}), false);
    REQUIRE(both.ok());
    REQUIRE_MATRIX_NEAR(rows({{2.0 / 7, 5.0 / 7}}), both.value().scores, kExact);
    CHECK(wordOf(both.value(), words, both.value().chosen) == "mouse");
    const std::vector<HeadContribution> toElephant = contributionsTo(both.value(), 0);
    REQUIRE(toElephant.size() == 2);
    CHECK(toElephant[0].head == HeadRef{0, 0});
    CHECK(toElephant[0].score == Approx(4.0 / 7).margin(kExact));
    CHECK(toElephant[1].score == Approx(0).margin(kExact));

    auto layer = resolveMention(trace, words, kitten, Scoring::wholeLayer(0), false);
    REQUIRE(layer.ok());
    REQUIRE_MATRIX_NEAR(both.value().scores, layer.value().scores, kExact);
    CHECK(scoringText(layer.value()) == "mean of all 2 heads of layer 1");
    CHECK(scoringText(layer.value(), Language::Chinese) == "第 1 层全部 2 个头的平均");
}

TEST_CASE("bad heads, layers and mentions are errors naming them", "[coref]") {
    const Trace trace = elephantTrace();
    const std::vector<Word> words = wordsOf(trace.tokens);
    const Mention kitten = mentionAtWord(words, 3).value();
    auto badHead = resolveMention(trace, words, kitten, Scoring::oneHead(0, 2), false);
    REQUIRE_FALSE(badHead.ok());
    CHECK(badHead.error().text() == "head 1:3: expected a head from 1 to 2, found 3");
    auto badLayer = resolveMention(trace, words, kitten, Scoring::oneHead(1, 0), false);
    REQUIRE_FALSE(badLayer.ok());
    CHECK(badLayer.error().text() == "head 2:1: expected a layer from 1 to 1, found 2");
    CHECK_FALSE(mentionAtWord(words, 4).ok());
    Trace noWeights = trace;
    noWeights.layers[0].heads[1].weights = Mat();
    auto badWholeLayer = resolveMention(trace, words, kitten, Scoring::wholeLayer(3), false);
    REQUIRE_FALSE(badWholeLayer.ok());
    CHECK(badWholeLayer.error().text() == "layer 4: expected a layer from 1 to 1, found 4");
    auto missing = resolveMention(noWeights, words, kitten, Scoring::wholeLayer(0), false);
    REQUIRE_FALSE(missing.ok());
    CHECK_THAT(missing.error().text(), Contains("head 1:2") && Contains("found 0×0"));
}

// Rollout, tokens cat mat it (lesson words), three layers. Â = rownorm(mean_h A + I) = (A + I)/2
// because every row of A sums to 1.
//   A1 = [[0,1,0],[0,1,0],[0,1,0]]                       Â1 = [[.5,.5,0],[0,1,0],[0,.5,.5]]
//   A2 = mean of [[1,0,0],[0,1,0],[1,0,0]] and [[1,0,0],[0,1,0],[0,0,1]]
//      = [[1,0,0],[0,1,0],[.5,0,.5]]                     Â2 = [[1,0,0],[0,1,0],[.25,0,.75]]
//   A3 = [[0,0,1],[0,1,0],[.5,0,.5]]                      Â3 = [[.5,0,.5],[0,1,0],[.25,0,.75]]
// R = Â3·Â2·Â1:
//   Â2·Â1 = [[.5,.5,0],[0,1,0],[.25·.5 + .75·0, .25·.5 + .75·.5, .75·.5]] = [[.5,.5,0],[0,1,0],[.125,.5,.375]]
//   row 0 of R = .5·[.5,.5,0] + .5·[.125,.5,.375] = [.3125, .5, .1875]
//   row 1 of R = [0, 1, 0]
//   row 2 of R = .25·[.5,.5,0] + .75·[.125,.5,.375] = [.21875, .5, .28125]
// "it" (row 2) → candidates cat .21875, mat .5 → / .71875: cat 7/23 = 0.3043…, mat 16/23 = 0.6956… → mat.
// (The wrong order Â1·Â2·Â3 would give row 2 = [.15625, .5, .34375], cat 0.238.)
// The three layers of the comment above: cat mat it, two heads a layer.
static Trace threeLayerRolloutTrace() {
    Trace t;
    t.tokens = lessonTokens({"cat", "mat", "it"});
    const Mat a1 = rows({{0, 1, 0}, {0, 1, 0}, {0, 1, 0}});
    const Mat a3 = rows({{0, 0, 1}, {0, 1, 0}, {.5, 0, .5}});
    t.layers = {layerOf({a1, a1}),
                layerOf({rows({{1, 0, 0}, {0, 1, 0}, {1, 0, 0}}), rows({{1, 0, 0}, {0, 1, 0}, {0, 0, 1}})}),
                layerOf({a3, a3})};
    return t;
}

TEST_CASE("attention rollout through three layers, computed by hand", "[coref]") {
    Trace t = threeLayerRolloutTrace();
    auto rollout = attentionRollout(t);
    REQUIRE(rollout.ok());
    REQUIRE_MATRIX_NEAR(rows({{.3125, .5, .1875}, {0, 1, 0}, {.21875, .5, .28125}}), rollout.value(), kExact);
    // Only the rows asked for, in the order asked: the same numbers.
    auto picked = attentionRolloutRows(t, {2, 0});
    REQUIRE(picked.ok());
    REQUIRE_MATRIX_NEAR(rows({{.21875, .5, .28125}, {.3125, .5, .1875}}), picked.value(), kExact);
    auto resolved = resolveSentence(t, {Scoring::rollout(), false, std::nullopt});
    REQUIRE(resolved.ok());
    REQUIRE(resolved.value().mentions.size() == 1);
    const Resolution& it = resolved.value().mentions[0];
    REQUIRE_MATRIX_NEAR(rows({{7.0 / 23, 16.0 / 23}}), it.scores, kExact);
    CHECK(wordOf(it, resolved.value().words, it.chosen) == "mat");
    CHECK(it.heads.empty());
    CHECK(it.headScores.rows() == 0);
}

// The same three layers with heads switched off (issue 14 §1): an ablated head counts as an
// all-zero A, as Hugging Face returns it under head_mask, and the mean is still over both heads.
//   layer 2, head 2 off: mean = A2_head1 / 2 = [[.5,0,0],[0,.5,0],[.5,0,0]]; + I, rownorm:
//                        Â2 = [[1,0,0],[0,1,0],[1/3,0,2/3]]
//   layer 3, head 1 off: mean = A3 / 2; + I = [[1,0,.5],[0,1.5,0],[.25,0,1.25]]; rownorm:
//                        Â3 = [[2/3,0,1/3],[0,1,0],[1/6,0,5/6]]
//   Â2·Â1 row 2 = 1/3·[.5,.5,0] + 2/3·[0,.5,.5] = [1/6, 1/2, 1/3]
//   R row 2 = 1/6·[.5,.5,0] + 5/6·[1/6,1/2,1/3] = [2/9, 1/2, 5/18]; row 0 = 2/3·[.5,.5,0] + 1/3·[1/6,1/2,1/3]
//           = [7/18, 1/2, 1/9]
// "it" → cat 2/9, mat 1/2 → / (13/18): cat 4/13, mat 9/13.
// Layer 2 as a whole for "it": head 1's row [1,0,0] gives cat 1, mat 0; head 2 (its row [0,0,1]
// reaches no candidate) is off, so the mean of the heads that are on is [1, 0] (on: [.5, 0]).
TEST_CASE("rollout and layer scoring with heads switched off, computed by hand", "[coref][ablation]") {
    Trace t = threeLayerRolloutTrace();
    auto layerTwo = resolveSentence(t, {Scoring::wholeLayer(1), false, std::nullopt});
    REQUIRE(layerTwo.ok());
    REQUIRE_MATRIX_NEAR(rows({{.5, 0}}), layerTwo.value().mentions[0].scores, kExact);
    t.layers[1].heads[1].ablated = true;
    t.layers[2].heads[0].ablated = true;
    auto rollout = attentionRollout(t);
    REQUIRE(rollout.ok());
    REQUIRE_MATRIX_NEAR(rows({{7.0 / 18, .5, 1.0 / 9}, {0, 1, 0}, {2.0 / 9, .5, 5.0 / 18}}), rollout.value(), kExact);
    auto resolved = resolveSentence(t, {Scoring::rollout(), false, std::nullopt});
    REQUIRE(resolved.ok());
    REQUIRE_MATRIX_NEAR(rows({{4.0 / 13, 9.0 / 13}}), resolved.value().mentions[0].scores, kExact);
    layerTwo = resolveSentence(t, {Scoring::wholeLayer(1), false, std::nullopt});
    REQUIRE(layerTwo.ok());
    REQUIRE_MATRIX_NEAR(rows({{1, 0}}), layerTwo.value().mentions[0].scores, kExact);
    // One head, switched off: it passes nothing on, so nothing reaches a candidate.
    auto off = resolveSentence(t, {Scoring::oneHead(2, 0), false, std::nullopt});
    REQUIRE(off.ok());
    REQUIRE_MATRIX_NEAR(rows({{0, 0}}), off.value().mentions[0].scores, kExact);
}

TEST_CASE("rollout needs every layer's weights", "[coref]") {
    Trace t;
    t.tokens = lessonTokens({"cat", "it"});
    t.layers = {layerOf({rows({{1, 0}, {1, 0}})}), layerOf({Mat()})};
    auto rollout = attentionRollout(t);
    REQUIRE_FALSE(rollout.ok());
    CHECK_THAT(rollout.error().text(), Contains("layer 2"));
}

TEST_CASE("ties go to the candidate nearest the mention", "[coref]") {
    // cat mat it, with "it" spreading evenly: cat .5, mat .5 → mat (1 word away, cat 2).
    const std::vector<Word> words = wordsOf(lessonTokens({"cat", "mat", "it"}));
    const Mention it = mentionAtWord(words, 2).value();
    RowVec even(2);
    even << .5, .5;
    CHECK(chooseCandidate(even, {0, 1}, it) == 1);
}

// ---------------------------------------------------------------- baselines

// Hand-checked (candidates exclude stop-words: the, and, that, because, was, too, …):
//  1. the animal didn't cross the street because it was too tired   it: animal cross street
//     nearest street; rule: listed and agreeing (non-human singular): animal, street → street
//  2. john told mary that she won      she: john told mary → nearest mary, rule mary (female)
//  3. mary told john that he won       he → nearest john, rule john
//  4. the boys saw the girl and they laughed   they: boys saw girl → nearest girl;
//     rule: girl singular ✗, saw singular ✗, boys plural male ✓ → boys
//  5. the man met the woman and he smiled   he: man met woman → nearest woman; rule: woman female ✗,
//     met unlisted, man listed male ✓ → man
//  6. 爸 爸 和 妈 妈 说 她 累 了   她: 爸 爸 妈 妈 说 → nearest 说; rule: listed female 妈 (word 4)
TEST_CASE("baselines on a small hand-checked set", "[coref]") {
    struct Case {
        std::vector<std::string> words;
        std::string nearest, rule;
    };
    const std::vector<Case> cases = {
        {{"the", "animal", "didn't", "cross", "the", "street", "because", "it", "was", "too", "tired"}, "street", "street"},
        {{"john", "told", "mary", "that", "she", "won"}, "mary", "mary"},
        {{"mary", "told", "john", "that", "he", "won"}, "john", "john"},
        {{"the", "boys", "saw", "the", "girl", "and", "they", "laughed"}, "girl", "boys"},
        {{"the", "man", "met", "the", "woman", "and", "he", "smiled"}, "woman", "man"},
        {{"爸", "爸", "和", "妈", "妈", "说", "她", "累", "了"}, "说", "妈"},
    };
    for (const Case& c : cases) {
        const std::vector<Word> words = wordsOf(lessonTokens(c.words));
        const std::vector<Mention> mentions = findPronouns(words);
        INFO("sentence starting " << c.words[0] << " " << c.words[1]);
        // "that" in 2 and 3 is on the pronoun list too; the personal pronoun is the last mention.
        REQUIRE(!mentions.empty());
        const Mention& m = mentions.back();
        const std::vector<int> candidates = candidatesFor(words, m, false);
        const auto textOf = [&](int index) {
            return index < 0 ? std::string("(none)")
                             : words[static_cast<std::size_t>(candidates[static_cast<std::size_t>(index)])].text;
        };
        CHECK(textOf(nearestBaseline(candidates, m)) == c.nearest);
        CHECK(textOf(ruleBaseline(words, candidates, m)) == c.rule);
    }
    // Case 6 picks the second 妈 (word 4), the one nearest the mention.
    const std::vector<Word> zh = wordsOf(lessonTokens(cases[5].words));
    const Mention she = findPronouns(zh).back();
    const std::vector<int> candidates = candidatesFor(zh, she, false);
    CHECK(candidates[static_cast<std::size_t>(ruleBaseline(zh, candidates, she))] == 4);
}

TEST_CASE("noun heuristic: plural -s, irregular plurals, lists", "[coref]") {
    CHECK(nounOf("boys").number == GrammaticalNumber::Plural);
    CHECK(nounOf("boys").kind == NounKind::Male);
    CHECK(nounOf("glass").number == GrammaticalNumber::Singular);  // -ss is not a plural
    CHECK(nounOf("children").kind == NounKind::Person);
    CHECK(nounOf("Stories").number == GrammaticalNumber::Plural);
    CHECK(nounOf("桌").kind == NounKind::Thing);
    CHECK(nounOf("猫").number == GrammaticalNumber::Unknown);
    CHECK_FALSE(agrees(*pronounOf("it"), nounOf("teacher")));
    CHECK(agrees(*pronounOf("she"), nounOf("teacher")));
    CHECK_FALSE(agrees(*pronounOf("they"), nounOf("teacher")));
}

// ---------------------------------------------------------------- the built-in lesson

// Lesson "coreference", head 1, row "it": scores q(it)·k / √2 with q(it) = [2, 2]:
// animal 6/√2, street 2/√2, cross 0 (see the lesson's description), so over the candidates
// animal : cross : street = e^4.2426 : e^0 : e^1.4142 = 69.58 : 1 : 4.113 → 0.93155, 0.01339, 0.05506.
// Head 2's query for "it" is [0, 0]: uniform, 1/3 each over the three candidates, so the whole
// layer (mean of the two distributions) gives animal (0.93155 + 1/3)/2 = 0.63244.
// Rollout of one layer scores the mean attention instead: row "it" of head 1 is animal
// e^4.2426/79.677 = 0.87342, street 4.113/79.677 = 0.05162, cross 1/79.677 = 0.01255 (79.677 =
// 69.59 + 4.113 + 5·e^0 + 4·e^−1.4142 over the 11 tokens); head 2 gives 1/11 each; the mean is
// animal 0.48221, street 0.07117, cross 0.05168; the identity only adds to "it" itself, so over the
// candidates animal = 0.48221 / 0.60506 = 0.79675.
TEST_CASE("the built-in coreference lesson resolves it → animal", "[coref]") {
    const Trace trace = runBuiltInLesson("coreference");
    for (const Scoring& scoring : {Scoring::oneHead(0, 0), Scoring::wholeLayer(0), Scoring::rollout()}) {
        auto resolved = resolveSentence(trace, {scoring, false, std::nullopt});
        REQUIRE(resolved.ok());
        REQUIRE(resolved.value().mentions.size() == 1);
        const Resolution& it = resolved.value().mentions[0];
        const std::vector<Word>& words = resolved.value().words;
        INFO(scoringText(it));
        CHECK(it.mention.text == "it");
        std::vector<std::string> candidates;
        for (int c : it.candidates) candidates.push_back(words[static_cast<std::size_t>(c)].text);
        CHECK(candidates == std::vector<std::string>{"animal", "cross", "street"});
        CHECK(wordOf(it, words, it.chosen) == "animal");
        const double expected = scoring.kind == Scoring::Kind::Heads   ? 0.9315537677
                                : scoring.kind == Scoring::Kind::Layer ? 0.6324435505
                                                                       : 0.7967538060;
        CHECK(it.scores(0) == Approx(expected).margin(1e-9));
        CHECK(wordOf(it, words, it.baselines.nearest) == "street");
        CHECK(wordOf(it, words, it.baselines.rule) == "street");
    }
}

// ---------------------------------------------------------------- head statistics

// Tokens a b c d (no specials, no punctuation). Shares are means over rows:
//  prev head  rows [1,0,0,0] [1,0,0,0] [0,1,0,0] [0,0,1,0]: previous (1+1+1)/3 = 1, self 1/4, next 0,
//             entropy 0 bits → "previous-token"
//  even head  every row .25: previous .25, next .25, self .25, entropy 2 bits, normalised 2/log₂4 = 1 → "broad"
//  edge head  rows [1,0,0,0] [.5,.5,0,0] [0,.5,.5,0] [0,0,.5,.5]: previous (.5+.5+.5)/3 = .5 (exactly the
//             threshold), self (1+.5+.5+.5)/4 = .625, entropy (0+1+1+1)/4 = .75 bits, normalised .375
//             → "previous-token" (checked before "self"); with previous threshold .51 → "self"
TEST_CASE("head statistics and their label thresholds", "[coref]") {
    Trace t;
    t.tokens = lessonTokens({"a", "b", "c", "d"});
    const Mat prev = rows({{1, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}});
    const Mat even = Mat::Constant(4, 4, .25);
    const Mat edge = rows({{1, 0, 0, 0}, {.5, .5, 0, 0}, {0, .5, .5, 0}, {0, 0, .5, .5}});
    t.layers = {layerOf({prev, even, edge})};
    auto stats = headStatistics(t);
    REQUIRE(stats.ok());
    REQUIRE(stats.value().size() == 3);
    const HeadStatistics& p = stats.value()[0];
    CHECK(p.previousShare == Approx(1).margin(kExact));
    CHECK(p.selfShare == Approx(.25).margin(kExact));
    CHECK(p.nextShare == Approx(0).margin(kExact));
    CHECK(p.entropy == Approx(0).margin(kExact));
    CHECK(p.labels == std::vector<std::string>{"previous-token"});
    const HeadStatistics& e = stats.value()[1];
    CHECK(e.entropy == Approx(2).margin(kExact));
    CHECK(e.normalizedEntropy == Approx(1).margin(kExact));
    CHECK(e.nextShare == Approx(.25).margin(kExact));
    CHECK(e.labels == std::vector<std::string>{"broad"});
    const HeadStatistics& g = stats.value()[2];
    CHECK(g.previousShare == Approx(.5).margin(kExact));
    CHECK(g.selfShare == Approx(.625).margin(kExact));
    CHECK(g.entropy == Approx(.75).margin(kExact));
    CHECK(g.normalizedEntropy == Approx(.375).margin(kExact));
    CHECK(g.labels == std::vector<std::string>{"previous-token"});
    HeadLabelThresholds stricter;
    stricter.previous = .51;
    CHECK(patternLabel(g, stricter) == "self");
    stricter.self = .7;
    CHECK(patternLabel(g, stricter) == "mixed");
}

// [CLS] x . y [SEP]: a head sending every row half to [CLS] and half to "." has delimiter share 1;
// one sending .3 to [SEP] and .7 to y has .3 (below .5). Next-token: rows i < 4 put 1 on i+1.
TEST_CASE("delimiter sink and next-token labels; coreference label from an evaluation", "[coref]") {
    Trace t;
    t.tokens = {piece("[CLS]", -1, true), piece("x", 0), piece(".", 1), piece("y", 2), piece("[SEP]", -1, true)};
    Mat sink = Mat::Zero(5, 5);
    sink.col(0).setConstant(.5);
    sink.col(2).setConstant(.5);
    Mat some = Mat::Zero(5, 5);
    some.col(4).setConstant(.3);
    some.col(3).setConstant(.7);
    Mat next = Mat::Zero(5, 5);
    for (int i = 0; i < 4; ++i) next(i, i + 1) = 1;
    next(4, 3) = 1;  // delimiter share: rows 1 and 3 land on "." and [SEP] → 2/5 = .4, below .5
    t.layers = {layerOf({sink, some, next})};
    // An evaluation where head 3 (1:3) reaches 0.6, head 1 0.2, head 2 0.6; baselines 0.4 and 0.6.
    CorefEvaluation eval;
    eval.layers = 1, eval.headsPerLayer = 3, eval.evaluated = 5, eval.nearestCorrect = 2, eval.ruleCorrect = 3;
    eval.accuracy = rows({{.2, .6, .6}});
    auto stats = headStatistics(t, &eval);
    REQUIRE(stats.ok());
    CHECK(stats.value()[0].delimiterShare == Approx(1).margin(kExact));
    // Rows 1–4 also put .5 on [CLS], the first token: first-token share .5, an attention sink too.
    CHECK(stats.value()[0].firstShare == Approx(.5).margin(kExact));
    CHECK(stats.value()[0].labels == std::vector<std::string>{"delimiter sink", "attention sink"});
    CHECK(stats.value()[1].delimiterShare == Approx(.3).margin(kExact));
    CHECK(stats.value()[1].labels.back() == "coreference");
    CHECK(stats.value()[2].nextShare == Approx(1).margin(kExact));
    CHECK(stats.value()[2].labels == std::vector<std::string>{"next-token", "coreference"});
    REQUIRE(stats.value()[0].corefAccuracy);
    CHECK(*stats.value()[0].corefAccuracy == Approx(.2));
    CorefEvaluation wrongShape = eval;
    wrongShape.headsPerLayer = 4;
    CHECK_FALSE(headStatistics(t, &wrongShape).ok());
}

// Tokens a b c d (no specials): the first-token ("attention sink") share is the mean of A[i, 0]
// over rows i ≥ 1 (row 0 of a causal head can only see itself, so it is left out).
//  parked head rows [1,0,0,0] [.9,.1,0,0] [.6,.2,.2,0] [.4,.2,.2,.2]: first (.9+.6+.4)/3 = .633…
//             ≥ .5 → "attention sink" after its pattern label (self (1+.1+.2+.2)/4 = .375, previous
//             (.9+.2+.2)/3 = .433…, entropy > 0: normalised entropy decides "broad" or "mixed")
//  spread head rows [1,0,0,0] [.5,.5,0,0] [.3,.3,.4,0] [.1,.3,.3,.3]: first (.5+.3+.1)/3 = .3 → none
TEST_CASE("head statistics: the first-token share and the attention-sink label", "[coref]") {
    Trace t;
    t.tokens = lessonTokens({"a", "b", "c", "d"});
    t.causal = true;
    const Mat parked = rows({{1, 0, 0, 0}, {.9, .1, 0, 0}, {.6, .2, .2, 0}, {.4, .2, .2, .2}});
    const Mat spread = rows({{1, 0, 0, 0}, {.5, .5, 0, 0}, {.3, .3, .4, 0}, {.1, .3, .3, .3}});
    t.layers = {layerOf({parked, spread})};
    auto stats = headStatistics(t);
    REQUIRE(stats.ok());
    const HeadStatistics& p = stats.value()[0];
    CHECK(p.firstShare == Approx(1.9 / 3).margin(kExact));
    REQUIRE(p.labels.size() == 2);
    CHECK(p.labels[1] == "attention sink");
    const HeadStatistics& s = stats.value()[1];
    CHECK(s.firstShare == Approx(.3).margin(kExact));
    CHECK(std::find(s.labels.begin(), s.labels.end(), "attention sink") == s.labels.end());
    HeadLabelThresholds stricter;
    stricter.sink = .64;  // above .633…: no longer a sink
    auto strict = headStatistics(t, nullptr, stricter);
    REQUIRE(strict.ok());
    CHECK(strict.value()[0].labels.size() == 1);
    CHECK(headLabelText("attention sink", Language::Chinese) == "注意力汇点");
}

// The norm-weighted share of the first token: a norm-weighted trace's rows (core's
// normWeightedTrace) already sum to 1, so it is the mean of row i's column 0 over rows i ≥ 1.
// Weights of head 1 as "parked" above, ‖f(x_j)‖ = [0.1, 1, 1, 1]: rows α_ij‖f_j‖ / Σ_j
//   row 1 [.09, .1]     → .09/.19        row 2 [.06, .2, .2] → .06/.46
//   row 3 [.04, .2, .2, .2] → .04/.64    mean (.09/.19 + .06/.46 + .04/.64) / 3
// Head 2 is missing from the norm-weighted trace: it stays without a share.
TEST_CASE("head statistics: the first-token share by weight × ‖value‖", "[coref]") {
    Trace t;
    t.tokens = lessonTokens({"a", "b", "c", "d"});
    t.causal = true;
    const Mat parked = rows({{1, 0, 0, 0}, {.9, .1, 0, 0}, {.6, .2, .2, 0}, {.4, .2, .2, .2}});
    t.layers = {layerOf({parked, parked})};
    Trace norms = t;
    Mat shares = rows({{1, 0, 0, 0}, {.09, .1, 0, 0}, {.06, .2, .2, 0}, {.04, .2, .2, .2}});
    for (Eigen::Index i = 0; i < shares.rows(); ++i) shares.row(i) /= shares.row(i).sum();
    norms.layers = {layerOf({shares})};
    auto stats = headStatistics(t);
    REQUIRE(stats.ok());
    CHECK_FALSE(stats.value()[0].normFirstShare);
    addNormFirstShares(stats.value(), norms);
    REQUIRE(stats.value()[0].normFirstShare);
    CHECK(*stats.value()[0].normFirstShare == Approx((.09 / .19 + .06 / .46 + .04 / .64) / 3).margin(kExact));
    CHECK(stats.value()[0].firstShare == Approx(1.9 / 3).margin(kExact));  // the weights' share unchanged
    CHECK_FALSE(stats.value()[1].normFirstShare);
}
