// The model forward pass reuses its buffers (threadLayerBuffers, the attention scratch) across
// layers and runs instead of allocating fresh, page-faulting ones: results must not depend on
// what a buffer held before (another length, another model, another thread), and the buffers
// must really be the same storage on the next run.
#include <catch2/catch.hpp>
#include <optional>
#include <thread>
#include <vector>

#include "core/model/transformer.hpp"
#include "model_fixtures.hpp"

using namespace attnscope;
using namespace attnscope::fixture_io;

namespace {

constexpr double kTolerance = 1e-5;

std::vector<int> fixtureIds(const std::string& fixture, std::size_t run) {
    return readJson(sourceDir() / "tests/reference/fixtures" / ("model-" + fixture + ".json"))
        .at("runs").at(run).at("ids").get<std::vector<int>>();
}

ModelRun runOrFail(const LoadedModel& model, const std::vector<int>& ids) {
    auto run = runModel(model, ids, {});
    INFO("run error: " << (run ? std::string() : run.error().text()));
    REQUIRE(run.ok());
    return std::move(run).value();
}

// Bit for bit: the same arithmetic on the same inputs, whatever the buffers held.
void requireIdentical(const ModelRun& a, const ModelRun& b) {
    REQUIRE(a.hiddenStates.size() == b.hiddenStates.size());
    for (std::size_t i = 0; i < a.hiddenStates.size(); ++i) {
        INFO("hidden state " << i);
        REQUIRE(a.hiddenStates[i].rows() == b.hiddenStates[i].rows());
        CHECK((a.hiddenStates[i] - b.hiddenStates[i]).cwiseAbs().maxCoeff() == 0.0f);
    }
    REQUIRE(a.trace.layers.size() == b.trace.layers.size());
    for (std::size_t l = 0; l < a.trace.layers.size(); ++l)
        for (std::size_t h = 0; h < a.trace.layers[l].heads.size(); ++h) {
            INFO("layer " << l << " head " << h);
            CHECK(a.trace.layers[l].heads[h].weights == b.trace.layers[l].heads[h].weights);  // same precision, same numbers
        }
}

// The fixture's first hidden state and attention weights of layer 0, head 0, at 1e-5.
void requireMatchesFixture(const ModelRun& run, const std::string& fixture) {
    const auto expected = readJson(sourceDir() / "tests/reference/fixtures" / ("model-" + fixture + ".json")).at("runs").at(0);
    const Mat lastWant = matrixOf(expected.at("hidden_states").back());
    const Mat lastGot = toDouble(run.hiddenStates.back());
    CHECK((lastWant - lastGot).cwiseAbs().maxCoeff() <= kTolerance);
    const Mat weightsWant = matrixOf(expected.at("attentions").back().back());
    CHECK((weightsWant - run.trace.layers.back().heads.back().weights.toMat()).cwiseAbs().maxCoeff() <= kTolerance);
}

}  // namespace

TEST_CASE("A second run on reused buffers equals the first, after runs of other lengths and models",
          "[models][buffers]") {
    for (const std::string name : {"bert-tiny", "gpt2-tiny"}) {
        INFO(name);
        const LoadedModel model = loadTiny(name);
        const LoadedModel other = loadTiny(name == "bert-tiny" ? "gpt2-tiny" : "bert-tiny");
        const std::vector<int> ids = fixtureIds(name, 0);
        const ModelRun first = runOrFail(model, ids);
        requireMatchesFixture(first, name);
        // Longer then shorter input (buffers grow, then hold stale rows), and another model
        // (another width, causal or not) in between.
        std::vector<int> longer = ids;
        longer.insert(longer.end(), ids.begin(), ids.end());
        runOrFail(model, longer);
        runOrFail(other, fixtureIds(name == "bert-tiny" ? "gpt2-tiny" : "bert-tiny", 0));
        runOrFail(model, std::vector<int>(ids.begin(), ids.begin() + 2));
        const ModelRun again = runOrFail(model, ids);
        requireIdentical(first, again);
        requireMatchesFixture(again, name);
    }
}

TEST_CASE("The layer buffers are the same storage on the next run of the same length", "[models][buffers]") {
    const LoadedModel model = loadTiny("bert-tiny");
    const std::vector<int> ids = fixtureIds("bert-tiny", 0);
    runOrFail(model, ids);
    const LayerBuffers& buffers = threadLayerBuffers();
    const float* inner = buffers.inner.data();
    const float* context = buffers.context.data();
    REQUIRE(inner != nullptr);
    REQUIRE(buffers.inner.rows() == static_cast<Eigen::Index>(ids.size()));  // T×d_ff
    runOrFail(model, ids);
    CHECK(buffers.inner.data() == inner);
    CHECK(buffers.context.data() == context);
}

TEST_CASE("Runs on several threads at once keep their buffers apart", "[models][buffers]") {
    const LoadedModel bert = loadTiny("bert-tiny"), gpt2 = loadTiny("gpt2-tiny");
    const std::vector<int> bertIds = fixtureIds("bert-tiny", 0), gpt2Ids = fixtureIds("gpt2-tiny", 0);
    const ModelRun bertAlone = runOrFail(bert, bertIds), gpt2Alone = runOrFail(gpt2, gpt2Ids);
    std::vector<std::optional<ModelRun>> bertRuns(4), gpt2Runs(4);
    const auto keep = [](std::optional<ModelRun>& slot, Result<ModelRun> run) {
        if (run.ok()) slot = std::move(run).value();
    };
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < 4; ++i) {
        threads.emplace_back([&, i] { keep(bertRuns[i], runModel(bert, bertIds, {})); });
        threads.emplace_back([&, i] { keep(gpt2Runs[i], runModel(gpt2, gpt2Ids, {})); });
    }
    for (std::thread& t : threads) t.join();
    for (std::size_t i = 0; i < 4; ++i) {
        REQUIRE(bertRuns[i].has_value());
        REQUIRE(gpt2Runs[i].has_value());
        requireIdentical(bertAlone, *bertRuns[i]);
        requireIdentical(gpt2Alone, *gpt2Runs[i]);
    }
}
