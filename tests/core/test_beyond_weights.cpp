// Issue 30 §2 against tests/reference/reference_beyond_weights.py (its own float64 torch forward
// passes of the tiny BERT, GPT-2, Llama, Qwen 2 and Gemma 3 checkpoints): norm-based attention
// (core/analysis/norm_attention.hpp), the logit lens and direct logit attribution
// (core/analysis/logit_lens.hpp). Float32 here, double there.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>

#include "core/analysis/encoder_logit_path.hpp"
#include "core/analysis/logit_lens.hpp"
#include "core/analysis/norm_attention.hpp"
#include "core/model/bf16_products.hpp"
#include "tests/matrix_literal.hpp"
#include "model_fixtures.hpp"

using namespace attnscope;
using namespace attnscope::fixture_io;
using attnscope::testing::rows;

namespace {

using Json = nlohmann::json;

const Json& fixture() {
    static const Json json = readJson(sourceDir() / "tests/reference/fixtures/beyond_weights.json");
    return json;
}

const Json& caseOf(const std::string& model) {
    for (const Json& c : fixture().at("cases"))
        if (c.at("model") == model) return c;
    FAIL("no case for " << model);
    return fixture();
}

// Every layer in full detail (T is far below RunControl::fullDetailMaxTokens); [MASK] is id 4 and
// the first and last tokens are marked special, as a tokenizer's [CLS] and [SEP] would be.
ModelRun runCase(const LoadedModel& model, const std::vector<int>& ids, int topK = 3) {
    std::vector<Token> tokens;
    for (std::size_t i = 0; i < ids.size(); ++i)
        tokens.push_back(Token{"t" + std::to_string(ids[i]), true, ids[i], -1, i == 0 || i + 1 == ids.size()});
    RunControl control;
    control.topK = topK;
    control.maskTokenId = 4;
    auto run = runModel(model, ids, tokens, control);
    INFO("run error: " << (run ? std::string() : run.error().text()));
    REQUIRE(run.ok());
    return std::move(run).value();
}

struct Largest {
    double diff = 0;
    std::string where;
    void see(double ours, double torch, const std::string& at) {
        if (std::abs(ours - torch) > diff) diff = std::abs(ours - torch), where = at;
    }
};

// Σ over rows i ≥ 1 of the share of row i on column 0, / (T − 1): the reference's own matrix.
double firstShareOf(const Mat& m) {
    double sum = 0;
    for (Eigen::Index i = 1; i < m.rows(); ++i) sum += m(i, 0) / m.row(i).sum();
    return sum / static_cast<double>(m.rows() - 1);
}

void checkNormAttention(const std::string& name) {
    const Json& expected = caseOf(name);
    const LoadedModel model = loadTiny(name);
    const ModelRun run = runCase(model, expected.at("ids").get<std::vector<int>>());
    auto shares = sinkShares(run.trace);
    REQUIRE(shares.ok());
    Largest largest, share;
    for (int l = 0; l < run.trace.layerCount(); ++l)
        for (int h = 0; h < run.trace.headCount(); ++h) {
            auto ours = normWeightedAttention(run.trace, l, h);
            REQUIRE(ours.ok());
            const Mat torch = matrixOf(expected.at("norm_weighted")[l][h]);
            REQUIRE(ours.value().rows() == torch.rows());
            for (Eigen::Index i = 0; i < torch.rows(); ++i)
                for (Eigen::Index j = 0; j < torch.cols(); ++j)
                    largest.see(ours.value()(i, j), torch(i, j),
                                std::to_string(l + 1) + ":" + std::to_string(h + 1) + " (" + std::to_string(i) + "," + std::to_string(j) + ")");
            const SinkShare& s = shares.value()[static_cast<std::size_t>(l * run.trace.headCount() + h)];
            share.see(s.normFirst, firstShareOf(torch), std::to_string(l + 1) + ":" + std::to_string(h + 1));
        }
    INFO(name << ": largest |ours − torch| " << largest.diff << " at " << largest.where << "; share " << share.diff
              << " at " << share.where);
    CHECK(largest.diff <= 2e-5);
    CHECK(share.diff <= 1e-5);
}

void checkLens(const std::string& name) {
    const Json& expected = caseOf(name);
    const LoadedModel model = loadTiny(name);
    const ModelRun run = runCase(model, expected.at("ids").get<std::vector<int>>());
    auto lens = logitLens(model, run, 3);
    REQUIRE(lens.ok());
    CHECK(lens.value().positions == expected.at("lens_positions").get<std::vector<int>>());
    const Json& rows = expected.at("lens");
    REQUIRE(lens.value().rows.size() == rows.size());
    Largest largest;
    int idMismatches = 0;
    for (std::size_t l = 0; l < rows.size(); ++l)
        for (std::size_t p = 0; p < rows[l].size(); ++p)
            for (std::size_t r = 0; r < rows[l][p].size(); ++r) {
                const TokenScore& ours = lens.value().rows[l][p].at(r);
                const std::string at = "layer " + std::to_string(l) + " position " + std::to_string(p) + " rank " + std::to_string(r + 1);
                if (ours.id != rows[l][p][r][0].get<int>()) {
                    ++idMismatches;
                    UNSCOPED_INFO("first id mismatch: " << at << ": ours " << ours.id << ", torch " << rows[l][p][r][0]);
                }
                largest.see(ours.probability, rows[l][p][r][1].get<double>(), at);
            }
    INFO(name << ": largest |p ours − p torch| " << largest.diff << " at " << largest.where);
    CHECK(idMismatches == 0);
    CHECK(largest.diff <= 1e-5);
}

void checkAttribution(const std::string& name) {
    const Json& expected = caseOf(name).at("attribution");
    const LoadedModel model = loadTiny(name);
    const ModelRun run = runCase(model, caseOf(name).at("ids").get<std::vector<int>>());
    auto a = attributeLogit(model, run, 0);
    INFO("error: " << (a ? std::string() : a.error().text()));
    REQUIRE(a.ok());
    CHECK(a.value().position == expected.at("position").get<int>());
    CHECK(a.value().token == expected.at("token").get<int>());
    CHECK(std::abs(a.value().logit - expected.at("logit").get<double>()) <= 1e-4);
    Largest largest;
    REQUIRE(a.value().heads.size() == 2 * 4);
    for (const HeadAttribution& h : a.value().heads)
        largest.see(h.logit, expected.at("heads")[h.head.layer][h.head.head].get<double>(),
                    std::to_string(h.head.layer + 1) + ":" + std::to_string(h.head.head + 1));
    INFO(name << ": largest |ours − torch| " << largest.diff << " at " << largest.where);
    CHECK(largest.diff <= 1e-4);
    for (std::size_t i = 1; i < a.value().heads.size(); ++i)  // ranked by |contribution|
        CHECK(std::abs(a.value().heads[i - 1].logit) >= std::abs(a.value().heads[i].logit));
}

}  // namespace

