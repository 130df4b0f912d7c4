// Real models (core/model/transformer.hpp) against an independent torch reference.
//
// tests/reference/make_model_fixtures.py writes tiny random-weight BERT, DistilBERT, RoBERTa and
// GPT-2 checkpoints with Hugging Face tensor names (tests/reference/models/*) and runs a
// plain-torch forward pass sharing no code with core/; its outputs are committed as
// tests/reference/fixtures/model-*.json, so this test needs no Python.
//
// Tolerances:
//  - kTolerance 1e-5 for every model, F16 ones included: their reference ran on the same
//    half-rounded values widened to float32, and F16 → F32 widening is exact.
//  - logits are O(10) here (the decoder is the std-1 word embeddings), so float32 rounding
//    alone reaches ~1e-5 in them: they are compared at kTolerance relative to the row's largest
//    |logit| (at least 1).
//  - kHalfVsFloatTolerance compares an F16 checkpoint with the F32 reference of the weights it
//    was rounded from: half precision keeps ~3 decimal digits per weight, which after two layers
//    moves outputs of size ~1 by up to ~1e-2 (observed: hidden states ≤ 1.2e-2, attention
//    weights ≤ 1.6e-3).
//
// Set ATTNSCOPE_TEST_VERBOSE=1 to print the largest differences and timings.
#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "core/model/bert.hpp"
#include "core/model/gpt2.hpp"
#include "core/trace/explain.hpp"
#include "core/model/transformer.hpp"
#include "core/text/messages.hpp"
#include "matrix_compare.hpp"
#include "model_fixtures.hpp"

using namespace attnscope;
using namespace attnscope::fixture_io;

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

constexpr double kTolerance = 1e-5;
constexpr double kHalfVsFloatTolerance = 3e-2;
constexpr int kMaskId = 4;  // [MASK] in the tiny BERT vocabulary

bool verbose() { return std::getenv("ATTNSCOPE_TEST_VERBOSE") != nullptr; }

Json readFixture(const std::string& name) {
    return readJson(sourceDir() / "tests/reference/fixtures" / ("model-" + name + ".json"));
}

Mat rowOf(const Json& values) {
    Mat m(1, static_cast<Eigen::Index>(values.size()));
    for (Eigen::Index c = 0; c < m.cols(); ++c) m(0, c) = values.at(c).get<double>();
    return m;
}

// Token labels the way a tokenizer gives them: [MASK] where the id is the mask id.
std::vector<Token> labelsFor(const std::vector<int>& ids, bool bert) {
    std::vector<Token> tokens;
    for (int id : ids)
        tokens.push_back(Token{bert && id == kMaskId ? "[MASK]" : "t" + std::to_string(id), true, id, -1, false});
    return tokens;
}

// The tokenizer's mask id, as runSentence passes it.
RunControl withMaskId(RunControl control = {}) {
    control.maskTokenId = kMaskId;
    return control;
}

ModelRun runOrFail(const LoadedModel& model, const std::vector<int>& ids, const RunControl& control = {}) {
    auto run = runModel(model, ids, labelsFor(ids, model.config.family != ModelFamily::Gpt2), withMaskId(control));
    INFO("run error: " << (run ? std::string() : run.error().text()));
    REQUIRE(run.ok());
    return std::move(run).value();
}

struct Largest {
    double hidden = 0, attention = 0, logits = 0, probability = 0;
};

double maxDiff(const Mat& a, const Mat& b) { return (a - b).cwiseAbs().maxCoeff(); }

