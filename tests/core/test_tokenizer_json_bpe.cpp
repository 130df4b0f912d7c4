// tokenizer.json's BPE pipeline (issue 27): the regex engine, normalizers, pre-tokenizers, the
// BPE model's options, added tokens, wrapping, and reading byte pieces as text. Expected values
// are derived by hand in the comments; the genuine Qwen3 / Llama 3 / Llama 2 / Gemma 3 files are
// compared with transformers.js by tokenizers.vs_transformers_js (tests/tokenizers/) and with
// Hugging Face's own ids (llama.cpp's vectors) in test_tokenizer_vectors.cpp.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "core/source/model_tokenizer.hpp"
#include "core/tokenizers/added_tokens.hpp"
#include "core/tokenizers/load.hpp"
#include "core/tokenizers/regex.hpp"
#include "core/tokenizers/text_pipeline.hpp"
#include "core/tokenizers/token_reading.hpp"
#include "core/tokenizers/tokenizer_json.hpp"

namespace fs = std::filesystem;
using namespace attnscope;
using Ids = std::vector<int>;
using Texts = std::vector<std::string>;

namespace {

Texts texts(const Result<std::vector<TextPiece>>& pieces) {
    INFO((pieces ? std::string() : pieces.error().text()));
    REQUIRE(pieces.ok());
    Texts out;
    for (const TextPiece& p : pieces.value()) out.push_back(p.text);
    return out;
}

PreTokenizerStep literalSplit(const std::string& literal, SplitBehavior behavior, bool invert = false) {
    PreTokenizerStep step;
    step.kind = PreTokenizerStep::Kind::Split;
    step.pattern.literal = literal;
    step.behavior = behavior;
    step.invert = invert;
    return step;
}

Ids idsOf(const Tokenizer& t, std::string_view text) {
    auto tokens = t.encode(text);
    INFO((tokens ? std::string() : tokens.error().text()));
    REQUIRE(tokens.ok());
    Ids ids;
    for (const Token& token : tokens.value()) ids.push_back(token.id);
    return ids;
}

std::unique_ptr<Tokenizer> parsed(const std::string& json) {
    auto result = parseTokenizerJson(json, "tokenizer.json");
    INFO((result ? std::string() : result.error().text()));
    REQUIRE(result.ok());
    return std::move(result).value();
}

// A SentencePiece-style vocabulary: <unk> <s> </s>, the 256 byte pieces <0x00>… (ids 3…258),
// then "▁" 259, "h" 260, "i" 261, "hi" 262, "▁hi" 263.
std::string sentencePieceVocab(bool withBytes) {
    std::string vocab = R"("<unk>": 0, "<s>": 1, "</s>": 2, )";
    char name[16];
    for (int b = 0; withBytes && b < 256; ++b) {
        std::snprintf(name, sizeof name, "\"<0x%02X>\": %d, ", b, 3 + b);
        vocab += name;
    }
    return vocab + R"("▁": 259, "h": 260, "i": 261, "hi": 262, "▁hi": 263)";
}

std::string sentencePieceJson(bool byteFallback, bool withBytes = true, const std::string& added = "[]") {
    return R"({"added_tokens": )" + added + R"(,
      "normalizer": {"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": "▁"},
                     {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]},
      "pre_tokenizer": null,
      "post_processor": {"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}},
                         {"Sequence": {"id": "A", "type_id": 0}}],
                         "special_tokens": {"<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}}},
      "model": {"type": "BPE", "unk_token": "<unk>", "fuse_unk": true, "byte_fallback": )" +
           std::string(byteFallback ? "true" : "false") + R"(, "vocab": {)" + sentencePieceVocab(withBytes) +
           R"(}, "merges": [["h", "i"], ["▁", "hi"]]}})";
}

}  // namespace

