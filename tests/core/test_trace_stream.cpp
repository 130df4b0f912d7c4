// The streamed exports (core/export/trace_stream.hpp, streamModelRunJson/Csv): the same bytes as the
// in-memory JSON they replaced, a model's streamed document equal to its Trace, selections holding
// exactly the chosen parts, and a failed write leaving no file.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/export/export.hpp"
#include "core/export/model_export.hpp"
#include "core/io/atomic_file.hpp"
#include "core/source/model_session.hpp"
#include "core/trace/ablation.hpp"
#include "core/text/messages.hpp"
#include "tests/core/builtin_lesson.hpp"
#include "tests/core/model_fixtures.hpp"

using namespace attnscope;
using Json = nlohmann::ordered_json;

namespace {

// ------------------------------------------------------------ the in-memory builder it replaced
// (traceToJson before streaming, kept here as the reference the bytes are compared with)

Json numberJson(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    return v;
}

Json matrixJson(const Mat& m) {
    Json rows = Json::array();
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        Json row = Json::array();
        for (Eigen::Index c = 0; c < m.cols(); ++c) row.push_back(numberJson(m(r, c)));
        rows.push_back(std::move(row));
    }
    return rows;
}

Json layerJson(const LayerTrace& l) {
    Json heads = Json::array();
    for (const HeadTrace& h : l.heads)
        heads.push_back(Json{{"q", matrixJson(h.q)}, {"k", matrixJson(h.k)}, {"v", matrixJson(h.v)},
                             {"scores", matrixJson(h.scores)}, {"scaled_scores", matrixJson(h.scaledScores)},
                             {"mask", matrixJson(h.mask)}, {"masked_scores", matrixJson(h.maskedScores)},
                             {"weights", matrixJson(h.weights.toMat())}, {"output", matrixJson(h.weightedSum)},
                             {"ablated", h.ablated}});
    Json layer{{"input", matrixJson(l.input)}, {"heads", std::move(heads)},
               {"concat", matrixJson(l.concat)}, {"output", matrixJson(l.output)}};
    if (l.keyInput.size() > 0) layer["key_input"] = matrixJson(l.keyInput);
    return layer;
}

Json tokensJson(const std::vector<Token>& all, bool detailed) {
    Json tokens = Json::array();
    for (const Token& t : all)
        tokens.push_back(detailed ? Json{{"text", t.text}, {"in_table", t.inTable}, {"id", t.id},
                                         {"word", t.word >= 0 ? Json(t.word + 1) : Json(nullptr)}, {"special", t.special}}
                                  : Json(t.text));
    return tokens;
}

std::string referenceJson(const Trace& trace, std::optional<int> onlyLayer) {
    const char* positional[] = {"none", "sinusoidal", "table"};
    Json doc = Json::object();
    doc["format"] = "attnscope-trace";
    doc["version"] = kTraceFormatVersion;
    doc["tokens"] = tokensJson(trace.tokens, false);
    doc["token_info"] = tokensJson(trace.tokens, true);
    if (trace.isCrossAttention()) doc["key_tokens"] = tokensJson(trace.keyTokens, false);
    doc["settings"] = Json{{"positional_encoding", positional[static_cast<int>(trace.positionalKind)]},
                           {"projections", trace.projections},
                           {"scaled", trace.scaled},
                           {"scale_divisor", trace.scaleDivisor},
                           {"causal_mask", trace.causal},
                           {"padded_from", trace.paddedFrom >= 0 ? Json(trace.paddedFrom + 1) : Json(nullptr)},  // from 1
                           {"residual", trace.residual},
                           {"hand_rounding", trace.handRounding ? Json(*trace.handRounding) : Json(nullptr)}};
    doc["notices"] = noticeTexts(trace.notices, Language::English);
    Json ablated = Json::array();
    for (const HeadRef& h : ablatedHeads(trace)) ablated.push_back(Json::array({h.layer + 1, h.head + 1}));
    doc["ablated"] = ablated;
    doc["embedding"] = matrixJson(trace.embedding);
    doc["positional"] = matrixJson(trace.positional);
    Json layers = Json::array();
    for (int l = 0; l < trace.layerCount(); ++l)
        if (!onlyLayer || *onlyLayer == l) layers.push_back(layerJson(trace.layers[static_cast<std::size_t>(l)]));
    doc["layers"] = std::move(layers);
    if (onlyLayer) doc["layer_index"] = *onlyLayer + 1;  // counted from 1, as every index (docs/cli.md)
    return doc.dump(1) + "\n";
}

// ------------------------------------------------------------ helpers

OpenedModel openTiny(const std::string& name) {
    auto opened = openModel((fixture_io::sourceDir() / "tests/reference/models" / name).string());
    REQUIRE(opened.ok());
    return std::move(opened).value();
}

