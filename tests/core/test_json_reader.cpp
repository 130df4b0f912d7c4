// The one JSON reader (core/io/json_reader) and every parser built on it: each malformed or
// wrong-typed input is an Error naming the file and the field path, never an escaping nlohmann
// exception (before: a tokenizer.json normalizer of the wrong type aborted the program).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/analysis/coref_eval.hpp"
#include "core/io/json_reader.hpp"
#include "core/lesson/lesson.hpp"
#include "core/model/hf_config.hpp"
#include "core/model/transformer.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/tokenizers/byte_level_bpe.hpp"
#include "core/tokenizers/load.hpp"
#include "core/tokenizers/tokenizer_json.hpp"

using namespace attnscope;
namespace fs = std::filesystem;

namespace {

template <class T>
std::string errorOf(const Result<T>& result) {
    REQUIRE_FALSE(result.ok());
    return result.error().text();
}

const std::string kLessonHead = R"("format": "attnscope-lesson", "version": 1, "d_model": 2)";

std::string lessonWith(const std::string& fields) { return "{" + kLessonHead + ", " + fields + "}"; }

// A tiny bert config.json with one field replaced (or added).
std::string bertConfigWith(const std::string& field) {
    return R"({"model_type": "bert", "vocab_size": 10, "hidden_size": 8, "num_hidden_layers": 1,
               "num_attention_heads": 2, "max_position_embeddings": 16, "layer_norm_eps": 1e-12,
               "hidden_act": "gelu", )" + field + "}";
}

std::string wordPieceWith(const std::string& model, const std::string& rest) {
    return R"({"model": {"type": "WordPiece", "vocab": {"[UNK]": 0, "a": 1})" + model + "}" + rest + "}";
}

const std::string kBertParts = R"(, "pre_tokenizer": {"type": "BertPreTokenizer"})";

}  // namespace

TEST_CASE("json::parse gives the line and column of a syntax error", "[json]") {
    const auto trailingComma = json::parse("{\n  \"a\": 1,\n  \"b\": [1, 2,]\n}", "f.json");
    CHECK(errorOf(trailingComma) ==
          "f.json: is not valid JSON: line 3, column 14: expected a value (an object, a list, text in double quotes, a number, true, false or null), found ']' "
          "(syntax error while parsing value - unexpected ']'; expected '[', '{', or a literal)");
    // The lead in the reader's language; nlohmann's English only as the technical note in brackets.
    CHECK(trailingComma.error().textIn(Language::Chinese) ==
          "f.json: 不是有效的 JSON：第 3 行，第 14 列：应为一个值（对象、列表、双引号中的文本、数字、true、false 或 null），"
          "实际为']'（syntax error while parsing value - unexpected ']'; expected '[', '{', or a literal）");
    CHECK(errorOf(json::parse("", "f.json")).rfind("f.json: is not valid JSON: line 1, column 1: ", 0) == 0);
    CHECK(json::lineAndColumn("ab\ncd", 4) == std::pair<std::size_t, std::size_t>{2, 2});
}

TEST_CASE("json::parse refuses a duplicated key, naming the key and its object", "[json]") {
    CHECK(errorOf(json::parse(R"({"a": 1, "a": 2})", "f.json")) ==
          "f.json: has the key \"a\" twice at the top level (each key may appear only once)");
    CHECK(errorOf(json::parse(R"({"layers": [{}, {"x": {"k": 1, "k": 1}}]})", "f.json")) ==
          "f.json: layers[1].x: has the key \"k\" twice (each key may appear only once)");
    CHECK(json::parse(R"({"a": {"k": 1}, "b": {"k": 1}, "c": [{"k": 1}, {"k": 2}]})", "f.json").ok());
}

TEST_CASE("json::parse refuses nesting deeper than kMaxDepth", "[json]") {
    const std::string deep = std::string(300, '[') + std::string(300, ']');
    CHECK(errorOf(json::parse(deep, "f.json")) == "f.json: is nested deeper than 256 levels of lists and objects");
    CHECK(json::parse(std::string(200, '[') + std::string(200, ']'), "f.json").ok());
}

