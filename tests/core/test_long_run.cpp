// The long-run memory policy (core/model/long_run.hpp): a run above the weights budget keeps each
// head's digest instead of its weights and rebuilds a layer from its input on demand. Checked
// against the same model run with every layer kept (the budget forced to 0 and to the maximum):
// the rebuilt layer equals the full run's, the thumbnails equal the full weights pooled by the
// loops below (written apart from core's), the statistics equal those of the full weights.
#include <catch2/catch.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <thread>

#include "core/analysis/head_stats.hpp"
#include "core/model/blas_kernels.hpp"
#include "core/model/long_run.hpp"
#include "core/trace/head_digest.hpp"
#include "core/model/recycled_weights.hpp"
#include "core/source/model_session.hpp"
#include "core/model/transformer.hpp"
#include "tests/core/matrix_compare.hpp"
#include "tests/core/model_fixtures.hpp"

using namespace attnscope;
using fixture_io::loadExample;
using fixture_io::someIds;

namespace {

std::string exampleModel(const char* name) { return std::string(ATTNSCOPE_SOURCE_DIR) + "/resources/models/" + name; }

// The example model with a position limit of `positions` (RoPE reads no table, so the weights fit):
// long enough inputs for thumbnails that really pool (T > 128).
LoadedModel withPositions(const LoadedModel& model, int positions) {
    TransformerConfig config = model.config;
    config.positions = positions;
    auto bound = bindModel(config, model.store, model.source);
    REQUIRE(bound.ok());
    return std::move(bound).value();
}

ModelRun runWith(const LoadedModel& model, const std::vector<int>& ids, std::size_t budget) {
    RunControl control;
    control.fullDetailMaxTokens = INT_MAX;  // the full run keeps every intermediate of every layer
    control.allWeightsBudget = budget;
    auto run = runModel(model, ids, {}, control);
    REQUIRE(run.ok());
    return std::move(run).value();
}

// Up to 40 tokens with every layer's every intermediate kept: what a rebuilt layer is held to.
ModelRun keepingEverything(const LoadedModel& model) {
    return runWith(model, someIds(std::min(40, model.config.maxTokens()), model.config.vocabSize), SIZE_MAX);
}

// Block b of n items pooled into min(n, side) blocks: [⌊b·n/parts⌋, ⌊(b+1)·n/parts⌋).
Mat pooledByHand(const Mat& w, int side) {
    const auto parts = [side](Eigen::Index n) { return std::min<Eigen::Index>(n, side); };
    const Eigen::Index R = parts(w.rows()), C = parts(w.cols());
    Mat out(R, C);
    for (Eigen::Index a = 0; a < R; ++a)
        for (Eigen::Index b = 0; b < C; ++b) {
            const Eigen::Index r0 = a * w.rows() / R, r1 = (a + 1) * w.rows() / R;
            const Eigen::Index c0 = b * w.cols() / C, c1 = (b + 1) * w.cols() / C;
            out(a, b) = w.block(r0, c0, r1 - r0, c1 - c0).mean();
        }
    return out;
}

void requireSameHead(const HeadTrace& full, const HeadTrace& rebuilt) {
    REQUIRE_MATRIX_NEAR(full.q, rebuilt.q, 0.0);
    REQUIRE_MATRIX_NEAR(full.k, rebuilt.k, 0.0);
    REQUIRE_MATRIX_NEAR(full.qBeforeRope, rebuilt.qBeforeRope, 0.0);
    REQUIRE_MATRIX_NEAR(full.v, rebuilt.v, 0.0);
    REQUIRE_MATRIX_NEAR(full.scores, rebuilt.scores, 0.0);
    REQUIRE_MATRIX_NEAR(full.maskedScores, rebuilt.maskedScores, 0.0);
    REQUIRE_MATRIX_NEAR(full.weights, rebuilt.weights, 0.0);
    REQUIRE_MATRIX_NEAR(full.weightedSum, rebuilt.weightedSum, 0.0);
    REQUIRE_MATRIX_NEAR(full.params.wq, rebuilt.params.wq, 0.0);
}

}  // namespace

