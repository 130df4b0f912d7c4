// The built-in Chinese lessons (resources/lessons/*-zh.json): character tokens, numbers worked by
// hand here, and the independent reference (tests/reference/fixtures/lessons/*-zh*.json, compared
// cell by cell in test_reference_traces.cpp) agreeing on the same cells.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "builtin_lesson.hpp"
#include "core/analysis/coreference.hpp"

using namespace attnscope;
using attnscope::testing::builtInLesson;
using attnscope::testing::runBuiltInLesson;

namespace {

std::vector<std::string> tokenTexts(const Trace& trace) {
    std::vector<std::string> out;
    for (const Token& t : trace.tokens) out.push_back(t.text);
    return out;
}

}  // namespace

TEST_CASE("Chinese lessons have titles and descriptions in Chinese and English", "[lesson][zh]") {
    for (const char* name : {"first-hand-exercise-zh", "coreference-zh", "causal-mask-zh", "rope-zh", "whole-block-zh"}) {
        INFO(name);
        const Lesson lesson = builtInLesson(name);
        CHECK(lesson.title.in("zh_CN") != lesson.title.in("en"));
        CHECK(lesson.description.in("zh_CN") != lesson.description.in("en"));
        CHECK(lesson.featureNames.at(0).in("zh_CN") != lesson.featureNames.at(0).in("en"));
        const Trace trace = runBuiltInLesson(name);
        for (const Token& t : trace.tokens) CHECK(t.inTable);  // every character has hand-picked features
        // One word for coreference, the glossary's 共指 (指代消解 was used beside it).
        CHECK(lesson.title.in("zh_CN").find("指代") == std::string::npos);
        CHECK(lesson.description.in("zh_CN").find("指代") == std::string::npos);
    }
    CHECK(builtInLesson("coreference").title.in("zh_CN").find("指代") == std::string::npos);
}

TEST_CASE("the Chinese coreference lesson offers nouns, never the verb 有, as antecedents", "[lesson][zh][coref]") {
    // 动物没有过马路，因为它太累了: 它 (word 10) may refer to 动, 物, 马, 路; 没有 is a verb split in two
    // characters, both function characters now (有 was offered as an antecedent).
    const Trace trace = runBuiltInLesson("coreference-zh");
    const std::vector<Word> words = wordsOf(trace.tokens);
    const std::vector<Mention> pronouns = findPronouns(words);
    REQUIRE(pronouns.size() == 1);
    std::vector<std::string> offered;
    for (const int c : candidatesFor(words, pronouns[0], false)) offered.push_back(words.at(c).text);
    CHECK(offered == std::vector<std::string>{"动", "物", "马", "路"});
}

TEST_CASE("Chinese first hand exercise by hand: 猫追老鼠", "[lesson][zh][reference]") {
    // Character tokens 猫 / 追 / 老 / 鼠; Q = K = V = X, no scaling; features
    // (animal, small, hunter, prey, action): 猫 [1,0,1,0,0], 追 [0,0,1,0,1], 老 [0,1,0,1,0], 鼠 [1,1,0,1,0].
    // Row 猫 of S = X·Xᵀ: 猫·猫 = 1+1 = 2, 猫·追 = 1 (hunter), 猫·老 = 0, 猫·鼠 = 1 (animal).
    // Softmax: sum = e² + e + 1 + e = 7.389056 + 2.718282 + 1 + 2.718282 = 13.825620,
    //   A[猫, 猫] = 7.389056 / 13.825620 = 0.534449, A[猫, 鼠] = 2.718282 / 13.825620 = 0.196612.
    // Row 鼠: scores [1, 0, 2, 3], sum e + 1 + e² + e³ = 31.192875, A[鼠, 鼠] = 20.085537 / 31.192875 = 0.643915.
    const Trace trace = runBuiltInLesson("first-hand-exercise-zh");
    REQUIRE(tokenTexts(trace) == std::vector<std::string>{"猫", "追", "老", "鼠"});
    const HeadTrace& h = trace.layers.at(0).heads.at(0);
    CHECK(h.scores(0, 0) == 2.0);
    CHECK(h.scores(0, 1) == 1.0);
    CHECK(h.scores(0, 2) == 0.0);
    CHECK(h.scores(3, 2) == 2.0);
    CHECK(h.scores(3, 3) == 3.0);
    CHECK(h.weights(0, 0) == Approx(0.534449).margin(5e-7));
    CHECK(h.weights(0, 3) == Approx(0.196612).margin(5e-7));
    CHECK(h.weights(3, 3) == Approx(0.643915).margin(5e-7));
}