// Every hidden state, every head's weights and every prediction of one run against the fixture.
void compareRun(const ModelRun& run, const Json& expected, double tolerance, Largest& largest) {
    const Json& hidden = expected.at("hidden_states");
    REQUIRE(run.hiddenStates.size() == hidden.size());
    for (std::size_t i = 0; i < hidden.size(); ++i) {
        INFO("hidden state " << i);
        const Mat want = matrixOf(hidden[i]), got = toDouble(run.hiddenStates[i]);
        REQUIRE_MATRIX_NEAR(want, got, tolerance);
        largest.hidden = std::max(largest.hidden, maxDiff(want, got));
    }
    const Json& attentions = expected.at("attentions");
    REQUIRE(run.trace.layers.size() == attentions.size());
    for (std::size_t l = 0; l < attentions.size(); ++l)
        for (std::size_t h = 0; h < attentions[l].size(); ++h) {
            INFO("layer " << l << " head " << h);
            const Mat want = matrixOf(attentions[l][h]), got = run.trace.layers[l].heads.at(h).weights.toMat();
            REQUIRE_MATRIX_NEAR(want, got, tolerance);
            largest.attention = std::max(largest.attention, maxDiff(want, got));
        }
    const Json& predictions = expected.at("predictions");
    REQUIRE(run.predictions.size() == predictions.size());
    for (std::size_t p = 0; p < predictions.size(); ++p) {
        const Prediction& got = run.predictions[p];
        INFO("prediction at " << got.position);
        REQUIRE(got.position == predictions[p].at("position").get<int>());
        const Mat want = rowOf(predictions[p].at("logits")), logits = toDouble(got.logits);
        REQUIRE_MATRIX_NEAR(want, logits, tolerance * std::max(1.0, want.cwiseAbs().maxCoeff()));
        largest.logits = std::max(largest.logits, maxDiff(want, logits));
        const Json& top = predictions[p].at("top");
        REQUIRE(got.top.size() >= top.size());
        for (std::size_t k = 0; k < top.size(); ++k) {
            CHECK(got.top[k].id == top[k][0].get<int>());
            const double diff = std::abs(got.top[k].probability - top[k][1].get<double>());
            CHECK(diff <= tolerance);
            largest.probability = std::max(largest.probability, diff);
        }
    }
}

std::vector<int> idsOf(const Json& run) { return run.at("ids").get<std::vector<int>>(); }

void compareWithFixture(const std::string& modelName, const std::string& fixtureName, double tolerance,
                        std::size_t runs = 99) {
    const LoadedModel model = loadTiny(modelName);
    const Json fixture = readFixture(fixtureName);
    Largest largest;
    const std::size_t n = std::min(runs, fixture.at("runs").size());
    for (std::size_t r = 0; r < n; ++r) {
        INFO(modelName << " vs model-" << fixtureName << ".json, run " << r);
        compareRun(runOrFail(model, idsOf(fixture["runs"][r])), fixture["runs"][r], tolerance, largest);
    }
    if (verbose())
        std::printf("%-20s vs %-20s largest |diff|: hidden %.3g, attention %.3g, logits %.3g, top-k prob %.3g\n",
                    modelName.c_str(), fixtureName.c_str(), largest.hidden, largest.attention, largest.logits,
                    largest.probability);
}

// ---------------------------------------------------------------- writing safetensors files

struct TensorSpec {
    std::string name;
    std::vector<std::int64_t> shape;
    std::vector<float> data;
};

std::int64_t elements(const std::vector<std::int64_t>& shape) {
    std::int64_t n = 1;
    for (auto s : shape) n *= s;
    return n;
}

// 8-byte LE header length, JSON header padded with spaces to 8 bytes, then the F32 data.
std::string headerOf(const std::vector<std::pair<std::string, std::vector<std::int64_t>>>& tensors) {
    Json header = Json::object();
    std::uint64_t offset = 0;
    for (const auto& [name, shape] : tensors) {
        const std::uint64_t bytes = static_cast<std::uint64_t>(elements(shape)) * 4;
        header[name] = {{"dtype", "F32"}, {"shape", shape}, {"data_offsets", {offset, offset + bytes}}};
        offset += bytes;
    }
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' ');
    std::string out(8, '\0');
    for (int i = 0; i < 8; ++i) out[static_cast<std::size_t>(i)] = static_cast<char>((text.size() >> (8 * i)) & 0xff);
    return out + text;
}

void writeSafetensors(const fs::path& path, const std::vector<TensorSpec>& tensors) {
    std::vector<std::pair<std::string, std::vector<std::int64_t>>> shapes;
    for (const auto& t : tensors) shapes.emplace_back(t.name, t.shape);
    std::ofstream out(path, std::ios::binary);
    const std::string header = headerOf(shapes);
    out.write(header.data(), static_cast<std::streamsize>(header.size()));
    for (const auto& t : tensors)
        out.write(reinterpret_cast<const char*>(t.data.data()), static_cast<std::streamsize>(t.data.size() * 4));
}

// Every 1-D/2-D F32-readable tensor of a stored model, as plain data to edit.
std::vector<TensorSpec> tensorsOf(const TensorStore& store) {
    std::vector<TensorSpec> out;
    for (const std::string& name : store.names()) {
        const TensorInfo* info = store.find(name);
        TensorSpec t{name, info->shape, {}};
        const auto rows = info->shape.size() == 2 ? info->shape[0] : 1;
        const auto cols = info->shape.back();
        if (info->shape.size() == 2) {
            auto m = store.matrix(name, rows, cols);
            REQUIRE(m.ok());
            t.data.assign(m.value().data(), m.value().data() + rows * cols);
        } else {
            auto v = store.vector(name, cols);
            REQUIRE(v.ok());
            t.data.assign(v.value().data(), v.value().data() + cols);
        }
        out.push_back(std::move(t));
    }
    return out;
}