TEST_CASE("poolBounds and poolWeights: each cell the mean of its block", "[long_run]") {
    // 5 items into 2 blocks: ⌊0⌋, ⌊5/2⌋ = 2, 5 → {0, 2, 5}; 3 items at side 4: one a block.
    CHECK(poolBounds(5, 2) == std::vector<int>{0, 2, 5});
    CHECK(poolBounds(3, 4) == std::vector<int>{0, 1, 2, 3});
    CHECK(poolBounds(4096, 128)[1] == 32);
    Mat w(3, 5);
    w << 1, 2, 3, 4, 5,  //
        6, 7, 8, 9, 10,  //
        11, 12, 13, 14, 15;
    // Rows {0}, {1, 2} (⌊3/2⌋ = 1); columns {0, 1}, {2, 3, 4}.
    // (0,0): (1+2)/2 = 1.5; (0,1): (3+4+5)/3 = 4; (1,0): (6+7+11+12)/4 = 9; (1,1): (8+9+10+13+14+15)/6 = 11.5
    Mat expected(2, 2);
    expected << 1.5, 4, 9, 11.5;
    REQUIRE_MATRIX_NEAR(expected, Mat(poolWeights(w, 2).cast<double>()), 0.0);
}

TEST_CASE("isLongRun and rebuiltDetail: the budgets at the real models' shapes", "[long_run]") {
    TransformerConfig qwen;  // Qwen2.5-0.5B: 24 layers × 14 heads
    qwen.layers = 24;
    qwen.heads = 14;
    // 24·14·512²·4 = 352,321,536 B ≤ 1 GiB; at 1,024 tokens four times that, 1,409,286,144 B > 1 GiB.
    CHECK(allWeightsBytes(qwen, 512) == 352321536u);
    CHECK_FALSE(isLongRun(qwen, 512));
    CHECK(isLongRun(qwen, 1024));
    TransformerConfig llama;  // Llama-3.2-1B: 16 × 32, 16·32·512²·4 = 536,870,912 B = half a GiB
    llama.layers = 16;
    llama.heads = 32;
    CHECK_FALSE(isLongRun(llama, 512));
    CHECK(isLongRun(llama, 4096));
    // A Full layer: 14·512²·(4·8 + 4) = 132,120,576 B; at 4,096 tokens 64 times that, 8.46 GB.
    CHECK(fullLayerBytes(qwen, 512) == 132120576u);
    CHECK(rebuiltDetail(qwen, 512) == LayerDetail::Full);
    CHECK(rebuiltDetail(qwen, 4096) == LayerDetail::WeightsNoOutput);
    // A switch hands the heatmap's head over first for Llama's 32 heads, not Qwen's 14 (memory).
    CHECK(switchesHeadsFirst(llama));
    CHECK_FALSE(switchesHeadsFirst(qwen));
    const std::vector<LayerDetail> details = layerDetails(qwen, 1024, 128, 3, kAllWeightsBudget);
    CHECK(details == std::vector<LayerDetail>(24, LayerDetail::Summary));
    const std::vector<LayerDetail> shortRun = layerDetails(qwen, 512, 128, 3, kAllWeightsBudget);
    CHECK(shortRun[3] == LayerDetail::Full);
    CHECK(shortRun[0] == LayerDetail::WeightsOnly);
}

// The window's run beyond 128 tokens (app/model_worker.cpp): the shown layer too keeps its weights
// only, to be rebuilt after the run is drawn; up to the limit it is Full, as before.
TEST_CASE("the shown layer is Full up to detailLayerMaxTokens, its weights only beyond", "[long_run][models]") {
    auto loaded = loadModel(exampleModel("example-llama"));
    REQUIRE(loaded.ok());
    const std::vector<int> ids = someIds(12, loaded.value().config.vocabSize);
    for (const int limit : {11, 12}) {
        RunControl control;
        control.fullDetailMaxTokens = 0;
        control.detailLayer = 1;
        control.detailLayerMaxTokens = limit;
        auto run = runModel(loaded.value(), ids, {}, control);
        REQUIRE(run.ok());
        INFO("detail layer Full up to " << limit << " tokens, 12 run");
        CHECK(run.value().detail[1] == (limit >= 12 ? LayerDetail::Full : LayerDetail::WeightsOnly));
        CHECK(run.value().detail[0] == LayerDetail::WeightsOnly);
        CHECK((run.value().trace.layers[1].heads[0].scores.size() > 0) == (limit >= 12));
    }
}

