// The window's first heatmap before its run ends (RunControl::onDetailLayer, earlyTraceOf): the
// shown layer is handed over once it has run and before any later layer does, and it is the layer
// the window shows once the run is done: the run's own (a short run) or, of the heads asked for,
// the one rebuilt from its input (a long run), bit for bit.
#include <catch2/catch.hpp>

#include <climits>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>

#include "core/model/transformer.hpp"
#include "core/source/model_session.hpp"
#include "tests/core/matrix_compare.hpp"
#include "tests/core/model_fixtures.hpp"

using namespace attnscope;
using fixture_io::loadExample;
using fixture_io::someIds;

namespace {

// What the run handed over, and when.
struct Handed {
    int calls = 0;
    int layer = -1;
    std::size_t layersInTrace = 0;  // soFar's layers: those before the shown one
    int layersDone = -1;            // progress reported before the call
    LayerTrace computed;
    Trace early;  // earlyTraceOf, made as the window's worker makes it
};

// The window's run beyond 128 tokens: the shown layer keeps its weights only, as the other layers
// (a long run: the digests, and the weights of `heads`).
ModelRun runHanding(const LoadedModel& model, int tokens, std::size_t budget, int shown, Handed& handed,
                    const std::vector<HeadRef>& ablate = {}, std::function<bool(int, int)> heads = {}) {
    RunControl control;
    control.sendsHead = std::move(heads);
    control.fullDetailMaxTokens = 0;
    control.detailLayer = shown;
    control.detailLayerMaxTokens = 0;
    control.allWeightsBudget = budget;
    control.ablate = ablate;
    int done = 0;
    control.progress = [&done](int layersDone, int) { done = layersDone; };
    control.onDetailLayer = [&](const Trace& soFar, int layer, LayerTrace computed) {
        ++handed.calls;
        handed.layer = layer;
        handed.layersInTrace = soFar.layers.size();
        handed.layersDone = done;
        handed.computed = computed;
        handed.early = earlyTraceOf(soFar, layer, std::move(computed), model.config.layers, ablate);
    };
    auto run = runModel(model, someIds(tokens, model.config.vocabSize), {}, control);
    REQUIRE(run.ok());
    return std::move(run).value();
}

void requireSameWeights(const LayerTrace& want, const LayerTrace& got) {
    REQUIRE(got.heads.size() == want.heads.size());
    for (std::size_t h = 0; h < want.heads.size(); ++h) {
        INFO("head " << h);
        REQUIRE(want.heads[h].weights.size() > 0);
        REQUIRE_MATRIX_NEAR(want.heads[h].weights, got.heads[h].weights, 0.0);
    }
}

}  // namespace

TEST_CASE("a run hands its shown layer over before the later layers run: its own weights, bit for bit",
          "[long_run][models]") {
    for (const char* name : {"example-llama", "example-gpt", "example-bert"}) {
        INFO(name);
        const LoadedModel model = loadExample(name);
        Handed handed;
        const ModelRun run = runHanding(model, 20, SIZE_MAX, 1, handed);
        REQUIRE_FALSE(run.isLong());
        CHECK(handed.calls == 1);
        CHECK(handed.layer == 1);
        CHECK(handed.layersInTrace == 1);  // layer 0 only: layers 1… had not run
        CHECK(handed.layersDone == 1);
        requireSameWeights(run.trace.layers[1], handed.computed);  // a copy: the run keeps its own
    }
}

// A copy of a long run's whole layer beside the run's buffers would pass the memory goal: it
// holds the heads the window draws beside their digests, and hands over those alone.
TEST_CASE("a long run hands over the heads asked for of its shown layer, as they would be rebuilt", "[long_run][models]") {
    for (const char* name : {"example-llama", "example-gpt"}) {
        INFO(name);
        const LoadedModel model = loadExample(name);
        Handed handed;
        const ModelRun run = runHanding(model, 40, 0, 2, handed, {}, [](int layer, int head) { return layer == 2 && head == 1; });
        REQUIRE(run.isLong());
        CHECK(handed.calls == 1);
        CHECK(handed.layersDone == 2);
        auto rebuilt = traceLayerInDetail(model, run, 2);
        REQUIRE(rebuilt.ok());
        REQUIRE(handed.computed.heads.size() == rebuilt.value().heads.size());
        for (std::size_t h = 0; h < handed.computed.heads.size(); ++h) {
            INFO("head " << h);
            if (h == 1) REQUIRE_MATRIX_NEAR(rebuilt.value().heads[h].weights, handed.computed.heads[h].weights, 0.0);
            else CHECK(handed.computed.heads[h].weights.size() == 0);
        }
        CHECK(run.trace.layers[2].heads[1].weights.size() == 0);  // the run itself holds no T×T
        // Holding a head's weights for the window changed none of the run's digests or outputs.
        RunControl plain;
        plain.allWeightsBudget = 0;
        auto without = runModel(model, someIds(40, model.config.vocabSize), {}, plain);
        REQUIRE(without.ok());
        REQUIRE(run.digests.size() == without.value().digests.size());
        for (std::size_t h = 0; h < run.digests[2].size(); ++h)
            REQUIRE_MATRIX_NEAR(Mat(without.value().digests[2][h].thumbnail.cast<double>()),
                                Mat(run.digests[2][h].thumbnail.cast<double>()), 0.0);
        REQUIRE_MATRIX_NEAR(Mat(without.value().hiddenStates.back().cast<double>()), Mat(run.hiddenStates.back().cast<double>()), 0.0);
    }
}

