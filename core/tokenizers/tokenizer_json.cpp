#include "core/tokenizers/tokenizer_json.hpp"

#include "core/io/text_file.hpp"

#include "core/io/json_reader.hpp"
#include "core/text/error_messages.hpp"
#include "core/tokenizers/bpe_merges.hpp"
#include "core/tokenizers/tokenizer_json_bpe.hpp"
#include "core/tokenizers/vocab_json.hpp"
#include "core/tokenizers/wordpiece.hpp"

namespace attnscope {

namespace {

using json::Json;
using Field = json::Field<Json>;

// The "type" of a normalizer, pre_tokenizer or model: absent or null → "", anything but text → Error.
Result<std::string> typeOf(const Field& object) {
    auto type = object.optionalText("type");
    if (!type) return type.error();
    return type.value().value_or("");
}

// An object member, or null (absent or null); any other type is refused.
Result<std::optional<Field>> optionalObject(const Field& root, const std::string& key) {
    auto found = root.optionalMember(key);
    if (!found || !found.value()) return found;
    if (auto e = found.value()->requireObject(ErrorId::ObjectOrNull); !e.ok()) return e.error();
    return found;
}

Result<Vocabulary> readVocab(const Field& model) {
    auto vocabField = model.member("vocab");
    if (!vocabField) return vocabField.error();
    return readVocabObject(vocabField.value(), ErrorId::AnObjectPieceId);
}

Result<AddedToken> readAddedToken(const Field& entry) {
    return json::catching([&]() -> Result<AddedToken> {
        json::need(entry.requireObject(ErrorId::AddedTokenObject));
        AddedToken token;
        token.id = static_cast<int>(json::need(json::need(entry.member("id")).integer(0, kMaxTokenId)));
        token.content = json::need(json::need(entry.member("content")).text());
        token.special = json::need(entry.optionalBoolean("special")).value_or(false);
        token.lstrip = json::need(entry.optionalBoolean("lstrip")).value_or(false);
        token.rstrip = json::need(entry.optionalBoolean("rstrip")).value_or(false);
        if (json::need(entry.optionalBoolean("single_word")).value_or(false))
            json::fail(Error{entry.whereOf("single_word"), errorText(ErrorId::ExpectedFound, "false", "true")});
        return token;
    });
}

// The same content under two ids, or two contents under one id, would make the ids depend on
// which entry wins: refused, naming both.
Result<void> checkDuplicate(const std::vector<AddedToken>& added, const AddedToken& token, const Field& entry) {
    for (const AddedToken& other : added) {
        const bool sameContent = other.content == token.content, sameId = other.id == token.id;
        if (sameContent != sameId)
            return Error{entry.where(), errorText(ErrorId::DuplicateAddedToken, other.content, other.id, token.content, token.id)};
    }
    return {};
}

Result<std::vector<AddedToken>> readAddedTokens(const Field& root) {
    std::vector<AddedToken> added;
    auto list = root.optionalMember("added_tokens");
    if (!list) return list.error();
    if (!list.value()) return added;
    auto entries = list.value()->elements(ErrorId::AListOfAddedTokens);
    if (!entries) return entries.error();
    for (const Field& entry : entries.value()) {
        auto token = readAddedToken(entry);
        if (!token) return token.error();
        if (auto e = checkDuplicate(added, token.value(), entry); !e.ok()) return e.error();
        added.push_back(token.value());
    }
    return added;
}

// BertNormalizer's options; a null normalizer turns them off.
Result<void> readBertNormalizer(const Field& root, WordPieceOptions& options) {
    auto normalizer = optionalObject(root, "normalizer");
    if (!normalizer) return normalizer.error();
    if (!normalizer.value()) {
        options.lowercase = options.cleanText = options.handleChineseChars = false;
        return {};
    }
    const Field& n = *normalizer.value();
    auto type = typeOf(n);
    if (!type) return type.error();
    if (type.value() != "BertNormalizer")
        return Error{n.whereOf("type"), errorText(ErrorId::ExpectedFound, ErrorId::BertNormalizerOrNull, errorText(ErrorId::Quoted, type.value()))};
    auto lower = n.optionalBoolean("lowercase");
    auto strip = n.optionalBoolean("strip_accents");
    auto chinese = n.optionalBoolean("handle_chinese_chars");
    auto clean = n.optionalBoolean("clean_text");
    for (const auto* r : {&lower, &strip, &chinese, &clean})
        if (!*r) return r->error();
    options.lowercase = lower.value().value_or(true);
    options.stripAccents = strip.value();
    options.handleChineseChars = chinese.value().value_or(true);
    options.cleanText = clean.value().value_or(true);
    return {};
}

// The pre_tokenizer object, which must be of `expectedType`.
Result<Field> preTokenizer(const Field& root, const std::string& expectedType, const std::string& forModel) {
    auto pre = optionalObject(root, "pre_tokenizer");
    if (!pre) return pre.error();
    const ErrorText expected = errorText(ErrorId::PreTokenizerFor, expectedType, forModel);
    if (!pre.value()) return Error{root.whereOf("pre_tokenizer.type"), errorText(ErrorId::ExpectedFound, expected, ErrorId::JsonNull)};
    auto type = typeOf(*pre.value());
    if (!type) return type.error();
    if (type.value() != expectedType)
        return Error{pre.value()->whereOf("type"), errorText(ErrorId::ExpectedFound, expected, errorText(ErrorId::Quoted, type.value()))};
    return *pre.value();
}

Result<WordPieceOptions> wordPieceOptions(const Field& root, const Field& model) {
    WordPieceOptions options;
    auto unk = model.optionalText("unk_token");
    auto prefix = model.optionalText("continuing_subword_prefix");
    auto maxChars = model.optionalInteger("max_input_chars_per_word", 1, 1 << 20);
    if (!unk) return unk.error();
    if (!prefix) return prefix.error();
    if (!maxChars) return maxChars.error();
    options.unkToken = unk.value().value_or(options.unkToken);
    options.continuingPrefix = prefix.value().value_or(options.continuingPrefix);
    options.maxInputCharsPerWord = static_cast<int>(maxChars.value().value_or(options.maxInputCharsPerWord));
    if (auto e = readBertNormalizer(root, options); !e.ok()) return e.error();
    auto pre = preTokenizer(root, "BertPreTokenizer", "WordPiece");
    if (!pre) return pre.error();
    return options;
}

Result<BpeMerge> readMerge(const Field& m) {
    const Json& j = m.json();
    if (j.is_array() && j.size() == 2 && j[0].is_string() && j[1].is_string())
        return BpeMerge{j[0].get<std::string>(), j[1].get<std::string>()};
    const std::string line = j.is_string() ? j.get<std::string>() : std::string();
    const std::size_t space = line.find(' ');
    if (space == std::string::npos || space == 0 || space + 1 >= line.size() || line.find(' ', space + 1) != std::string::npos)
        return m.expected(ErrorId::MergeForm);
    return BpeMerge{line.substr(0, space), line.substr(space + 1)};
}

Result<std::vector<BpeMerge>> readMerges(const Field& model) {
    auto list = model.member("merges");
    if (!list) return list.error();
    auto entries = list.value().elements(ErrorId::AListOfMerges);
    if (!entries) return entries.error();
    std::vector<BpeMerge> merges;
    merges.reserve(entries.value().size());
    for (const Field& m : entries.value()) {
        auto merge = readMerge(m);
        if (!merge) return merge.error();
        merges.push_back(std::move(merge).value());
    }
    return merges;
}

Result<std::unique_ptr<Tokenizer>> buildModel(const Field& root, const Field& model, Vocabulary vocab) {
    auto typeResult = typeOf(model);
    if (!typeResult) return typeResult.error();
    std::string type = typeResult.value();
    if (type.empty()) type = model.has("merges") ? "BPE" : "WordPiece";  // old files omit model.type
    if (type == "WordPiece") {
        auto options = wordPieceOptions(root, model);
        if (!options) return options.error();
        return std::unique_ptr<Tokenizer>(std::make_unique<WordPieceTokenizer>(std::move(vocab), options.value()));
    }
    if (type == "BPE") {
        auto pipeline = readBpePipeline(root, model);
        if (!pipeline) return pipeline.error();
        auto merges = readMerges(model);
        if (!merges) return merges.error();
        auto bpe = HfBpeTokenizer::create(std::move(vocab), merges.value(), std::move(pipeline).value(), model.whereOf("merges"));
        if (!bpe) return bpe.error();
        return std::unique_ptr<Tokenizer>(std::move(bpe).value());
    }
    return Error{model.whereOf("type"), errorText(ErrorId::ExpectedFound, ErrorId::WordPieceOrBpe, errorText(ErrorId::Quoted, type))};
}

}  // namespace

Result<std::unique_ptr<Tokenizer>> parseTokenizerJson(const std::string& text, const std::string& where) {
    auto parsed = json::parse(text, where);
    if (!parsed) return parsed.error();
    const Field root(parsed.value(), where);
    if (auto e = root.requireObject(ErrorId::AJsonObjectWithModel); !e.ok()) return e.error();
    auto model = root.member("model");
    if (!model) return model.error();
    if (auto e = model.value().requireObject(ErrorId::AnObjectDescribingModel); !e.ok()) return e.error();
    auto vocab = readVocab(model.value());
    auto added = readAddedTokens(root);
    if (!vocab) return vocab.error();
    if (!added) return added.error();
    const bool emptyVocab = vocab.value().count() == 0;
    for (const AddedToken& token : added.value()) {
        const auto known = vocab.value().idOf(token.content);
        if (!known) vocab.value().add(token.content, token.id);
        else if (*known != token.id)  // the id would depend on which table the encoder asks
            return Error{root.whereOf("added_tokens"),
                         errorText(ErrorId::DuplicateAddedToken, token.content, *known, token.content, token.id)};
    }
    auto tokenizer = buildModel(root, model.value(), std::move(vocab).value());
    if (!tokenizer) return tokenizer.error();
    // Checked after the model's type and options, which say more about an unsupported file.
    if (emptyVocab)
        return Error{model.value().whereOf("vocab"), errorText(ErrorId::ExpectedFound, ErrorId::AtLeastOnePiece, ErrorId::AnEmptyVocabulary)};
    Tokenizer& built = *tokenizer.value();
    SpecialTokens special = built.specialTokens();
    for (const AddedToken& token : added.value()) {
        if (token.special) assignRoleByName(special, token.content, token.id);
        built.addAddedToken(token);
    }
    built.setSpecialTokens(special);
    auto wrapping = readWrapping(root, built);
    if (!wrapping) return wrapping.error();
    built.setWrapping(std::move(wrapping).value());
    return tokenizer;
}

Result<std::unique_ptr<Tokenizer>> loadTokenizerJson(const std::filesystem::path& file) {
    auto text = readTextFile(file, kMaxTokenizerFileBytes);
    if (!text)
        return Error{file.string(), errorText(ErrorId::WithNote, text.error().messageForm(), errorText(ErrorId::ExpectedWhat, ErrorId::AHfTokenizerJson))};
    return parseTokenizerJson(text.value(), file.string());
}

}  // namespace attnscope
