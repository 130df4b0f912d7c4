// Coreference exports (core/analysis/coref_export): the CSV of a resolution, of an evaluation and
// of head statistics, on results written by hand: rows, their order and numbers reading back exactly.
#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

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
    r.scoring = Scoring::headSet({{0, 0}, {0, 1}});  // "mean of 2 heads (1:1, 1:2)"
    r.headsPerLayer = 2;
    s.mentions.push_back(r);
    return s;
}

std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

// 1 layer × 2 heads on 3 evaluated examples: head 1:2 got 2 right, head 1:1 got 1. The random
// pick expects 1/2 + 1/4 + 1/2 = 1.25. The intervals are set by hand for the layout (the
// bootstrap itself is tested in test_bootstrap.cpp): head 1:2 is above the rule baseline.
CorefEvaluation smallEvaluation() {
    CorefEvaluation e;
    e.source = "set.jsonl";
    e.layers = 1;
    e.headsPerLayer = 2;
    e.evaluated = 3;
    e.nearestCorrect = 1;
    e.ruleCorrect = 0;
    e.rolloutCorrect = 0;
    e.firstCorrect = 2;
    e.randomCorrect = 1.25;
    e.nearest = {1, 1.0 / 3, {0, 2.0 / 3}};
    e.rule = {0, 0, {0, 0}};
    e.first = {2, 2.0 / 3, {1.0 / 3, 1}};
    e.random = {1.25, 1.25 / 3, {0.25, 0.5}};
    e.rollout = {0, 0, {0, 0}};
    e.correct = Mat{{1, 2}};
    e.accuracy = Mat{{1.0 / 3, 2.0 / 3}};
    e.ranking = {{HeadRef{0, 1}, 2, 2.0 / 3, {1.0 / 3, 1}, {1.0 / 3, 1}},
                 {HeadRef{0, 0}, 1, 1.0 / 3, {0, 2.0 / 3}, {0, 2.0 / 3}}};
    return e;
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

TEST_CASE("coreference CSV: scores read back exactly, no mentions gives the header alone", "[coref]") {
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

TEST_CASE("evaluation CSV: baselines, the control, then heads best first, numbers exact", "[coref][export]") {
    const CorefEvaluation e = smallEvaluation();
    const ControlComparison control{7, HeadAccuracy{HeadRef{0, 0}, 1, 1.0 / 3, {0, 1}, {0, 1}}, 1};
    const auto lines = linesOf(evaluationToCsv(e, &control));
    REQUIRE(lines.size() == 9);
    CHECK(lines[0] == "kind,layer,head,correct,evaluated,accuracy,low,high,minus_rule_low,minus_rule_high");
    CHECK(lines[1] == "random,,,1.25,3,0.4166666666666667,0.25,0.5,,");
    CHECK(lines[2] == "first,,,2,3,0.6666666666666666,0.3333333333333333,1,,");
    CHECK(lines[3] == "nearest,,,1,3,0.3333333333333333,0,0.6666666666666666,,");
    CHECK(lines[4] == "rule,,,0,3,0,0,0,,");
    CHECK(lines[5] == "rollout,,,0,3,0,0,0,,");
    CHECK(lines[6] == "control_best,1,1,1,3,0.3333333333333333,0,1,0,1");
    CHECK(lines[7] == "head,1,2,2,3,0.6666666666666666,0.3333333333333333,1,0.3333333333333333,1");
    CHECK(lines[8] == "head,1,1,1,3,0.3333333333333333,0,0.6666666666666666,0,0.6666666666666666");
    CHECK(std::stod(lines[7].substr(lines[7].find(",3,") + 3)) == 2.0 / 3);
    CHECK(linesOf(evaluationToCsv(e)).size() == 8);  // no control row without a control
}

TEST_CASE("evaluation JSON: baselines with intervals, bootstrap settings, ranking marks, control", "[coref][export]") {
    const CorefSet set;
    CorefEvaluation e = smallEvaluation();
    const ControlComparison control{7, HeadAccuracy{HeadRef{0, 0}, 1, 1.0 / 3, {0, 1}, {0, 1}}, 1};
    const auto doc = nlohmann::json::parse(evaluationToJson(e, set, &control));
    CHECK(doc.at("version") == 3);
    CHECK(doc.at("bootstrap").at("resamples") == 1000);
    CHECK(doc.at("bootstrap").at("seed") == 1);
    CHECK(doc.at("baselines").at("random").at("correct") == 1.25);
    CHECK(doc.at("baselines").at("random").at("interval") == nlohmann::json::array({0.25, 0.5}));
    CHECK(doc.at("baselines").at("first").at("accuracy") == 2.0 / 3);
    CHECK(doc.at("ranking").at(0).at("above_rule") == true);
    CHECK(doc.at("ranking").at(1).at("above_rule") == false);
    CHECK(doc.at("ranking").at(0).at("minus_rule") == nlohmann::json::array({1.0 / 3, 1.0}));
    CHECK(doc.at("control").at("seed") == 7);
    CHECK(doc.at("control").at("best").at("layer") == 1);  // counted from 1
    CHECK(doc.at("control").at("trained_heads_above") == 1);
    CHECK(nlohmann::json::parse(evaluationToJson(e, set)).at("control").is_null());
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
    s.firstShare = .625;
    s.labels = {"previous-token", "coreference"};
    HeadStatistics t = s;
    t.head = HeadRef{1, 1};
    t.corefAccuracy = .8;
    t.labels = {"broad"};
    t.normFirstShare = .0625;  // only once a norm-weighted trace was given
    const auto lines = linesOf(headStatsToCsv({s, t}));
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == "layer,head,entropy,normalized_entropy,delimiter,previous,next,self,first,first_norm,coref_accuracy,labels");
    CHECK(lines[1] == "2,1,1.5,0.75,0.125,0.5,0.25,0,0.625,,,previous-token; coreference");
    CHECK(lines[2] == "2,2,1.5,0.75,0.125,0.5,0.25,0,0.625,0.0625,0.8,broad");
}

TEST_CASE("coreference text in both languages: scoring, candidates, marks and summary from the catalogue", "[coref][i18n]") {
    const SentenceResolution s = handMade();
    CHECK(linesOf(resolutionToText(s, 2)) == std::vector<std::string>{
                                                 "scoring: mean of 2 heads (1:1, 1:2)",
                                                 "mention \"it\" (word 5), 2 candidates:",
                                                 "  Ann,  0.50  rule",
                                                 "  cat   0.50  chosen, nearest",
                                                 "it → cat 0.50 (nearest: cat, rule: Ann,)",
                                                 "per head, score of cat: 1:1 0.25 1:2 0.75"});
    CHECK(linesOf(resolutionToText(s, 2, Language::Chinese)) == std::vector<std::string>{
                                                                   "打分：2 个头的平均（1:1, 1:2）",
                                                                   "指称“it”（第 5 个词），2 个候选：",
                                                                   "  Ann,  0.50  规则",
                                                                   "  cat   0.50  选中，最近",
                                                                   "it → cat 0.50（最近：cat，规则：Ann,）",
                                                                   "各头给 cat 的分数： 1:1 0.25 1:2 0.75"});
    CHECK(resolutionToText(SentenceResolution{}, 2, Language::Chinese) == "未找到代词（用 --mention 选择一个词）\n");
    // JSON and CSV keep the English scoring text (machine formats).
    CHECK(resolutionToJson(s).find("\"scoring\": \"mean of 2 heads (1:1, 1:2)\"") != std::string::npos);
}

TEST_CASE("describeScoring in both languages, 1-based", "[coref][i18n]") {
    CHECK(describeScoring(Scoring::rollout(), 12) == "attention rollout over all layers");
    CHECK(describeScoring(Scoring::rollout(), 12, Language::Chinese) == "贯穿所有层的注意力展开");
    CHECK(describeScoring(Scoring::wholeLayer(4), 12) == "mean of all 12 heads of layer 5");
    CHECK(describeScoring(Scoring::wholeLayer(4), 12, Language::Chinese) == "第 5 层全部 12 个头的平均");
    CHECK(describeScoring(Scoring::oneHead(4, 3), 12) == "layer 5 head 4");
    CHECK(describeScoring(Scoring::oneHead(4, 3), 12, Language::Chinese) == "第 5 层第 4 头");
    CHECK(describeScoring(Scoring::headSet({{4, 3}, {5, 0}}), 12, Language::Chinese) == "2 个头的平均（5:4, 6:1）");
}

TEST_CASE("head statistics and evaluation text in Chinese: header, labels, baselines", "[coref][i18n]") {
    HeadStatistics h;
    h.head = {0, 1};
    h.labels = {"previous-token", "coreference"};
    const std::vector<std::string> zh = linesOf(headStatsToText({h}, Language::Chinese));
    REQUIRE(zh.size() == 2);
    CHECK(zh[0].find("熵") != std::string::npos);
    CHECK(zh[1].substr(zh[1].size() - std::string("前一词元，共指").size()) == "前一词元，共指");
    CHECK(linesOf(headStatsToText({h}))[1].find("previous-token, coreference") != std::string::npos);
    // Each header name ends in the terminal column where its numbers end (a CJK character takes
    // two columns): 层 over "    1" ends at column 5, 头 over "   2" at 11, 熵 over the entropy at 20.
    CHECK(zh[0] == "   层    头       熵     分隔符      前词   后词   自身  首词元    共指  标签");
    CHECK(zh[1].rfind("    1     2    0.000", 0) == 0);
    CHECK(linesOf(headStatsToText({h}))[0] == "layer  head  entropy  delimiter  previous   next   self   first   coref  label");
    CHECK(headLabelText("delimiter sink", Language::Chinese) == "分隔符汇聚");
    CHECK(headLabelText("mixed", Language::English) == "mixed");
    CHECK(headLabelText("unknown", Language::Chinese) == "unknown");

    const CorefSet set;
    CorefEvaluation e = smallEvaluation();
    e.outcomes.resize(3);
    for (ExampleOutcome& o : e.outcomes) o.evaluated = true;
    const ControlComparison control{7, HeadAccuracy{HeadRef{0, 0}, 1, 1.0 / 3, {0, 1}, {0, 1}}, 1};
    const std::vector<std::string> text = linesOf(evaluationToText(e, set, 0, Language::Chinese, &control));
    REQUIRE(text.size() == 12);
    CHECK(text[0] == "共指数据集：set.jsonl，评估了 3 个样例中的 3 个（跳过 0 个），1 层 × 2 个头");
    CHECK(text[1] == "区间：对 3 个已评估样例（按句子重采样）的 95% 自助法区间，重采样 1000 次，种子 1");
    CHECK(text[2] == "基线：随机候选（期望值） 41.7% [25.0%, 50.0%] (1.25/3)");
    CHECK(text[3] == "基线：第一个候选 66.7% [33.3%, 100.0%] (2/3)");
    CHECK(text[4] == "基线：最近指称 33.3% [0.0%, 66.7%] (1/3)");
    CHECK(text[5] == "基线：规则 0.0% [0.0%, 0.0%] (0/3)");
    CHECK(text[7] == "随机权重对照（权重打乱，种子 7）：最佳头 1:1 33.3% [0.0%, 100.0%]，在训练模型的头中排第 2");
    CHECK(text[8] == "排名     层    头    准确率  95% 区间          正确");
    CHECK(text[9] == "   1      1     2     66.7%  [33.3%, 100.0%]   2/3        高于规则");
    CHECK(text[10] == "   2      1     1     33.3%  [0.0%, 66.7%]     1/3");
    CHECK(text[11] == "高于规则：（头 − 规则基线）的配对自助法区间大于 0；未对从 2 个头中挑选做校正");
    const std::vector<std::string> english = linesOf(evaluationToText(e, set, 1));
    REQUIRE(english.size() == 10);
    CHECK(english[0] == "coreference set: set.jsonl, 3 of 3 examples evaluated (0 skipped), 1 layer × 2 heads");
    CHECK(english[1] == "intervals: 95% bootstrap over the 3 evaluated examples (sentences resampled), 1000 resamples, seed 1");
    CHECK(english[2] == "baseline: random candidate (expected) 41.7% [25.0%, 50.0%] (1.25/3)");
    CHECK(english[6] == "attention rollout: 0.0% [0.0%, 0.0%] (0/3)");
    CHECK(english[7] == "rank  layer  head  accuracy  95% interval      correct");
    CHECK(english[8] == "   1      1     2     66.7%  [33.3%, 100.0%]   2/3        above rule");
    CHECK(english[9] == "above rule: the paired bootstrap interval of (head − rule baseline) lies above 0; not corrected for choosing among 2 heads");
}