TEST_CASE("Norm-based attention matches torch for BERT, GPT-2, Llama, Qwen 2 and Gemma 3", "[beyond-weights][norm-attention]") {
    const ProductsChoiceScope f32(ProductsChoice::F32);  // torch's float64 at float32's tolerance
    for (const char* name : {"bert-tiny", "gpt2-tiny", "llama-tiny", "qwen2-tiny", "gemma3-tiny"}) {
        INFO(name);
        checkNormAttention(name);
    }
}

TEST_CASE("Logit lens matches torch for BERT's [MASK] positions and every decoder position", "[beyond-weights][logit-lens]") {
    const ProductsChoiceScope f32(ProductsChoice::F32);
    for (const char* name : {"bert-tiny", "gpt2-tiny", "llama-tiny", "qwen2-tiny", "gemma3-tiny"}) {
        INFO(name);
        checkLens(name);
    }
}

TEST_CASE("Direct logit attribution per head matches torch for BERT (first order), GPT-2, Llama, Qwen 2 and Gemma 3",
          "[beyond-weights][logit-attribution]") {
    const ProductsChoiceScope f32(ProductsChoice::F32);
    for (const char* name : {"bert-tiny", "gpt2-tiny", "llama-tiny", "qwen2-tiny", "gemma3-tiny"}) {
        INFO(name);
        checkAttribution(name);
    }
}

TEST_CASE("The activations' slopes, for BERT's linearised masked-LM head, by hand", "[beyond-weights][logit-attribution]") {
    // GELU(z) = z·Φ(z): slope Φ(z) + z·φ(z); at 0: 1/2; at 1: 0.8413447461 + 0.2419707245 = 1.0833154706.
    CHECK(activationSlope(Activation::GeluErf, 0) == Approx(0.5));
    CHECK(activationSlope(Activation::GeluErf, 1) == Approx(1.0833154706).epsilon(1e-9));
    // tanh form at 0: 1/2; SiLU z·s(z) at 0: s(0) = 1/2; at 1: s + s(1 − s) with s = 0.7310585786 → 0.9276705118.
    CHECK(activationSlope(Activation::GeluTanh, 0) == Approx(0.5));
    CHECK(activationSlope(Activation::Silu, 0) == Approx(0.5));
    CHECK(activationSlope(Activation::Silu, 1) == Approx(0.9276705118).epsilon(1e-9));
    CHECK(activationSlope(Activation::Relu, 2) == 1.0);
    CHECK(activationSlope(Activation::Relu, -2) == 0.0);
}

