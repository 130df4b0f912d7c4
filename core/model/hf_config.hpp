#pragma once
// A Hugging Face config.json reduced to the fields AttnScope's BERT and GPT-2 passes need.
// Format: a JSON object; BERT and GPT-2 spell several fields differently, both are accepted:
//   hidden_size | n_embd, num_hidden_layers | n_layer, num_attention_heads | n_head,
//   intermediate_size | n_inner, max_position_embeddings | n_positions,
//   layer_norm_eps | layer_norm_epsilon, hidden_act | activation_function.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/result.hpp"

namespace attnscope {

struct HfConfig {
    std::string modelType;                   // model_type, e.g. "bert", "gpt2"
    std::vector<std::string> architectures;  // e.g. ["BertForMaskedLM"]; may be empty
    std::int64_t vocabSize = 0;
    std::int64_t hiddenSize = 0;
    std::int64_t numLayers = 0;
    std::int64_t numHeads = 0;
    std::int64_t intermediateSize = 0;  // GPT-2's n_inner null or absent means 4 × hidden size
    std::int64_t maxPositions = 0;
    std::int64_t typeVocabSize = 0;  // 0 when absent (GPT-2 has no token types)
    double layerNormEps = 0;
    std::string hiddenAct;                 // e.g. "gelu", "gelu_new"
    std::optional<std::int64_t> padTokenId;  // absent or null: none
};

// `file` names the source in errors, e.g. "bert-base/config.json".
// modelTypes, when not empty, lists the accepted model_type values (checked before any other field).
// DistilBERT's spellings (dim, n_layers, …) are read as BERT's.
Result<HfConfig> parseHfConfig(std::string_view json, const std::string& file = "config.json",
                               const std::vector<std::string>& modelTypes = {});
Result<HfConfig> loadHfConfig(const std::filesystem::path& path);

}  // namespace attnscope