TEST_CASE("Split behaviors cut \"a-b--c\" as Hugging Face's documentation shows", "[tokenizer-json]") {
    const TextPiece text{"a-b--c", true};
    CHECK(texts(preTokenize({literalSplit("-", SplitBehavior::Removed)}, text)) == Texts{"a", "b", "c"});
    CHECK(texts(preTokenize({literalSplit("-", SplitBehavior::Isolated)}, text)) == Texts{"a", "-", "b", "-", "-", "c"});
    CHECK(texts(preTokenize({literalSplit("-", SplitBehavior::MergedWithPrevious)}, text)) == Texts{"a-", "b-", "-", "c"});
    CHECK(texts(preTokenize({literalSplit("-", SplitBehavior::MergedWithNext)}, text)) == Texts{"a", "-b", "-", "-c"});
    CHECK(texts(preTokenize({literalSplit("-", SplitBehavior::Contiguous)}, text)) == Texts{"a", "-", "b", "--", "c"});
    // invert: the pattern names what is kept; Removed then keeps only the matches.
    CHECK(texts(preTokenize({literalSplit("-", SplitBehavior::Removed, true)}, text)) == Texts{"-", "-", "-"});
}

TEST_CASE("Qwen's Split pattern through Oniguruma", "[tokenizer-json]") {
    PreTokenizerStep split;
    split.kind = PreTokenizerStep::Kind::Split;
    split.pattern.regex = TokenizerRegex::compile(
        R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)", "test").value();
    // "," is no letter, so it is its own piece; " 世界" is an optional non-letter then letters; the
    // space before "1" is alone (\s+(?!\S) cannot end before a non-space); digits one by one;
    // (?i:…) takes "'T" as it takes "'t".
    CHECK(texts(preTokenize({split}, TextPiece{"Hello, 世界! 123 don't DON'T", true})) ==
          Texts{"Hello", ",", " 世界", "!", " ", "1", "2", "3", " don", "'t", " DON", "'T"});
}

TEST_CASE("a regex that does not compile, and one that backtracks catastrophically, are errors", "[tokenizer-json]") {
    auto bad = TokenizerRegex::compile("(unclosed", "tokenizer.json: pre_tokenizer.pattern.Regex");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().where == "tokenizer.json: pre_tokenizer.pattern.Regex");
    CHECK(bad.error().message.find("(unclosed") != std::string::npos);

    auto nested = TokenizerRegex::compile("(a|a)+$", "pattern").value();
    const std::string text = std::string(40, 'a') + "!";
    auto found = nested.findAll(text);
    REQUIRE_FALSE(found.ok());  // 2^40 ways to fail: refused at the retry limit, not run to the end
    CHECK(found.error().message.find("backtracks") != std::string::npos);
}

TEST_CASE("normalizers: NFC composes, Prepend and Replace spell SentencePiece's spaces", "[tokenizer-json]") {
    using Kind = NormalizerStep::Kind;
    CHECK(normalizeText({{Kind::Nfc, {}, {}}}, "e\xCC\x81").value() == "\xC3\xA9");  // e + U+0301 → é
    CHECK(normalizeText({{Kind::Nfkc, {}, {}}}, "①").value() == "1");
    NormalizerStep replace{Kind::Replace, {}, "▁"};
    replace.pattern.literal = " ";
    CHECK(normalizeText({{Kind::Prepend, {}, "▁"}, replace}, "a b").value() == "▁a▁b");
    CHECK(normalizeText({{Kind::Prepend, {}, "▁"}}, "").value().empty());  // nothing to prepend to
}

