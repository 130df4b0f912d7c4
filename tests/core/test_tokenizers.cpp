// Real tokenizers against the genuine GPT-2 and BERT-uncased vocabularies in ../shared/tokenizers
// and the fixture of the independent Python reference (tests/reference/reference_tokenizers.py).
// Without ../shared/tokenizers those tests warn "skipped: …" and pass; the synthetic
// tokenizer.json and error tests always run.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/tokenizers/byte_level_bpe.hpp"
#include "core/tokenizers/text_pipeline.hpp"
#include "core/tokenizers/token_reading.hpp"
#include "core/tokenizers/load.hpp"
#include "core/tokenizers/tokenizer_json.hpp"
#include "core/tokenizers/wordpiece.hpp"

namespace fs = std::filesystem;
using namespace attnscope;
using Ids = std::vector<int>;

namespace {

const fs::path kShared = fs::path(ATTNSCOPE_SHARED_DIR) / "tokenizers";

bool sharedTokenizersPresent() { return fs::is_directory(kShared / "gpt2") && fs::is_directory(kShared / "bert-base-uncased"); }

const Tokenizer& sharedTokenizer(const std::string& name) {
    static std::map<std::string, std::unique_ptr<Tokenizer>> loaded;
    auto& slot = loaded[name];
    if (!slot) {
        auto result = loadTokenizerFromFolder(kShared / name);
        INFO((result ? std::string() : result.error().text()));
        REQUIRE(result.ok());
        slot = std::move(result).value();
    }
    return *slot;
}

Ids idsOf(const std::vector<Token>& tokens) {
    Ids ids;
    for (const Token& t : tokens) ids.push_back(t.id);
    return ids;
}

std::vector<int> wordsOf(const std::vector<Token>& tokens) {
    std::vector<int> words;
    for (const Token& t : tokens) words.push_back(t.word);
    return words;
}

Ids encodeIds(const Tokenizer& tokenizer, std::string_view text) {
    auto tokens = tokenizer.encode(text);
    INFO((tokens ? std::string() : tokens.error().text()));
    REQUIRE(tokens.ok());
    return idsOf(tokens.value());
}

nlohmann::json readFixture() {
    std::ifstream in(fs::path(ATTNSCOPE_SOURCE_DIR) / "tests/reference/fixtures/tokenizers.json");
    REQUIRE(in.good());
    return nlohmann::json::parse(in);
}

// A fresh folder under the system temp dir, removed when the test ends.
struct TempDir {
    fs::path path;
    explicit TempDir(const std::string& name) : path(fs::temp_directory_path() / ("attnscope-tok-" + name)) {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() { fs::remove_all(path); }
    void write(const std::string& file, const std::string& text) const { std::ofstream(path / file, std::ios::binary) << text; }
};

#define SKIP_WITHOUT_SHARED()                                        \
    if (!sharedTokenizersPresent()) {                                \
        WARN("skipped: ../shared/tokenizers not found");             \
        return;                                                      \
    }

}  // namespace

TEST_CASE("GPT-2 known ids", "[tokenizer-real]") {
    SKIP_WITHOUT_SHARED();
    const Tokenizer& gpt2 = sharedTokenizer("gpt2");
    CHECK(gpt2.kind() == "BPE");
    CHECK(encodeIds(gpt2, "Hello world") == Ids{15496, 995});
    CHECK(encodeIds(gpt2, "The capital of France is") == Ids{464, 3139, 286, 4881, 318});
    CHECK(gpt2.idOf("<|endoftext|>") == 50256);
    CHECK(gpt2.pieceOf(50256) == "<|endoftext|>");
    CHECK(gpt2.vocabSize() == 50257);
    CHECK(gpt2.specialTokens().eos == 50256);
    CHECK(gpt2.specialTokens().bos == 50256);
    CHECK_FALSE(gpt2.specialTokens().cls.has_value());
}

TEST_CASE("BERT uncased known ids", "[tokenizer-real]") {
    SKIP_WITHOUT_SHARED();
    const Tokenizer& bert = sharedTokenizer("bert-base-uncased");
    CHECK(bert.kind() == "WordPiece");
    const SpecialTokens& s = bert.specialTokens();
    CHECK(s.pad == 0);
    CHECK(s.unk == 100);
    CHECK(s.cls == 101);
    CHECK(s.sep == 102);
    CHECK(s.mask == 103);
    CHECK(bert.idOf("the") == 1996);
    CHECK(bert.idOf("paris") == 3000);
    CHECK(bert.pieceOf(3000) == "paris");
    CHECK(bert.vocabSize() == 30522);
    CHECK(encodeIds(bert, "Paris") == Ids{3000});
}

TEST_CASE("encode matches the independent reference on every fixture case", "[tokenizer-real]") {
    SKIP_WITHOUT_SHARED();
    const nlohmann::json fixture = readFixture();
    for (const std::string name : {"gpt2", "bert-base-uncased"}) {
        const Tokenizer& tokenizer = sharedTokenizer(name);
        for (const auto& c : fixture["cases"]) {
            INFO(name << " / " << c["name"].get<std::string>());
            auto tokens = tokenizer.encode(c["text"].get<std::string>());
            REQUIRE(tokens.ok());
            CHECK(tokens.value().size() == c[name]["ids"].size());
            CHECK(idsOf(tokens.value()) == c[name]["ids"].get<Ids>());
            CHECK(wordsOf(tokens.value()) == c[name]["words"].get<std::vector<int>>());
            if (c[name].contains("pieces")) {
                for (std::size_t i = 0; i < tokens.value().size(); ++i)
                    CHECK(tokens.value()[i].text == c[name]["pieces"][i].get<std::string>());
            }
        }
    }
}

TEST_CASE("word pieces map to the word they came from", "[tokenizer-real]") {
    SKIP_WITHOUT_SHARED();
    auto bert = sharedTokenizer("bert-base-uncased").encode("an unaffable man").value();
    REQUIRE(bert.size() == 5);  // an / una ##ffa ##ble / man
    CHECK(bert[1].text == "una");
    CHECK(bert[2].text == "##ffa");
    CHECK(wordsOf(bert) == std::vector<int>{0, 1, 1, 1, 2});
    auto gpt2 = sharedTokenizer("gpt2").encode("an unaffable man").value();
    REQUIRE(gpt2.size() == 4);  // an / Ġunaff able / Ġman
    CHECK(gpt2[1].text == "Ġunaff");
    CHECK(wordsOf(gpt2) == std::vector<int>{0, 1, 1, 2});
    for (const Token& t : gpt2) CHECK_FALSE(t.special);
}

TEST_CASE("special tokens written in the text are those tokens, none are added", "[tokenizer-real]") {
    SKIP_WITHOUT_SHARED();
    auto bert = sharedTokenizer("bert-base-uncased").encode("[CLS] hello [SEP]").value();
    CHECK(idsOf(bert) == Ids{101, 7592, 102});
    CHECK(bert[0].special);
    CHECK_FALSE(bert[1].special);
    auto gpt2 = sharedTokenizer("gpt2").encode("<|endoftext|>Hi").value();
    CHECK(idsOf(gpt2) == Ids{50256, 17250});
    CHECK(gpt2[0].special);
}

TEST_CASE("display text turns byte-level pieces back into readable text", "[tokenizer-real]") {
    SKIP_WITHOUT_SHARED();
    const Tokenizer& gpt2 = sharedTokenizer("gpt2");
    auto tokens = gpt2.encode("Hello world café\n🙂").value();
    std::vector<std::string> shown;
    for (const Token& t : tokens) shown.push_back(gpt2.displayText(t));
    CHECK(tokens[1].text == "Ġworld");
    CHECK(shown[0] == "Hello");
    CHECK(shown[1] == "␣world");
    CHECK(shown[2] == "␣café");
    CHECK(shown[3] == "↵");
    // The emoji is split into byte pieces that are not whole characters alone.
    std::string emoji;
    for (std::size_t i = 4; i < tokens.size(); ++i) emoji += byteLevelToBytes(tokens[i].text);
    CHECK(emoji == "🙂");
    // Alone, the emoji's first pieces are a part of a character that is not there.
    CHECK(gpt2.displayText(tokens[4]) == kPartMark);
    const Tokenizer& bert = sharedTokenizer("bert-base-uncased");
    CHECK(bert.displayText(bert.encode("playing").value().back()) == bert.encode("playing").value().back().text);
}

TEST_CASE("non-UTF-8 input is an error naming the byte", "[tokenizer-real]") {
    SKIP_WITHOUT_SHARED();
    for (const std::string name : {"gpt2", "bert-base-uncased"}) {
        auto result = sharedTokenizer(name).encode("ok \xC3\x28 no");
        REQUIRE_FALSE(result.ok());
        CHECK(result.error().text().find("byte 3") != std::string::npos);
        CHECK_FALSE(sharedTokenizer(name).encode("\xFF").ok());
    }
}

TEST_CASE("10,000-character inputs encode quickly", "[tokenizer-real]") {
    SKIP_WITHOUT_SHARED();
    const nlohmann::json fixture = readFixture();
    for (const auto& c : fixture["cases"]) {
        if (c["name"].get<std::string>().rfind("long", 0) != 0) continue;
        const std::string text = c["text"].get<std::string>();
        REQUIRE(text.size() >= 10000);
        for (const std::string name : {"gpt2", "bert-base-uncased"}) {
            auto fresh = loadTokenizerFromFolder(kShared / name);  // a cold per-word cache
            REQUIRE(fresh.ok());
            const Tokenizer& tokenizer = *fresh.value();
            const auto start = std::chrono::steady_clock::now();
            auto tokens = tokenizer.encode(text);
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
            REQUIRE(tokens.ok());
            CHECK(tokens.value().size() == c[name]["ids"].size());
            WARN(name << " encoded " << c["name"].get<std::string>() << " (" << text.size() << " bytes) in " << ms << " ms");
            CHECK(ms < 2000.0);  // generous for a loaded 2-core machine; typical runs take a few ms
        }
    }
}

TEST_CASE("synthetic tokenizer.json: WordPiece with BertNormalizer", "[tokenizer-real]") {
    TempDir dir("wordpiece-json");
    dir.write("tokenizer.json", R"({
      "version": "1.0",
      "added_tokens": [{"id": 0, "content": "[UNK]", "special": true}, {"id": 1, "content": "[CLS]", "special": true},
                       {"id": 2, "content": "[SEP]", "special": true}],
      "normalizer": {"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true,
                     "strip_accents": null, "lowercase": true},
      "pre_tokenizer": {"type": "BertPreTokenizer"},
      "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                "max_input_chars_per_word": 8,
                "vocab": {"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "play": 3, "##ing": 4, "cafe": 5, "!": 6, "笔": 7}}
    })");
    auto loaded = loadTokenizerFromFolder(dir.path);
    INFO((loaded ? std::string() : loaded.error().text()));
    REQUIRE(loaded.ok());
    const Tokenizer& t = *loaded.value();
    CHECK(t.kind() == "WordPiece");
    CHECK(encodeIds(t, "Playing CAFÉ!笔 [CLS]") == Ids{3, 4, 5, 6, 7, 1});
    CHECK(encodeIds(t, "playingplaying") == Ids{0});  // 14 chars > max_input_chars_per_word 8
    CHECK(encodeIds(t, "xyz") == Ids{0});
    CHECK(t.specialTokens().cls == 1);
    CHECK(t.specialTokens().unk == 0);
    CHECK(wordsOf(t.encode("playing cafe").value()) == std::vector<int>{0, 0, 1});
}

TEST_CASE("synthetic tokenizer.json: byte-level BPE with both merge spellings", "[tokenizer-real]") {
    const std::string vocab = R"("h": 0, "e": 1, "l": 2, "o": 3, "Ġ": 4, "he": 5, "ll": 6, "hell": 7, "hello": 8,
                                 "Ġh": 9, "<|endoftext|>": 10)";
    for (const std::string merges : {R"(["h e", "l l", "he ll", "hell o", "Ġ h"])",
                                     R"([["h", "e"], ["l", "l"], ["he", "ll"], ["hell", "o"], ["Ġ", "h"]])"}) {
        TempDir dir("bpe-json");
        dir.write("tokenizer.json", R"({"added_tokens": [{"id": 10, "content": "<|endoftext|>", "special": true}],
          "normalizer": null, "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false, "use_regex": true},
          "model": {"type": "BPE", "vocab": {)" + vocab + R"(}, "merges": )" + merges + "}}");
        auto loaded = loadTokenizerFromFolder(dir.path);
        INFO((loaded ? std::string() : loaded.error().text()));
        REQUIRE(loaded.ok());
        const Tokenizer& t = *loaded.value();
        CHECK(t.kind() == "BPE");
        // " hello": "h e" (rank 0) is merged before "Ġ h" (rank 4) could be, so "Ġ" stays alone.
        CHECK(encodeIds(t, "hello hello<|endoftext|>") == Ids{8, 4, 8, 10});
        CHECK(encodeIds(t, " h") == Ids{9});
        CHECK(t.specialTokens().eos == 10);
    }
}