TEST_CASE("a long run's rebuilt layer equals the full run's layer", "[long_run][models]") {
    for (const char* name : {"example-llama", "example-gpt"}) {
        INFO(name);
        auto loaded = loadModel(exampleModel(name));
        REQUIRE(loaded.ok());
        const LoadedModel& model = loaded.value();
        const std::vector<int> ids = someIds(std::min(40, model.config.maxTokens()), model.config.vocabSize);
        const ModelRun full = runWith(model, ids, SIZE_MAX);
        CHECK(threadLayerBuffers().floats() > 0);  // a short run leaves its buffers for the next one
        const ModelRun longRun = runWith(model, ids, 0);  // the long-run policy whatever T is
        CHECK(threadLayerBuffers().floats() == 0);  // a long run's do not outlive it
        REQUIRE_FALSE(full.isLong());
        REQUIRE(longRun.isLong());
        REQUIRE(longRun.hiddenStates.size() == full.hiddenStates.size());
        for (std::size_t n = 0; n < full.hiddenStates.size(); ++n)
            REQUIRE_MATRIX_NEAR(Mat(full.hiddenStates[n].cast<double>()), Mat(longRun.hiddenStates[n].cast<double>()), 0.0);
        REQUIRE(longRun.predictions.size() == full.predictions.size());
        CHECK(longRun.predictions[0].top[0].id == full.predictions[0].top[0].id);
        for (int layer = 0; layer < model.config.layers; ++layer) {
            INFO("layer " << layer);
            const LayerTrace& kept = longRun.trace.layers[static_cast<std::size_t>(layer)];
            CHECK(kept.heads[0].weights.size() == 0);  // nothing T×T stays
            CHECK(kept.input.size() == 0);
            REQUIRE(longRun.digests[static_cast<std::size_t>(layer)].size() == kept.heads.size());
            auto rebuilt = traceLayerInDetail(model, longRun, layer);
            REQUIRE(rebuilt.ok());
            CHECK(threadLayerBuffers().floats() == 0);  // nor those of a layer rebuilt from it
            const LayerTrace& want = full.trace.layers[static_cast<std::size_t>(layer)];
            REQUIRE(rebuilt.value().heads.size() == want.heads.size());
            REQUIRE_MATRIX_NEAR(want.input, rebuilt.value().input, 0.0);
            REQUIRE_MATRIX_NEAR(want.output, rebuilt.value().output, 0.0);
            REQUIRE_MATRIX_NEAR(want.wo, rebuilt.value().wo, 0.0);
            for (std::size_t h = 0; h < want.heads.size(); ++h) requireSameHead(want.heads[h], rebuilt.value().heads[h]);
        }
    }
}

TEST_CASE("a layer rebuilt for its weights alone computes them as the run did, and no output", "[long_run][models]") {
    for (const char* name : {"example-llama", "example-gpt", "example-bert"}) {
        INFO(name);
        const LoadedModel model = loadExample(name);
        const ModelRun full = keepingEverything(model);
        for (int layer = 0; layer < model.config.layers; ++layer) {
            INFO("layer " << layer);
            LayerTrace alone;
            const MatF& X = full.hiddenStates[static_cast<std::size_t>(layer)];
            const MatF returned = model.weights->attend(X, layer, LayerDetail::WeightsNoOutput, alone, {}, nullptr);
            // No head computed A·V; the decoders project neither V nor the context by W_O and hand
            // back nothing (the others the stream with a zero context: X + bias).
            if (std::string(name) == "example-llama") CHECK(returned.size() == 0);
            else CHECK(returned.rows() == X.rows());
            const LayerTrace& want = full.trace.layers[static_cast<std::size_t>(layer)];
            REQUIRE(alone.heads.size() == want.heads.size());
            for (std::size_t h = 0; h < want.heads.size(); ++h) {
                REQUIRE_MATRIX_NEAR(want.heads[h].weights, alone.heads[h].weights, 0.0);
                CHECK(alone.heads[h].weightedSum.size() == 0);
            }
            CHECK(alone.input.size() == 0);  // a WeightsOnly record: nothing but the weights
        }
    }
}

TEST_CASE("a layer rebuilt for some of its heads computes those alone, as the whole layer does", "[long_run][models]") {
    for (const char* name : {"example-llama", "example-gpt", "example-bert"}) {
        INFO(name);
        const LoadedModel model = loadExample(name);
        const ModelRun full = keepingEverything(model);
        const auto heads = static_cast<std::size_t>(model.config.heads);
        std::vector<bool> asked(heads, false);
        asked[1] = true;
        LayerTrace some;
        some.heads.assign(heads, HeadTrace{});
        some.heads[0].weights = Mat(Mat::Constant(2, 2, 0.5));  // a recycled layer's buffer: not left in head 0
        model.weights->attend(full.hiddenStates[1], 1, LayerDetail::WeightsNoOutput, some, HeadsAsked{{}, asked}, nullptr);
        REQUIRE(some.heads.size() == heads);
        REQUIRE_MATRIX_NEAR(full.trace.layers[1].heads[1].weights, some.heads[1].weights, 0.0);
        for (std::size_t h = 0; h < heads; ++h)
            if (h != 1) CHECK(some.heads[h].weights.size() == 0);
    }
}