TEST_CASE("Norm-based attention by hand: α_ij·‖v_j·W_O^h‖ on a two-token head", "[beyond-weights][norm-attention]") {
    const ProductsChoiceScope f32(ProductsChoice::F32);  // torch's float64 at float32's tolerance
    // One layer, two heads of d_v = 1, W_O = [[3, 4], [1, 0]] (row h is head h's slice).
    // Head 1: v = [1, 2]ᵀ → f = v·[3 4] = rows [3 4], [6 8]: ‖f‖ = 5, 10. Weights [[1, 0], [0.25, 0.75]]
    // → norm-weighted [[5, 0], [1.25, 7.5]]; row 2's first-token share 1.25 / 8.75 = 1/7 (weight: 0.25).
    Trace trace;
    trace.tokens = {Token{"a"}, Token{"b"}};
    LayerTrace layer;
    layer.wo = rows({{3, 4}, {1, 0}});
    HeadTrace h1, h2;
    h1.v = rows({{1}, {2}});
    h1.weights = rows({{1, 0}, {0.25, 0.75}});
    h2.v = rows({{1}, {1}});
    h2.weights = rows({{1, 0}, {0.5, 0.5}});
    layer.heads = {h1, h2};
    trace.layers = {layer};
    auto m = normWeightedAttention(trace, 0, 0);
    REQUIRE(m.ok());
    CHECK(m.value()(1, 0) == Approx(1.25));
    CHECK(m.value()(1, 1) == Approx(7.5));
    auto shares = sinkShares(trace);
    REQUIRE(shares.ok());
    CHECK(shares.value()[0].weightFirst == Approx(0.25));
    CHECK(shares.value()[0].normFirst == Approx(1.0 / 7.0));
    CHECK_FALSE(shares.value()[0].weightSpecial.has_value());  // no special token
    CHECK(shares.value()[1].normFirst == Approx(0.5));  // head 2: equal norms, share = weight
    // The colour scale "weight × ‖value‖": head 1's row 2 is [1.25, 7.5] / 8.75 = [1/7, 6/7].
    auto shown = normWeightedTrace(trace);
    REQUIRE(shown.ok());
    CHECK(shown.value().layers[0].heads[0].weights(1, 0) == Approx(1.0 / 7.0));
    CHECK(shown.value().layers[0].heads[0].weights(1, 1) == Approx(6.0 / 7.0));
    CHECK(shown.value().layers[0].heads[0].weights(0, 0) == Approx(1.0));
}

TEST_CASE("Beyond weights: hostile requests get errors naming what is wrong", "[beyond-weights][hostile]") {
    const LoadedModel bert = loadTiny("bert-tiny");
    const ModelRun masked = runCase(bert, {2, 11, 4, 35, 3});
    for (int k : {0, -1, 101}) {  // V = 100
        auto lens = logitLens(bert, masked, k);
        REQUIRE_FALSE(lens.ok());
        CHECK(lens.error().text().find("1 to 100") != std::string::npos);
    }
    auto noMask = logitLens(bert, runCase(bert, {2, 11, 12, 35, 3}), 3);
    REQUIRE_FALSE(noMask.ok());
    CHECK(noMask.error().text().find("[MASK]") != std::string::npos);
    auto dla = attributeLogit(bert, masked, 0);  // the first-order attribution (encoder_logit_path.hpp)
    REQUIRE(dla.ok());
    CHECK(dla.value().linearised);
    const LoadedModel bare = loadTiny("bert-tiny-noprefix");  // BertModel: no masked-LM head
    auto headless = logitLens(bare, runCase(bare, {2, 11, 4, 35, 3}), 3);
    REQUIRE_FALSE(headless.ok());
    CHECK(headless.error().text().find("cls.predictions.bias") != std::string::npos);
    auto headlessDla = attributeLogit(bare, runCase(bare, {2, 11, 4, 35, 3}), 0);
    REQUIRE_FALSE(headlessDla.ok());
    CHECK(headlessDla.error().text().find("cls.predictions.bias") != std::string::npos);
    const LoadedModel gpt2 = loadTiny("gpt2-tiny");
    CHECK_FALSE(attributeLogit(gpt2, runCase(gpt2, {5, 17, 42}), 1).ok());  // one prediction only
    RunControl weightsOnly;
    weightsOnly.fullDetailMaxTokens = 0;
    auto thin = runModel(gpt2, {5, 17, 42}, {}, weightsOnly);
    REQUIRE(thin.ok());
    auto kept = sinkShares(thin.value().trace);
    REQUIRE_FALSE(kept.ok());
    CHECK(kept.error().text().find("value vectors were not kept") != std::string::npos);
}

TEST_CASE("Head ranking records logits, so a low-probability token still shows a change", "[beyond-weights][head-effect]") {
    const LoadedModel model = loadTiny("gpt2-tiny");
    const ModelRun run = runCase(model, {5, 17, 42, 8, 90, 13, 27}, 5);
    auto ranked = rankHeadsByEffect(model, run, 0);
    REQUIRE(ranked.ok());
    const Prediction& p = run.predictions.front();
    CHECK(ranked.value().logitBefore == Approx(p.top.front().logit));
    auto offRun = runModel(model, {5, 17, 42, 8, 90, 13, 27}, {}, [] {
        RunControl c;
        c.ablate = {HeadRef{1, 3}};
        return c;
    }());
    REQUIRE(offRun.ok());
    for (const HeadEffect& e : ranked.value().heads)
        if (e.head == HeadRef{1, 3}) CHECK(e.logitAfter == Approx(logitOf(offRun.value().predictions.front(), ranked.value().token)));
}
