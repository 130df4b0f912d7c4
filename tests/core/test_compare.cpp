// Two sentences side by side (core/analysis/compare.hpp): alignment by position and by word, the
// attention between aligned units and A − B, each checked against numbers worked out by hand; the
// CSV and JSON exports (compare_export.hpp) say which scale their numbers are.
#include <catch2/catch.hpp>

#include "core/analysis/compare.hpp"
#include "core/analysis/compare_export.hpp"
#include "matrix_compare.hpp"
#include "tests/matrix_literal.hpp"

using namespace attnscope;
using attnscope::testing::rows;

namespace {

Token piece(const std::string& text, int word, bool special = false) { return Token{text, true, -1, word, special}; }

Trace oneHead(std::vector<Token> tokens, const Mat& weights) {
    Trace t;
    t.tokens = std::move(tokens);
    LayerTrace layer;
    HeadTrace head;
    head.weights = weights;
    layer.heads.push_back(head);
    t.layers.push_back(layer);
    return t;
}

std::vector<std::string> labels(const Alignment& a) {
    std::vector<std::string> out;
    for (const AlignedUnit& u : a.units) out.push_back(unitLabel(u));
    return out;
}

}  // namespace

TEST_CASE("Same token count: aligned by position, A − B cell by cell", "[compare]") {
    // A: cat sat it, B: dog sat it. Rows are the queries.
    const Mat wa = rows({{1, 0, 0}, {.5, .5, 0}, {.2, .3, .5}});
    const Mat wb = rows({{1, 0, 0}, {.25, .75, 0}, {.6, .1, .3}});
    auto c = compareHead(oneHead({piece("cat", 0), piece("sat", 1), piece("it", 2)}, wa),
                         oneHead({piece("dog", 0), piece("sat", 1), piece("it", 2)}, wb), {0, 0});
    REQUIRE(c.ok());
    CHECK(c.value().alignment.by == Alignment::By::Position);
    CHECK(labels(c.value().alignment) == std::vector<std::string>{"cat | dog", "sat", "it"});
    // "it" row: .2 − .6 = −.4, .3 − .1 = .2, .5 − .3 = .2; "sat" row: .25, −.25, 0.
    REQUIRE_MATRIX_NEAR(rows({{0, 0, 0}, {.25, -.25, 0}, {-.4, .2, .2}}), c.value().difference, 1e-15);
    REQUIRE_MATRIX_NEAR(wa, c.value().a, 0.0);
}

TEST_CASE("Different token counts: aligned by word, pieces joined, extra words named", "[compare]") {
    // A: [CLS] the play ##ing [SEP]          (5 tokens, words: the, playing)
    // B: [CLS] the big cat played [SEP]      (6 tokens, words: the, big, cat, played)
    // Common subsequence: [CLS], the, [SEP]. Gap A = {playing}, gap B = {big, cat, played}: lengths
    // differ, so all four are left out. Units: [CLS], the, [SEP].
    const std::vector<Token> a{piece("[CLS]", -1, true), piece("the", 0), piece("play", 1), piece("##ing", 1),
                               piece("[SEP]", -1, true)};
    const std::vector<Token> b{piece("[CLS]", -1, true), piece("the", 0), piece("big", 1), piece("cat", 2),
                               piece("played", 3), piece("[SEP]", -1, true)};
    const Alignment al = alignTokens(a, b);
    CHECK(al.by == Alignment::By::Word);
    CHECK(labels(al) == std::vector<std::string>{"[CLS]", "the", "[SEP]"});
    CHECK(al.onlyInA == std::vector<std::string>{"playing"});
    CHECK(al.onlyInB == std::vector<std::string>{"big", "cat", "played"});
}

TEST_CASE("Word units: from a word = mean over its pieces, to a word = sum over its pieces", "[compare]") {
    // A: the play ##ing (3 tokens), B: the pl ##ay ##ed (4 tokens): the counts differ, so by word.
    // Words: A {the, playing}, B {the, played}: the ↔ the, then the equal gaps pair playing ↔ played.
    const Mat wa = rows({{.5, .3, .2}, {.1, .6, .3}, {.4, .4, .2}});
    const Mat wb = rows({{1, 0, 0, 0}, {.1, .2, .3, .4}, {0, .5, .5, 0}, {.25, .25, .25, .25}});
    auto c = compareHead(oneHead({piece("the", 0), piece("play", 1), piece("##ing", 1)}, wa),
                         oneHead({piece("the", 0), piece("pl", 1), piece("##ay", 1), piece("##ed", 1)}, wb), {0, 0});
    REQUIRE(c.ok());
    CHECK(c.value().alignment.by == Alignment::By::Word);
    CHECK(labels(c.value().alignment) == std::vector<std::string>{"the", "playing | played"});
    // A: the→the .5, the→playing .3+.2 = .5; playing→the = mean(.1, .4) = .25,
    //    playing→playing = mean(.6+.3, .4+.2) = .75.
    REQUIRE_MATRIX_NEAR(rows({{.5, .5}, {.25, .75}}), c.value().a, 1e-15);
    // B: the→the 1, the→played 0; played→the = mean(.1, 0, .25) = .35/3,
    //    played→played = mean(.9, 1, .75) = 2.65/3.
    REQUIRE_MATRIX_NEAR(rows({{1, 0}, {.35 / 3, 2.65 / 3}}), c.value().b, 1e-15);
    REQUIRE_MATRIX_NEAR(rows({{-.5, .5}, {.25 - .35 / 3, .75 - 2.65 / 3}}), c.value().difference, 1e-15);
}

