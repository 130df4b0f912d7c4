// The session file (core/source/saved_session.hpp, docs/session-format.md): written, read back to
// the same state, indices counted from 1 in the file; bad files refused naming the field.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/source/saved_session.hpp"

using namespace attnscope;

namespace {

SavedSession example() {
    SavedSession s;
    s.kind = SessionSource::Model;
    s.source = "models/bert-tiny";
    // SHA-256 of the empty file and of "abc" (FIPS 180-2's first example).
    s.files = {{"config.json", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
               {"model.safetensors", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"}};
    s.sentence = "the cat sat";
    s.sentenceB = "the dog ran";
    s.ablated = {{0, 1}, {1, 3}};
    s.layer = 1;
    s.head = 2;
    s.step = 4;
    s.tab = 1;  // the second tab
    s.shading = false;
    s.words = true;
    s.norms = true;
    s.seed = 2147483647;  // the largest the seed box takes
    s.control = true;
    return s;
}

}  // namespace

TEST_CASE("a session reads back as it was written, indices from 1 in the file", "[session]") {
    const SavedSession s = example();
    const std::string text = sessionToJson(s);
    const auto doc = nlohmann::json::parse(text);
    CHECK(doc.at("format") == "attnscope-session");
    CHECK(doc.at("version") == 1);
    CHECK(doc.at("layer") == 2);  // layer 2 as the window labels it
    CHECK(doc.at("head") == 3);
    CHECK(doc.at("step") == 5);
    CHECK(doc.at("tab") == 2);
    CHECK(doc.at("ablated") == nlohmann::json::parse("[[1, 2], [2, 4]]"));
    CHECK(doc.at("source").at("kind") == "model");
    CHECK(doc.at("view").at("norms") == true);
    CHECK(doc.at("evaluation") == nlohmann::json::parse(R"({"seed": 2147483647, "control": true})"));

    const auto back = sessionFromJson(text, "s.json");
    REQUIRE(back.ok());
    const SavedSession& r = back.value();
    CHECK(r.kind == s.kind);
    CHECK(r.source == s.source);
    CHECK(r.files == s.files);
    CHECK(r.sentence == s.sentence);
    CHECK(r.sentenceB == s.sentenceB);
    CHECK(r.ablated == s.ablated);
    CHECK((r.layer == 1 && r.head == 2 && r.step == 4));
    CHECK(r.tab == 1);
    CHECK((!r.shading && r.words && r.norms));
    CHECK((r.seed == 2147483647u && r.control));
    // A session written before "norms" existed: the weights.
    auto older = nlohmann::json::parse(text);
    older["view"].erase("norms");
    const auto old = sessionFromJson(older.dump(), "old.json");
    REQUIRE(old.ok());
    CHECK(!old.value().norms);
    // … and before the Heads tab's settings were saved: seed 1 (the seed box's default), no control.
    older.erase("evaluation");
    const auto oldest = sessionFromJson(older.dump(), "old.json");
    REQUIRE(oldest.ok());
    CHECK((oldest.value().seed == 1u && !oldest.value().control));
}

TEST_CASE("a session keeps an encoder-decoder lesson's stage by its --stage name, and none without", "[session]") {
    SavedSession s = example();
    s.kind = SessionSource::Lesson;
    s.source = ":/lessons/translation.json";
    s.stage = "cross";
    const std::string text = sessionToJson(s);
    CHECK(nlohmann::json::parse(text).at("stage") == "cross");
    const auto back = sessionFromJson(text, "s.json");
    REQUIRE(back.ok());
    CHECK(back.value().stage == "cross");
    CHECK(back.value().ablated == s.ablated);  // the cross stage's heads

    const std::string plain = sessionToJson(example());
    CHECK_FALSE(nlohmann::json::parse(plain).contains("stage"));  // a source without stages: no field
    const auto none = sessionFromJson(plain, "s.json");
    REQUIRE(none.ok());
    CHECK(none.value().stage.empty());

    auto doc = nlohmann::json::parse(text);
    doc["stage"] = "decoder";  // the lesson file's part, not a stage's name
    const auto bad = sessionFromJson(doc.dump(), "s.json");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().where + ": " + bad.error().message ==
          "s.json: stage: expected encoder, decoder_self or cross (the stages of an encoder–decoder lesson), "
          "found the text \"decoder\"");
    doc["stage"] = 2;
    CHECK_FALSE(sessionFromJson(doc.dump(), "s.json").ok());
}

TEST_CASE("changed files: another size or hash, or missing, a new file is no change", "[session]") {
    const std::vector<SessionFile> saved = example().files;
    CHECK(changedFiles(saved, saved).empty());
    std::vector<SessionFile> now = saved;
    now[1].sha256[0] = '0';  // the weights changed, same size
    now.push_back({"README.md", 10, std::string(64, 'a')});
    CHECK(changedFiles(saved, now) == std::vector<std::string>{"model.safetensors"});
    CHECK(changedFiles(saved, {saved[1]}) == std::vector<std::string>{"config.json"});
}

TEST_CASE("a bad session file is refused naming the file and the field", "[session]") {
    const auto refused = [](const std::string& text) {
        const auto r = sessionFromJson(text, "s.json");
        REQUIRE_FALSE(r.ok());
        return r.error().where + ": " + r.error().message;
    };
    const std::string good = sessionToJson(example());
    CHECK(refused("{\"format\": \"attnscope-lesson\", \"version\": 1}") ==
          "s.json: format: expected \"attnscope-session\", found the text \"attnscope-lesson\"");
    nlohmann::json doc = nlohmann::json::parse(good);
    doc["layer"] = 0;
    CHECK(refused(doc.dump()) == "s.json: layer: expected 1 to 1000000, found 0");
    doc = nlohmann::json::parse(good);
    doc["version"] = 2;
    CHECK(refused(doc.dump()) == "s.json: version: expected 1 to 1, found 2");  // a later format
    doc = nlohmann::json::parse(good);
    doc["source"]["kind"] = "video";
    CHECK(refused(doc.dump()) == "s.json: source.kind: expected \"model\" or \"lesson\", found the text \"video\"");
    doc = nlohmann::json::parse(good);
    doc["ablated"] = nlohmann::json::parse("[[1, 2, 3]]");
    CHECK(refused(doc.dump()).find("s.json: ablated[0]: expected a list of 2") == 0);
    doc = nlohmann::json::parse(good);
    doc["evaluation"]["seed"] = -1;
    CHECK(refused(doc.dump()) == "s.json: evaluation.seed: expected 0 to 2147483647, found -1");
    CHECK(refused("{").find("s.json: is not valid JSON: line 1, column 2: ") == 0);
}
