// Head ablation (core/trace/ablation.hpp, RunControl::ablate, RunSettings::ablate) against an
// independent torch reference, plus checks a reader can do by hand.
//
// tests/reference/reference_ablation.py runs its own BERT and GPT-2 forward passes (in double) on
// the tiny fixtures with Hugging Face's head_mask, and a two-layer two-head lesson; its output is
// committed as tests/reference/fixtures/ablation.json, so this test needs no Python.
// Tolerances: kModelTolerance 1e-5 for the float32 models (weights, attention outputs,
// probabilities); kLessonTolerance 1e-9 for the lesson, computed in double here and there.
// Set ATTNSCOPE_TEST_VERBOSE=1 to print the largest differences.
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/export/export.hpp"
#include "core/lesson/lesson.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/model/transformer.hpp"
#include "core/trace/ablation.hpp"
#include "core/trace/explain.hpp"
#include "core/text/messages.hpp"
#include "matrix_compare.hpp"
#include "model_fixtures.hpp"

using namespace attnscope;
using namespace attnscope::fixture_io;

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

constexpr double kModelTolerance = 1e-5;
constexpr double kLessonTolerance = 1e-9;

fs::path fixtures() { return sourceDir() / "tests/reference/fixtures"; }

std::vector<HeadRef> headsOf(const Json& pairs) {  // [[layer, head], …] counted from 1
    std::vector<HeadRef> heads;
    for (const Json& p : pairs) heads.push_back(HeadRef{p.at(0).get<int>() - 1, p.at(1).get<int>() - 1});
    return heads;
}

// [MASK] (id 4) labelled as the tokenizer would, so the BERT family predicts there.
std::vector<Token> labelsFor(const std::vector<int>& ids, bool bert) {
    std::vector<Token> tokens;
    for (int id : ids) tokens.push_back(Token{bert && id == 4 ? "[MASK]" : "t" + std::to_string(id), true, id, -1, false});
    return tokens;
}

ModelRun runOrFail(const LoadedModel& model, const std::vector<int>& ids, RunControl control) {
    control.maskTokenId = 4;  // the tokenizer's [MASK]
    auto run = runModel(model, ids, labelsFor(ids, model.config.family != ModelFamily::Gpt2), control);
    INFO("run error: " << (run ? std::string() : run.error().text()));
    REQUIRE(run.ok());
    return std::move(run).value();
}

RunControl ablating(std::vector<HeadRef> heads) {
    RunControl control;
    control.topK = 5;
    control.ablate = std::move(heads);
    return control;
}

double maxDiff(GridRef a, GridRef b) { return (a.toMat() - b.toMat()).cwiseAbs().maxCoeff(); }

struct Largest {
    double weights = 0, outputs = 0, probability = 0;
};

// Every layer's weights (each head, as computed) and attention output (after W_O) of a trace.
void compareLayers(const Trace& trace, const Json& expected, double tolerance, Largest& largest) {
    const Json& weights = expected.at("weights");
    REQUIRE(trace.layers.size() == weights.size());
    const std::vector<HeadRef> ablate = headsOf(expected.at("ablate"));
    for (std::size_t l = 0; l < weights.size(); ++l) {
        for (std::size_t h = 0; h < weights[l].size(); ++h) {
            INFO("layer " << l + 1 << " head " << h + 1);
            const Mat want = matrixOf(weights[l][h]);
            const HeadTrace& head = trace.layers[l].heads.at(h);
            REQUIRE_MATRIX_NEAR(want, head.weights, tolerance);
            largest.weights = std::max(largest.weights, maxDiff(want, head.weights));
            const bool off = std::find(ablate.begin(), ablate.end(), HeadRef{int(l), int(h)}) != ablate.end();
            CHECK(head.ablated == off);
        }
        INFO("layer " << l + 1 << " attention output");
        const Mat want = matrixOf(expected.at("attention_outputs")[l]);
        REQUIRE_MATRIX_NEAR(want, trace.layers[l].output, tolerance);
        largest.outputs = std::max(largest.outputs, maxDiff(want, trace.layers[l].output));
    }
}

