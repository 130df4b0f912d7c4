#include "core/tokenizers/load.hpp"

#include "core/io/json_reader.hpp"
#include "core/io/text_file.hpp"
#include "core/text/error_messages.hpp"
#include "core/tokenizers/byte_level_bpe.hpp"
#include "core/tokenizers/hf_bpe.hpp"
#include "core/tokenizers/tokenizer_json.hpp"
#include "core/tokenizers/wordpiece.hpp"

namespace attnscope {

namespace {

namespace fs = std::filesystem;
using json::Json;
using Field = json::Field<Json>;

// An optional JSON file (tokenizer_config.json, special_tokens_map.json): missing → an empty
// object; unreadable, malformed or not an object → Error.
Result<Json> optionalJsonFile(const fs::path& file) {
    std::error_code ec;
    if (!fs::exists(file, ec)) return Json::object();
    auto text = readTextFile(file);
    if (!text) return text.error();
    auto parsed = json::parse(text.value(), file.string());
    if (!parsed) return parsed.error();
    if (auto e = Field(parsed.value(), file.string()).requireObject(ErrorId::AJsonObject); !e.ok()) return e.error();
    return parsed;
}

// A special-token entry: absent or null → nullopt, "[CLS]" or {"content": "[CLS]", ...} → the text.
Result<std::optional<std::string>> tokenContent(const Field& object, const std::string& key) {
    auto entry = object.optionalMember(key);
    if (!entry) return entry.error();
    if (!entry.value()) return std::optional<std::string>{};
    const Field& e = *entry.value();
    if (e.json().is_string()) return std::optional<std::string>{e.json().get<std::string>()};
    if (!e.json().is_object()) return e.expected(ErrorId::ATokenTextOrContent);
    return e.optionalText("content");
}

Result<WordPieceOptions> wordPieceOptions(const Field& config) {
    WordPieceOptions options;
    auto lower = config.optionalBoolean("do_lower_case");
    auto strip = config.optionalBoolean("strip_accents");
    auto chinese = config.optionalBoolean("tokenize_chinese_chars");
    auto unk = tokenContent(config, "unk_token");
    for (const auto* r : {&lower, &strip, &chinese})
        if (!*r) return r->error();
    if (!unk) return unk.error();
    options.lowercase = lower.value().value_or(true);  // BertTokenizer's default
    options.stripAccents = strip.value();
    options.handleChineseChars = chinese.value().value_or(true);
    options.unkToken = unk.value().value_or(options.unkToken);
    return options;
}

Result<std::unique_ptr<Tokenizer>> loadWordPieceFolder(const fs::path& dir, const Field& config) {
    auto vocab = readWordPieceVocab(dir / "vocab.txt");
    auto options = wordPieceOptions(config);
    if (!vocab) return vocab.error();
    if (!options) return options.error();
    return std::unique_ptr<Tokenizer>(std::make_unique<WordPieceTokenizer>(std::move(vocab).value(), options.value()));
}

Result<std::unique_ptr<Tokenizer>> loadBpeFolder(const fs::path& dir, const Field& config) {
    auto vocab = readBpeVocabJson(dir / "vocab.json");
    if (!vocab) return vocab.error();
    auto merges = readBpeMerges(dir / "merges.txt");
    if (!merges) return merges.error();
    auto prefixSpace = config.optionalBoolean("add_prefix_space");
    if (!prefixSpace) return prefixSpace.error();
    // GPT-2's files mean what tokenizer.json says with a ByteLevel pre-tokenizer (its pattern).
    BpePipeline pipeline;
    PreTokenizerStep byteLevel;
    byteLevel.kind = PreTokenizerStep::Kind::ByteLevel;
    byteLevel.addPrefixSpace = prefixSpace.value().value_or(false);
    pipeline.preTokenizer.push_back(byteLevel);
    auto bpe = HfBpeTokenizer::create(std::move(vocab).value(), merges.value(), std::move(pipeline), (dir / "merges.txt").string());
    if (!bpe) return bpe.error();
    SpecialTokens special;
    special.bos = special.eos = special.unk = bpe.value()->idOf("<|endoftext|>");
    bpe.value()->setSpecialTokens(special);
    return std::unique_ptr<Tokenizer>(std::move(bpe).value());
}

// tokenizer_config.json's added_tokens_decoder: {"50256": {"content": "<|endoftext|>", "special": true}}.
Result<void> addDecoderSpecials(Tokenizer& tokenizer, const Field& config) {
    auto decoder = config.optionalMember("added_tokens_decoder");
    if (!decoder) return decoder.error();
    if (!decoder.value()) return {};
    auto entries = decoder.value()->members(ErrorId::AnObjectIdContentSpecial);
    if (!entries) return entries.error();
    for (const auto& [id, entry] : entries.value()) {
        if (auto e = entry.requireObject(ErrorId::ContentSpecialObject); !e.ok()) return e.error();
        auto content = entry.optionalText("content");
        auto special = entry.optionalBoolean("special");
        if (!content) return content.error();
        if (!special) return special.error();
        if (content.value() && special.value().value_or(false)) tokenizer.addSpecialPiece(*content.value());
    }
    return {};
}

// Fills the roles (cls_token, sep_token, …) named in a special_tokens_map.json or
// tokenizer_config.json object, for pieces the vocabulary has.
Result<void> applySpecialTokenRoles(Tokenizer& tokenizer, const Field& map) {
    SpecialTokens special = tokenizer.specialTokens();
    const std::pair<const char*, std::optional<int> SpecialTokens::*> roles[] = {
        {"cls_token", &SpecialTokens::cls}, {"sep_token", &SpecialTokens::sep}, {"mask_token", &SpecialTokens::mask},
        {"pad_token", &SpecialTokens::pad}, {"unk_token", &SpecialTokens::unk}, {"bos_token", &SpecialTokens::bos},
        {"eos_token", &SpecialTokens::eos}};
    for (const auto& [key, member] : roles) {
        auto content = tokenContent(map, key);
        if (!content) return content.error();
        if (!content.value()) continue;
        if (const auto id = tokenizer.idOf(*content.value())) special.*member = id;
    }
    tokenizer.setSpecialTokens(special);
    return {};
}

// BERT's vocab.txt folders: [CLS] … [SEP], as BertTokenizer builds its inputs.
void wrapWordPieceFolder(Tokenizer& tokenizer) {
    const SpecialTokens& s = tokenizer.specialTokens();
    if (s.cls && s.sep) tokenizer.setWrapping({{*s.cls}, {*s.sep}});
}

// tokenizer_config.json's add_bos_token / add_eos_token, where given, decide whether the BOS / EOS
// token wraps the text (as LlamaTokenizerFast and GemmaTokenizerFast rebuild their template).
Result<void> applyAddBosEos(Tokenizer& tokenizer, const Field& config) {
    auto addBos = config.optionalBoolean("add_bos_token");
    auto addEos = config.optionalBoolean("add_eos_token");
    if (!addBos) return addBos.error();
    if (!addEos) return addEos.error();
    Wrapping wrapping = tokenizer.wrapping();
    const auto apply = [](std::vector<int>& side, std::optional<bool> add, std::optional<int> id, bool front) {
        if (!add || !id) return;
        std::erase(side, *id);
        if (*add) side.insert(front ? side.begin() : side.end(), *id);
    };
    apply(wrapping.before, addBos.value(), tokenizer.specialTokens().bos, true);
    apply(wrapping.after, addEos.value(), tokenizer.specialTokens().eos, false);
    tokenizer.setWrapping(std::move(wrapping));
    return {};
}

Result<std::unique_ptr<Tokenizer>> loadModelFiles(const fs::path& dir, const Field& config) {
    std::error_code ec;
    if (fs::exists(dir / "tokenizer.json", ec)) return loadTokenizerJson(dir / "tokenizer.json");
    if (fs::exists(dir / "vocab.txt", ec)) return loadWordPieceFolder(dir, config);
    if (fs::exists(dir / "vocab.json", ec) || fs::exists(dir / "merges.txt", ec)) return loadBpeFolder(dir, config);
    return Error{dir.string(), ErrorId::NoTokenizerFiles};
}

}  // namespace

Result<std::unique_ptr<Tokenizer>> loadTokenizerFromFolder(const fs::path& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return Error{dir.string(), ErrorId::NoTokenizerFolder};
    const fs::path configFile = dir / "tokenizer_config.json", mapFile = dir / "special_tokens_map.json";
    auto configJson = optionalJsonFile(configFile);
    auto mapJson = optionalJsonFile(mapFile);
    if (!configJson) return configJson.error();
    if (!mapJson) return mapJson.error();
    const Field config(configJson.value(), configFile.string()), specialMap(mapJson.value(), mapFile.string());
    auto tokenizer = loadModelFiles(dir, config);
    if (!tokenizer) return tokenizer.error();
    if (auto e = addDecoderSpecials(*tokenizer.value(), config); !e.ok()) return e.error();
    if (auto e = applySpecialTokenRoles(*tokenizer.value(), config); !e.ok()) return e.error();
    if (auto e = applySpecialTokenRoles(*tokenizer.value(), specialMap); !e.ok()) return e.error();
    if (!fs::exists(dir / "tokenizer.json", ec) && tokenizer.value()->kind() == "WordPiece") wrapWordPieceFolder(*tokenizer.value());
    if (auto e = applyAddBosEos(*tokenizer.value(), config); !e.ok()) return e.error();
    return tokenizer;
}

}  // namespace attnscope
