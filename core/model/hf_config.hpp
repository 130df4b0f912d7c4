#pragma once
// A Hugging Face config.json reduced to the fields AttnScope's BERT and GPT-2 passes need.
// Format: a JSON object; BERT and GPT-2 spell several fields differently, both are accepted:
//   hidden_size | n_embd, num_hidden_layers | n_layer, num_attention_heads | n_head,
//   intermediate_size | n_inner, max_position_embeddings | n_positions,
//   layer_norm_eps | layer_norm_epsilon | rms_norm_eps, hidden_act | activation_function |
//   hidden_activation. The decoders' own keys (num_key_value_heads, head_dim, rope_theta,
//   rope_scaling, sliding_window, …) are read when present and checked here.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/result.hpp"
#include "core/pipeline/rope.hpp"

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
    std::string hiddenAct;                 // e.g. "gelu", "gelu_new", "silu" (Gemma: hidden_activation)
    std::optional<std::int64_t> padTokenId;  // absent or null: none
    // The decoders' keys (absent or null: nullopt; each family chooses its default).
    std::optional<std::int64_t> numKvHeads;       // num_key_value_heads, divides num_attention_heads
    std::optional<std::int64_t> headDim;          // head_dim (then hidden_size need not be heads × head_dim)
    std::optional<double> ropeTheta;              // rope_theta > 0
    std::optional<double> ropeLocalBaseFreq;      // Gemma 3: rope_local_base_freq > 0
    RopeScaling ropeScaling;                      // rope_scaling: null, "default", "linear" or "llama3"
    std::optional<std::int64_t> slidingWindow;    // sliding_window ≥ 1
    std::optional<bool> useSlidingWindow;         // Qwen: use_sliding_window
    std::optional<std::int64_t> maxWindowLayers;  // Qwen: max_window_layers
    std::optional<std::int64_t> slidingWindowPattern;  // Gemma 3: every n-th layer is global
    std::vector<std::string> layerTypes;          // "sliding_attention" | "full_attention", one a layer
    std::optional<bool> tieWordEmbeddings;
    std::optional<bool> attentionBias;
    std::optional<double> queryPreAttnScalar;     // Gemma 3, > 0
    std::optional<double> finalLogitSoftcapping;  // Gemma, > 0
};

// `file` names the source in errors, e.g. "bert-base/config.json".
// modelTypes, when not empty, lists the accepted model_type values (checked before any other field).
// DistilBERT's spellings (dim, n_layers, …) are read as BERT's.
Result<HfConfig> parseHfConfig(std::string_view json, const std::string& file = "config.json",
                               const std::vector<std::string>& modelTypes = {});
Result<HfConfig> loadHfConfig(const std::filesystem::path& path);

}  // namespace attnscope