TEST_CASE("unsupported tokenizer.json types are errors naming the field", "[tokenizer-real]") {
    auto unigram = parseTokenizerJson(R"({"model": {"type": "Unigram", "vocab": {}}})", "tokenizer.json");
    REQUIRE_FALSE(unigram.ok());
    CHECK(unigram.error().where == "tokenizer.json: model.type");
    CHECK(unigram.error().message.find("Unigram") != std::string::npos);
    auto pre = parseTokenizerJson(R"({"normalizer": null, "pre_tokenizer": {"type": "UnicodeScripts"},
                                      "model": {"type": "BPE", "vocab": {}, "merges": []}})", "tokenizer.json");
    REQUIRE_FALSE(pre.ok());
    CHECK(pre.error().where == "tokenizer.json: pre_tokenizer.type");
    auto norm = parseTokenizerJson(R"({"normalizer": {"type": "NFKC"}, "pre_tokenizer": {"type": "BertPreTokenizer"},
                                       "model": {"type": "WordPiece", "vocab": {"a": 0}}})", "tokenizer.json");
    REQUIRE_FALSE(norm.ok());
    CHECK(norm.error().where == "tokenizer.json: normalizer.type");
    auto badMerge = parseTokenizerJson(R"({"pre_tokenizer": {"type": "ByteLevel"},
                                           "model": {"type": "BPE", "vocab": {"a": 0}, "merges": ["a"]}})", "tokenizer.json");
    REQUIRE_FALSE(badMerge.ok());
    CHECK(badMerge.error().where == "tokenizer.json: model.merges[0]");
}

