// config.json parsing. Format: see hf_config.hpp (HF PretrainedConfig JSON; BERT and GPT-2 key
// spellings). Every error names the file and the field, with what was expected and found.
#include "core/model/hf_config.hpp"

#include <algorithm>

#include "core/io/json_reader.hpp"
#include "core/io/text_file.hpp"
#include "core/text/error_messages.hpp"

namespace attnscope {

namespace {

using Field = json::Field<json::Json>;
using json::fail;
using json::need;

// Sizes above this are not a real model's and would overflow later products.
constexpr std::int64_t kLargestSize = std::int64_t{1} << 30;

// Where a key is, naming its alias too: "config.json: hidden_size (or n_embd)".
ErrorText spellings(const Field& config, const std::string& key, const std::string& alias) {
    if (alias.empty()) return ErrorText::verbatim(config.whereOf(key));
    return errorText(ErrorId::OrAlias, config.whereOf(key), alias);
}

// Either spelling (absent or null when neither); both present with different values is ambiguous.
std::optional<Field> lookup(const Field& config, const std::string& key, const std::string& alias = "") {
    const auto first = need(config.optionalMember(key));
    const auto second = alias.empty() ? std::nullopt : need(config.optionalMember(alias));
    if (first && second && first->json() != second->json())
        fail(first->error(errorText(ErrorId::DisagreesWith, alias, first->json().dump(), second->json().dump())));
    return first ? first : second;
}

Field require(const Field& config, const std::string& key, const std::string& alias = "") {
    const auto field = lookup(config, key, alias);
    if (!field) fail(Error{spellings(config, key, alias), ErrorId::IsMissing});
    return *field;
}

std::int64_t readSize(const Field& field, std::int64_t smallest) { return need(field.integer(smallest, kLargestSize)); }

std::int64_t requireSize(const Field& config, const std::string& key, const std::string& alias) {
    return readSize(require(config, key, alias), 1);
}

std::string requireText(const Field& config, const std::string& key, const std::string& alias = "") {
    return need(require(config, key, alias).text());
}

std::optional<double> readPositive(const Field& config, const std::string& key) {
    const auto field = lookup(config, key);
    if (!field) return std::nullopt;
    const double value = need(field->number());
    if (!(value > 0)) fail(field->error(errorText(ErrorId::ExpectedFound, ErrorId::APositiveNumber, field->json().dump())));
    return value;
}

std::optional<bool> readFlag(const Field& config, const std::string& key) {
    const auto field = lookup(config, key);
    return field ? std::optional<bool>(need(field->boolean())) : std::nullopt;
}

std::optional<std::int64_t> readOptionalSize(const Field& config, const std::string& key, std::int64_t smallest) {
    const auto field = lookup(config, key);
    return field ? std::optional<std::int64_t>(readSize(*field, smallest)) : std::nullopt;
}

// num_key_value_heads (grouped-query attention) and head_dim.
void readAttentionShape(const Field& config, HfConfig& c) {
    if (const auto kv = lookup(config, "num_key_value_heads")) {
        c.numKvHeads = readSize(*kv, 1);
        if (c.numHeads % *c.numKvHeads != 0)
            fail(kv->error(errorText(ErrorId::KvHeadsDoNotDivide, *c.numKvHeads, c.numHeads)));
    }
    if (const auto dim = lookup(config, "head_dim")) {
        c.headDim = readSize(*dim, 1);
        if (*c.headDim % 2 != 0) fail(dim->expected(ErrorId::AnEvenHeadWidth));
    }
}

// rope_scaling: null, or {"rope_type" (or "type"): "default" | "linear" | "llama3", …}.
RopeScaling readRopeScaling(const Field& config) {
    const auto field = lookup(config, "rope_scaling");
    if (!field) return {};
    need(field->requireObject(ErrorId::AJsonObject));
    const std::string type = requireText(*field, "rope_type", "type");
    RopeScaling s;
    if (type == "default") return s;
    const auto positive = [&](const std::string& key) {
        const Field value = require(*field, key);
        const double x = need(value.number());
        if (!(x > 0)) fail(value.error(errorText(ErrorId::ExpectedFound, ErrorId::APositiveNumber, value.json().dump())));
        return x;
    };
    if (type == "linear") {
        s.type = RopeScaling::Type::Linear;
        s.factor = positive("factor");
        return s;
    }
    if (type == "llama3") {
        s.type = RopeScaling::Type::Llama3;
        s.factor = positive("factor");
        s.lowFreqFactor = positive("low_freq_factor");
        s.highFreqFactor = positive("high_freq_factor");
        s.originalMaxPositions = positive("original_max_position_embeddings");
        if (!(s.highFreqFactor > s.lowFreqFactor))
            fail(field->error(errorText(ErrorId::ExpectedFound, errorText(ErrorId::Quoted, "high_freq_factor > low_freq_factor"),
                                        field->json().dump())));
        return s;
    }
    const auto named = lookup(*field, "rope_type", "type");
    fail(named->error(errorText(ErrorId::Unsupported, type)));
}

void readPositions(const Field& config, HfConfig& c) {
    c.ropeTheta = readPositive(config, "rope_theta");
    c.ropeLocalBaseFreq = readPositive(config, "rope_local_base_freq");
    c.ropeScaling = readRopeScaling(config);
    c.slidingWindow = readOptionalSize(config, "sliding_window", 1);
    c.useSlidingWindow = readFlag(config, "use_sliding_window");
    c.maxWindowLayers = readOptionalSize(config, "max_window_layers", 0);
    c.slidingWindowPattern = readOptionalSize(config, "sliding_window_pattern", 1);
    if (const auto types = lookup(config, "layer_types")) {
        for (const Field& type : need(types->elements(ErrorId::ANameList))) {
            const std::string name = need(type.text());
            if (name != "sliding_attention" && name != "full_attention") fail(type.error(errorText(ErrorId::Unsupported, name)));
            c.layerTypes.push_back(name);
        }
        if (static_cast<std::int64_t>(c.layerTypes.size()) != c.numLayers)
            fail(types->expected(errorText(ErrorId::AListOfLayerTypes, c.numLayers)));
    }
}

void readDecoderChoices(const Field& config, HfConfig& c) {
    c.tieWordEmbeddings = readFlag(config, "tie_word_embeddings");
    c.attentionBias = readFlag(config, "attention_bias");
    c.queryPreAttnScalar = readPositive(config, "query_pre_attn_scalar");
    c.finalLogitSoftcapping = readPositive(config, "final_logit_softcapping");
}

std::vector<std::string> readArchitectures(const Field& config) {
    const auto field = lookup(config, "architectures");
    if (!field) return {};
    std::vector<std::string> names;
    for (const Field& name : need(field->elements(ErrorId::ANameList))) names.push_back(need(name.text()));
    return names;
}

double readLayerNormEps(const Field& config) {
    const auto rms = lookup(config, "rms_norm_eps");  // the decoders' spelling
    const Field field = rms && !lookup(config, "layer_norm_eps", "layer_norm_epsilon")
                            ? *rms : require(config, "layer_norm_eps", "layer_norm_epsilon");
    if (!field.json().is_number()) fail(field.expected(ErrorId::ASmallPositiveNumber));
    const double eps = need(field.number());
    if (!(eps > 0 && eps < 1))
        fail(field.error(errorText(ErrorId::ExpectedFound, ErrorId::ASmallPositiveNumber, field.json().dump())));
    return eps;
}

std::string readModelType(const Field& config, const std::vector<std::string>& accepted) {
    const std::string type = requireText(config, "model_type");
    if (accepted.empty() || std::find(accepted.begin(), accepted.end(), type) != accepted.end()) return type;
    std::string list;  // "bert, distilbert" or "gpt2"
    for (std::size_t i = 0; i + 1 < accepted.size(); ++i) list += (i == 0 ? "" : ", ") + accepted[i];
    const ErrorText expected = accepted.size() == 1 ? ErrorText::verbatim(accepted[0])
                                                    : errorText(ErrorId::OrList, list, accepted.back());
    fail(Error{config.whereOf("model_type"), errorText(ErrorId::ExpectedFound, expected, errorText(ErrorId::Quoted, type))});
}

// DistilBERT spells its config differently from BERT; renamed to the keys readConfig reads.
void renameDistilBertKeys(json::Json& config) {
    if (!config.is_object() || config.value("model_type", json::Json()) != "distilbert") return;
    const std::pair<const char*, const char*> renames[] = {
        {"dim", "hidden_size"},         {"n_layers", "num_hidden_layers"},
        {"n_heads", "num_attention_heads"}, {"hidden_dim", "intermediate_size"},
        {"activation", "hidden_act"}};
    for (const auto& [from, to] : renames)
        if (config.contains(from) && !config.contains(to)) config[to] = config[from];
    if (!config.contains("layer_norm_eps")) config["layer_norm_eps"] = 1e-12;  // fixed in the model code
}

HfConfig readConfig(const Field& config, const std::vector<std::string>& modelTypes) {
    need(config.requireObject(ErrorId::AJsonObject));
    HfConfig c;
    c.modelType = readModelType(config, modelTypes);
    c.architectures = readArchitectures(config);
    c.vocabSize = requireSize(config, "vocab_size", "");
    c.hiddenSize = requireSize(config, "hidden_size", "n_embd");
    c.numLayers = requireSize(config, "num_hidden_layers", "n_layer");
    const Field heads = require(config, "num_attention_heads", "n_head");
    c.numHeads = readSize(heads, 1);
    readAttentionShape(config, c);
    if (!c.headDim && c.hiddenSize % c.numHeads != 0)
        fail(heads.error(errorText(ErrorId::HeadsDoNotDivide, c.numHeads, c.hiddenSize)));
    const auto inner = lookup(config, "intermediate_size", "n_inner");
    c.intermediateSize = inner ? readSize(*inner, 1) : 4 * c.hiddenSize;
    c.maxPositions = requireSize(config, "max_position_embeddings", "n_positions");
    const auto typeVocab = lookup(config, "type_vocab_size");
    c.typeVocabSize = typeVocab ? readSize(*typeVocab, 0) : 0;
    c.layerNormEps = readLayerNormEps(config);
    const auto gemma = lookup(config, "hidden_activation");  // Gemma's spelling
    c.hiddenAct = gemma && !lookup(config, "hidden_act", "activation_function")
                      ? need(gemma->text()) : requireText(config, "hidden_act", "activation_function");
    if (const auto pad = lookup(config, "pad_token_id")) c.padTokenId = readSize(*pad, 0);
    readPositions(config, c);
    readDecoderChoices(config, c);
    return c;
}

}  // namespace

Result<HfConfig> parseHfConfig(std::string_view text, const std::string& file, const std::vector<std::string>& modelTypes) {
    auto config = json::parse(text, file);
    if (!config) return config.error();
    renameDistilBertKeys(config.value());
    return json::catching([&]() -> Result<HfConfig> { return readConfig(Field(config.value(), file), modelTypes); });
}

Result<HfConfig> loadHfConfig(const std::filesystem::path& path) {
    auto text = readTextFile(path);
    if (!text) return text.error();
    return parseHfConfig(text.value(), path.string());
}

}  // namespace attnscope