TEST_CASE("a long run's layer rebuilt for one head holds that head's weights alone", "[long_run][models]") {
    auto loaded = loadModel(exampleModel("example-llama"));
    REQUIRE(loaded.ok());
    // 4 heads of 2,800² cells: the whole layer in full (4·T²·36 bytes, 1.1 GB) passes the rebuilt
    // layer's budget, so the layer is rebuilt for its weights (WeightsNoOutput).
    const int tokens = 2800;
    const LoadedModel model = withPositions(loaded.value(), tokens);
    REQUIRE(rebuiltDetail(model.config, tokens) == LayerDetail::WeightsNoOutput);
    const ModelRun longRun = runWith(model, someIds(tokens, model.config.vocabSize), 0);
    REQUIRE(longRun.isLong());
    auto whole = traceLayerInDetail(model, longRun, 2);
    auto one = traceLayerInDetail(model, longRun, 2, {false, false, true, false});
    REQUIRE(whole.ok());
    REQUIRE(one.ok());
    REQUIRE(one.value().heads.size() == 4);
    REQUIRE_MATRIX_NEAR(whole.value().heads[2].weights, one.value().heads[2].weights, 0.0);
    for (std::size_t h : {0u, 1u, 3u}) CHECK(one.value().heads[h].weights.size() == 0);
}

TEST_CASE("a long run's thumbnails and statistics equal those of the full weights", "[long_run][models]") {
    auto loaded = loadModel(exampleModel("example-llama"));
    REQUIRE(loaded.ok());
    const LoadedModel model = withPositions(loaded.value(), 512);
    const std::vector<int> ids = someIds(300, model.config.vocabSize);  // 300 rows into 128 blocks of 2 or 3
    const ModelRun full = runWith(model, ids, SIZE_MAX);
    const ModelRun longRun = runWith(model, ids, 0);
    REQUIRE(longRun.isLong());
    for (std::size_t l = 0; l < full.trace.layers.size(); ++l)
        for (std::size_t h = 0; h < full.trace.layers[l].heads.size(); ++h) {
            INFO("layer " << l << " head " << h);
            const HeadDigest& digest = longRun.digests[l][h];
            REQUIRE(digest.rows == 300);
            REQUIRE(digest.thumbnail.rows() == 128);
            const Mat pooled = pooledByHand(full.trace.layers[l].heads[h].weights.toMat(), 128);
            REQUIRE_MATRIX_NEAR(pooled, Mat(digest.thumbnail.cast<double>()), 1e-7);
        }
    auto fromWeights = headStatistics(full.trace);
    auto fromDigests = headStatistics(longRun.trace, longRun.digests);
    CHECK_FALSE(headStatistics(longRun.trace).ok());  // no weights, no digests: refused
    REQUIRE(fromWeights.ok());
    REQUIRE(fromDigests.ok());
    REQUIRE(fromWeights.value().size() == fromDigests.value().size());
    for (std::size_t i = 0; i < fromWeights.value().size(); ++i) {
        const HeadStatistics& a = fromWeights.value()[i];
        const HeadStatistics& b = fromDigests.value()[i];
        CHECK(a.head == b.head);
        CHECK(a.entropy == Approx(b.entropy).epsilon(1e-12));
        CHECK(a.delimiterShare == Approx(b.delimiterShare).epsilon(1e-12));
        CHECK(a.previousShare == Approx(b.previousShare).epsilon(1e-12));
        CHECK(a.firstShare == Approx(b.firstShare).epsilon(1e-12));
        CHECK(a.labels == b.labels);
    }
    // A long run's shown layer holds weights again (rebuilt bit-equal): its statistics still come
    // from the run's digests, not from another pass over the weights. Made different here to tell.
    Trace shown = longRun.trace;
    shown.layers[1].heads[2].weights = Mat(Mat::Constant(300, 300, 1.0 / 300));
    auto withShownLayer = headStatistics(shown, longRun.digests);
    REQUIRE(withShownLayer.ok());
    const auto index = static_cast<std::size_t>(full.trace.layers[0].heads.size() + 2);  // layer 1, head 2
    CHECK(withShownLayer.value()[index].head == HeadRef{1, 2});
    CHECK(withShownLayer.value()[index].entropy == fromDigests.value()[index].entropy);
    // Entropy from the weights by hand (double log₂) for one head, against the digest's.
    const Mat w = full.trace.layers[1].heads[2].weights.toMat();  // the float weights, exactly
    double entropy = 0;
    for (Eigen::Index i = 0; i < w.rows(); ++i)
        for (Eigen::Index j = 0; j < w.cols(); ++j)
            if (w(i, j) > 0) entropy -= w(i, j) * std::log2(w(i, j));
    CHECK(longRun.digests[1][2].entropy == Approx(entropy / w.rows()).epsilon(1e-5));
}