TEST_CASE("folder loading errors name the file", "[tokenizer-real]") {
    TempDir dir("errors");
    auto empty = loadTokenizerFromFolder(dir.path);
    REQUIRE_FALSE(empty.ok());
    CHECK(empty.error().message.find("vocab.txt") != std::string::npos);

    auto missing = readWordPieceVocab(dir.path / "vocab.txt");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().where == (dir.path / "vocab.txt").string());

    dir.write("vocab.json", R"({"a": 0, "b": )");
    dir.write("merges.txt", "#version: 0.2\na b\n");
    auto malformed = loadTokenizerFromFolder(dir.path);
    REQUIRE_FALSE(malformed.ok());
    CHECK(malformed.error().where == (dir.path / "vocab.json").string());

    dir.write("vocab.json", R"({"a": 0, "b": 1, "ab": 2})");
    dir.write("merges.txt", "#version: 0.2\na b\nab\n");
    auto badLine = loadTokenizerFromFolder(dir.path);
    REQUIRE_FALSE(badLine.ok());
    CHECK(badLine.error().where == (dir.path / "merges.txt").string() + ": line 3");

    dir.write("merges.txt", "#version: 0.2\na b\nb a\n");  // "ba" is not in the vocabulary
    auto unknownJoin = loadTokenizerFromFolder(dir.path);
    REQUIRE_FALSE(unknownJoin.ok());
    CHECK(unknownJoin.error().text().find("merges.txt") != std::string::npos);
    CHECK(unknownJoin.error().text().find("\"ba\"") != std::string::npos);

    dir.write("tokenizer_config.json", R"({"do_lower_case": "yes"})");
    dir.write("vocab.txt", "[UNK]\na\n");
    auto badConfig = loadTokenizerFromFolder(dir.path);
    REQUIRE_FALSE(badConfig.ok());
    CHECK(badConfig.error().where == (dir.path / "tokenizer_config.json").string() + ": do_lower_case");
}

TEST_CASE("GPT-2 pre-tokenization follows the pattern's alternatives", "[tokenizer-real]") {
    PreTokenizerStep byteLevel;
    byteLevel.kind = PreTokenizerStep::Kind::ByteLevel;
    const auto chunks = [&](const std::string& text) {
        std::vector<std::string> out;
        const auto pieces = preTokenize({byteLevel}, TextPiece{text, true});
        for (const TextPiece& piece : pieces.value()) out.push_back(byteLevelToBytes(piece.text));
        return out;
    };
    using Chunks = std::vector<std::string>;
    CHECK(chunks("Hello world") == Chunks{"Hello", " world"});
    CHECK(chunks("  two  spaces  ") == Chunks{" ", " two", " ", " spaces", "  "});
    CHECK(chunks("didn't") == Chunks{"didn", "'t"});
    CHECK(chunks("a\n\nb") == Chunks{"a", "\n", "\n", "b"});
    CHECK(chunks("x 3.14!") == Chunks{"x", " 3", ".", "14", "!"});
    CHECK(chunks("").empty());
    CHECK(preTokenize({byteLevel}, TextPiece{"a b", true}).value()[1].text == "Ġb");
}