ModelRun fullRun(const OpenedModel& opened, const std::string& sentence, RunControl control = {}) {
    control.fullDetailMaxTokens = std::numeric_limits<int>::max();
    auto run = runSentence(opened, sentence, control);
    REQUIRE(run.ok());
    return std::move(run).value();
}

TokenLabeler labelerOf(const OpenedModel& opened) {
    return [&opened](int id) { return opened.tokenizer.label(id); };
}

// Every cell of `m` against the JSON rows, at 1e-6 relative (the JSON spells each float exactly).
double largestDifference(const Json& rows, GridRef m) {
    REQUIRE(rows.size() == static_cast<std::size_t>(m.rows()));
    double largest = 0;
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        REQUIRE(rows[static_cast<std::size_t>(r)].size() == static_cast<std::size_t>(m.cols()));
        for (Eigen::Index c = 0; c < m.cols(); ++c) {
            const Json& cell = rows[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
            const double want = m(r, c);
            if (cell.is_string()) {
                CHECK(cell.get<std::string>() == (want < 0 ? "-inf" : "inf"));
                continue;
            }
            largest = std::max(largest, std::abs(cell.get<double>() - want) / std::max(1.0, std::abs(want)));
        }
    }
    return largest;
}

}  // namespace

TEST_CASE("a lesson's JSON is written piece by piece, byte for byte the in-memory document", "[export][stream]") {
    for (const char* name : {"first-hand-exercise", "two-heads", "two-layers", "causal-mask", "coreference-zh"}) {
        INFO(name);
        const Trace trace = testing::runBuiltInLesson(name);
        CHECK(traceToJson(trace) == referenceJson(trace, std::nullopt));
        CHECK(traceToJson(trace, trace.layerCount() - 1) == referenceJson(trace, trace.layerCount() - 1));
    }
    // Non-finite cells ("-inf" in the mask), a one-row matrix and an empty one.
    Trace odd = testing::runBuiltInLesson("causal-mask");
    odd.embedding = Mat(0, 0);
    odd.layers[0].heads[0].scores(0, 0) = std::numeric_limits<double>::quiet_NaN();
    CHECK(traceToJson(odd) == referenceJson(odd, std::nullopt));
    CHECK(traceToJson(odd).find("\"nan\"") != std::string::npos);
    // Matrices of 32k cells or more are spelled by two threads, half the rows each: the same bytes
    // (an odd row count, -inf cells on both sides of the split).
    Trace big = testing::runBuiltInLesson("causal-mask");
    big.embedding = Mat::Random(257, 200);
    big.layers[0].heads[0].mask = Mat::Zero(301, 120);
    big.layers[0].heads[0].mask(3, 5) = big.layers[0].heads[0].mask(299, 7) = -std::numeric_limits<double>::infinity();
    CHECK(traceToJson(big) == referenceJson(big, std::nullopt));
}

TEST_CASE("a large mask or scaled scores that come back are written again, byte for byte", "[export][stream]") {
    // The writer keeps the last mask and the last scaled scores spelled (32k cells or more) and
    // writes them again for the same bytes at the same indent: every head of a causal model has the
    // same mask, an encoder's masked scores are its scaled scores. Near misses must be spelled anew.
    Trace big = testing::runBuiltInLesson("two-heads");
    const double inf = std::numeric_limits<double>::infinity();
    Mat mask = Mat::Zero(200, 200), scaled = Mat::Random(200, 200);
    mask(0, 199) = -inf;
    std::vector<HeadTrace>& heads = big.layers[0].heads;
    heads.resize(4, heads[0]);
    for (HeadTrace& h : heads) {
        h.mask = mask;
        h.scaledScores = scaled;
        h.maskedScores = scaled;  // 0: equal to the scaled scores, as for an encoder
    }
    heads[1].maskedScores(199, 0) += 1e-12;                             // one cell off
    heads[2].maskedScores = Eigen::Map<const Mat>(scaled.data(), 100, 400);  // the same bytes, another shape
    heads[3].scaledScores = scaled.transpose();                         // 3: the mask again, new scaled scores
    heads[3].maskedScores = heads[3].scaledScores;
    const std::string streamed = traceToJson(big), reference = referenceJson(big, std::nullopt);
    CHECK(streamed.size() == reference.size());
    CHECK(streamed == reference);
}