TEST_CASE("a streamed long run sends each layer's weights and keeps its digests", "[long_run][models]") {
    auto loaded = loadModel(exampleModel("example-llama"));
    REQUIRE(loaded.ok());
    const std::vector<int> ids = someIds(20, loaded.value().config.vocabSize);
    const ModelRun full = runWith(loaded.value(), ids, SIZE_MAX);
    RunControl control;
    control.allWeightsBudget = 0;
    int sent = 0;
    control.onLayer = [&](const Trace&, int layer, LayerTrace& trace) -> Result<void> {
        REQUIRE_MATRIX_NEAR(full.trace.layers[static_cast<std::size_t>(layer)].heads[1].weights, trace.heads[1].weights, 0.0);
        ++sent;
        return {};
    };
    auto run = runModel(loaded.value(), ids, {}, control);
    REQUIRE(run.ok());
    CHECK(sent == loaded.value().config.layers);
    CHECK(run.value().trace.layers[0].heads[1].weights.size() == 0);
    REQUIRE(run.value().digests.size() == static_cast<std::size_t>(loaded.value().config.layers));
    const HeadDigest& kept = run.value().digests[0][1];
    REQUIRE_MATRIX_NEAR(full.trace.layers[0].heads[1].weights.toMat(), Mat(kept.thumbnail.cast<double>()), 0.0);
}

TEST_CASE("a streamed long run holds only the heads it sends, and digests every head as the run does",
          "[long_run][models]") {
    auto loaded = loadModel(exampleModel("example-llama"));
    REQUIRE(loaded.ok());
    const LoadedModel model = withPositions(loaded.value(), 512);
    const std::vector<int> ids = someIds(300, model.config.vocabSize);  // heads side by side, digested in blocks
    const ModelRun full = runWith(model, ids, SIZE_MAX);
    const ModelRun longRun = runWith(model, ids, 0);
    RunControl control;
    control.allWeightsBudget = 0;
    control.sendsHead = [](int layer, int head) { return layer == 1 && head == 2; };
    int sent = 0;
    control.onLayer = [&](const Trace&, int layer, LayerTrace& trace) -> Result<void> {
        INFO("layer " << layer);
        for (std::size_t h = 0; h < trace.heads.size(); ++h) {
            INFO("head " << h);
            if (layer == 1 && h == 2)
                REQUIRE_MATRIX_NEAR(full.trace.layers[1].heads[2].weights, trace.heads[h].weights, 0.0);
            else CHECK(trace.heads[h].weights.size() == 0);
        }
        ++sent;
        return {};
    };
    auto streamed = runModel(model, ids, {}, control);
    REQUIRE(streamed.ok());
    CHECK(sent == model.config.layers);
    const RunDigests& digests = streamed.value().digests;
    REQUIRE(digests.size() == longRun.digests.size());
    for (std::size_t l = 0; l < digests.size(); ++l)
        for (std::size_t h = 0; h < digests[l].size(); ++h) {
            INFO("layer " << l << " head " << h);  // the sent head's digest made from its kept weights
            REQUIRE_MATRIX_NEAR(Mat(longRun.digests[l][h].thumbnail.cast<double>()), Mat(digests[l][h].thumbnail.cast<double>()), 0.0);
            CHECK(digests[l][h].entropy == longRun.digests[l][h].entropy);
            CHECK(digests[l][h].columnMass == longRun.digests[l][h].columnMass);
        }
}

namespace {

std::vector<const void*> weightBuffers(const LayerTrace& layer) {
    std::vector<const void*> buffers;
    for (const HeadTrace& head : layer.heads)
        buffers.push_back(head.weights.visit([](const auto& w) { return static_cast<const void*>(w.data()); }));
    return buffers;
}

}  // namespace

