#pragma once
// The BERT family (BERT, RoBERTa, DistilBERT): post-LayerNorm encoders. See docs/models.md.
//
// Shape legend: T tokens, d model width, H heads, d_k = d / H, d_ff feed-forward width,
// V vocabulary size, P position-table length, L layers.
#include <optional>
#include <string>
#include <vector>

#include "core/model/family.hpp"
#include "core/model/layer_trace.hpp"

namespace attnscope {

struct EncoderLayerWeights {
    LinearRef query, key, value;  // d×d each (HF [out, in])
    LinearRef attentionOutput;    // d×d
    LayerNormRef attentionNorm;   // applied to attention output + residual
    LinearRef intermediate;       // d_ff×d
    LinearRef output;             // d×d_ff
    LayerNormRef outputNorm;      // applied to feed-forward output + residual
};

struct MaskedLmHead {
    LinearRef transform;     // d×d, then the activation
    LayerNormRef norm;
    MatrixRef decoder;       // V×d, the word embeddings when tied
    VectorRef bias;          // V
    bool tied = true;
};

struct EncoderWeights : FamilyWeights {
    MatrixRef words;       // V×d
    MatrixRef positions;   // P×d
    MatrixRef tokenTypes;  // types×d; data == nullptr for DistilBERT
    LayerNormRef embeddingNorm;
    std::vector<EncoderLayerWeights> layers;  // L
    std::optional<MaskedLmHead> mlm;          // absent for a bare encoder checkpoint
    std::string prefix;                       // "bert.", "roberta.", "distilbert." or ""
    TransformerConfig config;

    Embedded embed(const std::vector<int>& ids) const override;
    MatF attend(const MatF& X, int n, LayerDetail detail, LayerTrace& trace, const HeadsAsked& asked,
                std::vector<HeadDigest>* digests) const override;
    MatF feedForward(MatF afterAttention, int n) const override;
    std::vector<Prediction> predict(const MatF& X, const PredictionRequest& request) const override;
    bool canPredict() const override { return mlm.has_value(); }
    const MatrixRef* positionTable() const override { return &positions; }
};

// Binds the tensors of a BERT / RoBERTa / DistilBERT checkpoint by their HF names (with or
// without the model prefix; LayerNorm `weight`/`bias` or the older `gamma`/`beta`).
Result<EncoderWeights> bindEncoder(const TensorStore& store, const TransformerConfig& config,
                                   const std::string& source);

// Is `name` a tensor the family stores but the engine does not use (pooler, NSP head,
// position_ids buffer, decoder bias alias)?
bool isKnownUnusedEncoderTensor(const std::string& name, const TransformerConfig& config);

// The tensor whose absence means a checkpoint has no masked-LM head ("cls.predictions.bias" for
// BERT): what an error names when a prediction is asked of a bare encoder.
std::string maskedLmHeadTensor(ModelFamily family);

// The activation inside the masked-LM head: RoBERTa's is always the erf GELU, the others' the
// config's hidden_act.
Activation maskedLmActivation(const TransformerConfig& config);

// One layer's halves (post-norm): X (T×d) → LayerNorm(X + attention) (T×d), filling `trace`
// per `detail`; then that → LayerNorm(it + feed-forward), the layer's output (T×d).
MatF encoderAttention(const MatF& X, const EncoderLayerWeights& w, const TransformerConfig& config,
                      LayerDetail detail, LayerTrace& trace, const HeadsAsked& asked = {},
                      std::vector<HeadDigest>* digests = nullptr);
MatF encoderFeedForward(const MatF& attended, const EncoderLayerWeights& w, const TransformerConfig& config);

}  // namespace attnscope
