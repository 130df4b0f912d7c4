// Coreference exports (core/analysis/coref_export): the CSV of a resolution built by hand.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "core/analysis/coref_export.hpp"

using namespace attnscope;

namespace {

Word word(const std::string& text) {
    Word w;
    w.text = text;
    w.tokens = {0};
    return w;
}

// "Ann, the cat said it": mention "it" (word 5), candidates "Ann," (a comma inside, quoted) and
// "cat", two heads. Head 1:1 gives .75/.25, head 1:2 gives .25/.75, the mean .5/.5; the tie goes
// to the nearer candidate, "cat".
SentenceResolution handMade() {
    SentenceResolution s;
    s.words = {word("Ann,"), word("the"), word("cat"), word("said"), word("it")};
    Resolution r;
    r.mention = {4, 4, "it", std::nullopt};
    r.candidates = {0, 2};
    r.scores = RowVec(2);
    r.scores << 0.5, 0.5;
    r.chosen = 1;
    r.heads = {{0, 0}, {0, 1}};
    r.headScores = Mat(2, 2);
    r.headScores << 0.75, 0.25, 0.25, 0.75;
    r.baselines = {1, 0};
    r.scoringText = "mean of 2 heads (1:1, 1:2)";
    s.mentions.push_back(r);
    return s;
}

}  // namespace

TEST_CASE("coreference CSV: a combined row, then one row per head, quoted where needed", "[coref]") {
    const std::string csv = resolutionToCsv(handMade());
    CHECK(csv ==
          "mention,mention_word,candidate,candidate_word,layer,head,score,chosen,nearest,rule,scoring\n"
          "it,5,\"Ann,\",1,,,0.5,0,0,1,\"mean of 2 heads (1:1, 1:2)\"\n"
          "it,5,\"Ann,\",1,1,1,0.75,0,0,1,\"mean of 2 heads (1:1, 1:2)\"\n"
          "it,5,\"Ann,\",1,1,2,0.25,0,0,1,\"mean of 2 heads (1:1, 1:2)\"\n"
          "it,5,cat,3,,,0.5,1,1,0,\"mean of 2 heads (1:1, 1:2)\"\n"
          "it,5,cat,3,1,1,0.25,1,1,0,\"mean of 2 heads (1:1, 1:2)\"\n"
          "it,5,cat,3,1,2,0.75,1,1,0,\"mean of 2 heads (1:1, 1:2)\"\n");
}

TEST_CASE("coreference CSV: scores read back exactly; no mentions gives the header alone", "[coref]") {
    SentenceResolution s = handMade();
    s.mentions[0].scores << 0.1 + 0.2, 1.0 / 3;
    s.mentions[0].heads.clear();  // rollout: no per-head rows
    s.mentions[0].headScores = Mat(0, 2);
    const std::string csv = resolutionToCsv(s);
    CHECK(csv.find(",0.30000000000000004,") != std::string::npos);
    CHECK(csv.find(",0.3333333333333333,") != std::string::npos);
    CHECK(std::count(csv.begin(), csv.end(), '\n') == 3);
    s.mentions.clear();
    CHECK(resolutionToCsv(s) == "mention,mention_word,candidate,candidate_word,layer,head,score,chosen,nearest,rule,scoring\n");
}