TEST_CASE("a shown layer the window lets go lends its buffers to the next layer rebuilt", "[long_run][models]") {
    auto loaded = loadModel(exampleModel("example-llama"));
    REQUIRE(loaded.ok());
    OpenedModel opened;
    opened.model = withPositions(loaded.value(), 512);
    // One head thread, as the full run: heads one by one use other products than heads side by
    // side. Head h writes into the buffer head h held (multiHeadAttentionInto's computeInOwnBuffer).
    struct OneThread {
        int threads = productThreadCount();
        OneThread() { setProductThreadCount(1); }
        ~OneThread() { setProductThreadCount(threads); }  // also when a REQUIRE leaves early
    } oneThread;
    const std::vector<int> ids = someIds(300, opened.model.config.vocabSize);  // > 128: causal blocks skipped
    const ModelRun full = runWith(opened.model, ids, SIZE_MAX);
    const auto longRun = std::make_shared<const ModelRun>(runWith(opened.model, ids, 0));
    REQUIRE(keptBufferBytes() == 0);
    const auto T = static_cast<std::size_t>(ids.size());
    const auto H = static_cast<std::size_t>(opened.model.config.heads);
    REQUIRE(headThreadsFor(static_cast<Eigen::Index>(T), static_cast<int>(H)) == 1);

    // The window shows layers 2, 1, 2 in turn; each shown layer is let go once the next is in.
    std::vector<const void*> before;  // the buffers of the layer shown before
    for (const int layer : {1, 0, 1}) {
        INFO("layer " << layer);
        auto shown = shownTraceOf(opened, longRun, layer);
        REQUIRE(shown.ok());
        std::shared_ptr<const Trace> onScreen = std::move(shown).value();
        CHECK(keptBufferBytes() == 0);  // taken by this rebuild
        // RoPE adds nothing to the embeddings: the window's copy leaves out the run's T×d zeros,
        // which the run keeps for its exports.
        CHECK(onScreen->positional.size() == 0);
        CHECK(longRun->trace.positional.rows() == static_cast<Eigen::Index>(T));
        CHECK(longRun->trace.positional.isZero(0.0));
        CHECK(onScreen->embedding == longRun->trace.embedding);
        const LayerTrace& rebuilt = onScreen->layers[static_cast<std::size_t>(layer)];
        const LayerTrace& want = full.trace.layers[static_cast<std::size_t>(layer)];
        REQUIRE(rebuilt.heads.size() == want.heads.size());
        // The other layer's numbers were in the buffers: every weight is written over, the masked ones to 0.
        for (std::size_t h = 0; h < H; ++h) REQUIRE_MATRIX_NEAR(want.heads[h].weights, rebuilt.heads[h].weights, 0.0);
        const std::vector<const void*> used = weightBuffers(rebuilt);
        if (!before.empty())
            for (std::size_t h = 0; h < H; ++h) CHECK(used[h] == before[h]);
        before = used;
        onScreen.reset();  // the views let go of the last reference: every head's buffer is kept
        // and not the embeddings' copy: a layer of a few heads (switchesHeadsFirst) spends no memory on it.
        REQUIRE(!switchesHeadsFirst(opened.model.config));
        CHECK(keptBufferBytes() == H * T * T * sizeof(float));
    }
    (void)runWith(opened.model, ids, 0);  // a new run drops them
    CHECK(keptBufferBytes() == 0);
}

// A switch that draws the heatmap's head first (ShownHeadsFirst) hands that head over and computes
// it again with the rest of the layer. The early Trace is let go once the whole layer is in, and its
// head's buffer kept (keepSpareHeadBuffer): at the next switch the head computed again writes into
// it, not into fresh pages (a Llama-3.2-1B head's 10,000 page faults at 4,096 tokens).
TEST_CASE("a switch's head handed over first lends its buffer to the head computed again at the next switch",
          "[long_run][models]") {
    auto loaded = loadModel(exampleModel("example-llama"));
    REQUIRE(loaded.ok());
    OpenedModel opened;
    opened.model = withPositions(loaded.value(), 512);
    const std::vector<int> ids = someIds(300, opened.model.config.vocabSize);
    const ModelRun full = runWith(opened.model, ids, SIZE_MAX);
    const auto longRun = std::make_shared<const ModelRun>(runWith(opened.model, ids, 0));
    const auto T = static_cast<std::size_t>(ids.size());
    const auto H = static_cast<std::size_t>(opened.model.config.heads);
    const std::size_t head = T * T * sizeof(float);
    std::shared_ptr<const Trace> early;
    const ShownHeadsFirst first{{false, true, false, false}, [&](std::shared_ptr<const Trace> t) { early = std::move(t); }};

    std::shared_ptr<const Trace> onScreen;
    const void* handedBefore = nullptr;  // the head's buffer in the early Trace of the switch before
    for (const int layer : {1, 0, 1}) {
        INFO("layer " << layer);
        onScreen.reset();  // the window lets go of the layer on screen first
        auto shown = shownTraceOf(opened, longRun, layer, first);
        REQUIRE(shown.ok());
        onScreen = std::move(shown).value();
        REQUIRE(early != nullptr);
        const LayerTrace& rebuilt = onScreen->layers[static_cast<std::size_t>(layer)];
        const LayerTrace& want = full.trace.layers[static_cast<std::size_t>(layer)];
        for (std::size_t h = 0; h < H; ++h) REQUIRE_MATRIX_NEAR(want.heads[h].weights, rebuilt.heads[h].weights, 0.0);
        REQUIRE_MATRIX_NEAR(want.heads[1].weights, early->layers[static_cast<std::size_t>(layer)].heads[1].weights, 0.0);
        if (handedBefore != nullptr) CHECK(weightBuffers(rebuilt)[1] == handedBefore);  // computed again in it
        handedBefore = weightBuffers(early->layers[static_cast<std::size_t>(layer)])[1];
        CHECK(keptBufferBytes() == 0);  // the spare taken by this rebuild, or none yet
        early.reset();  // the whole layer is in: the head's Trace is let go, its buffer kept
        CHECK(keptBufferBytes() == head);
    }
    onScreen.reset();
    CHECK(keptBufferBytes() == (H + 1) * head);  // the layer and the spare head: one switch's peak
    (void)runWith(opened.model, ids, 0);  // a new run drops them
    CHECK(keptBufferBytes() == 0);
}