TEST_CASE("Comparing needs the head in both traces", "[compare]") {
    const Trace t = oneHead({piece("a", 0)}, rows({{1}}));
    auto missing = compareHead(t, t, {0, 1});
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().text() == "sentence A: has no head 1:2");
    Trace noWeights = t;
    noWeights.layers[0].heads[0].weights = Mat();
    auto empty = compareHead(t, noWeights, {0, 0});
    REQUIRE_FALSE(empty.ok());
    CHECK(empty.error().text() == "sentence B: expected the head's T×T weights, found 0×0");
}

TEST_CASE("A's cell in B: rows (and T×T columns) follow the alignment, weights stay", "[compare]") {
    // A: [CLS] the cat ##s sat [SEP] (6 tokens); B: [CLS] the big brown dog sat [SEP] (7 tokens, so
    // aligned by word: the, big, brown, dog, sat). Common: [CLS], the, sat, [SEP]; gap A = {cats},
    // gap B = {big, brown, dog}: left out.
    const std::vector<Token> a{piece("[CLS]", -1, true), piece("the", 0), piece("cat", 1), piece("##s", 1),
                               piece("sat", 2), piece("[SEP]", -1, true)};
    const std::vector<Token> b{piece("[CLS]", -1, true), piece("the", 0), piece("big", 1), piece("brown", 2),
                               piece("dog", 3), piece("sat", 4), piece("[SEP]", -1, true)};
    const Alignment al = alignTokens(a, b);
    REQUIRE(al.by == Alignment::By::Word);
    // Weights (sat → [SEP]): A tokens 4 → 5, B tokens 5 → 6; scores ([SEP] → the): A 5 → 1, B 6 → 1.
    CHECK(alignedCellInB(al, CellRef{Step::Weights, 0, 1, 4, 5}) == CellRef{Step::Weights, 0, 1, 5, 6});
    CHECK(alignedCellInB(al, CellRef{Step::Scores, 0, 0, 5, 1}) == CellRef{Step::Scores, 0, 0, 6, 1});
    // Q: the row moves, the column is a dimension and stays.
    const std::vector<Token> c{piece("[CLS]", -1, true), piece("sat", 0), piece("[SEP]", -1, true)};
    const Alignment shorter = alignTokens(a, c);  // [CLS], sat, [SEP] in common
    CHECK(alignedCellInB(shorter, CellRef{Step::Query, 0, 0, 4, 3}) == CellRef{Step::Query, 0, 0, 1, 3});
    CHECK(alignedCellInB(shorter, CellRef{Step::Weights, 0, 0, 5, 4}) == CellRef{Step::Weights, 0, 0, 2, 1});
    // "cat" (token 2) is left out of B: no aligned cell. W_Q has no token rows: the same cell.
    CHECK_FALSE(alignedCellInB(al, CellRef{Step::Weights, 0, 0, 2, 1}));
    CHECK(alignedCellInB(al, CellRef{Step::WQ, 0, 0, 2, 1}) == CellRef{Step::WQ, 0, 0, 2, 1});
}

TEST_CASE("compare CSV: every row names its scale, weights or norms, as the JSON does", "[compare]") {
    // A: cat sat, B: dog sat (aligned by position). "sat" row: A .25 .75, B .5 .5: A − B = −.25, .25.
    const Trace a = oneHead({piece("cat", 0), piece("sat", 1)}, rows({{1, 0}, {.25, .75}}));
    const Trace b = oneHead({piece("dog", 0), piece("sat", 1)}, rows({{1, 0}, {.5, .5}}));
    auto c = compareHeads(a, b, {HeadRef{0, 0}});
    REQUIRE(c.ok());
    const std::string header = "layer,head,query,key,query_text,key_text,a,b,difference,shading\n";
    CHECK(comparisonToCsv(c.value()) == header +
                                            "1,1,1,1,cat | dog,cat | dog,1,1,0,weights\n"
                                            "1,1,1,2,cat | dog,sat,0,0,0,weights\n"
                                            "1,1,2,1,sat,cat | dog,0.25,0.5,-0.25,weights\n"
                                            "1,1,2,2,sat,sat,0.75,0.5,0.25,weights\n");
    CHECK(comparisonToJson(c.value()).find("\"shading\": \"weights\"") != std::string::npos);
    // The same numbers marked as norm-weighted shares (the Compare tab and compare --norms set the flag
    // on norm-weighted Traces): every row says so, as the JSON does.
    c.value().normWeighted = true;
    const std::string csv = comparisonToCsv(c.value());
    CHECK(csv.substr(header.size()) == "1,1,1,1,cat | dog,cat | dog,1,1,0,norms\n"
                                       "1,1,1,2,cat | dog,sat,0,0,0,norms\n"
                                       "1,1,2,1,sat,cat | dog,0.25,0.5,-0.25,norms\n"
                                       "1,1,2,2,sat,sat,0.75,0.5,0.25,norms\n");
    CHECK(comparisonToJson(c.value()).find("\"shading\": \"norms\"") != std::string::npos);
}