void comparePredictions(const ModelRun& run, const Json& expected, Largest& largest) {
    REQUIRE(run.predictions.size() == expected.size());
    for (std::size_t p = 0; p < expected.size(); ++p) {
        const Prediction& got = run.predictions[p];
        INFO("prediction at " << got.position);
        REQUIRE(got.position == expected[p].at("position").get<int>());
        const Json& top = expected[p].at("top");
        REQUIRE(got.top.size() >= top.size());
        for (std::size_t k = 0; k < top.size(); ++k) {
            INFO("rank " << k + 1 << ": expected token " << top[k][0] << " p=" << top[k][1] << ", found token "
                         << got.top[k].id << " p=" << got.top[k].probability);
            CHECK(got.top[k].id == top[k][0].get<int>());
            const double diff = std::abs(got.top[k].probability - top[k][1].get<double>());
            CHECK(diff <= kModelTolerance);
            largest.probability = std::max(largest.probability, diff);
        }
    }
}

void report(const char* what, const Largest& largest) {
    if (std::getenv("ATTNSCOPE_TEST_VERBOSE"))
        std::printf("ablation %-10s largest |diff| vs torch: weights %.3g, attention outputs %.3g, top-k prob %.3g\n",
                    what, largest.weights, largest.outputs, largest.probability);
}

void compareModel(const std::string& name) {
    const Json fixture = readJson(fixtures() / "ablation.json");
    const LoadedModel model = loadTiny(name);
    Largest largest;
    int cases = 0;
    for (const Json& c : fixture.at("models")) {
        if (c.at("model") != name) continue;
        ++cases;
        INFO(name << " ids " << c.at("ids").dump() << " ablating " << c.at("ablate").dump());
        const ModelRun run = runOrFail(model, c.at("ids").get<std::vector<int>>(), ablating(headsOf(c.at("ablate"))));
        compareLayers(run.trace, c, kModelTolerance, largest);
        comparePredictions(run, c.at("predictions"), largest);
    }
    REQUIRE(cases >= 2);
    report(name.c_str(), largest);
}

Lesson ablationLesson() {
    auto lesson = parseLesson(readText(fixtures() / "ablation-lesson.json"), "ablation-lesson.json");
    INFO("lesson error: " << (lesson ? std::string() : lesson.error().text()));
    REQUIRE(lesson.ok());
    return std::move(lesson).value();
}

}  // namespace

// ---------------------------------------------------------------- against the torch reference

TEST_CASE("Ablated BERT matches the torch head_mask reference: every layer's weights, top-k", "[ablation]") {
    compareModel("bert-tiny");
}

TEST_CASE("Ablated GPT-2 matches the torch head_mask reference: every layer's weights, top-k", "[ablation]") {
    compareModel("gpt2-tiny");
}

TEST_CASE("An ablated lesson matches the torch head_mask reference", "[ablation]") {
    const Json expected = readJson(fixtures() / "ablation.json").at("lesson");
    RunSettings settings;
    settings.exact = true;
    settings.ablate = headsOf(expected.at("ablate"));
    auto trace = runLesson(ablationLesson(), expected.at("sentence").get<std::string>(), settings);
    REQUIRE(trace.ok());
    REQUIRE(trace.value().tokenCount() == static_cast<int>(expected.at("tokens").size()));
    Largest largest;
    compareLayers(trace.value(), expected, kLessonTolerance, largest);
    report("lesson", largest);
    // The ablated head changes what layer 2 reads: its weights differ from a normal run's.
    auto normal = runLesson(ablationLesson(), expected.at("sentence").get<std::string>(), RunSettings{{}, true});
    REQUIRE(normal.ok());
    CHECK(maxDiff(normal.value().layers[1].heads[0].weights, trace.value().layers[1].heads[0].weights) > 1e-3);
}

// ---------------------------------------------------------------- by hand

TEST_CASE("Ablating a head zeroes exactly its slice of the concatenation before W_O", "[ablation]") {
    const LoadedModel model = loadTiny("bert-tiny");
    const std::vector<int> ids{2, 11, 23, 4, 35, 3};
    const ModelRun normal = runOrFail(model, ids, ablating({}));
    const ModelRun ablated = runOrFail(model, ids, ablating({HeadRef{0, 1}}));  // layer 1, head 2
    const LayerTrace& before = normal.trace.layers[0];
    const LayerTrace& after = ablated.trace.layers[0];
    const Eigen::Index dk = model.config.headWidth();  // 8: head 2 owns columns 8…15
    REQUIRE(after.concat.middleCols(dk, dk).isZero(0.0));
    CHECK(after.heads[1].weightedSum.isZero(0.0));
    CHECK(before.concat.middleCols(dk, dk).cwiseAbs().maxCoeff() > 1e-3);  // it was not zero before
    // Every other column, and every head's weights (the head's too), are those of the normal run.
    CHECK(after.concat.leftCols(dk) == before.concat.leftCols(dk));
    CHECK(after.concat.rightCols(2 * dk) == before.concat.rightCols(2 * dk));
    for (std::size_t h = 0; h < after.heads.size(); ++h) CHECK(after.heads[h].weights == before.heads[h].weights);
    // The layer's output is that concatenation times W_O plus b_O (computed here in double).
    Mat zeroed = before.concat;
    zeroed.middleCols(dk, dk).setZero();
    const Mat expected = (zeroed * after.wo).rowwise() + after.bo;
    REQUIRE_MATRIX_NEAR(expected, after.output, 1e-5);
    CHECK(after.heads[1].ablated);
    CHECK(ablatedHeads(ablated.trace) == std::vector<HeadRef>{{0, 1}});
}

