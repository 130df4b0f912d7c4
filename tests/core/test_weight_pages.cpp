// Releasing the mapped weights' pages (issue 16: MappedFile::release, TensorStore::releaseLayer,
// RunControl::releaseWeightPagesFrom): after a run that releases them, no page of any layer's
// tensors is in the process (read from /proc/self/pagemap, not from mincore, which reports the
// page cache); a run that keeps them leaves them mapped; and runs after a release give the same
// numbers bit for bit.
#include <catch2/catch.hpp>
#include <limits>

#include "core/model/tensor_store.hpp"
#include "tests/core/model_fixtures.hpp"

using namespace attnscope;

namespace {

std::size_t residentLayers(const LoadedModel& model) {
    std::size_t total = 0;
    for (int l = 0; l < model.config.layers; ++l) {
        const auto bytes = model.store->residentLayerBytes(l);
        if (!bytes) FAIL("/proc/self/pagemap could not be read");
        total += *bytes;
    }
    return total;
}

ModelRun runWith(const LoadedModel& model, int releaseFrom, int* progressCalls = nullptr) {
    RunControl control;
    control.releaseWeightPagesFrom = releaseFrom;
    control.fullDetailMaxTokens = std::numeric_limits<int>::max();
    if (progressCalls) control.progress = [progressCalls](int, int) { ++*progressCalls; };
    auto run = runModel(model, {2, 17, 9, 3}, {}, control);
    REQUIRE(run.ok());
    return std::move(run).value();
}

}  // namespace

TEST_CASE("a run releases its layers' mapped weight pages and the next run computes the same", "[model][pages]") {
    for (const char* name : {"bert-tiny", "gpt2-tiny"}) {
        INFO(name);
        const LoadedModel model = fixture_io::loadTiny(name);
        CHECK(residentLayers(model) == 0);  // the load's finite check read them, then let them go

        const ModelRun kept = runWith(model, std::numeric_limits<int>::max());
        CHECK(residentLayers(model) > 0);  // read by the run, still mapped in: nothing released

        int progress = 0;
        const ModelRun released = runWith(model, 0, &progress);
        CHECK(progress == model.config.layers);  // the caller's progress still reported
        CHECK(residentLayers(model) == 0);

        const ModelRun again = runWith(model, 0);  // faulted back in from the page cache
        for (std::size_t l = 0; l < kept.trace.layers.size(); ++l)
            for (std::size_t h = 0; h < kept.trace.layers[l].heads.size(); ++h) {
                CHECK(released.trace.layers[l].heads[h].weights == kept.trace.layers[l].heads[h].weights);
                CHECK(again.trace.layers[l].heads[h].weights == kept.trace.layers[l].heads[h].weights);
            }
        CHECK(again.hiddenStates.back() == kept.hiddenStates.back());
    }
}

TEST_CASE("a tensor's layer is read from its name, whatever the family's prefix", "[model][pages]") {
    const LoadedModel model = fixture_io::loadTiny("bert-tiny");
    const LoadedModel gpt2 = fixture_io::loadTiny("gpt2-tiny");
    (void)runWith(model, std::numeric_limits<int>::max());
    (void)runWith(gpt2, std::numeric_limits<int>::max());
    for (const LoadedModel* m : {&model, &gpt2}) {
        for (int l = 0; l < m->config.layers; ++l) CHECK(m->store->residentLayerBytes(l).value_or(0) > 0);
        CHECK(m->store->residentLayerBytes(m->config.layers).value_or(1) == 0);  // no such layer: no tensor
    }
}
