// CSV of a coreference evaluation and of head statistics (core/analysis/coref_export), on
// results written by hand: the rows, their order and the numbers reading back exactly.
#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/analysis/coref_export.hpp"

using namespace attnscope;

namespace {

std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

// 1 layer × 2 heads on 3 evaluated examples: head 1:2 got 2 right, head 1:1 got 1.
CorefEvaluation smallEvaluation() {
    CorefEvaluation e;
    e.source = "set.jsonl";
    e.layers = 1;
    e.headsPerLayer = 2;
    e.evaluated = 3;
    e.nearestCorrect = 1;
    e.ruleCorrect = 3;
    e.rolloutCorrect = 0;
    e.correct = Mat{{1, 2}};
    e.accuracy = Mat{{1.0 / 3, 2.0 / 3}};
    e.ranking = {{HeadRef{0, 1}, 2, 2.0 / 3}, {HeadRef{0, 0}, 1, 1.0 / 3}};
    return e;
}

}  // namespace

TEST_CASE("evaluation CSV: baselines, then heads best first, accuracies exact", "[coref][export]") {
    const auto lines = linesOf(evaluationToCsv(smallEvaluation()));
    REQUIRE(lines.size() == 6);
    CHECK(lines[0] == "kind,layer,head,correct,evaluated,accuracy");
    CHECK(lines[1] == "nearest,,,1,3,0.3333333333333333");
    CHECK(lines[2] == "rule,,,3,3,1");
    CHECK(lines[3] == "rollout,,,0,3,0");
    CHECK(lines[4] == "head,1,2,2,3,0.6666666666666666");
    CHECK(lines[5] == "head,1,1,1,3,0.3333333333333333");
    CHECK(std::stod(lines[4].substr(lines[4].rfind(',') + 1)) == 2.0 / 3);
}

TEST_CASE("head statistics CSV: one row per head, labels joined, no accuracy left empty", "[coref][export]") {
    HeadStatistics s;
    s.head = HeadRef{1, 0};
    s.entropy = 1.5;
    s.normalizedEntropy = .75;
    s.delimiterShare = .125;
    s.previousShare = .5;
    s.nextShare = .25;
    s.selfShare = 0;
    s.labels = {"previous-token", "coreference"};
    HeadStatistics t = s;
    t.head = HeadRef{1, 1};
    t.corefAccuracy = .8;
    t.labels = {"broad"};
    const auto lines = linesOf(headStatsToCsv({s, t}));
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == "layer,head,entropy,normalized_entropy,delimiter,previous,next,self,coref_accuracy,labels");
    CHECK(lines[1] == "2,1,1.5,0.75,0.125,0.5,0.25,0,,previous-token; coreference");
    CHECK(lines[2] == "2,2,1.5,0.75,0.125,0.5,0.25,0,0.8,broad");
}