struct TempDir {
    fs::path path;
    explicit TempDir(const std::string& tag) {
        path = fs::temp_directory_path() / ("attnscope-models-" + tag + "-" + std::to_string(::getpid()));
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
};

// The tiny BERT with `edit` applied to its tensor list, bound again; returns the bind result.
Result<LoadedModel> bindEdited(const std::string& modelName, const std::function<void(std::vector<TensorSpec>&)>& edit) {
    const LoadedModel original = loadTiny(modelName);
    std::vector<TensorSpec> tensors = tensorsOf(*original.store);
    edit(tensors);
    TempDir dir("edited");
    writeSafetensors(dir.path / "model.safetensors", tensors);
    fs::copy_file(sourceDir() / "tests/reference/models" / modelName / "config.json", dir.path / "config.json");
    return loadModel(dir.path);
}

std::vector<TensorSpec>::iterator findTensor(std::vector<TensorSpec>& tensors, const std::string& name) {
    const auto it = std::find_if(tensors.begin(), tensors.end(), [&](const TensorSpec& t) { return t.name == name; });
    REQUIRE(it != tensors.end());
    return it;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

// ---------------------------------------------------------------- against the torch reference

TEST_CASE("BERT matches the torch reference (bert. prefix, gamma/beta, tied decoder)", "[models]") {
    compareWithFixture("bert-tiny", "bert-tiny", kTolerance);
}

TEST_CASE("BERT without prefix and without an MLM head matches the reference", "[models]") {
    compareWithFixture("bert-tiny-noprefix", "bert-tiny-noprefix", kTolerance);
    const LoadedModel model = loadTiny("bert-tiny-noprefix");
    CHECK(model.weightsAs<EncoderWeights>()->prefix.empty());
    CHECK(!model.weightsAs<EncoderWeights>()->mlm);
}

TEST_CASE("BERT F16 checkpoint: exact widening, close to the F32 model", "[models]") {
    compareWithFixture("bert-tiny-f16", "bert-tiny-f16", kTolerance);
    compareWithFixture("bert-tiny-f16", "bert-tiny", kHalfVsFloatTolerance, 2);
    const LoadedModel model = loadTiny("bert-tiny-f16");
    REQUIRE(model.weightsAs<EncoderWeights>()->mlm);
    CHECK(!model.weightsAs<EncoderWeights>()->mlm->tied);  // cls.predictions.decoder.weight is stored in this one
}

TEST_CASE("GPT-2 matches the torch reference (published layout with mask buffers)", "[models]") {
    compareWithFixture("gpt2-tiny", "gpt2-tiny", kTolerance);
    const LoadedModel model = loadTiny("gpt2-tiny");
    CHECK(model.store->find("h.0.attn.bias") != nullptr);  // present in the file, ignored
    CHECK(model.store->find("h.1.attn.masked_bias") != nullptr);
}

TEST_CASE("GPT-2 F16 checkpoint with transformer. prefix and lm_head.weight", "[models]") {
    compareWithFixture("gpt2-tiny-f16", "gpt2-tiny-f16", kTolerance);
    compareWithFixture("gpt2-tiny-f16", "gpt2-tiny", kHalfVsFloatTolerance, 2);
    CHECK(loadTiny("gpt2-tiny-f16").weightsAs<Gpt2Weights>()->prefix == "transformer.");
}

TEST_CASE("DistilBERT matches the torch reference (distilbert. prefix, tied projector)", "[models]") {
    compareWithFixture("distilbert-tiny", "distilbert-tiny", kTolerance);
    const LoadedModel model = loadTiny("distilbert-tiny");
    CHECK(model.config.family == ModelFamily::DistilBert);
    CHECK(model.config.width == 32);
    CHECK(model.config.feedForward == 64);
    CHECK(model.config.typeVocabSize == 0);
    CHECK(model.config.positionOffset == 0);
    CHECK(model.config.maxTokens() == 40);
    CHECK(model.config.layerNormEps == 1e-12f);  // not in DistilBERT configs: fixed in the model code
    CHECK(model.weightsAs<EncoderWeights>()->prefix == "distilbert.");
    CHECK(!model.weightsAs<EncoderWeights>()->tokenTypes.present());
    REQUIRE(model.weightsAs<EncoderWeights>()->mlm);
    CHECK(model.weightsAs<EncoderWeights>()->mlm->tied);  // vocab_projector.weight is not stored
}

namespace {

// RoBERTa's tokenizer spells the mask token <mask>.
std::vector<Token> robertaLabels(const std::vector<int>& ids) {
    std::vector<Token> tokens;
    for (int id : ids) tokens.push_back(Token{id == kMaskId ? "<mask>" : "t" + std::to_string(id), true, id, -1, false});
    return tokens;
}

}  // namespace

TEST_CASE("RoBERTa matches the torch reference (roberta. prefix, positions from padding_idx + 1)", "[models]") {
    compareWithFixture("roberta-tiny", "roberta-tiny", kTolerance);
    const LoadedModel model = loadTiny("roberta-tiny");
    CHECK(model.config.family == ModelFamily::Roberta);
    CHECK(model.config.positionOffset == 2);  // pad_token_id 1 + 1
    CHECK(model.config.positions == 42);
    CHECK(model.config.maxTokens() == 40);
    CHECK(model.config.typeVocabSize == 1);
    CHECK(model.config.layerNormEps == 1e-5f);
    CHECK(model.weightsAs<EncoderWeights>()->prefix == "roberta.");
    REQUIRE(model.weightsAs<EncoderWeights>()->mlm);
    CHECK(model.weightsAs<EncoderWeights>()->mlm->tied);
    CHECK(model.store->find("lm_head.decoder.bias") != nullptr);  // stored, a second name of lm_head.bias

    // <mask> labels select the same prediction positions as [MASK].
    const Json fixture = readFixture("roberta-tiny");
    const Json& expected = fixture["runs"][1];
    const std::vector<int> ids = idsOf(expected);
    auto run = runModel(model, ids, robertaLabels(ids), withMaskId());
    REQUIRE(run.ok());
    Largest largest;
    compareRun(run.value(), expected, kTolerance, largest);
}

TEST_CASE("RoBERTa reads max_position_embeddings - 2 tokens and cuts longer input with a notice", "[models]") {
    const LoadedModel model = loadTiny("roberta-tiny");
    const Json fixture = readFixture("roberta-tiny");
    const Json& expected = fixture.at("long_run");
    const std::vector<int> ids = idsOf(expected);
    REQUIRE(ids.size() == 40);  // position ids 2…41: the whole table
    auto full = runModel(model, ids, robertaLabels(ids), withMaskId());
    INFO((full ? std::string() : full.error().text()));
    REQUIRE(full.ok());
    const ModelRun& run = full.value();
    CHECK(run.trace.notices.empty());
    CHECK(run.trace.tokenCount() == 40);
    const Json& lastRows = expected.at("last_hidden_rows");
    REQUIRE(run.hiddenStates.size() == lastRows.size());
    double largestHidden = 0, largestLogit = 0;
    for (std::size_t i = 0; i < lastRows.size(); ++i) {
        INFO("hidden state " << i << ", last token (position id 41)");
        REQUIRE(run.hiddenStates[i].rows() == 40);
        const Mat want = rowOf(lastRows[i]), got = toDouble(run.hiddenStates[i].bottomRows(1));
        REQUIRE_MATRIX_NEAR(want, got, kTolerance);
        largestHidden = std::max(largestHidden, maxDiff(want, got));
    }
    const Json& predictions = expected.at("predictions");
    REQUIRE(predictions.size() == 1);
    REQUIRE(run.predictions.size() == 1);
    CHECK(run.predictions[0].position == predictions[0].at("position").get<int>());
    const Mat want = rowOf(predictions[0].at("logits")), logits = toDouble(run.predictions[0].logits);
    REQUIRE_MATRIX_NEAR(want, logits, kTolerance * std::max(1.0, want.cwiseAbs().maxCoeff()));
    largestLogit = maxDiff(want, logits);
    CHECK(run.predictions[0].top[0].id == predictions[0].at("top")[0][0].get<int>());
    if (verbose())
        std::printf("%-20s long run (40 tokens) largest |diff|: last hidden rows %.3g, logits %.3g\n", "roberta-tiny",
                    largestHidden, largestLogit);

    // One token more: cut to the first 40 with a notice, the same numbers as above.
    std::vector<int> longer = ids;
    longer.push_back(17);
    auto cut = runModel(model, longer, robertaLabels(longer), withMaskId());
    REQUIRE(cut.ok());
    CHECK(cut.value().trace.tokenCount() == 40);
    REQUIRE(cut.value().trace.notices.size() == 1);
    CHECK(contains(noticeText(cut.value().trace.notices[0], Language::English), "41 tokens"));
    CHECK(contains(noticeText(cut.value().trace.notices[0], Language::English), "at most 40"));
    REQUIRE(cut.value().hiddenStates.size() == run.hiddenStates.size());
    for (std::size_t i = 0; i < run.hiddenStates.size(); ++i)
        REQUIRE_MATRIX_NEAR(toDouble(run.hiddenStates[i]), toDouble(cut.value().hiddenStates[i]), 0.0);
}

// ---------------------------------------------------------------- the Trace

TEST_CASE("Model traces are consistent with the lesson conventions", "[models]") {
    for (const std::string name : {"bert-tiny", "gpt2-tiny"}) {
        INFO(name);
        const LoadedModel model = loadTiny(name);
        const ModelRun run = runOrFail(model, {2, 17, kMaskId, 42, 3});
        const Trace& t = run.trace;
        CHECK(t.tokenCount() == 5);
        CHECK(t.headCount() == 4);
        CHECK(t.causal == (name == "gpt2-tiny"));
        CHECK(t.scaleDivisor == Approx(std::sqrt(8.0)));
        for (const LayerTrace& layer : t.layers) {
            // q = X·W_Q + b_Q with the head's slice, in the row-vector convention the views use
            for (const HeadTrace& h : layer.heads) {
                REQUIRE(h.params.wq.rows() == 32);
                REQUIRE(h.params.wq.cols() == 8);
                const Mat q = (layer.input * h.params.wq).rowwise() + h.params.bq;
                const Mat v = (layer.input * h.params.wv).rowwise() + h.params.bv;
                REQUIRE_MATRIX_NEAR(q, h.q, 1e-4);
                REQUIRE_MATRIX_NEAR(v, h.v, 1e-4);
                REQUIRE_MATRIX_NEAR(Mat(h.weights.toMat() * h.v), h.weightedSum, 1e-5);
                REQUIRE_MATRIX_NEAR(Mat(h.scaledScores + h.mask), h.maskedScores, 1e-6);
            }
            const Mat output = (layer.concat * layer.wo).rowwise() + layer.bo;
            REQUIRE_MATRIX_NEAR(output, layer.output, 1e-4);
        }
    }
}

TEST_CASE("Long inputs keep only the weights except for the detail layer", "[models]") {
    const LoadedModel model = loadTiny("bert-tiny");
    RunControl control;
    control.fullDetailMaxTokens = 4;
    control.detailLayer = 1;
    const ModelRun run = runOrFail(model, {2, 11, 23, kMaskId, 35, 3}, control);
    REQUIRE(run.detail == std::vector<LayerDetail>{LayerDetail::WeightsOnly, LayerDetail::Full});
    CHECK(run.trace.layers[0].heads[0].q.size() == 0);
    CHECK(run.trace.layers[0].heads[0].weights.rows() == 6);
    CHECK(run.trace.layers[1].heads[0].q.rows() == 6);
    CHECK(run.trace.layers[0].input.size() == 0);  // hiddenStates[0] holds it, as float
    CHECK(run.trace.layers[1].input.rows() == 6);
    // Explaining a cell of the weights-only layer is refused by name, never read out of bounds.
    const auto refused = explainCell(run.trace, CellRef{Step::Weights, 0, 0, 1, 1}, 3);
    REQUIRE(!refused.ok());
    CHECK_THAT(refused.error().text(), Catch::Contains("layer 1 kept only its attention weights"));
    CHECK(explainCell(run.trace, CellRef{Step::Weights, 1, 0, 1, 1}, 3).ok());
    auto detailed = traceLayerInDetail(model, run, 0);
    REQUIRE(detailed.ok());
    for (int h = 0; h < 4; ++h) {
        REQUIRE_MATRIX_NEAR(run.trace.layers[0].heads[h].weights, detailed.value().heads[h].weights, 0.0);
        CHECK(detailed.value().heads[h].params.wk.rows() == 32);
    }
    CHECK(!traceLayerInDetail(model, run, 2).ok());
}

TEST_CASE("Input longer than the position table is cut with a notice", "[models]") {
    const LoadedModel model = loadTiny("gpt2-tiny");
    std::vector<int> ids(40);
    for (int i = 0; i < 40; ++i) ids[static_cast<std::size_t>(i)] = (7 * i) % 100;
    const ModelRun run = runOrFail(model, ids);
    CHECK(run.trace.tokenCount() == 32);
    CHECK(run.hiddenStates.back().rows() == 32);
    REQUIRE(run.trace.notices.size() == 1);
    CHECK(contains(noticeText(run.trace.notices[0], Language::English), "40 tokens"));
    CHECK(contains(noticeText(run.trace.notices[0], Language::English), "at most 32"));
    REQUIRE(run.predictions.size() == 1);
    CHECK(run.predictions[0].position == 31);
}

TEST_CASE("Model runs report progress, can be cancelled and check their input", "[models]") {
    const LoadedModel model = loadTiny("bert-tiny");
    std::vector<int> seen;
    RunControl control;
    control.progress = [&](int done, int total) { seen.push_back(done * 10 + total); };
    runOrFail(model, {2, 5, 3}, control);
    CHECK(seen == std::vector<int>{12, 22});

    std::atomic<bool> cancel{true};
    control.cancel = &cancel;
    auto cancelled = runModel(model, {2, 5, 3}, {}, control);
    REQUIRE(!cancelled.ok());
    CHECK(contains(cancelled.error().text(), "cancelled"));

    auto outside = runModel(model, {2, 100, 3}, {});
    REQUIRE(!outside.ok());
    CHECK(contains(outside.error().text(), "100"));
    CHECK(!runModel(model, {}, {}).ok());
    CHECK(!runModel(model, {2, 3}, labelsFor({2}, true)).ok());
}

// ---------------------------------------------------------------- checkpoint errors

TEST_CASE("A missing tensor is named", "[models]") {
    const std::string name = "bert.encoder.layer.1.attention.self.value.weight";
    auto model = bindEdited("bert-tiny", [&](std::vector<TensorSpec>& t) { t.erase(findTensor(t, name)); });
    REQUIRE(!model.ok());
    INFO(model.error().text());
    CHECK(contains(model.error().text(), name));
    CHECK(contains(model.error().text(), "missing"));
}

TEST_CASE("A mis-shaped tensor is named with both shapes", "[models]") {
    const std::string name = "bert.encoder.layer.0.intermediate.dense.weight";
    auto model = bindEdited("bert-tiny", [&](std::vector<TensorSpec>& t) {
        auto it = findTensor(t, name);
        it->shape = {32, 64};  // transposed: [in, out] instead of Linear's [out, in]
    });
    REQUIRE(!model.ok());
    INFO(model.error().text());
    CHECK(contains(model.error().text(), name));
    CHECK(contains(model.error().text(), "64, 32"));
    CHECK(contains(model.error().text(), "32, 64"));
}

TEST_CASE("An unexpected tensor is named", "[models]") {
    const std::string name = "bert.encoder.layer.0.attention.self.rotary.weight";
    auto model = bindEdited("bert-tiny", [&](std::vector<TensorSpec>& t) {
        t.push_back(TensorSpec{name, {2, 2}, {1, 2, 3, 4}});
    });
    REQUIRE(!model.ok());
    INFO(model.error().text());
    CHECK(contains(model.error().text(), name));
    CHECK(contains(model.error().text(), "unexpected"));
    CHECK(contains(model.error().text(), "[2, 2]"));
}

TEST_CASE("gamma/beta LayerNorm names and known unused tensors are accepted", "[models]") {
    const LoadedModel model = loadTiny("bert-tiny");
    CHECK(model.store->find("bert.embeddings.LayerNorm.gamma") != nullptr);
    CHECK(model.weightsAs<EncoderWeights>()->mlm->tied);
    // A BertForPreTraining file also stores the pooler, the NSP head and position_ids.
    auto extended = bindEdited("bert-tiny", [](std::vector<TensorSpec>& t) {
        t.push_back(TensorSpec{"bert.pooler.dense.weight", {32, 32}, std::vector<float>(32 * 32, 0.f)});
        t.push_back(TensorSpec{"bert.pooler.dense.bias", {32}, std::vector<float>(32, 0.f)});
        t.push_back(TensorSpec{"cls.seq_relationship.weight", {2, 32}, std::vector<float>(64, 0.f)});
        t.push_back(TensorSpec{"cls.seq_relationship.bias", {2}, std::vector<float>(2, 0.f)});
        t.push_back(TensorSpec{"cls.predictions.decoder.bias", {100}, std::vector<float>(100, 0.f)});
    });
    INFO((extended ? std::string() : extended.error().text()));
    CHECK(extended.ok());
}

TEST_CASE("Config errors name the file and field", "[models]") {
    auto unknown = parseTransformerConfig(R"({"model_type": "t5"})", "x/config.json");
    REQUIRE(!unknown.ok());
    CHECK(contains(unknown.error().text(), "model_type"));
    auto gpt2 = parseTransformerConfig(readText(sourceDir() / "tests/reference/models/gpt2-tiny/config.json"), "c");
    REQUIRE(gpt2.ok());
    CHECK(gpt2.value().feedForward == 128);  // n_inner null → 4·n_embd
    CHECK(gpt2.value().activation == Activation::GeluTanh);
    auto distil = parseTransformerConfig(
        R"({"model_type": "distilbert", "vocab_size": 10, "dim": 8, "n_layers": 1, "n_heads": 2,
            "hidden_dim": 16, "max_position_embeddings": 8, "activation": "gelu"})", "d");
    REQUIRE(distil.ok());
    CHECK(distil.value().width == 8);
    CHECK(distil.value().typeVocabSize == 0);
}

// ---------------------------------------------------------------- bert-base shapes

namespace {

// bert-base-uncased shapes, random weights, written straight to disk (~440 MB) without holding
// them in memory.
struct LargeSpec {
    std::string name;
    std::vector<std::int64_t> shape;
};

std::vector<LargeSpec> bertBaseTensors() {
    const std::int64_t d = 768, ff = 3072;
    std::vector<LargeSpec> t = {{"bert.embeddings.word_embeddings.weight", {30522, d}},
                                {"bert.embeddings.position_embeddings.weight", {512, d}},
                                {"bert.embeddings.token_type_embeddings.weight", {2, d}},
                                {"bert.embeddings.LayerNorm.weight", {d}},
                                {"bert.embeddings.LayerNorm.bias", {d}}};
    for (int n = 0; n < 12; ++n) {
        const std::string p = "bert.encoder.layer." + std::to_string(n) + ".";
        for (const char* lin : {"attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense"}) {
            t.push_back({p + lin + ".weight", {d, d}});
            t.push_back({p + lin + ".bias", {d}});
        }
        t.push_back({p + "attention.output.LayerNorm.weight", {d}});
        t.push_back({p + "attention.output.LayerNorm.bias", {d}});
        t.push_back({p + "intermediate.dense.weight", {ff, d}});
        t.push_back({p + "intermediate.dense.bias", {ff}});
        t.push_back({p + "output.dense.weight", {d, ff}});
        t.push_back({p + "output.dense.bias", {d}});
        t.push_back({p + "output.LayerNorm.weight", {d}});
        t.push_back({p + "output.LayerNorm.bias", {d}});
    }
    t.push_back({"cls.predictions.transform.dense.weight", {d, d}});
    t.push_back({"cls.predictions.transform.dense.bias", {d}});
    t.push_back({"cls.predictions.transform.LayerNorm.weight", {d}});
    t.push_back({"cls.predictions.transform.LayerNorm.bias", {d}});
    t.push_back({"cls.predictions.bias", {30522}});
    return t;
}

void writeRandomSafetensors(const fs::path& path, const std::vector<LargeSpec>& tensors) {
    std::vector<std::pair<std::string, std::vector<std::int64_t>>> shapes;
    for (const auto& t : tensors) shapes.emplace_back(t.name, t.shape);
    std::ofstream out(path, std::ios::binary);
    const std::string header = headerOf(shapes);
    out.write(header.data(), static_cast<std::streamsize>(header.size()));
    std::uint32_t state = 2463534242u;  // xorshift32: fast and reproducible
    std::vector<float> chunk;
    for (const auto& t : tensors) {
        const bool gain = t.name.size() > 16 && t.name.compare(t.name.size() - 16, 16, "LayerNorm.weight") == 0;
        const float scale = t.shape.size() == 2 ? 0.04f : 0.02f;  // ≈ BERT's 0.02-std initialisation
        chunk.resize(static_cast<std::size_t>(elements(t.shape)));
        for (float& x : chunk) {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            const float uniform = static_cast<float>(state) * (2.0f / 4294967296.0f) - 1.0f;
            x = gain ? 1.0f + 0.1f * uniform : scale * uniform;
        }
        out.write(reinterpret_cast<const char*>(chunk.data()), static_cast<std::streamsize>(chunk.size() * 4));
    }
}

double seconds(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace

TEST_CASE("bert-base shapes: load, run 16 tokens, finite outputs, rows sum to 1", "[models][large]") {
    using Clock = std::chrono::steady_clock;
    TempDir dir("bert-base");
    const auto start = Clock::now();
    writeRandomSafetensors(dir.path / "model.safetensors", bertBaseTensors());
    const double writeSeconds = seconds(start);
    std::ofstream(dir.path / "config.json") << R"({"model_type": "bert", "architectures": ["BertForMaskedLM"],
        "vocab_size": 30522, "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12,
        "intermediate_size": 3072, "hidden_act": "gelu", "max_position_embeddings": 512,
        "type_vocab_size": 2, "layer_norm_eps": 1e-12, "pad_token_id": 0})";