TEST_CASE("Chinese coreference by hand: 它 → 动物 when 累, 它 → 马路 when 宽", "[lesson][zh][reference][layers]") {
    // 14 tokens: 动 物 没 有 过 马 路 ， 因 为 它 太 累 了 (它 is token 10, 累/宽 token 12).
    // Layer 1: q(它) = 3·W_Q[pronoun] = [3, 0], k(累) = k(宽) = [2, 0], every other key 0:
    //   A₁[它, 累] = e⁶ / (e⁶ + 13) = 403.428793 / 416.428793 = 0.968782.
    // X₂[它] = pronoun 1 + tired 0.968782 (W_V, W_O copy tired back into its column).
    // Layer 2: q(它) = 2·0.968782 = [1.937564, 0]; k(动) = k(物) = 2·animate = [2, 0]; k(马) = k(路) = [0, 2].
    //   score(它, 动) = 1.937564·2 = 3.875129; A₂[它, 动] = e^3.875129 / (2·e^3.875129 + 12)
    //   = 48.188900 / 108.377801 = 0.444638, A₂[它, 马] = 1 / 108.377801 = 0.009227.
    const std::vector<std::string> tired{"动", "物", "没", "有", "过", "马", "路", "，", "因", "为", "它", "太", "累", "了"};
    const Eigen::Index it = 10, dong = 0, wu = 1, ma = 5, lu = 6;
    for (const bool wide : {false, true}) {
        INFO((wide ? "宽" : "累"));
        const Trace trace = runBuiltInLesson("coreference-zh", wide ? "动物没有过马路，因为它太宽了" : "");
        std::vector<std::string> expected = tired;
        if (wide) expected[12] = "宽";
        REQUIRE(tokenTexts(trace) == expected);
        REQUIRE(trace.layers.size() == 2);
        CHECK(trace.layers[0].heads[0].weights(it, 12) == Approx(0.968782).margin(5e-7));
        const Mat a2 = trace.layers[1].heads[0].weights.toMat();
        const Eigen::Index match1 = wide ? ma : dong, match2 = wide ? lu : wu;
        const Eigen::Index other = wide ? dong : ma;
        CHECK(trace.layers[1].heads[0].scores(it, match1) == Approx(3.875129).margin(5e-7));
        CHECK(a2(it, match1) == Approx(0.444638).margin(5e-7));
        CHECK(a2(it, match2) == Approx(0.444638).margin(5e-7));
        CHECK(a2(it, other) == Approx(0.009227).margin(5e-7));
    }
}

TEST_CASE("Chinese causal mask by hand: 小猫看见小狗", "[lesson][zh][reference]") {
    // Features (noun, animal, action, modifier): 小 [0,0,0,1], 猫 = 狗 [1,1,0,0], 看 = 见 [0,0,1,0].
    // Row 猫 sees 小 (score 0) and itself (2): 1/(1 + e²) = 0.119203, e²/(1 + e²) = 0.880797.
    // The second 小 (row 4) sees scores [1, 0, 0, 0, 1]: e/(2e + 3) = 2.718282/8.436564 = 0.322202.
    // Row 狗 sees [0, 2, 0, 0, 0, 2]: e²/(2e² + 4) = 7.389056/18.778112 = 0.393493.
    const Trace trace = runBuiltInLesson("causal-mask-zh");
    REQUIRE(tokenTexts(trace) == std::vector<std::string>{"小", "猫", "看", "见", "小", "狗"});
    const Mat a = trace.layers.at(0).heads.at(0).weights.toMat();
    CHECK(a(0, 0) == 1.0);
    CHECK(a(0, 1) == 0.0);  // masked: e^(−∞) = 0 exactly
    CHECK(a(1, 0) == Approx(0.119203).margin(5e-7));
    CHECK(a(1, 1) == Approx(0.880797).margin(5e-7));
    CHECK(a(4, 0) == Approx(0.322202).margin(5e-7));
    CHECK(a(4, 4) == Approx(0.322202).margin(5e-7));
    CHECK(a(4, 5) == 0.0);
    CHECK(a(5, 1) == Approx(0.393493).margin(5e-7));
    CHECK(a(5, 5) == Approx(0.393493).margin(5e-7));
}