TEST_CASE("Metaspace, Digits and Punctuation pre-tokenizers", "[tokenizer-json]") {
    PreTokenizerStep meta;
    meta.kind = PreTokenizerStep::Kind::Metaspace;
    CHECK(texts(preTokenize({meta}, TextPiece{"Hello world", true})) == Texts{"▁Hello", "▁world"});
    meta.prependScheme = PrependScheme::First;
    CHECK(texts(preTokenize({meta}, TextPiece{"a b", false})) == Texts{"a", "▁b"});  // not the input's start
    CHECK(texts(preTokenize({meta}, TextPiece{"a b", true})) == Texts{"▁a", "▁b"});
    meta.split = false;
    CHECK(texts(preTokenize({meta}, TextPiece{"a b", true})) == Texts{"▁a▁b"});

    PreTokenizerStep digits;
    digits.kind = PreTokenizerStep::Kind::Digits;
    CHECK(texts(preTokenize({digits}, TextPiece{"ab123c", true})) == Texts{"ab", "123", "c"});
    digits.individualDigits = true;
    CHECK(texts(preTokenize({digits}, TextPiece{"ab123c", true})) == Texts{"ab", "1", "2", "3", "c"});

    PreTokenizerStep punctuation;
    punctuation.kind = PreTokenizerStep::Kind::Punctuation;
    CHECK(texts(preTokenize({punctuation}, TextPiece{"hi!?，", true})) == Texts{"hi", "!", "?", "，"});
}

TEST_CASE("SentencePiece-style BPE: byte_fallback, fuse_unk and the BOS template", "[tokenizer-json]") {
    const auto withBytes = parsed(sentencePieceJson(true));
    // "hi hi" → "▁hi▁hi": "h i" (rank 0) twice, then "▁ hi" twice.
    CHECK(idsOf(*withBytes, "hi hi") == Ids{263, 263});
    CHECK(withBytes->wrap(Ids{263, 263}) == Ids{1, 263, 263});
    // "é" is not in the vocabulary: its bytes C3 A9 → <0xC3> = 3 + 0xC3 = 198, <0xA9> = 172.
    CHECK(idsOf(*withBytes, "hé") == Ids{259, 260, 198, 172});

    const auto noBytes = parsed(sentencePieceJson(false));
    CHECK(idsOf(*noBytes, "héé") == Ids{259, 260, 0});  // two unknown characters, one fused <unk>

    auto missing = parseTokenizerJson(sentencePieceJson(true, false), "tokenizer.json");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().message.find("<0x00>") != std::string::npos);
}

TEST_CASE("ignore_merges takes a piece the vocabulary has whole (Llama 3)", "[tokenizer-json]") {
    const std::string json = R"({"pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false},
      "model": {"type": "BPE", "ignore_merges": IGNORE, "vocab": {"a": 0, "b": 1, "ab": 2, "abab": 3}, "merges": ["a b"]}})";
    const auto replaced = [&](const char* value) { return std::string(json).replace(json.find("IGNORE"), 6, value); };
    CHECK(idsOf(*parsed(replaced("true")), "abab") == Ids{3});
    CHECK(idsOf(*parsed(replaced("false")), "abab") == Ids{2, 2});  // no merge "ab ab"
}

TEST_CASE("added tokens: leftmost, longest, lstrip/rstrip, special or not, conflicts refused", "[tokenizer-json]") {
    AddedTokenMatcher matcher;
    matcher.add({"<a>", 1, true});
    matcher.add({"<ab>", 2, true});
    AddedToken stripped{"<m>", 3, false, true, true};
    matcher.add(stripped);
    const auto found = matcher.find("x<ab>y", 0);
    REQUIRE(found);
    CHECK(found->token->id == 2);
    CHECK((found->begin == 1 && found->end == 5));
    const auto strip = matcher.find("x  <m>\t y", 0);
    REQUIRE(strip);
    CHECK((strip->begin == 1 && strip->end == 8));  // both spaces before, the tab and space after

    const auto t = parsed(sentencePieceJson(true, true, R"([{"id": 1, "content": "<s>", "special": true},
                                                         {"id": 262, "content": "hi", "special": false}])"));
    auto tokens = t->encode("<s>hi").value();
    REQUIRE(tokens.size() == 2);
    CHECK((tokens[0].id == 1 && tokens[0].special));
    CHECK((tokens[1].id == 262 && !tokens[1].special));  // split off before "▁" is prepended

    auto conflict = parseTokenizerJson(sentencePieceJson(true, true, R"([{"id": 1, "content": "<s>"}, {"id": 2, "content": "<s>"}])"),
                                       "tokenizer.json");
    REQUIRE_FALSE(conflict.ok());
    CHECK(conflict.error().where == "tokenizer.json: added_tokens[1]");
}