TEST_CASE("Ablating nothing reproduces the normal run bit for bit", "[ablation]") {
    for (const char* name : {"bert-tiny", "gpt2-tiny"}) {
        INFO(name);
        const LoadedModel model = loadTiny(name);
        const std::vector<int> ids{2, 17, 4, 42, 3};
        RunControl plain;
        plain.topK = 5;
        const ModelRun normal = runOrFail(model, ids, plain);
        const ModelRun none = runOrFail(model, ids, ablating({}));
        REQUIRE(none.hiddenStates.size() == normal.hiddenStates.size());
        for (std::size_t i = 0; i < normal.hiddenStates.size(); ++i) CHECK(none.hiddenStates[i] == normal.hiddenStates[i]);
        for (std::size_t l = 0; l < normal.trace.layers.size(); ++l) {
            CHECK(none.trace.layers[l].output == normal.trace.layers[l].output);
            for (std::size_t h = 0; h < normal.trace.layers[l].heads.size(); ++h)
                CHECK(!none.trace.layers[l].heads[h].ablated);
        }
        REQUIRE(none.predictions.size() == normal.predictions.size());
        for (std::size_t p = 0; p < normal.predictions.size(); ++p)
            CHECK(none.predictions[p].logits == normal.predictions[p].logits);
        CHECK(none.trace.notices == normal.trace.notices);
    }
}

TEST_CASE("Ablating a head of the last layer leaves earlier layers unchanged and changes the output",
          "[ablation]") {
    for (const char* name : {"bert-tiny", "gpt2-tiny"}) {
        INFO(name);
        const LoadedModel model = loadTiny(name);
        const std::vector<int> ids{2, 11, 23, 4, 35, 47, 3};
        const int last = model.config.layers - 1;
        const ModelRun normal = runOrFail(model, ids, ablating({}));
        const ModelRun ablated = runOrFail(model, ids, ablating({HeadRef{last, 0}}));
        for (int l = 0; l < last; ++l)
            for (std::size_t h = 0; h < normal.trace.layers[l].heads.size(); ++h)
                CHECK(ablated.trace.layers[l].heads[h].weights == normal.trace.layers[l].heads[h].weights);
        for (std::size_t h = 0; h < normal.trace.layers[last].heads.size(); ++h)  // its own weights too
            CHECK(ablated.trace.layers[last].heads[h].weights == normal.trace.layers[last].heads[h].weights);
        CHECK(maxDiff(toDouble(ablated.hiddenStates.back()), toDouble(normal.hiddenStates.back())) > 1e-3);
        REQUIRE(!ablated.predictions.empty());
        CHECK(maxDiff(toDouble(ablated.predictions[0].logits), toDouble(normal.predictions[0].logits)) > 1e-3);
        CHECK(!ablated.trace.notices.empty());
        CHECK(noticeText(ablated.trace.notices.back(), Language::English).find("heads switched off (layer:head): 2:1") !=
              std::string::npos);
    }
}

TEST_CASE("A layer rebuilt in detail keeps the run's ablation", "[ablation]") {
    const LoadedModel model = loadTiny("gpt2-tiny");
    RunControl control = ablating({HeadRef{1, 2}});
    control.fullDetailMaxTokens = 0;  // every layer WeightsOnly, as the window and the CLI run
    const ModelRun run = runOrFail(model, {5, 17, 42, 8}, control);
    auto layer = traceLayerInDetail(model, run, 1);
    REQUIRE(layer.ok());
    CHECK(layer.value().heads[2].ablated);
    CHECK(layer.value().heads[2].weightedSum.isZero(0.0));
    CHECK(layer.value().heads[2].weights == run.trace.layers[1].heads[2].weights);
    CHECK(!layer.value().heads[1].ablated);
    CHECK(layer.value().concat.middleCols(16, 8).isZero(0.0));
}

