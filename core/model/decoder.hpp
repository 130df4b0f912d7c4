#pragma once
// The RoPE decoders (Llama, Mistral, Qwen 2, Qwen 3, Gemma 3): pre-norm blocks with RMSNorm,
// rotary positions on Q and K, grouped-query attention (optionally in a sliding window) and a
// gated MLP, as transformers' LlamaForCausalLM and its relatives in eval mode. What differs
// between the families is a DecoderBlocks value in each one's row (families.cpp).
//
// Shape legend: T tokens, d model width, H query heads, H_kv key/value heads, d_k head width,
// d_ff feed-forward width, V vocabulary size, L layers.
#include <string>
#include <vector>

#include "core/model/family.hpp"
#include "core/model/layer_trace.hpp"

namespace attnscope {

// The optional blocks of a decoder family.
struct DecoderBlocks {
    bool qkvBias = false;          // Qwen 2: q/k/v projections carry a bias (o_proj does not)
    bool qkNorm = false;           // Qwen 3, Gemma 3: RMSNorm over d_k on each head's q and k, before RoPE
    bool sandwichNorms = false;    // Gemma 3: norms after attention and after the MLP too
    bool scaledEmbedding = false;  // Gemma 3: token vectors × √d
};

struct DecoderLayerWeights {
    LayerNormRef inputNorm;                  // input_layernorm (RMSNorm: gamma only)
    LinearRef query, key, value, output;     // (H·d_k)×d, (H_kv·d_k)×d twice, d×(H·d_k): HF [out, in]
    VectorRef queryNorm, keyNorm;            // d_k each (qkNorm)
    LayerNormRef postAttentionNorm;          // Llama: before the MLP; Gemma 3: after attention
    LayerNormRef preFeedForwardNorm, postFeedForwardNorm;  // Gemma 3 only
    LinearRef gate, up, down;                // d_ff×d, d_ff×d, d×d_ff
};

struct DecoderWeights : FamilyWeights {
    MatrixRef words;  // V×d
    std::vector<DecoderLayerWeights> layers;
    LayerNormRef finalNorm;  // model.norm
    MatrixRef lmHead;        // V×d: lm_head.weight, or the word embeddings when tied
    DecoderBlocks blocks;
    TransformerConfig config;
    std::vector<RowVec> frequencies;  // L entries, RoPE's θ_i of each layer (1×d_k/2)

    Embedded embed(const std::vector<int>& ids) const override;
    MatF attend(const MatF& X, int n, LayerDetail detail, LayerTrace& trace, const HeadsAsked& asked,
                std::vector<HeadDigest>* digests) const override;
    MatF feedForward(MatF afterAttention, int n) const override;
    void finish(MatF& X) const override;
    std::vector<Prediction> predict(const MatF& X, const PredictionRequest& request) const override;
    std::optional<Unembedding> unembedding() const override;
};

Result<DecoderWeights> bindDecoder(const TensorStore& store, const TransformerConfig& config, const std::string& source,
                                   const DecoderBlocks& blocks);

// Buffers some checkpoints store that the engine recomputes (rotary_emb.inv_freq), and
// lm_head.weight when the config ties it to the word embeddings.
bool isKnownUnusedDecoderTensor(const std::string& name, const TransformerConfig& config);

}  // namespace attnscope