TEST_CASE("a decoder's masked scores copy the scaled scores' numbers where the bits agree, byte for byte", "[export][stream]") {
    // Below the diagonal a causal head's masked scores are its scaled scores; the writer copies
    // those numbers' text from the kept scaled scores cell by cell. Cells that differ in any bit
    // (-inf above the diagonal, one nudged cell, -0 against +0) must be spelled anew.
    Trace big = testing::runBuiltInLesson("two-heads");
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<HeadTrace>& heads = big.layers[0].heads;
    heads.resize(3, heads[0]);
    for (HeadTrace& h : heads) {
        h.scaledScores = Mat::Random(190, 190);
        h.maskedScores = h.scaledScores;
        for (Eigen::Index r = 0; r < 190; ++r)
            for (Eigen::Index c = r + 1; c < 190; ++c) h.maskedScores(r, c) = -inf;
    }
    heads[0].scaledScores(5, 2) = -0.0;
    heads[0].maskedScores(5, 2) = 0.0;
    heads[1].maskedScores(150, 3) = std::nextafter(heads[1].maskedScores(150, 3), 2.0);
    heads[2].maskedScores = heads[1].maskedScores;  // head 1's numbers, head 2's kept scaled scores
    heads[2].scaledScores.row(100).setConstant(0.25);
    const std::string streamed = traceToJson(big), reference = referenceJson(big, std::nullopt);
    CHECK(streamed.size() == reference.size());
    CHECK(streamed == reference);
}

TEST_CASE("a sink is handed the document in chunks, and a refusing sink stops the writer", "[export][stream]") {
    const OpenedModel opened = openTiny("bert-tiny");
    const ModelRun run = fullRun(opened, "the cat sat on the mat");
    std::string whole;
    int calls = 0;
    CHECK(writeTraceJson(run.trace, [&](std::string_view t) { return ++calls, whole.append(t), true; },
                         NumberSpelling::FloatShortest));
    CHECK(calls >= run.trace.layerCount());  // at least one piece a layer: never the whole text at once
    int refused = 0;
    CHECK_FALSE(writeTraceJson(run.trace, [&](std::string_view) { return ++refused, false; }, NumberSpelling::FloatShortest));
    CHECK(refused == 1);  // nothing more is offered once a write failed
}

TEST_CASE("a model run streamed layer by layer is the one-shot document and equals the Trace at 1e-6", "[export][stream][model]") {
    for (const char* name : {"bert-tiny", "gpt2-tiny"}) {
        INFO(name);
        const OpenedModel opened = openTiny(name);
        const std::string sentence = std::string(name) == "gpt2-tiny" ? "the cat sat on" : "the [MASK] sat on the mat";
        RunControl control;
        control.ablate = {HeadRef{1, 0}};
        const ModelRun whole = fullRun(opened, sentence, control);
        std::string streamed;
        int layersSeen = 0;
        const ModelRunner runner = [&](const RunControl& c) {
            RunControl counting = c;
            counting.onLayer = [&](const Trace& soFar, int layer, LayerTrace& trace) {
                ++layersSeen;
                return c.onLayer(soFar, layer, trace);
            };
            return runSentence(opened, sentence, counting);
        };
        auto run = streamModelRunJson(runner, control, opened.family(), labelerOf(opened), {}, std::nullopt,
                                      stringSink(streamed), "test");
        REQUIRE(run.ok());
        CHECK(layersSeen == opened.layerCount());
        CHECK(run.value().trace.layers[0].heads[0].weights.size() == 0);  // dropped once written
        CHECK(ablatedHeads(run.value().trace) == std::vector<HeadRef>{HeadRef{1, 0}});  // the flags stay
        CHECK(streamed == modelRunToJson(whole, whole.trace, opened.family(), labelerOf(opened)));

        const Json doc = Json::parse(streamed);
        CHECK(doc.at("ablated") == Json::parse("[[2, 1]]"));
        CHECK(doc.at("predictions").size() == whole.predictions.size());
        double largest = largestDifference(doc.at("embedding"), whole.trace.embedding);
        for (int l = 0; l < whole.trace.layerCount(); ++l) {
            const LayerTrace& want = whole.trace.layers[static_cast<std::size_t>(l)];
            const Json& layer = doc.at("layers")[static_cast<std::size_t>(l)];
            largest = std::max({largest, largestDifference(layer.at("input"), want.input),
                                largestDifference(layer.at("output"), want.output)});
            for (std::size_t h = 0; h < want.heads.size(); ++h) {
                const Json& head = layer.at("heads")[h];
                CHECK(head.at("ablated").get<bool>() == want.heads[h].ablated);
                largest = std::max({largest, largestDifference(head.at("q"), want.heads[h].q),
                                    largestDifference(head.at("scores"), want.heads[h].scores),
                                    largestDifference(head.at("mask"), want.heads[h].mask),
                                    largestDifference(head.at("weights"), want.heads[h].weights),
                                    largestDifference(head.at("output"), want.heads[h].weightedSum)});
            }
        }
        CHECK(largest < 1e-6);
        CHECK(largest > 0);  // the spelling is the float's: not every double digit survives
    }
}

