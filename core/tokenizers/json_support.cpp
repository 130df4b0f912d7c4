#include "core/tokenizers/json_support.hpp"

#include "core/text_file.hpp"

namespace attnscope::tokenizer_json {

Result<Json> parseJson(const std::string& text, const std::string& where) {
    try {
        return Json::parse(text);
    } catch (const Json::exception& e) {
        return Error{where, std::string("expected JSON, found malformed text: ") + e.what()};
    }
}

Result<Json> readJsonFile(const std::filesystem::path& file) {
    auto text = readTextFile(file, kMaxTokenizerFileBytes);
    if (!text) return text.error();
    return parseJson(text.value(), file.string());
}

std::optional<std::string> tokenContent(const Json& value) {
    if (value.is_string()) return value.get<std::string>();
    if (value.is_object() && value.contains("content") && value["content"].is_string())
        return value["content"].get<std::string>();
    return std::nullopt;
}

void applySpecialTokenRoles(Tokenizer& tokenizer, const Json& map) {
    if (!map.is_object()) return;
    SpecialTokens special = tokenizer.specialTokens();
    const std::pair<const char*, std::optional<int> SpecialTokens::*> roles[] = {
        {"cls_token", &SpecialTokens::cls}, {"sep_token", &SpecialTokens::sep}, {"mask_token", &SpecialTokens::mask},
        {"pad_token", &SpecialTokens::pad}, {"unk_token", &SpecialTokens::unk}, {"bos_token", &SpecialTokens::bos},
        {"eos_token", &SpecialTokens::eos}};
    for (const auto& [key, member] : roles) {
        if (!map.contains(key)) continue;
        const auto content = tokenContent(map[key]);
        if (!content) continue;
        if (const auto id = tokenizer.idOf(*content)) special.*member = id;
    }
    tokenizer.setSpecialTokens(special);
}

void assignRoleByName(SpecialTokens& special, std::string_view piece, int id) {
    if (piece == "[CLS]") special.cls = id;
    else if (piece == "[SEP]") special.sep = id;
    else if (piece == "[MASK]" || piece == "<mask>") special.mask = id;
    else if (piece == "[PAD]" || piece == "<pad>") special.pad = id;
    else if (piece == "[UNK]" || piece == "<unk>") special.unk = id;
    else if (piece == "<s>") special.bos = special.cls = id;
    else if (piece == "</s>") special.eos = special.sep = id;
    else if (piece == "<|endoftext|>") special.bos = special.eos = special.unk = id;
}

namespace {

template <class T>
bool hasType(const Json& value) {
    if constexpr (std::is_same_v<T, bool>) return value.is_boolean();
    else if constexpr (std::is_same_v<T, int>) return value.is_number_integer();
    else return value.is_string();
}

template <class T>
const char* typeName() {
    if constexpr (std::is_same_v<T, bool>) return "true or false";
    else if constexpr (std::is_same_v<T, int>) return "an integer";
    else return "a string";
}

}  // namespace

template <class T>
Result<std::optional<T>> optionalField(const Json& object, const char* field, const std::string& where) {
    if (!object.is_object() || !object.contains(field) || object[field].is_null()) return std::optional<T>{};
    const Json& value = object[field];
    if (!hasType<T>(value))
        return Error{where + "." + field, std::string("expected ") + typeName<T>() + ", found " + value.dump()};
    return std::optional<T>{value.get<T>()};
}

template Result<std::optional<bool>> optionalField<bool>(const Json&, const char*, const std::string&);
template Result<std::optional<int>> optionalField<int>(const Json&, const char*, const std::string&);
template Result<std::optional<std::string>> optionalField<std::string>(const Json&, const char*, const std::string&);

}  // namespace attnscope::tokenizer_json
