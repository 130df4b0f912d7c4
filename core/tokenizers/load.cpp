#include "core/tokenizers/load.hpp"

#include "core/tokenizers/byte_level_bpe.hpp"
#include "core/tokenizers/json_support.hpp"
#include "core/tokenizers/tokenizer_json.hpp"
#include "core/tokenizers/wordpiece.hpp"

namespace attnscope {

namespace {

namespace fs = std::filesystem;
using tokenizer_json::Json;
using tokenizer_json::optionalField;

// An optional JSON file: missing → an empty object; unreadable or malformed → Error.
Result<Json> optionalJsonFile(const fs::path& file) {
    std::error_code ec;
    if (!fs::exists(file, ec)) return Json::object();
    auto json = tokenizer_json::readJsonFile(file);
    if (json && !json.value().is_object())
        return Error{file.string(), std::string("expected a JSON object, found ") + json.value().type_name()};
    return json;
}

Result<WordPieceOptions> wordPieceOptions(const Json& config, const std::string& where) {
    WordPieceOptions options;
    auto lower = optionalField<bool>(config, "do_lower_case", where);
    auto strip = optionalField<bool>(config, "strip_accents", where);
    auto chinese = optionalField<bool>(config, "tokenize_chinese_chars", where);
    for (const auto* r : {&lower, &strip, &chinese})
        if (!*r) return r->error();
    options.lowercase = lower.value().value_or(true);  // BertTokenizer's default
    options.stripAccents = strip.value();
    options.handleChineseChars = chinese.value().value_or(true);
    if (config.contains("unk_token"))
        options.unkToken = tokenizer_json::tokenContent(config["unk_token"]).value_or(options.unkToken);
    return options;
}

Result<std::unique_ptr<Tokenizer>> loadWordPieceFolder(const fs::path& dir, const Json& config) {
    auto vocab = readWordPieceVocab(dir / "vocab.txt");
    auto options = wordPieceOptions(config, (dir / "tokenizer_config.json").string());
    if (!vocab) return vocab.error();
    if (!options) return options.error();
    return std::unique_ptr<Tokenizer>(std::make_unique<WordPieceTokenizer>(std::move(vocab).value(), options.value()));
}

Result<std::unique_ptr<Tokenizer>> loadBpeFolder(const fs::path& dir, const Json& config) {
    auto vocab = readBpeVocabJson(dir / "vocab.json");
    if (!vocab) return vocab.error();
    auto merges = readBpeMerges(dir / "merges.txt");
    if (!merges) return merges.error();
    auto prefixSpace = optionalField<bool>(config, "add_prefix_space", (dir / "tokenizer_config.json").string());
    if (!prefixSpace) return prefixSpace.error();
    auto bpe = ByteLevelBpeTokenizer::create(std::move(vocab).value(), merges.value(),
                                             ByteLevelOptions{prefixSpace.value().value_or(false)},
                                             (dir / "merges.txt").string());
    if (!bpe) return bpe.error();
    return std::unique_ptr<Tokenizer>(std::move(bpe).value());
}

// tokenizer_config.json's added_tokens_decoder: {"50256": {"content": "<|endoftext|>", "special": true}}.
void addDecoderSpecials(Tokenizer& tokenizer, const Json& config) {
    if (!config.contains("added_tokens_decoder") || !config["added_tokens_decoder"].is_object()) return;
    for (const auto& [id, entry] : config["added_tokens_decoder"].items()) {
        const auto content = tokenizer_json::tokenContent(entry);
        if (content && entry.value("special", false)) tokenizer.addSpecialPiece(*content);
    }
}

Result<std::unique_ptr<Tokenizer>> loadModelFiles(const fs::path& dir, const Json& config) {
    std::error_code ec;
    if (fs::exists(dir / "tokenizer.json", ec)) return loadTokenizerJson(dir / "tokenizer.json");
    if (fs::exists(dir / "vocab.txt", ec)) return loadWordPieceFolder(dir, config);
    if (fs::exists(dir / "vocab.json", ec) || fs::exists(dir / "merges.txt", ec)) return loadBpeFolder(dir, config);
    return Error{dir.string(), "expected tokenizer.json, vocab.txt, or vocab.json with merges.txt in the folder; found none"};
}

}  // namespace

Result<std::unique_ptr<Tokenizer>> loadTokenizerFromFolder(const fs::path& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return Error{dir.string(), "expected a folder with tokenizer files, found none"};
    auto config = optionalJsonFile(dir / "tokenizer_config.json");
    auto specialMap = optionalJsonFile(dir / "special_tokens_map.json");
    if (!config) return config.error();
    if (!specialMap) return specialMap.error();
    auto tokenizer = loadModelFiles(dir, config.value());
    if (!tokenizer) return tokenizer.error();
    addDecoderSpecials(*tokenizer.value(), config.value());
    tokenizer_json::applySpecialTokenRoles(*tokenizer.value(), config.value());
    tokenizer_json::applySpecialTokenRoles(*tokenizer.value(), specialMap.value());
    return tokenizer;
}

}  // namespace attnscope