TEST_CASE("json::Field names the path and reports numbers as written", "[json]") {
    auto doc = json::parse(R"({"a": {"b": [1, 18446744073709551615, "x", 2.5]}})", "f.json");
    REQUIRE(doc.ok());
    const json::Field<> root(doc.value(), "f.json");
    auto b = root.member("a").value().member("b").value().elements().value();
    CHECK(b[0].integer(0, 5).value() == 1);
    CHECK(errorOf(b[1].integer(1, 64)) == "f.json: a.b[1]: expected 1 to 64, found 18446744073709551615");
    CHECK(errorOf(b[2].integer(1, 64)) == "f.json: a.b[2]: expected a whole number from 1 to 64, found the text \"x\"");
    CHECK(errorOf(b[3].integer(1, 64)) == "f.json: a.b[3]: expected a whole number from 1 to 64, found the number 2.5");
    CHECK(errorOf(root.member("missing")) == "f.json: missing: is missing");
    CHECK(errorOf(b[0].member("x")) == "f.json: a.b[0]: expected an object, found the number 1");
    CHECK(errorOf(root.optionalBoolean("a")) == "f.json: a: expected true or false, found an object");
}

TEST_CASE("tokenizer.json fields of the wrong type are errors naming the field", "[json][tokenizer]") {
    // Each of these threw nlohmann::type_error out of parseTokenizerJson (std::terminate).
    CHECK(errorOf(parseTokenizerJson(wordPieceWith("", R"(, "normalizer": [1, 2, 3])" + kBertParts), "tokenizer.json")) ==
          "tokenizer.json: normalizer: expected an object or null, found a list of 3");
    CHECK(errorOf(parseTokenizerJson(wordPieceWith("", R"(, "normalizer": null, "pre_tokenizer": "Bert")"), "tokenizer.json")) ==
          "tokenizer.json: pre_tokenizer: expected an object or null, found the text \"Bert\"");
    CHECK(errorOf(parseTokenizerJson(R"({"model": {"type": 7, "vocab": {"a": 0}}})", "tokenizer.json")) ==
          "tokenizer.json: model.type: expected text, found the number 7");
    CHECK(errorOf(parseTokenizerJson(R"({"model": {"vocab": {"a": 0}}, "added_tokens": [{"id": 18446744073709551615, "content": "x"}]})",
                                     "tokenizer.json")) ==
          "tokenizer.json: added_tokens[0].id: expected 0 to 4194303, found 18446744073709551615");
    CHECK(errorOf(parseTokenizerJson(R"({"model": [1]})", "tokenizer.json")) ==
          "tokenizer.json: model: expected an object describing the tokenizer model, found a list of 1");
    CHECK(errorOf(parseTokenizerJson(
              R"({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}, "normalizer": null, "pre_tokenizer": {"type": "ByteLevel", "use_regex": "yes"}})",
              "tokenizer.json")) == "tokenizer.json: pre_tokenizer.use_regex: expected true or false, found the text \"yes\"");
}

TEST_CASE("max_input_chars_per_word below 1 and an empty vocabulary are refused", "[json][tokenizer]") {
    CHECK(errorOf(parseTokenizerJson(wordPieceWith(R"(, "max_input_chars_per_word": 0)", R"(, "normalizer": null)" + kBertParts),
                                     "tokenizer.json")) ==
          "tokenizer.json: model.max_input_chars_per_word: expected 1 to 1048576, found 0");
    CHECK(errorOf(parseTokenizerJson(R"({"model": {"type": "WordPiece", "vocab": {}}, "normalizer": null)" + kBertParts + "}",
                                     "tokenizer.json")) ==
          "tokenizer.json: model.vocab: expected at least one piece {\"piece\": id, ...}, found an empty vocabulary");
    CHECK(errorOf(parseVocabJsonText("{}", "vocab.json")) ==
          "vocab.json: expected at least one piece {\"piece\": id, ...}, found an empty vocabulary");
    CHECK(errorOf(parseVocabJsonText(R"({"a": 0, "a": 1})", "vocab.json")) ==
          "vocab.json: has the key \"a\" twice at the top level (each key may appear only once)");
}

TEST_CASE("tokenizer_config.json fields of the wrong type are errors naming the file and field", "[json][tokenizer]") {
    const fs::path dir = fs::temp_directory_path() / "attnscope-json-tokcfg";
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / "vocab.txt") << "[UNK]\n[CLS]\n[SEP]\na\n";
    std::ofstream(dir / "tokenizer_config.json") << R"({"unk_token": 5})";
    CHECK(errorOf(loadTokenizerFromFolder(dir)) == (dir / "tokenizer_config.json").string() +
                                                       ": unk_token: expected a token text or {\"content\": text, ...}, found the number 5");
    std::ofstream(dir / "tokenizer_config.json") << R"({"added_tokens_decoder": {"0": {"content": "[UNK]", "special": "yes"}}})";
    CHECK(errorOf(loadTokenizerFromFolder(dir)) == (dir / "tokenizer_config.json").string() +
                                                       ": added_tokens_decoder.0.special: expected true or false, found the text \"yes\"");
    std::ofstream(dir / "tokenizer_config.json") << R"({"unk_token": {"content": "[UNK]"}, "pad_token": null})";
    CHECK(loadTokenizerFromFolder(dir).ok());
    fs::remove_all(dir);
}