TEST_CASE("a merge naming a piece not in the vocabulary is refused, naming it", "[tokenizer-json]") {
    std::string json = sentencePieceJson(true);
    json.replace(json.find(R"(["h", "i"])"), 10, R"(["h", "z"])");
    auto result = parseTokenizerJson(json, "tokenizer.json");
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().text().find("merge 1") != std::string::npos);
    CHECK(result.error().text().find("\"z\"") != std::string::npos);
}

TEST_CASE("tokenizer_config.json's add_bos_token / add_eos_token decide the wrapping", "[tokenizer-json]") {
    const fs::path dir = fs::temp_directory_path() / "attnscope-tok-bos";
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / "tokenizer.json") << sentencePieceJson(true);
    std::ofstream(dir / "tokenizer_config.json") << R"({"bos_token": "<s>", "eos_token": "</s>", "add_bos_token": false, "add_eos_token": true})";
    auto loaded = loadTokenizerFromFolder(dir);
    REQUIRE(loaded.ok());
    CHECK(loaded.value()->wrap(Ids{263}) == Ids{263, 2});
    std::ofstream(dir / "tokenizer_config.json") << R"({"bos_token": "<s>"})";  // silent: the template decides
    CHECK(loadTokenizerFromFolder(dir).value()->wrap(Ids{263}) == Ids{1, 263});
    fs::remove_all(dir);
}

TEST_CASE("byte pieces read as text: a character once, on the token that completes it", "[tokenizer-json]") {
    // 你 is E4 BD A0: the first token holds its lead byte, the second completes it and starts 好
    // (E5 A5 BD), which the third completes.
    const auto r = readTokens({{"\xE4", false}, {"\xBD\xA0\xE5", false}, {"\xA5\xBD", false}});
    REQUIRE(r.size() == 3);
    CHECK(readingLabel(r[0]) == kPartMark);
    CHECK(r[0].completedAhead == 1);
    CHECK(readingLabel(r[1]) == std::string("你") + kPartMark);
    CHECK(r[1].completedAhead == 1);
    CHECK(readingLabel(r[2]) == "好");
    CHECK_FALSE((r[0].invalid || r[1].invalid || r[2].invalid));

    // A lone continuation byte is no character: U+FFFD, flagged. Leading bytes before a special
    // token are a part of a character that is not there. Spaces and newlines stay visible.
    const auto odd = readTokens({{"\xA0", false}, {"\xE4\xBD", false}, {"<s>", true}, {" a\n", false}});
    CHECK((odd[0].text == "\xEF\xBF\xBD" && odd[0].invalid));
    CHECK((odd[1].text == kPartMark && odd[1].invalid));
    CHECK(odd[2].text == "<s>");
    CHECK(odd[3].text == "␣a↵");
}

TEST_CASE("ModelTokenizer keeps the piece and reads byte-fallback pieces as characters", "[tokenizer-json]") {
    const fs::path dir = fs::temp_directory_path() / "attnscope-tok-reading";
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / "tokenizer.json") << sentencePieceJson(true);
    auto model = ModelTokenizer::load(dir);
    REQUIRE(model.ok());
    auto tokens = model.value().encode("hé").value();  // ▁ h <0xC3> <0xA9>
    REQUIRE(tokens.size() == 4);
    CHECK(tokens[0].text == "␣");
    CHECK(tokens[2].piece == "<0xC3>");
    CHECK((tokens[2].text == kPartMark && tokens[2].completedAhead == 1));
    CHECK(tokens[3].text == "é");
    const auto wrapped = model.value().wrap(tokens);
    REQUIRE(wrapped.size() == 5);
    CHECK((wrapped[0].text == "<s>" && wrapped[0].special));
    CHECK(wrapped[4].text == "é");
    fs::remove_all(dir);
}
