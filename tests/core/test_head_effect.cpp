// The "most important heads" ranking and the before → after predictions (core/analysis/head_effect.hpp)
// against tests/reference/reference_ablation.py's "head_effects": its own BERT and GPT-2 forward
// passes with Hugging Face's head_mask switch each head off in turn and record the probability of
// the unablated run's top token. Tolerance 1e-5 (float32 here, double there).
#include <catch2/catch.hpp>
#include <atomic>
#include <cmath>
#include <map>

#include "core/analysis/head_effect.hpp"
#include "model_fixtures.hpp"

using namespace attnscope;
using namespace attnscope::fixture_io;

namespace {

using Json = nlohmann::json;
constexpr double kTolerance = 1e-5;

ModelRun runIds(const LoadedModel& model, const std::vector<int>& ids, std::vector<HeadRef> ablate = {}) {
    std::vector<Token> tokens;
    const bool bert = model.config.family != ModelFamily::Gpt2;
    for (int id : ids) tokens.push_back(Token{bert && id == 4 ? "[MASK]" : "t" + std::to_string(id), true, id, -1, false});
    RunControl control;
    control.topK = 5;
    control.ablate = std::move(ablate);
    control.maskTokenId = 4;  // the tokenizer's [MASK]
    auto run = runModel(model, ids, tokens, control);
    INFO("run error: " << (run ? std::string() : run.error().text()));
    REQUIRE(run.ok());
    return std::move(run).value();
}

const Json& effectsFor(const Json& fixture, const std::string& model) {
    for (const Json& e : fixture.at("head_effects"))
        if (e.at("model") == model) return e;
    FAIL("no head_effects for " << model);
    return fixture;
}

void compareRanking(const std::string& name) {
    const Json expected = effectsFor(readJson(sourceDir() / "tests/reference/fixtures/ablation.json"), name);
    const LoadedModel model = loadTiny(name);
    const ModelRun run = runIds(model, expected.at("ids").get<std::vector<int>>());
    REQUIRE(run.predictions.size() == 1);
    auto ranked = rankHeadsByEffect(model, run, 0);
    REQUIRE(ranked.ok());
    const HeadEffects& got = ranked.value();
    CHECK(got.position == expected.at("position").get<int>());
    CHECK(got.token == expected.at("token").get<int>());
    CHECK(std::abs(got.before - expected.at("before").get<double>()) <= kTolerance);
    std::map<std::pair<int, int>, const HeadEffect*> byHead;
    for (const HeadEffect& e : got.heads) byHead[{e.head.layer + 1, e.head.head + 1}] = &e;
    REQUIRE(byHead.size() == expected.at("effects").size());
    double largest = 0;
    for (const Json& e : expected.at("effects")) {
        const HeadEffect& h = *byHead.at({e.at("head")[0].get<int>(), e.at("head")[1].get<int>()});
        INFO(name << " head " << e.at("head").dump() << ": torch " << e.at("after") << ", ours " << h.after);
        CHECK(std::abs(h.after - e.at("after").get<double>()) <= kTolerance);
        CHECK(h.topAfter == e.at("top_after").get<int>());
        largest = std::max(largest, std::abs(h.after - e.at("after").get<double>()));
    }
    INFO("largest |diff| " << largest);
    // Ranked by how far the probability moved, largest first.
    for (std::size_t i = 1; i < got.heads.size(); ++i)
        CHECK(std::abs(got.heads[i - 1].after - got.before) >= std::abs(got.heads[i].after - got.before));
}

}  // namespace

TEST_CASE("Head ranking on tiny BERT matches torch with head_mask, head by head", "[ablation][head-effect]") {
    compareRanking("bert-tiny");
}

TEST_CASE("Head ranking on tiny GPT-2 matches torch with head_mask, head by head", "[ablation][head-effect]") {
    compareRanking("gpt2-tiny");
}

TEST_CASE("Head ranking: layer 1 head 2 matters most for tiny BERT's [MASK]", "[ablation][head-effect]") {
    // From the fixture: the top token 79 has p = 0.298 unablated; with 2:2 off it falls to 0.015
    // (|change| 0.283), with 1:2 off to 0.047 (0.252), with 1:3 off it rises to 0.760 (0.462).
    // So the order starts 1:3, 2:2, 1:2.
    const LoadedModel model = loadTiny("bert-tiny");
    auto ranked = rankHeadsByEffect(model, runIds(model, {2, 17, 4, 42, 3}), 0);
    REQUIRE(ranked.ok());
    const auto& heads = ranked.value().heads;
    REQUIRE(heads.size() == 8);
    CHECK((heads[0].head == HeadRef{0, 2}));
    CHECK((heads[1].head == HeadRef{1, 1}));
    CHECK((heads[2].head == HeadRef{0, 1}));
}

TEST_CASE("Head ranking skips heads already off and reports progress, cancel stops it", "[ablation][head-effect]") {
    const LoadedModel model = loadTiny("bert-tiny");
    const ModelRun run = runIds(model, {2, 17, 4, 42, 3}, {HeadRef{0, 1}});
    std::vector<int> done;
    RunControl control;
    control.progress = [&](int n, int count) { done.push_back(n * 100 + count); };
    auto ranked = rankHeadsByEffect(model, run, 0, control);
    REQUIRE(ranked.ok());
    CHECK(ranked.value().heads.size() == 7);  // 8 heads, 1:2 already off
    for (const HeadEffect& e : ranked.value().heads) CHECK_FALSE((e.head == HeadRef{0, 1}));
    CHECK(done.size() == 7);
    CHECK(done.back() == 808);  // 8 of 8
    std::atomic<bool> cancel{true};
    control.cancel = &cancel;
    CHECK_FALSE(rankHeadsByEffect(model, run, 0, control).ok());
    CHECK_FALSE(rankHeadsByEffect(model, run, 1).ok());  // one prediction only
}

TEST_CASE("Before → after predictions: each after token with its probability before", "[ablation][head-effect]") {
    const LoadedModel model = loadTiny("bert-tiny");
    const std::vector<int> ids{2, 17, 4, 42, 3};
    const ModelRun before = runIds(model, ids);
    const ModelRun after = runIds(model, ids, {HeadRef{1, 1}});  // 2:2: token 79 falls from 0.298 to 0.015
    const auto changes = comparePredictions(before.predictions, after.predictions);
    REQUIRE(changes.size() == 1);
    CHECK(changes[0].position == 2);
    REQUIRE(changes[0].rows.size() == 5);
    CHECK(changes[0].rows[0].id == 25);  // torch: top after 2:2 off is token 25
    int found79 = 0;
    for (const PredictionShift& s : changes[0].rows) {
        CHECK(std::abs(s.after - probabilityOf(after.predictions[0], s.id)) < 1e-12);
        if (s.id != 79) continue;
        ++found79;
        CHECK(std::abs(s.before - 0.2982193921) < kTolerance);  // the fixture's "before"
        CHECK(std::abs(s.after - 0.01511021251) < kTolerance);  // … and 2:2's "after"
    }
    CHECK(found79 == 1);
    // The softmax of the logits gives the top-k's own probabilities back.
    for (const TokenScore& s : before.predictions[0].top) CHECK(std::abs(probabilityOf(before.predictions[0], s.id) - s.probability) < 1e-6);
}