    auto loadStart = Clock::now();
    auto loaded = loadModel(dir.path);
    INFO((loaded ? std::string() : loaded.error().text()));
    REQUIRE(loaded.ok());
    const LoadedModel& model = loaded.value();
    const double loadSeconds = seconds(loadStart);

    std::vector<int> ids{101};
    for (int i = 0; i < 14; ++i) ids.push_back(1000 + 997 * i);
    ids.push_back(102);
    std::vector<Token> tokens = labelsFor(ids, true);
    tokens[5].text = "[MASK]";
    RunControl maskAtFive;
    maskAtFive.maskTokenId = ids[5];
    auto runStart = Clock::now();
    auto run = runModel(model, ids, tokens, maskAtFive);
    const double runSeconds = seconds(runStart);
    REQUIRE(run.ok());
    const ModelRun& r = run.value();
    REQUIRE(r.trace.layers.size() == 12);
    for (const MatF& h : r.hiddenStates) {
        REQUIRE(h.rows() == 16);
        REQUIRE(h.allFinite());
    }
    for (const LayerTrace& layer : r.trace.layers) {
        REQUIRE(layer.heads.size() == 12);
        for (const HeadTrace& h : layer.heads) {
            REQUIRE(h.weights.toMat().allFinite());
            REQUIRE_MATRIX_NEAR(Mat(h.weights.toMat().rowwise().sum()), Mat(Mat::Ones(16, 1)), 1e-5);
            REQUIRE(h.params.wq.rows() == 768);
            REQUIRE(h.params.wq.cols() == 64);
        }
    }
    REQUIRE(r.predictions.size() == 1);
    CHECK(r.predictions[0].position == 5);
    CHECK(r.predictions[0].top.size() == 10);
    CHECK(r.predictions[0].logits.allFinite());

