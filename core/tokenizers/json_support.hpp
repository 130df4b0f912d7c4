#pragma once
// Internal to core/tokenizers: JSON helpers shared by the tokenizer.json and folder loaders.
// Includes nlohmann, so only core .cpp files may include it (never a public header).
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/result.hpp"
#include "core/tokenizers/tokenizer.hpp"

namespace attnscope::tokenizer_json {

using Json = nlohmann::json;

Result<Json> readJsonFile(const std::filesystem::path& file);
Result<Json> parseJson(const std::string& text, const std::string& where);

// A special-token entry: "[CLS]" or {"content": "[CLS]", ...}.
std::optional<std::string> tokenContent(const Json& value);

// Fills the roles (cls_token, sep_token, …) named in a special_tokens_map.json or
// tokenizer_config.json object, for pieces the vocabulary has.
void applySpecialTokenRoles(Tokenizer& tokenizer, const Json& map);

// Guesses a role from the conventional names: [CLS], <|endoftext|>, <s>, </s>, <pad>, …
void assignRoleByName(SpecialTokens& special, std::string_view piece, int id);

// Reads an optional field of an expected type; the error names where.field.
template <class T>
Result<std::optional<T>> optionalField(const Json& object, const char* field, const std::string& where);

}  // namespace attnscope::tokenizer_json