TEST_CASE("config.json fields of the wrong type or size name the field", "[json][config]") {
    // model_type as a list threw out of parseTransformerConfig; 2^64-1 was reported as -1 before.
    CHECK(errorOf(parseTransformerConfig(R"({"model_type": ["bert"]})", "config.json")) ==
          "config.json: model_type: expected text, found a list of 1");
    CHECK(errorOf(parseTransformerConfig(R"({"model_type": "t5"})", "config.json")) ==
          "config.json: model_type: expected bert, roberta, distilbert, gpt2, llama, mistral, qwen2, qwen3 or gemma3_text, found \"t5\"");
    CHECK(errorOf(parseHfConfig(bertConfigWith(R"("intermediate_size": 18446744073709551615)"))) ==
          "config.json: intermediate_size: expected 1 to 1073741824, found 18446744073709551615");
    CHECK(errorOf(parseHfConfig(bertConfigWith(R"("architectures": [1])"))) ==
          "config.json: architectures[0]: expected text, found the number 1");
    CHECK(errorOf(parseHfConfig(bertConfigWith(R"("vocab_size": 11)"))) ==
          "config.json: has the key \"vocab_size\" twice at the top level (each key may appear only once)");
    CHECK(errorOf(parseHfConfig("{\"model_type\": \"bert\",\n\"vocab_size\": 10\n\"hidden_size\": 8}")) ==
          "config.json: is not valid JSON: line 3, column 1: expected '}', found text in double quotes (syntax error "
          "while parsing object - unexpected string literal; expected '}')");
}

TEST_CASE("lesson fields: numbers as written, duplicates, UTF-8 and syntax positions", "[json][lesson]") {
    CHECK(errorOf(parseLesson(lessonWith(R"("heads": 18446744073709551615, "embeddings": {"x": [1, 0]})"), "l.json")) ==
          "l.json: heads: expected 1 to 64, found 18446744073709551615");
    CHECK(errorOf(parseLesson(lessonWith(R"("embeddings": {"cat": [1, 0], "cat": [0, 1]})"), "l.json")) ==
          "l.json: embeddings: has the key \"cat\" twice (each key may appear only once)");
    CHECK(errorOf(parseLesson(lessonWith("\"sentence\": \"caf\xc3\", \"embeddings\": {\"x\": [1, 0]}"), "l.json")) ==
          "l.json: is not valid JSON: line 1, column 72: found text in quotes that JSON does not allow (a missing "
          "closing quote, a bad escape, a raw control character or invalid UTF-8) here (syntax error while parsing "
          "value - invalid string: ill-formed UTF-8 byte; last read: '\"caf\\xC3\"')");
    CHECK(errorOf(parseLesson(lessonWith(R"("projections": false, "display": {"decimals": "2"}, "embeddings": {"x": [1, 0]})"), "l.json")) ==
          "l.json: display.decimals: expected a whole number from 0 to 12, found the text \"2\"");
}

TEST_CASE("a sentence of only separators is refused instead of giving empty matrices", "[json][lesson]") {
    auto lesson = parseLesson(lessonWith(R"("projections": false, "embeddings": {"x": [1, 0]})"), "l.json");
    REQUIRE(lesson.ok());
    CHECK(errorOf(runLesson(lesson.value(), " \t\n ")) == "sentence: the sentence has no tokens; type at least one word");
    CHECK(errorOf(runLesson(lesson.value(), "")) == "sentence: the sentence has no tokens; type at least one word");
    CHECK(runLesson(lesson.value(), " x ").ok());
}

TEST_CASE("coreference set lines: duplicates and syntax errors name the line and column", "[json][coref]") {
    const std::string line = R"({"sentence": "The cat sat because it was tired", "mention": "it", "antecedent": "cat")";
    CHECK(errorOf(parseCorefSet(line + R"(, "mention": "cat"})", "set.jsonl")) ==
          "set.jsonl: line 1: has the key \"mention\" twice at the top level (each key may appear only once)");
    CHECK(errorOf(parseCorefSet("# comment\n{\"sentence\": \"a\" \"mention\": \"b\"}", "set.jsonl")) ==
          "set.jsonl: line 2: expected a JSON object on one line, found text that is not valid JSON at column 18: "
          "expected '}', found text in double quotes (syntax error while parsing object - unexpected string literal; "
          "expected '}')");
}
