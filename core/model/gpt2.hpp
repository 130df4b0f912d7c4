#pragma once
// The GPT-2 family: pre-LayerNorm decoder blocks with a causal mask. See docs/models.md.
//
// Shape legend: T tokens, d model width, H heads, d_k = d / H, d_ff feed-forward width
// (4·d unless n_inner says otherwise), V vocabulary size, P position-table length, L layers.
#include <optional>
#include <string>
#include <vector>

#include "core/model/family.hpp"
#include "core/model/layer_trace.hpp"

namespace attnscope {

struct Gpt2BlockWeights {
    LayerNormRef norm1;     // ln_1
    LinearRef attention;    // attn.c_attn, Conv1D d×3d: columns [Q | K | V]
    LinearRef projection;   // attn.c_proj, Conv1D d×d
    LayerNormRef norm2;     // ln_2
    LinearRef feedForward;  // mlp.c_fc, Conv1D d×d_ff
    LinearRef feedOutput;   // mlp.c_proj, Conv1D d_ff×d
};

struct Gpt2Weights : FamilyWeights {
    MatrixRef words;      // wte V×d
    MatrixRef positions;  // wpe P×d
    std::vector<Gpt2BlockWeights> blocks;  // L
    LayerNormRef finalNorm;                // ln_f
    MatrixRef lmHead;                      // V×d: lm_head.weight when stored, else wte (tied)
    std::string prefix;                    // "transformer." or ""
    TransformerConfig config;

    Embedded embed(const std::vector<int>& ids) const override;
    MatF attend(const MatF& X, int n, LayerDetail detail, LayerTrace& trace, const HeadsAsked& asked,
                std::vector<HeadDigest>* digests) const override;
    MatF feedForward(MatF afterAttention, int n) const override;
    void finish(MatF& X) const override;
    std::vector<Prediction> predict(const MatF& X, const PredictionRequest& request) const override;
    const MatrixRef* positionTable() const override { return &positions; }
    std::optional<Unembedding> unembedding() const override {
        return Unembedding{NormKind::LayerNorm, finalNorm, config.layerNormEps, lmHead, {}};
    }
};

Result<Gpt2Weights> bindGpt2(const TensorStore& store, const TransformerConfig& config,
                             const std::string& source);

// h.N.attn.bias and h.N.attn.masked_bias: causal-mask buffers the published files store.
bool isKnownUnusedGpt2Tensor(const std::string& name);

// One block's halves: X (T×d, the residual stream) → X + attention (T×d), filling `trace` per
// `detail`; then that stream → the block's output (T×d).
MatF gpt2Attention(const MatF& X, const Gpt2BlockWeights& w, const TransformerConfig& config,
                   LayerDetail detail, LayerTrace& trace, const HeadsAsked& asked = {},
                   std::vector<HeadDigest>* digests = nullptr);
MatF gpt2FeedForward(MatF residual, const Gpt2BlockWeights& w, const TransformerConfig& config);

}  // namespace attnscope
