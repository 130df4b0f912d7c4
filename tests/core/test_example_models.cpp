// The shipped example models (resources/models/example-*, trained by
// scripts/train_example_models.py): found by name, tokenised exactly as the script tokenised
// their training text, and with the learned heads their model cards report.
//
// tests/reference/fixtures/example-models.json holds the script's own token ids for held-out
// verses and a few modern sentences (written by the script, which also checked AttnScope's
// attention against its PyTorch forward pass within 1e-5); this test needs no Python.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "core/analysis/head_stats.hpp"
#include "core/source/example_models.hpp"
#include "core/source/model_session.hpp"

using namespace attnscope;

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

fs::path sourceDir() { return fs::path(ATTNSCOPE_SOURCE_DIR); }

Json readFixture() {
    std::ifstream in(sourceDir() / "tests/reference/fixtures/example-models.json", std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return Json::parse(text.str());
}

// A fresh empty folder under the system temp dir, removed at the end of the test.
struct TempDir {
    fs::path path;
    TempDir() {
        static int count = 0;  // ctest runs test cases as parallel processes: the pid keeps them apart
        path = fs::temp_directory_path() /
               ("attnscope-examples-" + std::to_string(::getpid()) + "-" + std::to_string(count++));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() { fs::remove_all(path); }
};

void writeConfigIn(const fs::path& folder) {
    fs::create_directories(folder);
    std::ofstream(folder / "config.json") << "{}";
}

OpenedModel openExample(const std::string& name) {
    auto opened = openModel(name);
    INFO(name << ": " << (opened ? std::string() : opened.error().text()));
    REQUIRE(opened);
    return std::move(opened).value();
}

// The statistics of every head on `sentence`, layer by layer.
std::vector<HeadStatistics> statsOn(const OpenedModel& model, const std::string& sentence) {
    RunControl control;
    control.fullDetailMaxTokens = 0;
    auto run = runSentence(model, sentence, control);
    REQUIRE(run);
    auto stats = headStatistics(run.value().trace);
    REQUIRE(stats);
    return std::move(stats).value();
}

const HeadStatistics& head(const std::vector<HeadStatistics>& stats, int layer, int head) {
    for (const HeadStatistics& s : stats)
        if (s.head.layer == layer - 1 && s.head.head == head - 1) return s;
    FAIL("no head " << layer << ":" << head);
    return stats.front();
}

}  // namespace

TEST_CASE("example model names resolve in the documented order", "[examples]") {
    TempDir data, exe, source;
    writeConfigIn(data.path / "models" / "example-gpt");
    writeConfigIn(exe.path / "share" / "attnscope" / "models" / "example-gpt");
    writeConfigIn(exe.path / "share" / "attnscope" / "models" / "example-bert");
    writeConfigIn(source.path / "resources" / "models" / "example-bert");
    ExampleModelPlaces places{data.path, exe.path / "bin", source.path};

    SECTION("$ATTNSCOPE_DATA_DIR first, then the installed share folder") {
        CHECK(findExampleModel(places, "example-gpt").value() == data.path / "models" / "example-gpt");
        CHECK(findExampleModel(places, "example-bert").value() ==
              (exe.path / "share" / "attnscope" / "models" / "example-bert").lexically_normal());
    }
    SECTION("the source tree last") {
        places.executableDir.reset();
        CHECK(findExampleModel(places, "example-bert").value() == source.path / "resources" / "models" / "example-bert");
    }
    SECTION("a missing example names every folder looked at") {
        places.sourceDir.reset();
        places.executableDir.reset();
        const auto missing = findExampleModel(places, "example-bert");
        REQUIRE_FALSE(missing);
        CHECK(missing.error().where == "example-bert");
        CHECK(missing.error().message == "the example model is not installed (looked for its config.json in " +
                                             (data.path / "models" / "example-bert").string() + ")");
    }
    SECTION("a folder without config.json does not count") {
        fs::remove(data.path / "models" / "example-gpt" / "config.json");
        CHECK(findExampleModel(places, "example-gpt").value() ==
              (exe.path / "share" / "attnscope" / "models" / "example-gpt").lexically_normal());
    }
    SECTION("other names are refused with the list of examples") {
        const auto other = findExampleModel(places, "example-t5");
        REQUIRE_FALSE(other);
        CHECK(other.error().text() == "example-t5: is not an example model (the examples are example-gpt, example-bert, example-llama)");
    }
}

TEST_CASE("openModel opens the examples by name", "[examples]") {
    const ExampleModelPlaces places = ExampleModelPlaces::fromProcess();
    REQUIRE(places.sourceDir);
    CHECK(*places.sourceDir == sourceDir());  // the development fallback: this very source tree
    const std::map<std::string, std::string> family = {{"example-gpt", "GPT-2"}, {"example-bert", "BERT"},
                                                        {"example-llama", "Llama"}};
    for (const auto& [name, familyText] : family) {
        const OpenedModel model = openExample(name);
        CHECK(model.name == name);
        CHECK(fs::path(model.folder) == findExampleModel(places, name).value());
        CHECK(model.layerCount() == 4);
        CHECK(model.headCount() == 4);
        CHECK(familyName(model.family()) == familyText);
    }
    CHECK(openExample("example-llama").model.config.keyValueHeads() == 2);  // query heads 1–2 and 3–4 share one
}

TEST_CASE("an unknown model name lists the example models", "[examples]") {
    const auto missing = openModel("no-such-model-here");
    REQUIRE_FALSE(missing);
    CHECK_THAT(missing.error().text(), Catch::Contains("(the example models: example-gpt, example-bert, example-llama)"));
}

TEST_CASE("AttnScope tokenises like the training script", "[examples]") {
    const Json fixture = readFixture();
    for (const std::string name : {"example-gpt", "example-bert", "example-llama"}) {
        const OpenedModel model = openExample(name);
        REQUIRE(fixture.at(name).size() >= 10);
        for (const Json& row : fixture.at(name)) {
            const std::string sentence = row.at("sentence");
            auto tokens = model.tokenizer.encode(sentence);
            REQUIRE(tokens);
            std::vector<int> ids;
            for (const Token& t : tokens.value()) ids.push_back(t.id);
            INFO(name << ": " << sentence);
            CHECK(ids == row.at("ids").get<std::vector<int>>());
        }
    }
}

// The learned heads as AttnScope's head statistics measure them (docs/coreference.md thresholds),
// the figures the model cards report. They pin what the trained weights really do, not what a
// textbook model would: the small GPT has no previous-token head (no share reaches 0.5) and
// sinks attention onto punctuation in layers 3 and 4.
TEST_CASE("the example GPT's heads: broad in layer 1, punctuation sinks in layer 3", "[examples]") {
    const OpenedModel gpt = openExample("example-gpt");
    const auto animal = statsOn(gpt, "The animal didn't cross the street because it was too tired.");
    for (int h = 1; h <= 4; ++h) {
        INFO("head 1:" << h);
        CHECK(patternLabel(head(animal, 1, h)) == "broad");
    }
    CHECK(head(animal, 1, 4).normalizedEntropy == Approx(0.9033).margin(1e-3));
    for (const HeadStatistics& s : animal) CHECK(s.previousShare < 0.3);
    CHECK(head(animal, 2, 2).previousShare == Approx(0.2528).margin(1e-3));  // the largest

    const auto light = statsOn(gpt, "And God said, Let there be light: and there was light.");
    CHECK(patternLabel(head(light, 3, 1)) == "delimiter sink");
    CHECK(head(light, 3, 1).delimiterShare == Approx(0.5030).margin(1e-3));
    CHECK(head(light, 3, 3).delimiterShare == Approx(0.4902).margin(1e-3));
    CHECK(head(light, 3, 3).normalizedEntropy == Approx(0.4288).margin(1e-3));  // the sharpest head
}

// The example BERT has the textbook positional heads: 3:2 looks at the previous token, 2:4 at
// the next one, and 2:3, 4:1, 4:3 spread their attention evenly.
TEST_CASE("the example BERT's heads: previous-token 3:2, next-token 2:4, broad 2:3 4:1 4:3", "[examples]") {
    const OpenedModel bert = openExample("example-bert");
    const auto animal = statsOn(bert, "The animal didn't cross the street because it was too tired.");
    CHECK(patternLabel(head(animal, 3, 2)) == "previous-token");
    CHECK(head(animal, 3, 2).previousShare == Approx(0.5127).margin(1e-3));
    CHECK(patternLabel(head(animal, 2, 4)) == "next-token");
    CHECK(head(animal, 2, 4).nextShare == Approx(0.5101).margin(1e-3));
    CHECK(head(animal, 3, 3).nextShare == Approx(0.4542).margin(1e-3));  // next-token-like, below 0.5
    for (const auto& [layer, h] : {std::pair{2, 3}, std::pair{4, 1}, std::pair{4, 3}}) {
        INFO("head " << layer << ":" << h);
        CHECK(patternLabel(head(animal, layer, h)) == "broad");
    }
    CHECK(head(animal, 2, 3).normalizedEntropy == Approx(0.9499).margin(1e-3));

    const auto light = statsOn(bert, "And God said, Let there be light: and there was light.");
    CHECK(patternLabel(head(light, 3, 2)) == "previous-token");
    CHECK(head(light, 3, 2).previousShare == Approx(0.5238).margin(1e-3));
    CHECK(head(light, 2, 4).nextShare == Approx(0.4537).margin(1e-3));
}

// The example Llama's query heads 1–2 read key/value head 1 and 3–4 read head 2 (grouped-query
// attention), so within a layer heads 1 and 2 have the same K, heads 1 and 3 not. Its heads are
// all "mixed" on the classic sentence (MODEL_CARD.md): 1:2 keeps the most on itself, 4:2 the most
// on the previous token.
TEST_CASE("the example Llama: query heads share key/value heads, 1:2 self 0.393, 4:2 previous 0.325", "[examples]") {
    const OpenedModel llama = openExample("example-llama");
    auto run = runSentence(llama, "The LORD is my shepherd", RunControl{});
    REQUIRE(run);
    for (const LayerTrace& layer : run.value().trace.layers) {
        REQUIRE(layer.heads.size() == 4);
        CHECK(layer.heads[0].k == layer.heads[1].k);
        CHECK(layer.heads[2].k == layer.heads[3].k);
        CHECK((layer.heads[0].k - layer.heads[2].k).cwiseAbs().maxCoeff() > 1e-3);
        CHECK((layer.heads[0].q - layer.heads[1].q).cwiseAbs().maxCoeff() > 1e-3);  // queries are each head's own
    }
    const auto animal = statsOn(llama, "The animal didn't cross the street because it was too tired.");
    for (const HeadStatistics& s : animal) CHECK(patternLabel(s) == "mixed");
    CHECK(head(animal, 1, 2).selfShare == Approx(0.393).margin(1e-3));
    CHECK(head(animal, 4, 2).previousShare == Approx(0.325).margin(1e-3));
    CHECK(head(animal, 4, 2).delimiterShare == Approx(0.126).margin(1e-3));
}
