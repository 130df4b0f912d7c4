// Tokenizer-loader inputs that failed under fuzz/tokenizer_fuzz (see fuzz/README.md), kept as
// regression tests.
#include <catch2/catch.hpp>
#include <string>

#include "core/tokenizers/byte_level_bpe.hpp"
#include "core/tokenizers/tokenizer_json.hpp"

using namespace attnscope;

// A 16-byte vocab.json with one id near the old 100,000,000 cap made Vocabulary allocate one
// string per id: 3.2 GB (libFuzzer: out-of-memory, malloc(3200000000)). Ids are now capped at
// 4,194,303 and the error names the piece and the range.
TEST_CASE("fuzz regression: a huge id in vocab.json is an error, not a 3 GB allocation", "[tokenizer-real][fuzz]") {
    auto vocab = parseVocabJsonText(R"({"a": 99999999})", "vocab.json");
    REQUIRE_FALSE(vocab.ok());
    CHECK(vocab.error().text() == "vocab.json: a: expected 0 to 4194303, found 99999999");
    CHECK(parseVocabJsonText(R"({"a": 4194303})", "vocab.json").ok());  // the largest allowed id
}

TEST_CASE("fuzz regression: huge ids in tokenizer.json vocab and added_tokens are errors", "[tokenizer-real][fuzz]") {
    auto inVocab = parseTokenizerJson(R"({"model": {"type": "WordPiece", "vocab": {"a": 99999999}}})", "tokenizer.json");
    REQUIRE_FALSE(inVocab.ok());
    CHECK(inVocab.error().text().find("vocab") != std::string::npos);
    // An added token's id had no upper bound at all (2,000,000,000 → 64 GB of empty pieces).
    auto added = parseTokenizerJson(R"({"added_tokens": [{"id": 2000000000, "content": "[X]", "special": true}],
        "model": {"type": "WordPiece", "vocab": {"[UNK]": 0, "a": 1}}})", "tokenizer.json");
    REQUIRE_FALSE(added.ok());
    CHECK(added.error().text().find("added_tokens[0]") != std::string::npos);
}
