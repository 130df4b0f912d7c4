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

TEST_CASE("words are rebuilt from BERT pieces, special tokens belong to no word", "[coref]") {
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
TEST_CASE("piece merging: to a word sums its pieces, from a word averages them, specials excluded", "[coref]") {
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
TEST_CASE("one head, a set of heads, a whole layer, per-head contributions", "[coref]") {
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
TEST_CASE("delimiter sink and next-token labels, coreference label from an evaluation", "[coref]") {
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

// ---------------------------------------------------------------- coreference set files

TEST_CASE("a coreference set parses: comments, blank lines, defaults", "[coref]") {
    const std::string text =
        "# a comment\n"
        "\n"
        R"({"sentence": "The cat saw the dog and it ran", "mention": "it", "antecedent": "dog", "id": "a", "pair": "p1"})" "\n"
        R"({"sentence": "The cat saw the cat", "mention": "cat", "mention_occurrence": 2, "antecedent": "cat"})" "\n";
    auto set = parseCorefSet(text, "set.jsonl");
    INFO((set ? std::string() : set.error().text()));
    REQUIRE(set.ok());
    REQUIRE(set.value().examples.size() == 2);
    const CorefExample& a = set.value().examples[0];
    CHECK(a.line == 3);
    CHECK(a.mentionOccurrence == 1);
    CHECK(a.pair == "p1");
    CHECK(exampleLabel(set.value(), a) == "set.jsonl: line 3 (a)");
    CHECK(set.value().examples[1].mentionOccurrence == 2);
}

TEST_CASE("malformed coreference sets name the file, the line and the field", "[coref]") {
    struct Bad {
        std::string text, message;
    };
    const std::string ok = R"({"sentence": "The cat ran and it sat", "mention": "it", "antecedent": "cat"})";
    const std::vector<Bad> cases = {
        {ok + "\n{\"sentence\": \"x\"", "set.jsonl: line 2: expected a JSON object on one line, found text that is not valid JSON at column 17: "
                                         "expected '}', found the end of the text (syntax error while parsing object - "
                                         "unexpected end of input; expected '}')"},
        {"[1, 2]", "set.jsonl: line 1: expected a JSON object, found a list of 2"},
        {R"({"sentence": "The cat ran", "mention": "it"})",
         "set.jsonl: line 1: antecedent: expected text, found nothing (the field is missing)"},
        {R"({"sentence": "The cat ran and it sat", "mention": 7, "antecedent": "cat"})",
         "set.jsonl: line 1: mention: expected text, found the number 7"},
        {ok + "\n" + R"({"sentence": "it and it", "mention": "it", "mention_occurrence": "2", "antecedent": "and"})",
         "set.jsonl: line 2: mention_occurrence: expected a whole number from 1 to 1000, found the text \"2\""},
        {R"({"sentence": "The cat ran and it sat", "mention": "it", "antecedant": "cat"})",
         "set.jsonl: line 1: antecedant: unknown field"},
        {R"({"sentence": "The cat sat with the dog", "mention": "it", "antecedent": "cat"})",
         "set.jsonl: line 1: mention: expected \"it\" to occur as a word 1 time in the sentence, found 0"},
        {R"({"sentence": "The cat ran and it sat", "mention": "it", "antecedent": "dog"})",
         "set.jsonl: line 1: antecedent: expected \"dog\" to occur as a word 1 time in the sentence, found 0"},
        {R"({"sentence": "it ran", "mention": "it", "antecedent": "it"})",
         "set.jsonl: line 1: antecedent: expected a word other than the mention"},
        {R"({"sentence": "", "mention": "it", "antecedent": "cat"})", "set.jsonl: line 1: sentence: expected text, found an empty string"},
        {"# only a comment\n\n", "set.jsonl: expected at least one example line, found none"},
    };
    for (const Bad& bad : cases) {
        auto set = parseCorefSet(bad.text, "set.jsonl");
        INFO("input: " << bad.text);
        REQUIRE_FALSE(set.ok());
        CHECK_THAT(set.error().text(), Contains(bad.message));
    }
    auto missing = readCorefSet("/no/such/dir/set.jsonl");
    REQUIRE_FALSE(missing.ok());
    CHECK_THAT(missing.error().text(), Contains("/no/such/dir/set.jsonl"));
}

TEST_CASE("the shipped coreference sets parse and are large enough", "[coref]") {
    auto en = readCorefSet(sourceDir() / "resources/coref/english.jsonl");
    INFO((en ? std::string() : en.error().text()));
    REQUIRE(en.ok());
    CHECK(en.value().examples.size() >= 150);
    auto zh = readCorefSet(sourceDir() / "resources/coref/chinese.jsonl");
    INFO((zh ? std::string() : zh.error().text()));
    REQUIRE(zh.ok());
    CHECK(zh.value().examples.size() >= 50);
}

// ---------------------------------------------------------------- evaluation

namespace {

// Sentences through the built-in coreference lesson (its own tokenizer and two hand-made heads).
SentenceRunner coreferenceLessonRunner() {
    return [](const std::string& sentence) -> Result<Trace> { return runBuiltInLesson("coreference", sentence); };
}

}  // namespace

// The lesson as the runner: "it" resolves to "animal" under head 1 and to "animal" under head 2
// too (uniform over animal/cross/street: a tie, which goes to the nearest, street — so head 2 is
// wrong). Example 2 asks for "street" with "wide": head 1 still says animal (a single layer cannot
// see "wide"), head 2 says street by the tie rule.
//   head 1: 1/2, head 2: 1/2; nearest (street): 1/2; rule (street): 1/2.
TEST_CASE("evaluation over a set with the lesson as the runner, progress and cancel", "[coref]") {
    const std::string text =
        R"({"sentence": "The animal didn't cross the street because it was too tired", "mention": "it", "antecedent": "animal"})" "\n"
        R"({"sentence": "The animal didn't cross the street because it was too wide", "mention": "it", "antecedent": "street"})" "\n"
        R"({"sentence": "The animal didn't cross the street because it was too wide", "mention": "was", "antecedent": "too"})" "\n";
    auto set = parseCorefSet(text, "lesson-set.jsonl");
    REQUIRE(set.ok());
    const SentenceRunner run = coreferenceLessonRunner();
    std::vector<int> progress;
    EvaluationControl control;
    control.progress = [&](int done, int total) { progress.push_back(done * 10 + total); };
    auto eval = evaluateCorefSet(set.value(), run, control);
    INFO((eval ? std::string() : eval.error().text()));
    REQUIRE(eval.ok());
    const CorefEvaluation& e = eval.value();
    CHECK(progress == std::vector<int>{13, 23, 33});
    CHECK(e.evaluated == 2);
    CHECK(e.skipped() == 1);
    CHECK_THAT(noticeText(*e.outcomes[2].skipReason, Language::English), Contains("not a candidate"));
    REQUIRE_MATRIX_NEAR(rows({{.5, .5}}), e.accuracy, kExact);
    CHECK(e.nearestAccuracy() == Approx(.5));
    CHECK(e.ruleAccuracy() == Approx(.5));
    // Rollout: the mean attention → animal (0.797) in both sentences → 1/2.
    CHECK(e.rolloutAccuracy() == Approx(.5));
    REQUIRE_MATRIX_NEAR(rows({{1, 1}}), e.correct, kExact);
    REQUIRE(e.ranking.size() == 2);
    CHECK(e.ranking[0].head == HeadRef{0, 0});
    CHECK(bestHeads(e, 1) == std::vector<HeadRef>{{0, 0}});
    CHECK(bestHeads(e, 5).size() == 2);

    std::atomic<bool> cancel{true};
    EvaluationControl cancelled;
    cancelled.cancel = &cancel;
    auto stopped = evaluateCorefSet(set.value(), run, cancelled);
    REQUIRE_FALSE(stopped.ok());
    CHECK_THAT(stopped.error().text(), Contains("cancelled"));

    const SentenceRunner failing = [](const std::string&) -> Result<Trace> { return Error{"text", "bad byte"}; };
    auto failed = evaluateCorefSet(set.value(), failing);
    REQUIRE_FALSE(failed.ok());
    CHECK(failed.error().text() == "lesson-set.jsonl: line 1: text: bad byte");
}

// End to end on the random-weight tiny BERT (tests/reference/models/bert-tiny), its WordPiece
// tokenizer and [CLS]/[SEP] (ids 2, 3). Candidates leave out stop-words (the, on, and, by, with, …):
//  1. the cat sat on the mat and it ran       it: cat sat mat        gold cat
//     nearest mat ✗; rule: listed non-human singular cat, mat → mat ✗
//  2. the dog sat by the tree and it ran      it: dog sat tree       gold dog
//     nearest tree ✗; rule tree ✗
//  3. the cats sat on the mat and they ran    they: cats(cat ##s) sat mat   gold cats
//     nearest mat ✗; rule: mat singular ✗, sat singular ✗, cats plural animal ✓ → cats ✓
//  4. she read the book and it was red        it: read book          gold book
//     nearest book ✓; rule book ✓
//  5. he sat by the river , then he ran       he (2nd): gold he (1st) is a stop-word → skipped
//  6. the cat sat with two dogs and they ran  they: cat sat two dogs(dog ##s)   gold dogs
//     nearest dogs ✓; rule: dogs plural animal ✓
// Evaluated 5: nearest 2/5 = 0.4, rule 3/5 = 0.6. Every head's accuracy is a multiple of 1/5.
// First candidate: cat ✓, dog ✓, cats ✓, read ✗, cat ✗ → 3/5 = 0.6.
// Random pick (one gold candidate each): (1/3 + 1/3 + 1/3 + 1/2 + 1/4) / 5 = 1.75 / 5 = 0.35.
TEST_CASE("evaluation end to end on the tiny random BERT: baselines computed by hand", "[coref]") {
    const fs::path folder = sourceDir() / "tests/reference/models/bert-tiny";
    auto model = loadModel(folder);
    REQUIRE(model.ok());
    auto tokenizer = ModelTokenizer::load(folder);
    REQUIRE(tokenizer.ok());
    const ModelTokenizer& tok = tokenizer.value();
    const SentenceRunner run = [&](const std::string& sentence) -> Result<Trace> {
        auto pieces = tok.encode(sentence);
        if (!pieces) return pieces.error();
        std::vector<int> ids;
        for (const Token& t : pieces.value()) ids.push_back(t.id);
        REQUIRE(tok.wrap(ids).front() == 2);  // bert-tiny's [CLS] … [SEP] are ids 2 and 3
        REQUIRE(tok.wrap(ids).back() == 3);
        RunControl control;
        control.fullDetailMaxTokens = 0;  // weights are all coreference needs
        auto ran = runModel(model.value(), tok.wrap(ids), tok.wrap(pieces.value()), control);
        if (!ran) return ran.error();
        return std::move(ran).value().trace;
    };
    const std::string text = kTinyCorefSet;
    auto set = parseCorefSet(text, "tiny.jsonl");
    INFO((set ? std::string() : set.error().text()));
    REQUIRE(set.ok());
    auto eval = evaluateCorefSet(set.value(), run);
    INFO((eval ? std::string() : eval.error().text()));
    REQUIRE(eval.ok());
    const CorefEvaluation& e = eval.value();
    CHECK(e.layers == 2);
    CHECK(e.headsPerLayer == 4);
    CHECK(e.evaluated == 5);
    CHECK(e.nearestCorrect == 2);
    CHECK(e.ruleCorrect == 3);
    CHECK(e.nearestAccuracy() == Approx(.4));
    CHECK(e.ruleAccuracy() == Approx(.6));
    CHECK(e.firstCorrect == 3);
    CHECK(e.firstAccuracy() == Approx(.6));
    CHECK(e.randomCorrect == Approx(1.75));
    CHECK(e.randomAccuracy() == Approx(.35));
    CHECK(e.outcomes[3].candidateCount == 2);
    CHECK(e.outcomes[5].candidateCount == 4);
    CHECK(e.random.accuracy == Approx(.35));
    CHECK(e.first.correct == 3);
    // Bootstrap over 5 examples: every resampled mean of a 0/1 column is a multiple of 1/5, and
    // the interval holds the accuracy; the random pick's mean lies between 1/4 and 1/2.
    CHECK(e.bootstrap.resamples == 1000);
    CHECK(e.rule.interval.low <= .6);
    CHECK(e.rule.interval.high >= .6);
    CHECK(e.random.interval.low >= .25);
    CHECK(e.random.interval.high <= .5);
    CHECK_THAT(noticeText(*e.outcomes[4].skipReason, Language::English), Contains("\"he\" is not a candidate"));
    CHECK(noticeText(*e.outcomes[4].skipReason, Language::Chinese) == "先行词“he”不是候选词（是停用词、标点，或在未开启后指时位于指称之后）");
    // "cats" is one word of two pieces: gold span = that one word.
    CHECK(e.outcomes[2].goldFirst == e.outcomes[2].goldLast);
    REQUIRE(e.ranking.size() == 8);
    for (std::size_t i = 0; i < e.ranking.size(); ++i) {
        const HeadAccuracy& h = e.ranking[i];
        INFO("head " << h.head.layer + 1 << ":" << h.head.head + 1 << " accuracy " << h.accuracy);
        CHECK(h.accuracy == Approx(h.correct / 5.0));
        CHECK(e.accuracy(h.head.layer, h.head.head) == Approx(h.accuracy));
        CHECK(h.interval.low <= h.accuracy);
        CHECK(h.interval.high >= h.accuracy);
        CHECK(h.interval.low * 5 == Approx(std::round(h.interval.low * 5)));  // multiples of 1/5
        CHECK(h.overRule.low <= h.accuracy - .6);
        CHECK(h.overRule.high >= h.accuracy - .6);
        if (i > 0) CHECK(e.ranking[i - 1].correct >= h.correct);
    }
}

// Both examples skipped (neither "too" nor "was" is a candidate: stop-words): an accuracy over
// no examples means nothing, so the evaluation is an error naming the set and its first line.
TEST_CASE("evaluation with no evaluable example is an error in English and Chinese", "[coref]") {
    const std::string text =
        R"({"sentence": "The animal didn't cross the street because it was too wide", "mention": "was", "antecedent": "too"})" "\n"
        R"({"sentence": "The animal didn't cross the street because it was too wide", "mention": "wide", "antecedent": "was"})" "\n";
    auto set = parseCorefSet(text, "none.jsonl");
    REQUIRE(set.ok());
    auto eval = evaluateCorefSet(set.value(), coreferenceLessonRunner());
    REQUIRE_FALSE(eval.ok());
    CHECK(eval.error().textIn(Language::English) ==
          "none.jsonl: expected at least one example to evaluate, found none of 2: each was skipped because its mention "
          "or antecedent is not among the model's words or the antecedent is not a candidate (the first: none.jsonl: line 1)");
    CHECK(eval.error().textIn(Language::Chinese) ==
          "none.jsonl: 应至少有一个可评估的样例，实际 2 个样例都被跳过：指称或先行词不在模型的词中，或先行词不是候选词（第一个：none.jsonl: 第 1 行）");
}

TEST_CASE("lesson 5: changing tired to wide flips what layer 2's head resolves it to", "[coref][layers]") {
    // resources/lessons/two-layers.json, layer 2, row "it": only "it" has a query, and its score
    // for the noun that fits the state word is s = 3.9032 (2 × 0.9758 × 2, see the lesson); the
    // other ten tokens score 0. The candidates are animal, cross, street (the rest are stop-words,
    // punctuation or the mention), so renormalised: e^s / (e^s + 2) = 49.557 / 51.557 = 0.9612
    // for the fitting noun and 1 / 51.557 = 0.0194 for each other candidate.
    const std::string base = "The animal didn't cross the street because it was too ";
    for (const auto& [state, fitting, other] : {std::tuple{"tired", "animal", "street"}, std::tuple{"wide", "street", "animal"}}) {
        INFO(state);
        const Trace trace = runBuiltInLesson("two-layers", base + state);
        ResolveOptions options;
        options.scoring = Scoring::oneHead(1, 0);
        auto resolved = resolveSentence(trace, options);
        REQUIRE(resolved.ok());
        const SentenceResolution& s = resolved.value();
        REQUIRE(s.mentions.size() == 1);
        const Resolution& r = s.mentions[0];
        REQUIRE(r.candidates.size() == 3);
        const auto scoreOf = [&](const std::string& word) {
            for (std::size_t c = 0; c < r.candidates.size(); ++c)
                if (s.words[static_cast<std::size_t>(r.candidates[c])].text == word) return r.scores[static_cast<Eigen::Index>(c)];
            FAIL("no candidate " << word);
            return -1.0;
        };
        CHECK(s.words[static_cast<std::size_t>(r.candidates[static_cast<std::size_t>(r.chosen)])].text == fitting);
        CHECK(scoreOf(fitting) == Approx(0.9612).margin(1e-4));
        CHECK(scoreOf(other) == Approx(0.0194).margin(1e-4));
        CHECK(scoreOf("cross") == Approx(0.0194).margin(1e-4));
        // Before renormalising: the softmax row itself, e^s / (e^s + 10) = 49.557 / 59.557 = 0.8321
        // and 1 / 59.557 = 0.0168; the candidates got 0.8321 + 2 × 0.0168 = 0.8657 of the attention.
        REQUIRE(r.rawScores.size() == 3);
        for (std::size_t c = 0; c < r.candidates.size(); ++c) {
            const std::string& word = s.words[static_cast<std::size_t>(r.candidates[c])].text;
            CHECK(r.rawScores(static_cast<Eigen::Index>(c)) == Approx(word == fitting ? 0.8321 : 0.0168).margin(1e-4));
        }
        CHECK(r.rawScores.sum() == Approx(0.8657).margin(1e-4));
    }
}

// Where the control's best head lands: two trained heads (0.8, 0.6) score above the control's
// best (0.5), one (0.4) below, so it would rank 3rd; a tie does not count as above.
TEST_CASE("random-weights control: its best head and its place in the trained ranking", "[coref]") {
    CorefEvaluation trained, control;
    trained.ranking = {{HeadRef{1, 0}, 8, 0.8, {}, {}}, {HeadRef{0, 1}, 6, 0.6, {}, {}}, {HeadRef{0, 0}, 4, 0.4, {}, {}}};
    control.ranking = {{HeadRef{0, 1}, 5, 0.5, {0.2, 0.8}, {}}, {HeadRef{1, 0}, 1, 0.1, {}, {}}};
    const ControlComparison c = compareWithControl(trained, control, 9);
    CHECK(c.seed == 9);
    CHECK(c.best.head == HeadRef{0, 1});
    CHECK(c.best.interval == Interval{0.2, 0.8});
    CHECK(c.trainedAbove == 2);
    control.ranking.front().accuracy = 0.6;
    CHECK(compareWithControl(trained, control, 9).trainedAbove == 1);
}
