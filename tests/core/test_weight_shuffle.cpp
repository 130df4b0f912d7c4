// The random-weights control (TensorStore::shuffledCopy, withShuffledWeights): every tensor holds
// the same numbers in another order, the order is fixed by the seed, and the shuffled model runs
// deterministically (tiny BERT of tests/reference/models).
#include <catch2/catch.hpp>
#include <algorithm>
#include <vector>

#include "core/model/transformer.hpp"
#include "model_fixtures.hpp"

using namespace attnscope;
using namespace attnscope::fixture_io;

namespace {

std::vector<float> valuesOf(const TensorStore& store, const std::string& name) {
    const TensorInfo* info = store.find(name);
    REQUIRE(info != nullptr);
    REQUIRE(info->shape.size() == 2);
    auto m = store.matrix(name, info->shape[0], info->shape[1]);
    REQUIRE(m.ok());
    return std::vector<float>(m.value().data(), m.value().data() + m.value().size());
}

Mat firstHeadWeights(const LoadedModel& model) {
    RunControl control;
    control.fullDetailMaxTokens = 0;
    auto run = runModel(model, {2, 5, 6, 7, 8, 3}, {}, control);  // [CLS] four pieces [SEP]
    INFO((run ? std::string() : run.error().text()));
    REQUIRE(run.ok());
    return run.value().trace.layers.at(1).heads.at(0).weights.toMat();
}

}  // namespace

TEST_CASE("shuffled copy: a permutation of each tensor, fixed by the seed", "[shuffle]") {
    const LoadedModel model = loadTiny("bert-tiny");
    const TensorStore seven = TensorStore::shuffledCopy(*model.store, 7);
    const TensorStore again = TensorStore::shuffledCopy(*model.store, 7);
    const TensorStore eight = TensorStore::shuffledCopy(*model.store, 8);
    REQUIRE(seven.names() == model.store->names());
    const std::string name = "bert.encoder.layer.0.attention.self.query.weight";
    std::vector<float> original = valuesOf(*model.store, name), shuffled = valuesOf(seven, name);
    CHECK(shuffled != original);
    CHECK(shuffled == valuesOf(again, name));
    CHECK(shuffled != valuesOf(eight, name));
    // Two tensors of the same shape get different orders (the name is in the seed).
    const std::string key = "bert.encoder.layer.0.attention.self.key.weight";
    std::vector<float> keyOrder = valuesOf(seven, key);
    std::sort(original.begin(), original.end());
    std::sort(shuffled.begin(), shuffled.end());
    CHECK(shuffled == original);  // the same numbers
    CHECK(keyOrder != valuesOf(*model.store, key));
}

TEST_CASE("shuffled model: runs, differs from the trained one, same seed same attention", "[shuffle]") {
    const LoadedModel model = loadTiny("bert-tiny");
    auto control = withShuffledWeights(model, 1);
    auto same = withShuffledWeights(model, 1);
    auto other = withShuffledWeights(model, 2);
    REQUIRE(control.ok());
    REQUIRE(same.ok());
    REQUIRE(other.ok());
    const Mat trained = firstHeadWeights(model), shuffled = firstHeadWeights(control.value());
    CHECK(shuffled == firstHeadWeights(same.value()));
    CHECK((shuffled - trained).cwiseAbs().maxCoeff() > 1e-3);
    CHECK((shuffled - firstHeadWeights(other.value())).cwiseAbs().maxCoeff() > 1e-3);
    CHECK((shuffled.rowwise().sum().array() - 1).abs().maxCoeff() < 1e-5);  // still softmax rows
}