TEST_CASE("a long run asked for none of its shown layer's heads hands nothing over", "[long_run][models]") {
    const LoadedModel model = loadExample("example-llama");
    Handed handed;
    const ModelRun run = runHanding(model, 40, 0, 2, handed, {}, [](int, int) { return false; });
    REQUIRE(run.isLong());
    CHECK(handed.calls == 0);
}

TEST_CASE("earlyTraceOf: the shown layer in its place, every other layer its heads' ablated flags alone", "[long_run][models]") {
    const LoadedModel model = loadExample("example-llama");
    const std::vector<HeadRef> ablate{{0, 1}, {2, 3}, {3, 0}};
    Handed handed;
    const ModelRun run = runHanding(model, 12, SIZE_MAX, 2, handed, ablate);
    const Trace& early = handed.early;
    REQUIRE(early.layers.size() == static_cast<std::size_t>(model.config.layers));
    REQUIRE(early.tokens.size() == run.trace.tokens.size());
    CHECK(early.tokens.back().text == run.trace.tokens.back().text);
    CHECK(early.embedding.size() == 0);  // the heatmap reads neither: T×d doubles each
    CHECK(early.positional.size() == 0);
    CHECK(early.causal);
    requireSameWeights(run.trace.layers[2], early.layers[2]);
    for (int n = 0; n < model.config.layers; ++n)
        for (int h = 0; h < model.config.heads; ++h) {
            INFO("layer " << n << " head " << h);
            const HeadTrace& head = early.layers[static_cast<std::size_t>(n)].heads.at(static_cast<std::size_t>(h));
            const bool off = (n == 0 && h == 1) || (n == 2 && h == 3) || (n == 3 && h == 0);  // the list above
            CHECK(head.ablated == off);
            CHECK(head.ablated == run.trace.layers[static_cast<std::size_t>(n)].heads[static_cast<std::size_t>(h)].ablated);
            if (n != 2) CHECK(head.weights.size() == 0);
        }
}

// A long run's layer switch in the window draws the heatmap's head before the other heads of the
// layer are rebuilt (HeadsFirst, ShownHeadsFirst): handed over once it is computed; taken, it is
// computed again with the rest, equal bit for bit, and the layer equals one made in one pass.
TEST_CASE("a rebuilt layer hands the heads asked first over before it computes the others", "[long_run][models]") {
    for (const char* name : {"example-llama", "example-gpt"}) {
        INFO(name);
        const LoadedModel model = loadExample(name);
        Handed unused;
        const ModelRun run = runHanding(model, 40, 0, 2, unused, {}, [](int, int) { return false; });
        REQUIRE(run.isLong());
        int calls = 0;
        std::vector<Eigen::Index> sizes;  // each head's weights when handed over
        AttentionWeights taken;
        const auto firstHeads = std::vector<bool>{false, true, false, false};
        auto rebuilt = traceLayerInDetail(model, run, 2, {}, HeadsFirst{firstHeads, [&](LayerTrace& layer) {
                                                                ++calls;
                                                                for (const HeadTrace& head : layer.heads) sizes.push_back(head.weights.size());
                                                                taken = std::exchange(layer.heads[1].weights, AttentionWeights());
                                                            }});
        REQUIRE(rebuilt.ok());
        CHECK(calls == 1);
        CHECK(sizes == std::vector<Eigen::Index>{0, 40 * 40, 0, 0});  // the others not computed yet
        REQUIRE_MATRIX_NEAR(rebuilt.value().heads[1].weights, taken, 0.0);  // computed again
        auto alone = traceLayerInDetail(model, run, 2);  // no first pass: the same numbers
        REQUIRE(alone.ok());
        requireSameWeights(alone.value(), rebuilt.value());
    }
}

TEST_CASE("shownTraceOf hands over a Trace of the heads asked first before the whole layer", "[long_run][models]") {
    auto opened = openModel((fixture_io::sourceDir() / "resources/models/example-llama").string());
    REQUIRE(opened.ok());
    const LoadedModel& model = opened.value().model;
    Handed unused;
    const auto run = std::make_shared<const ModelRun>(runHanding(model, 40, 0, 2, unused, {{1, 2}}, [](int, int) { return false; }));
    std::shared_ptr<const Trace> early;
    const ShownHeadsFirst first{{false, false, true, false}, [&](std::shared_ptr<const Trace> t) { early = std::move(t); }};
    auto shown = shownTraceOf(opened.value(), run, 1, first);
    REQUIRE(shown.ok());
    REQUIRE(early != nullptr);
    REQUIRE(early->layers.size() == 4);
    const LayerTrace& whole = shown.value()->layers[1];
    const LayerTrace& heads = early->layers[1];
    REQUIRE_MATRIX_NEAR(whole.heads[2].weights, heads.heads[2].weights, 0.0);  // taken, computed again
    CHECK(heads.heads[2].ablated);  // head 1:2 (0-based) switched off, as in the run
    for (std::size_t h : {0u, 1u, 3u}) CHECK(heads.heads[h].weights.size() == 0);
    for (std::size_t n : {0u, 2u, 3u}) CHECK(early->layers[n].heads[2].weights.size() == 0);
    CHECK(early->tokens.size() == run->trace.tokens.size());
    CHECK(early->embedding.size() == 0);
}
