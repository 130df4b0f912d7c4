// config.json parsing. Format: see hf_config.hpp (HF PretrainedConfig JSON; BERT and GPT-2 key
// spellings). Every error names the file and the field, with what was expected and found.
#include "core/model/hf_config.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/json_text.hpp"
#include "core/text_file.hpp"

namespace attnscope {

using Json = nlohmann::json;

namespace {

// A field failure; thrown and caught inside this file only, turned into an Error at the API.
struct FieldError {
    std::string field;
    std::string message;
};

// Sizes above this are not a real model's and would overflow later products.
constexpr std::int64_t kLargestSize = std::int64_t{1} << 30;

std::string describe(const Json& j) { return describeJson(j); }

struct Field {
    std::string key;             // the spelling found in the file
    const Json* value = nullptr;  // nullptr when absent or null
};

std::string spellings(const std::string& key, const std::string& alias) {
    return alias.empty() ? key : key + " (or " + alias + ")";
}

// Either spelling; both present with different values is ambiguous and refused.
Field lookup(const Json& config, const std::string& key, const std::string& alias = "") {
    const auto present = [&](const std::string& k) { return !k.empty() && config.contains(k) && !config.at(k).is_null(); };
    if (present(key) && present(alias) && config.at(key) != config.at(alias))
        throw FieldError{key, "disagrees with " + alias + ": " + config.at(key).dump() + " vs " + config.at(alias).dump()};
    if (present(key)) return {key, &config.at(key)};
    if (present(alias)) return {alias, &config.at(alias)};
    return {spellings(key, alias), nullptr};
}

const Json& require(const Json& config, const std::string& key, const std::string& alias = "") {
    const Field field = lookup(config, key, alias);
    if (!field.value) throw FieldError{spellings(key, alias), "is missing"};
    return *field.value;
}

std::int64_t readSize(const Field& field, std::int64_t smallest) {
    const Json& j = *field.value;
    if (!j.is_number_integer()) throw FieldError{field.key, "expected a whole number, found " + describe(j)};
    const auto v = j.get<std::int64_t>();
    if (j.is_number_unsigned() && j.get<std::uint64_t>() > static_cast<std::uint64_t>(kLargestSize))
        throw FieldError{field.key, "expected at most " + std::to_string(kLargestSize) + ", found " + j.dump()};
    if (v < smallest || v > kLargestSize)
        throw FieldError{field.key, "expected " + std::to_string(smallest) + " to " + std::to_string(kLargestSize) +
                                        ", found " + std::to_string(v)};
    return v;
}

std::int64_t requireSize(const Json& config, const std::string& key, const std::string& alias) {
    require(config, key, alias);
    return readSize(lookup(config, key, alias), 1);
}

std::string requireText(const Json& config, const std::string& key, const std::string& alias = "") {
    const Json& j = require(config, key, alias);
    if (!j.is_string()) throw FieldError{lookup(config, key, alias).key, "expected text, found " + describe(j)};
    return j.get<std::string>();
}

std::vector<std::string> readArchitectures(const Json& config) {
    const Field field = lookup(config, "architectures");
    if (!field.value) return {};
    if (!field.value->is_array()) throw FieldError{field.key, "expected a list of names, found " + describe(*field.value)};
    std::vector<std::string> names;
    for (std::size_t i = 0; i < field.value->size(); ++i) {
        const Json& name = (*field.value)[i];
        if (!name.is_string())
            throw FieldError{"architectures[" + std::to_string(i) + "]", "expected text, found " + describe(name)};
        names.push_back(name.get<std::string>());
    }
    return names;
}

double readLayerNormEps(const Json& config) {
    const Json& j = require(config, "layer_norm_eps", "layer_norm_epsilon");
    const std::string key = lookup(config, "layer_norm_eps", "layer_norm_epsilon").key;
    if (!j.is_number()) throw FieldError{key, "expected a small positive number, found " + describe(j)};
    const double eps = j.get<double>();
    if (!(eps > 0 && eps < 1)) throw FieldError{key, "expected a small positive number, found " + j.dump()};
    return eps;
}

HfConfig readConfig(const Json& config) {
    if (!config.is_object()) throw FieldError{"", "expected a JSON object, found " + describe(config)};
    HfConfig c;
    c.modelType = requireText(config, "model_type");
    c.architectures = readArchitectures(config);
    c.vocabSize = requireSize(config, "vocab_size", "");
    c.hiddenSize = requireSize(config, "hidden_size", "n_embd");
    c.numLayers = requireSize(config, "num_hidden_layers", "n_layer");
    c.numHeads = requireSize(config, "num_attention_heads", "n_head");
    if (c.hiddenSize % c.numHeads != 0)
        throw FieldError{lookup(config, "num_attention_heads", "n_head").key,
                         std::to_string(c.numHeads) + " heads do not divide the hidden size " + std::to_string(c.hiddenSize)};
    const Field inner = lookup(config, "intermediate_size", "n_inner");
    c.intermediateSize = inner.value ? readSize(inner, 1) : 4 * c.hiddenSize;
    c.maxPositions = requireSize(config, "max_position_embeddings", "n_positions");
    const Field typeVocab = lookup(config, "type_vocab_size");
    c.typeVocabSize = typeVocab.value ? readSize(typeVocab, 0) : 0;
    c.layerNormEps = readLayerNormEps(config);
    c.hiddenAct = requireText(config, "hidden_act", "activation_function");
    const Field pad = lookup(config, "pad_token_id");
    if (pad.value) c.padTokenId = readSize(pad, 0);
    return c;
}

}  // namespace

Result<HfConfig> parseHfConfig(std::string_view json, const std::string& file) {
    const Json config = Json::parse(json.begin(), json.end(), nullptr, false);
    if (config.is_discarded()) return Error{file, "is not valid JSON"};
    try {
        return readConfig(config);
    } catch (const FieldError& e) {
        return Error{e.field.empty() ? file : file + ": " + e.field, e.message};
    }
}

Result<HfConfig> loadHfConfig(const std::filesystem::path& path) {
    auto text = readTextFile(path);
    if (!text) return text.error();
    return parseHfConfig(text.value(), path.string());
}

}  // namespace attnscope