TEST_CASE("a selection holds exactly the chosen layers, heads and steps (JSON and CSV)", "[export][stream]") {
    const Trace trace = testing::runBuiltInLesson("two-layers");
    REQUIRE(trace.layerCount() == 2);
    ExportRequest request;
    request.selection = TraceSelection{{1}, {0}, {Step::Weights, Step::Scores}};
    const Json doc = Json::parse(exportTrace(trace, ExportFormat::Json, request));
    CHECK_FALSE(doc.contains("embedding"));
    CHECK_FALSE(doc.contains("positional"));
    REQUIRE(doc.at("layers").size() == 1);
    const Json& layer = doc.at("layers")[0];
    CHECK(layer.size() == 1);  // "heads" only: no input, concat or output
    REQUIRE(layer.at("heads").size() == 1);
    std::set<std::string> keys;
    for (const auto& [key, value] : layer.at("heads")[0].items()) keys.insert(key);
    CHECK(keys == std::set<std::string>{"scores", "weights", "ablated"});
    CHECK(largestDifference(layer.at("heads")[0].at("weights"), trace.layers[1].heads[0].weights) == 0);
    CHECK(doc.at("selection") == Json::parse(R"({"layers": [2], "heads": [1], "steps": ["weights", "scores"]})"));

    const std::string csv = exportTrace(trace, ExportFormat::Csv, request);
    std::istringstream lines(csv);
    std::string line;
    std::getline(lines, line);
    CHECK(line == "step,layer,head,row,row_label,col,col_label,value");
    std::multiset<std::string> prefixes;
    int rows = 0;
    while (std::getline(lines, line)) {
        ++rows;
        const std::size_t third = line.find(',', line.find(',', line.find(',') + 1) + 1);
        prefixes.insert(line.substr(0, third));
    }
    const auto cells = static_cast<std::size_t>(trace.tokenCount() * trace.keyCount());
    CHECK(rows == static_cast<int>(2 * cells));
    CHECK(prefixes.count("scores,2,1") == cells);
    CHECK(prefixes.count("weights,2,1") == cells);
}

TEST_CASE("a model's CSV of chosen layers is streamed with each layer's real number", "[export][stream][model]") {
    const OpenedModel opened = openTiny("bert-tiny");
    const std::string sentence = "the cat sat";
    const ModelRunner runner = [&](const RunControl& c) { return runSentence(opened, sentence, c); };
    ExportRequest request;
    request.selection.layers = {1};
    request.selection.steps = {Step::Weights};
    std::string csv;
    auto run = streamModelRunCsv(runner, RunControl{}, request, labelerOf(opened), stringSink(csv), "test");
    REQUIRE(run.ok());
    const ModelRun whole = fullRun(opened, sentence);
    const int T = whole.trace.tokenCount();
    CHECK(csv.find("weights,2,1,1,") != std::string::npos);
    CHECK(csv.find("weights,1,") == std::string::npos);
    std::size_t weightRows = 0;
    for (std::size_t at = csv.find("\nweights,2,"); at != std::string::npos; at = csv.find("\nweights,2,", at + 1)) ++weightRows;
    CHECK(weightRows == static_cast<std::size_t>(opened.headCount() * T * T));
    CHECK(csv.find("\nprediction,") == std::string::npos);  // no [MASK]: no prediction rows
}

TEST_CASE("a write failing midway stops the run and leaves no file", "[export][stream][model]") {
    const OpenedModel opened = openTiny("bert-tiny");
    const auto dir = std::filesystem::temp_directory_path() / "attnscope-stream-test";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const auto target = dir / "run.json";
    int layersRun = 0;
    const ModelRunner runner = [&](const RunControl& c) {
        RunControl counting = c;
        counting.onLayer = [&](const Trace& soFar, int layer, LayerTrace& trace) {
            ++layersRun;
            return c.onLayer(soFar, layer, trace);
        };
        return runSentence(opened, "the cat sat on the mat", counting);
    };
    auto written = writeFileAtomically(target, [&](FileChunkWriter& file) -> Result<void> {
        int pieces = 0;
        const TextSink failsFirst = [&](std::string_view text) { return ++pieces > 1 && file.write(text); };
        auto run = streamModelRunJson(runner, RunControl{}, opened.family(), labelerOf(opened), {}, std::nullopt,
                                      failsFirst, target.string());
        return run ? Result<void>{} : Result<void>(run.error());
    });
    CHECK_FALSE(written.ok());
    CHECK(layersRun == 1);  // stopped at the layer whose write failed, not run to the end
    REQUIRE(opened.layerCount() > 1);
    CHECK(std::filesystem::is_empty(dir));   // no file, no temporary
    std::filesystem::remove_all(dir);
}