TEST_CASE("A head outside the model or lesson is an error naming it", "[ablation]") {
    const LoadedModel model = loadTiny("bert-tiny");
    auto run = runModel(model, {2, 17, 3}, {}, ablating({HeadRef{2, 0}}));
    REQUIRE(!run.ok());
    CHECK(run.error().text() == "ablate: cannot ablate head 3:1: there are 2 layers");
    auto head = runModel(model, {2, 17, 3}, {}, ablating({HeadRef{0, 4}}));
    REQUIRE(!head.ok());
    CHECK(head.error().text() == "ablate: cannot ablate head 1:5: each layer has 4 heads");
    RunSettings settings;
    settings.ablate = {HeadRef{0, 2}};
    auto lesson = runLesson(ablationLesson(), "the animal", settings);
    REQUIRE(!lesson.ok());
    CHECK(lesson.error().text() == "ablate: cannot ablate head 1:3: each layer has 2 heads");
}

TEST_CASE("Head lists: L:H counted from 1, repeats merged, malformed items named", "[ablation]") {
    auto parsed = parseHeadSpec("2:1,1:3,2:1");
    REQUIRE(parsed.ok());
    CHECK(parsed.value() == std::vector<HeadRef>{{0, 2}, {1, 0}});
    CHECK(headSpecText(parsed.value()) == "1:3,2:1");
    for (const auto& [spec, message] : std::vector<std::pair<std::string, std::string>>{
             {"0:1", "\"0:1\": layer and head are whole numbers counted from 1 (e.g. 1:2)"},
             {"1:", "\"1:\": layer and head are whole numbers counted from 1 (e.g. 1:2)"},
             {"x", "\"x\" is not LAYER:HEAD (e.g. 1:2, both counted from 1)"},
             {"1:2,+3:1", "\"+3:1\": layer and head are whole numbers counted from 1 (e.g. 1:2)"},
             {"", "no head given; expected LAYER:HEAD[,LAYER:HEAD…] (e.g. 1:2)"}}) {
        INFO(spec);
        auto bad = parseHeadSpec(spec);
        REQUIRE(!bad.ok());
        CHECK(bad.error().message == message);
        CHECK(bad.error().where == "ablate");
    }
    // The place is worded in the reader's language too ("ablate:" was English in a Chinese window).
    CHECK(parseHeadSpec("").error().textIn(Language::Chinese) == "关闭的头: 没有给出头；应为 LAYER:HEAD[,LAYER:HEAD…]（例如 1:2）");
}

TEST_CASE("The JSON trace lists the ablated heads and flags each head", "[ablation]") {
    RunSettings settings;
    settings.exact = true;
    settings.ablate = {HeadRef{1, 0}};
    auto trace = runLesson(ablationLesson(), "the animal was tired", settings);
    REQUIRE(trace.ok());
    const Json doc = Json::parse(traceToJson(trace.value()));
    CHECK(doc.at("ablated") == Json::parse("[[2, 1]]"));
    CHECK(doc.at("layers")[1].at("heads")[0].at("ablated") == true);
    CHECK(doc.at("layers")[0].at("heads")[0].at("ablated") == false);
    CHECK(matrixOf(doc.at("layers")[1].at("heads")[0].at("output")).isZero(0.0));
    CHECK(!matrixOf(doc.at("layers")[1].at("heads")[0].at("weights")).isZero(1e-3));
}

TEST_CASE("The worked example of an ablated head's weighted sum adds up to its zero output", "[ablation]") {
    RunSettings settings;
    settings.exact = true;
    settings.ablate = {HeadRef{0, 1}};
    auto trace = runLesson(ablationLesson(), "the animal was tired", settings);
    REQUIRE(trace.ok());
    auto e = explainCell(trace.value(), CellRef{Step::WeightedSum, 0, 1, 1, 0}, 4);
    REQUIRE(e.ok());
    CHECK(e.value().value == 0.0);
    CHECK(e.value().termsTotal == 0.0);
    CHECK(e.value().rule.find("switched off (head_mask 0)") != std::string::npos);
    REQUIRE(e.value().terms.size() == 4);
    CHECK(e.value().terms[0].label.rfind("0·a[animal→the]", 0) == 0);
    // Head 1 is on: its explanation is the plain weighted sum, and it adds up to a non-zero value.
    auto on = explainCell(trace.value(), CellRef{Step::WeightedSum, 0, 0, 7 % 4, 0}, 4);
    REQUIRE(on.ok());
    CHECK(on.value().rule.find("switched off") == std::string::npos);
}