    // The benchmark shape: 128 tokens with the full trace.
    std::vector<int> long128(128);
    for (int i = 0; i < 128; ++i) long128[static_cast<std::size_t>(i)] = 1000 + 211 * i;
    auto start128 = Clock::now();
    auto run128 = runModel(model, long128, {});
    const double seconds128 = seconds(start128);
    REQUIRE(run128.ok());
    CHECK(run128.value().detail.back() == LayerDetail::Full);
    RunControl weightsOnly;
    weightsOnly.fullDetailMaxTokens = 0;
    auto startLean = Clock::now();
    auto lean = runModel(model, long128, {}, weightsOnly);
    const double secondsLean = seconds(startLean);
    REQUIRE(lean.ok());
    REQUIRE_MATRIX_NEAR(run128.value().trace.layers[11].heads[3].weights, lean.value().trace.layers[11].heads[3].weights, 0.0);
    if (verbose())
        std::printf("bert-base shapes: write %.2f s, load %.3f s, 16 tokens %.3f s, 128 tokens: full trace %.3f s, "
                    "weights only %.3f s\n", writeSeconds, loadSeconds, runSeconds, seconds128, secondsLean);
}

TEST_CASE("The vectorised GELUs agree with the scalar std::erf / std::tanh formulas", "[models]") {
    // 4001 points on [-10, 10] (step 0.005) plus the edges where the approximations switch
    // branches or saturate. The reference is the textbook formula in double precision.
    std::vector<float> xs;
    for (int i = -2000; i <= 2000; ++i) xs.push_back(static_cast<float>(i) * 0.005f);
    for (float x : {-1e30f, -50.0f, -4.0f, -3.999f, 3.999f, 4.0f, 50.0f, 1e30f, 1e-30f, -1e-30f}) xs.push_back(x);
    MatF erfIn = Eigen::Map<const MatF>(xs.data(), 1, static_cast<Eigen::Index>(xs.size()));
    MatF tanhIn = erfIn;
    geluErf(erfIn);
    geluTanh(tanhIn);
    double worstErf = 0, worstTanh = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
        const double x = xs[i];
        const double exactErf = 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
        const double exactTanh = 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
        // Absolute error near 0, relative error for large |x| (GELU(x) ≈ x there).
        const auto error = [&](double got, double want) { return std::abs(got - want) / std::max(1.0, std::abs(want)); };
        worstErf = std::max(worstErf, error(erfIn(0, static_cast<Eigen::Index>(i)), exactErf));
        worstTanh = std::max(worstTanh, error(tanhIn(0, static_cast<Eigen::Index>(i)), exactTanh));
    }
    INFO("largest error: erf GELU " << worstErf << ", tanh GELU " << worstTanh);
    CHECK(worstErf < 1e-6);   // float epsilon is 1.2e-7: a few ulp
    CHECK(worstTanh < 1e-6);
}
