#include "core/tokenizers/tokenizer_json.hpp"

#include "core/text_file.hpp"

#include <fstream>
#include <sstream>

#include "core/tokenizers/byte_level_bpe.hpp"
#include "core/tokenizers/json_support.hpp"
#include "core/tokenizers/wordpiece.hpp"

namespace attnscope {

// Vocabulary stores one string per id up to the largest id, so a tiny file with one huge id would
// allocate gigabytes (found by fuzz/tokenizer_fuzz). The largest published vocabularies have
// ~256K entries; 4M leaves room and bounds that table to ~130 MB.
constexpr long long kMaxTokenId = (1 << 22) - 1;

namespace {

using tokenizer_json::Json;
using tokenizer_json::optionalField;

// "file: model" at the top level, "file: model.vocab" below it.
std::string field(const std::string& parent, const std::string& name) {
    return parent.find(": ") == std::string::npos ? parent + ": " + name : parent + "." + name;
}

struct AddedToken {
    std::string content;
    int id;
    bool special;
};

std::string typeOf(const Json& object) {
    return object.is_object() && object.contains("type") && object["type"].is_string() ? object["type"].get<std::string>()
                                                                                        : std::string();
}

Error unsupported(const std::string& where, const std::string& expected, const Json& found) {
    return Error{where, "expected " + expected + ", found " + (found.is_null() ? "null" : found.dump())};
}

Result<Vocabulary> readVocab(const Json& model, const std::string& where) {
    if (!model.contains("vocab") || !model["vocab"].is_object())
        return Error{field(where, "vocab"), "expected an object {\"piece\": id, ...}"};
    Vocabulary vocab;
    for (const auto& [piece, id] : model["vocab"].items()) {
        if (!id.is_number_integer() || id.get<long long>() < 0 || id.get<long long>() > kMaxTokenId)
            return Error{field(where, "vocab[\"" + piece + "\"]"), "expected an integer id from 0 to " + std::to_string(kMaxTokenId) + ", found " + id.dump()};
        vocab.add(piece, id.get<int>());
    }
    return vocab;
}

Result<std::vector<AddedToken>> readAddedTokens(const Json& root, const std::string& where) {
    std::vector<AddedToken> added;
    if (!root.contains("added_tokens") || root["added_tokens"].is_null()) return added;
    const Json& list = root["added_tokens"];
    if (!list.is_array()) return unsupported(field(where, "added_tokens"), "an array", list);
    for (std::size_t i = 0; i < list.size(); ++i) {
        const Json& entry = list[i];
        const std::string at = field(where, "added_tokens[" + std::to_string(i) + "]");
        const bool valid = entry.is_object() && entry.contains("id") && entry["id"].is_number_integer() &&
                           entry["id"].get<long long>() >= 0 &&
                           entry["id"].get<long long>() <= kMaxTokenId && entry.contains("content") && entry["content"].is_string();
        if (!valid) return unsupported(at, "{\"id\": integer, \"content\": string, ...}", entry);
        const bool special = entry.contains("special") && entry["special"].is_boolean() && entry["special"].get<bool>();
        added.push_back({entry["content"].get<std::string>(), entry["id"].get<int>(), special});
    }
    return added;
}

Result<WordPieceOptions> wordPieceOptions(const Json& root, const Json& model, const std::string& where) {
    WordPieceOptions options;
    auto unk = optionalField<std::string>(model, "unk_token", field(where, "model"));
    auto prefix = optionalField<std::string>(model, "continuing_subword_prefix", field(where, "model"));
    auto maxChars = optionalField<int>(model, "max_input_chars_per_word", field(where, "model"));
    if (!unk) return unk.error();
    if (!prefix) return prefix.error();
    if (!maxChars) return maxChars.error();
    options.unkToken = unk.value().value_or(options.unkToken);
    options.continuingPrefix = prefix.value().value_or(options.continuingPrefix);
    options.maxInputCharsPerWord = maxChars.value().value_or(options.maxInputCharsPerWord);

    const Json normalizer = root.value("normalizer", Json());
    if (normalizer.is_null()) {
        options.lowercase = options.cleanText = options.handleChineseChars = false;
    } else if (typeOf(normalizer) == "BertNormalizer") {
        const std::string at = field(where, "normalizer");
        auto lower = optionalField<bool>(normalizer, "lowercase", at);
        auto strip = optionalField<bool>(normalizer, "strip_accents", at);
        auto chinese = optionalField<bool>(normalizer, "handle_chinese_chars", at);
        auto clean = optionalField<bool>(normalizer, "clean_text", at);
        for (const auto* r : {&lower, &strip, &chinese, &clean})
            if (!*r) return r->error();
        options.lowercase = lower.value().value_or(true);
        options.stripAccents = strip.value();
        options.handleChineseChars = chinese.value().value_or(true);
        options.cleanText = clean.value().value_or(true);
    } else {
        return unsupported(field(where, "normalizer.type"), "\"BertNormalizer\" or a null normalizer", normalizer.value("type", Json()));
    }
    const Json pre = root.value("pre_tokenizer", Json());
    if (typeOf(pre) != "BertPreTokenizer")
        return unsupported(field(where, "pre_tokenizer.type"), "\"BertPreTokenizer\" for a WordPiece model", pre.is_object() ? pre.value("type", Json()) : pre);
    return options;
}

Result<std::vector<BpeMerge>> readMerges(const Json& model, const std::string& where) {
    if (!model.contains("merges") || !model["merges"].is_array())
        return Error{field(where, "merges"), "expected an array of \"left right\" strings or [left, right] pairs"};
    std::vector<BpeMerge> merges;
    const Json& list = model["merges"];
    for (std::size_t i = 0; i < list.size(); ++i) {
        const Json& m = list[i];
        const std::string at = field(where, "merges[" + std::to_string(i) + "]");
        if (m.is_array() && m.size() == 2 && m[0].is_string() && m[1].is_string()) {
            merges.push_back({m[0].get<std::string>(), m[1].get<std::string>()});
            continue;
        }
        const std::string line = m.is_string() ? m.get<std::string>() : std::string();
        const std::size_t space = line.find(' ');
        if (space == std::string::npos || space == 0 || space + 1 >= line.size() || line.find(' ', space + 1) != std::string::npos)
            return unsupported(at, "\"left right\" or [\"left\", \"right\"]", m);
        merges.push_back({line.substr(0, space), line.substr(space + 1)});
    }
    return merges;
}

Result<ByteLevelOptions> byteLevelOptions(const Json& root, const Json& model, const std::string& where) {
    const Json normalizer = root.value("normalizer", Json());
    if (!normalizer.is_null()) return unsupported(field(where, "normalizer"), "null for a byte-level BPE model", normalizer);
    const Json pre = root.value("pre_tokenizer", Json());
    if (typeOf(pre) != "ByteLevel")
        return unsupported(field(where, "pre_tokenizer.type"), "\"ByteLevel\" for a BPE model", pre.is_object() ? pre.value("type", Json()) : pre);
    auto prefixSpace = optionalField<bool>(pre, "add_prefix_space", field(where, "pre_tokenizer"));
    auto useRegex = optionalField<bool>(pre, "use_regex", field(where, "pre_tokenizer"));
    if (!prefixSpace) return prefixSpace.error();
    if (!useRegex) return useRegex.error();
    if (!useRegex.value().value_or(true)) return Error{field(where, "pre_tokenizer.use_regex"), "expected true (GPT-2's pattern), found false"};
    for (const char* name : {"continuing_subword_prefix", "end_of_word_suffix"}) {
        auto affix = optionalField<std::string>(model, name, field(where, "model"));
        if (!affix) return affix.error();
        if (!affix.value().value_or("").empty())
            return Error{field(where, std::string("model.") + name), "expected null or \"\" for byte-level BPE, found \"" + *affix.value() + "\""};
    }
    return ByteLevelOptions{prefixSpace.value().value_or(false)};
}

Result<std::unique_ptr<Tokenizer>> buildModel(const Json& root, const Json& model, Vocabulary vocab, const std::string& where) {
    std::string type = typeOf(model);
    if (type.empty()) type = model.contains("merges") ? "BPE" : "WordPiece";  // old files omit model.type
    if (type == "WordPiece") {
        auto options = wordPieceOptions(root, model, where);
        if (!options) return options.error();
        return std::unique_ptr<Tokenizer>(std::make_unique<WordPieceTokenizer>(std::move(vocab), options.value()));
    }
    if (type == "BPE") {
        auto options = byteLevelOptions(root, model, where);
        auto merges = readMerges(model, field(where, "model"));
        if (!options) return options.error();
        if (!merges) return merges.error();
        auto bpe = ByteLevelBpeTokenizer::create(std::move(vocab), merges.value(), options.value(), field(where, "model.merges"));
        if (!bpe) return bpe.error();
        return std::unique_ptr<Tokenizer>(std::move(bpe).value());
    }
    return unsupported(field(where, "model.type"), "\"WordPiece\" or \"BPE\"", model["type"]);
}

}  // namespace

Result<std::unique_ptr<Tokenizer>> parseTokenizerJson(const std::string& text, const std::string& where) {
    auto parsed = tokenizer_json::parseJson(text, where);
    if (!parsed) return parsed.error();
    const Json& root = parsed.value();
    if (!root.is_object() || !root.contains("model") || !root["model"].is_object())
        return Error{field(where, "model"), "expected an object describing the tokenizer model"};
    const Json& model = root["model"];
    auto vocab = readVocab(model, field(where, "model"));
    auto added = readAddedTokens(root, where);
    if (!vocab) return vocab.error();
    if (!added) return added.error();
    for (const AddedToken& token : added.value())
        if (!vocab.value().idOf(token.content)) vocab.value().add(token.content, token.id);
    auto tokenizer = buildModel(root, model, std::move(vocab).value(), where);
    if (!tokenizer) return tokenizer.error();
    Tokenizer& built = *tokenizer.value();
    SpecialTokens special = built.specialTokens();
    for (const AddedToken& token : added.value()) {
        if (!token.special) continue;
        tokenizer_json::assignRoleByName(special, token.content, token.id);
        built.addSpecialPiece(token.content);
    }
    built.setSpecialTokens(special);
    return tokenizer;
}

Result<std::unique_ptr<Tokenizer>> loadTokenizerJson(const std::filesystem::path& file) {
    auto text = readTextFile(file, kMaxTokenizerFileBytes);
    if (!text) return Error{file.string(), text.error().message + " (expected a Hugging Face tokenizer.json)"};
    return parseTokenizerJson(text.value(), file.string());
}

}  // namespace attnscope