// The run's own early Trace (the heatmap's head before the later layers ran) keeps its head's
// buffer too, for the head computed again at the first switch; a layer of few heads keeps none.
TEST_CASE("sharedEarlyTrace keeps a head's buffer once let go, when asked", "[long_run]") {
    dropKeptBuffers();
    const auto earlyWithHead = [] {
        Trace t;
        t.layers.resize(2);
        t.layers[1].heads.resize(3);
        t.layers[1].heads[2].weights = MatF(MatF::Constant(6, 6, 0.5f));
        return t;
    };
    auto few = sharedEarlyTrace(earlyWithHead(), 1, false);
    few.reset();
    CHECK(keptBufferBytes() == 0);
    auto many = sharedEarlyTrace(earlyWithHead(), 1, true);
    CHECK(many->layers[1].heads[2].weights(5, 5) == 0.5);
    CHECK(keptBufferBytes() == 0);  // shown still
    many.reset();
    CHECK(keptBufferBytes() == 6 * 6 * sizeof(float));
    dropKeptBuffers();
    CHECK(keptBufferBytes() == 0);
}

TEST_CASE("a float head's entropy by hand: zeros count 0, a NaN row counts what is finite", "[long_run]") {
    // Causal rows (each row's keys up to itself): [1], [½ ½], [¼ ¼ ½] → 0, 1 and 1.5 bits
    // (−¼·log₂¼ · 2 − ½·log₂½ = 1 + ½); mean (0 + 1 + 1.5) / 3 = 5/6.
    MatF w(3, 3);
    w << 1, 0, 0, .5f, .5f, 0, .25f, .25f, .5f;
    CHECK(statisticsDigestOf(w, true).entropy == Approx(5.0 / 6).epsilon(1e-6));
    // Not causal: the zeros past each row are read too and add 0.
    CHECK(statisticsDigestOf(w, false).entropy == Approx(5.0 / 6).epsilon(1e-6));
    // A NaN weight adds nothing (as 0·ln 0): row 2 is then ¼ and ½ → ½ + ½ = 1 bit; mean 2/3.
    w(2, 0) = std::numeric_limits<float>::quiet_NaN();
    CHECK(statisticsDigestOf(w, true).entropy == Approx(2.0 / 3).epsilon(1e-6));
}

TEST_CASE("the kept buffers hold a let-go layer's weight buffers and, when given, the embeddings' matrix", "[long_run]") {
    dropKeptBuffers();
    LayerTrace layer;
    layer.heads.resize(2);
    layer.heads[0].weights = MatF(MatF::Zero(5, 5));
    layer.heads[1].weights = MatF(MatF::Zero(5, 5));
    const void* head1 = layer.heads[1].weights.ref().visit([](const auto& m) { return static_cast<const void*>(m.data()); });
    Mat embedding = Mat::Ones(3, 4);
    const double* rows = embedding.data();
    keepForNextRebuild(std::move(layer), std::move(embedding));
    CHECK(keptBufferBytes() == 2 * 25 * sizeof(float) + 12 * sizeof(double));
    Mat taken = takeKeptEmbedding();
    CHECK(taken.data() == rows);  // the same pages: assigned a T×d matrix of the same size, it takes no new one
    taken = Mat::Constant(3, 4, 2.0);
    CHECK(taken.data() == rows);
    CHECK(takeKeptEmbedding().size() == 0);  // taken once
    CHECK(keptBufferBytes() == 2 * 25 * sizeof(float));
    LayerTrace next;
    seedWithKeptBuffers(next);
    REQUIRE(next.heads.size() == 2);
    CHECK(next.heads[1].weights.ref().visit([](const auto& m) { return static_cast<const void*>(m.data()); }) == head1);
    CHECK(keptBufferBytes() == 0);
    keepForNextRebuild(std::move(next), Mat());  // none given: none kept
    CHECK(keptBufferBytes() == 2 * 25 * sizeof(float));
    dropKeptBuffers();
    CHECK(keptBufferBytes() == 0);
}

