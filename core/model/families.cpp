// The table of model families: one row each (see family.hpp). Adding a family is a row here plus
// whatever block it needs that blocks.hpp, attention.hpp or decoder.hpp does not have yet.
//
// Shape legend: d model width, H query heads, H_kv key/value heads, d_k head width, L layers.
#include <algorithm>

#include "core/model/bert.hpp"
#include "core/model/decoder.hpp"
#include "core/model/gpt2.hpp"
#include "core/model/hf_config.hpp"
#include "core/text/error_messages.hpp"

namespace attnscope {

namespace {

template <typename Weights>
Result<std::shared_ptr<const FamilyWeights>> shared(Result<Weights> bound) {
    if (!bound) return bound.error();
    return std::shared_ptr<const FamilyWeights>(std::make_shared<const Weights>(std::move(bound).value()));
}

FamilyBinder encoderBinder() {
    return [](const TensorStore& store, const TransformerConfig& c, const std::string& source) {
        return shared(bindEncoder(store, c, source));
    };
}

FamilyBinder decoderBinder(DecoderBlocks blocks) {
    return [blocks](const TensorStore& store, const TransformerConfig& c, const std::string& source) {
        return shared(bindDecoder(store, c, source, blocks));
    };
}

// ------------------------------------------------ the encoders and GPT-2

FamilyRow encoderRow(std::string name, std::string type, SizeFieldNames fields, std::string layerMarker,
                     decltype(FamilyRow::configure) configure) {
    FamilyRow row;
    row.name = std::move(name);
    row.modelTypes = {std::move(type)};
    row.reading = Reading::Bidirectional;
    row.fields = std::move(fields);
    row.layerMarker = std::move(layerMarker);
    row.wordsTable = "embeddings.word_embeddings.weight";
    row.positionsTable = "embeddings.position_embeddings.weight";
    row.configure = std::move(configure);
    row.bind = encoderBinder();
    row.knownUnused = isKnownUnusedEncoderTensor;
    return row;
}

Result<void> withTokenTypes(const HfConfig& hf, const std::string&, TransformerConfig& c) {
    c.typeVocabSize = static_cast<int>(std::max<std::int64_t>(hf.typeVocabSize, 1));
    return {};
}

// RoBERTa numbers positions from padding_idx + 1 (create_position_ids_from_input_ids).
Result<void> robertaPositions(const HfConfig& hf, const std::string& file, TransformerConfig& c) {
    c.positionOffset = static_cast<int>(hf.padTokenId.value_or(1)) + 1;
    return withTokenTypes(hf, file, c);
}

const FamilyRow kBert = encoderRow("BERT", "bert", {"num_hidden_layers", "hidden_size", "max_position_embeddings"},
                                   "encoder.layer.", withTokenTypes);
const FamilyRow kRoberta = encoderRow("RoBERTa", "roberta",
                                      {"num_hidden_layers", "hidden_size", "max_position_embeddings"},
                                      "encoder.layer.", robertaPositions);
const FamilyRow kDistilBert = encoderRow("DistilBERT", "distilbert", {"n_layers", "dim", "max_position_embeddings"},
                                         "transformer.layer.", {});

FamilyRow gpt2Row() {
    FamilyRow row;
    row.name = "GPT-2";
    row.modelTypes = {"gpt2"};
    row.reading = Reading::Causal;
    row.fields = {"n_layer", "n_embd", "n_positions"};
    row.layerMarker = "h.";
    row.wordsTable = "wte.weight";
    row.positionsTable = "wpe.weight";
    row.bind = [](const TensorStore& store, const TransformerConfig& c, const std::string& source) {
        return shared(bindGpt2(store, c, source));
    };
    row.knownUnused = [](const std::string& name, const TransformerConfig&) { return isKnownUnusedGpt2Tensor(name); };
    return row;
}
const FamilyRow kGpt2 = gpt2Row();

// ------------------------------------------------ the RoPE decoders

// What every RoPE decoder reads the same way: H_kv, d_k, θ, rope_scaling, tying, biases. The
// defaults are each family's configuration class's.
struct DecoderDefaults {
    double ropeTheta = 10000;
    bool tie = false;
};

Result<void> readDecoder(const HfConfig& hf, const std::string& file, TransformerConfig& c,
                         const DecoderDefaults& defaults) {
    c.kvHeads = static_cast<int>(hf.numKvHeads.value_or(hf.numHeads));
    c.headDim = static_cast<int>(hf.headDim.value_or(0));
    c.ropeTheta = hf.ropeTheta.value_or(defaults.ropeTheta);
    c.ropeScaling = hf.ropeScaling;
    c.tieWordEmbeddings = hf.tieWordEmbeddings.value_or(defaults.tie);
    c.attentionBias = hf.attentionBias.value_or(false);
    if (c.headWidth() % 2 != 0)
        return Error{file + ": head_dim", errorText(ErrorId::ExpectedFound, ErrorId::AnEvenHeadWidth, c.headWidth())};
    return {};
}

// Every layer slides from `from` on (Mistral: all; Qwen: max_window_layers on, when
// use_sliding_window) when the config sets a window.
void slideFrom(TransformerConfig& c, std::optional<std::int64_t> window, int from) {
    if (!window) return;
    c.slidingWindow = static_cast<int>(*window);
    c.slidingLayers.assign(static_cast<std::size_t>(c.layers), false);
    for (int n = std::max(from, 0); n < c.layers; ++n) c.slidingLayers[static_cast<std::size_t>(n)] = true;
}

Result<void> configureLlama(const HfConfig& hf, const std::string& file, TransformerConfig& c) {
    return readDecoder(hf, file, c, {});
}

Result<void> configureMistral(const HfConfig& hf, const std::string& file, TransformerConfig& c) {
    if (auto e = readDecoder(hf, file, c, {}); !e.ok()) return e;
    slideFrom(c, hf.slidingWindow, 0);
    return {};
}

Result<void> configureQwen(const HfConfig& hf, const std::string& file, TransformerConfig& c) {
    if (auto e = readDecoder(hf, file, c, {}); !e.ok()) return e;
    if (hf.useSlidingWindow.value_or(false)) slideFrom(c, hf.slidingWindow, static_cast<int>(hf.maxWindowLayers.value_or(0)));
    return {};
}

// Gemma 3: layer n is local (sliding, θ = rope_local_base_freq) unless layer_types says
// "full_attention" or, without layer_types, n + 1 is a multiple of sliding_window_pattern.
Result<void> configureGemma3(const HfConfig& hf, const std::string& file, TransformerConfig& c) {
    if (auto e = readDecoder(hf, file, c, {1000000.0, true}); !e.ok()) return e;
    if (!hf.headDim) c.headDim = 256;
    c.ropeLocalTheta = hf.ropeLocalBaseFreq.value_or(10000.0);
    c.queryPreAttnScalar = hf.queryPreAttnScalar.value_or(256.0);
    c.finalLogitSoftcap = hf.finalLogitSoftcapping.value_or(0.0);
    c.slidingWindow = static_cast<int>(hf.slidingWindow.value_or(4096));
    const std::int64_t pattern = hf.slidingWindowPattern.value_or(6);
    for (int n = 0; n < c.layers; ++n)
        c.slidingLayers.push_back(hf.layerTypes.empty() ? (n + 1) % pattern != 0
                                                        : hf.layerTypes[static_cast<std::size_t>(n)] == "sliding_attention");
    return {};
}

FamilyRow decoderRow(std::string name, std::vector<std::string> types, NormKind norm, DecoderBlocks blocks,
                     decltype(FamilyRow::configure) configure) {
    FamilyRow row;
    row.name = std::move(name);
    row.modelTypes = std::move(types);
    row.reading = Reading::Causal;
    row.norm = norm;
    row.mlp = MlpKind::Gated;
    row.position = PositionKind::Rotary;
    row.layerMarker = "layers.";
    row.wordsTable = "embed_tokens.weight";
    row.configure = std::move(configure);
    row.bind = decoderBinder(blocks);
    row.knownUnused = isKnownUnusedDecoderTensor;
    return row;
}

const FamilyRow kLlama = decoderRow("Llama", {"llama"}, NormKind::RmsNorm, {}, configureLlama);
const FamilyRow kMistral = decoderRow("Mistral", {"mistral"}, NormKind::RmsNorm, {}, configureMistral);
const FamilyRow kQwen2 = decoderRow("Qwen2", {"qwen2"}, NormKind::RmsNorm, {.qkvBias = true}, configureQwen);
const FamilyRow kQwen3 = decoderRow("Qwen3", {"qwen3"}, NormKind::RmsNorm, {.qkNorm = true}, configureQwen);
const FamilyRow kGemma3 = decoderRow("Gemma 3", {"gemma3_text"}, NormKind::RmsNormPlusOne,
                                     {.qkNorm = true, .sandwichNorms = true, .scaledEmbedding = true}, configureGemma3);

}  // namespace

const ModelFamily ModelFamily::Bert{&kBert};
const ModelFamily ModelFamily::Roberta{&kRoberta};
const ModelFamily ModelFamily::DistilBert{&kDistilBert};
const ModelFamily ModelFamily::Gpt2{&kGpt2};

const FamilyTable& builtInFamilies() {
    static const FamilyTable table{&kBert, &kRoberta, &kDistilBert, &kGpt2, &kLlama, &kMistral, &kQwen2, &kQwen3, &kGemma3};
    return table;
}

const FamilyRow* findFamily(const FamilyTable& table, const std::string& modelType) {
    for (const FamilyRow* row : table)
        if (std::find(row->modelTypes.begin(), row->modelTypes.end(), modelType) != row->modelTypes.end()) return row;
    return nullptr;
}

}  // namespace attnscope