// Catch's assertions stay on the test's thread: a REQUIRE failing on another would end the process.
TEST_CASE("a thread's layer buffers kept go to the next thread whose own are empty", "[long_run]") {
    dropKeptBuffers();
    const float* q = nullptr;
    std::size_t leftBehind = 1;
    std::thread([&] {
        threadLayerBuffers().q = MatF::Ones(3, 4);
        threadLayerBuffers().k = MatF::Ones(3, 2);
        q = threadLayerBuffers().q.data();
        keepLayerBuffers();
        leftBehind = threadLayerBuffers().floats();
    }).join();
    CHECK(leftBehind == 0);
    CHECK(keptBufferBytes() == (12 + 6) * sizeof(float));
    std::size_t withOwn = 0, taken = 0;
    const float* takenQ = nullptr;
    std::thread([&] {
        threadLayerBuffers().normed = MatF::Ones(2, 2);  // buffers of its own: kept ones not taken
        useKeptLayerBuffers();
        withOwn = threadLayerBuffers().floats();
        threadLayerBuffers() = LayerBuffers{};
        useKeptLayerBuffers();
        taken = threadLayerBuffers().floats();
        takenQ = threadLayerBuffers().q.data();
    }).join();
    CHECK(withOwn == 4);
    CHECK(taken == 18);
    CHECK(takenQ == q);  // the same pages
    CHECK(keptBufferBytes() == 0);
    std::thread([] {
        threadLayerBuffers().q = MatF::Ones(3, 4);
        keepLayerBuffers();
    }).join();
    dropKeptBuffers();  // a new run's
    CHECK(keptBufferBytes() == 0);
}

TEST_CASE("a rebuild in a layer of many heads hands its layer buffers to the next rebuild's thread", "[long_run][models]") {
    // example-gpt read with 16 heads of 8 columns (switchesHeadsFirst): GPT-2's weights do not
    // depend on the heads, so it is a model as any other.
    auto loaded = loadModel(exampleModel("example-gpt"));
    REQUIRE(loaded.ok());
    TransformerConfig config = loaded.value().config;
    config.heads = kHeadsFirstFrom;
    auto bound = bindModel(config, loaded.value().store, loaded.value().source);
    REQUIRE(bound.ok());
    const LoadedModel& model = bound.value();
    REQUIRE(switchesHeadsFirst(model.config));
    const std::vector<int> ids = someIds(60, model.config.vocabSize);
    dropKeptBuffers();
    const ModelRun longRun = runWith(model, ids, 0);
    const ModelRun full = runWith(model, ids, SIZE_MAX);
    // The window's run thread: it rebuilds the shown layer, then runs no other.
    std::size_t leftBehind = 1, handed = 0;
    bool shownOk = false;
    std::thread([&] {
        shownOk = traceLayerInDetail(model, longRun, 0).ok();
        leftBehind = threadLayerBuffers().floats();
        handed = keptBufferBytes();
    }).join();
    REQUIRE(shownOk);
    CHECK(leftBehind == 0);
    CHECK(handed >= 60 * 128 * sizeof(float) * 3);  // the normed input, Q and K at least: T×d each
    // The window's switch thread, which keeps its buffers between switches.
    std::optional<Result<LayerTrace>> switched;
    std::size_t held = 0;
    std::thread([&] {
        keepThreadLayerBuffersAfterRebuilds(true);
        switched = traceLayerInDetail(model, longRun, 1);
        held = threadLayerBuffers().floats() * sizeof(float);
    }).join();
    REQUIRE(switched);
    REQUIRE(switched->ok());
    CHECK(held == handed);  // taken, the same shapes
    CHECK(keptBufferBytes() == 0);
    // Layer 0's numbers were in them: layer 1 is the full run's all the same.
    const LayerTrace& want = full.trace.layers[1];
    for (std::size_t h = 0; h < want.heads.size(); ++h) requireSameHead(want.heads[h], switched->value().heads[h]);
}
