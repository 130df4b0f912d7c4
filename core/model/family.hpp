#pragma once
// A model family is one row of a table (as llama.cpp's per-architecture tables): the config.json
// model types it reads, how it reads (an encoder fills in masked tokens, a decoder predicts the
// next one), the size fields and tensor names the loader checks against the file, its blocks
// (norm, MLP, positions, attention) and the function that binds its tensors into a FamilyWeights.
// The run (run.cpp) only ever talks to a FamilyWeights; a family never reaches into the run.
//
// Shape legend: T tokens, d model width, H query heads, H_kv key/value heads, d_k head width,
// d_ff feed-forward width, V vocabulary size, P position-table length, L layers.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/result.hpp"
#include "core/model/attention.hpp"
#include "core/model/blocks.hpp"
#include "core/model/tensor_store.hpp"
#include "core/pipeline/rope.hpp"

namespace attnscope {

struct FamilyRow;
struct HfConfig;

// A family as a value: a handle on its row. Any row of a table is a family; the four named
// below are the ones code names (tests, the example models).
class ModelFamily {
public:
    constexpr ModelFamily() = default;
    constexpr explicit ModelFamily(const FamilyRow* row) : row_(row) {}
    const FamilyRow& row() const { return *row_; }
    const FamilyRow* operator->() const { return row_; }
    bool operator==(const ModelFamily&) const = default;

    static const ModelFamily Bert, Roberta, DistilBert, Gpt2;

private:
    const FamilyRow* row_ = nullptr;
};

// "BERT", "RoBERTa", "DistilBERT", "GPT-2", "Llama", …: how errors and the window name a family.
std::string familyName(ModelFamily family);

// How a family reads its input: the one "encoder or decoder" notion.
enum class Reading {
    Bidirectional,  // an encoder: every token sees every token; predictions at the masked tokens
    Causal,         // a decoder: token i sees 0…i; the prediction is the next token
};
enum class NormKind { LayerNorm, RmsNorm, RmsNormPlusOne };  // RmsNormPlusOne: Gemma's x̂·(1 + w)
enum class MlpKind { Plain, Gated };                            // act(X·W₁)·W₂, or SwiGLU / GeGLU
enum class PositionKind { LearnedTable, Rotary };               // added to the embeddings, or RoPE on Q and K

// What the engine needs from config.json (names differ per family; see parseTransformerConfig).
struct TransformerConfig {
    ModelFamily family = ModelFamily::Bert;
    std::string modelType;   // config.json "model_type", e.g. "bert", "gpt2", "llama"
    int vocabSize = 0;       // V
    int width = 0;           // d
    int layers = 0;          // L
    int heads = 0;           // H
    int kvHeads = 0;         // H_kv (num_key_value_heads; = H when absent)
    int headDim = 0;         // d_k when config.json says head_dim; 0: d / H
    int feedForward = 0;     // d_ff
    int positions = 0;       // P, rows of the position table (RoPE: max_position_embeddings)
    int typeVocabSize = 0;   // token-type rows (0: the family has none)
    int positionOffset = 0;  // first position id (RoBERTa: padding_idx + 1 = 2)
    float layerNormEps = 1e-12f;
    Activation activation = Activation::GeluErf;
    // Decoders with RoPE.
    double ropeTheta = 10000;       // rope_theta
    double ropeLocalTheta = 10000;  // Gemma 3: rope_local_base_freq, the sliding layers' base
    RopeScaling ropeScaling;
    int slidingWindow = 0;                // W, 0: none
    std::vector<bool> slidingLayers;      // L entries: layer n uses the window (empty: none do)
    bool tieWordEmbeddings = false;
    bool attentionBias = false;           // q/k/v (Qwen2) or every projection carries a bias
    double queryPreAttnScalar = 0;        // Gemma 3: scores ÷ √(this) instead of √d_k
    double finalLogitSoftcap = 0;         // Gemma: logits = cap·tanh(logits / cap); 0: none

    int headWidth() const { return headDim > 0 ? headDim : heads > 0 ? width / heads : 0; }  // d_k
    int keyValueHeads() const { return kvHeads > 0 ? kvHeads : heads; }                       // H_kv
    int maxTokens() const { return positions - positionOffset; }  // longest input the table covers
    bool slides(int layer) const {
        return slidingWindow > 0 && layer < static_cast<int>(slidingLayers.size()) &&
               slidingLayers[static_cast<std::size_t>(layer)];
    }
};

// What the run asks a family for its predictions.
struct PredictionRequest {
    std::vector<int> positions;  // rows of the final hidden state
    int topK = 10;
    std::function<void(const void* data, std::size_t bytes)> releasePages;  // see RunControl
};

// How the residual stream becomes logits, for reading it directly (direct logit attribution): the
// final norm and the output head's V×d table. Families whose output is not a norm and a product
// (the BERT family: post-norm layers, a masked-LM head with a GELU inside) have none.
struct Unembedding {
    NormKind norm = NormKind::LayerNorm;
    LayerNormRef finalNorm;  // RMSNorm: gamma only
    float eps = 1e-5f;
    MatrixRef table;         // V×d, the output head (the word embeddings when tied)
    // Gemma 3: the norm each layer applies to its attention output (L entries; empty: none)
    std::vector<VectorRef> postAttentionNorms;
};

// A family's weights, bound by name: the pieces of its forward pass. The run (run.cpp) calls
// embed, then layer for n = 0…L−1, then finish and predict; traceLayerInDetail calls attend again.
class FamilyWeights {
public:
    virtual ~FamilyWeights() = default;
    // T×d: the token vectors (`tokens`, Trace::embedding), what the positions add (`positions`,
    // Trace::positional; zeros with RoPE) and the residual stream entering layer 0 (`stream`).
    struct Embedded {
        MatF tokens, positions, stream;
    };
    virtual Embedded embed(const std::vector<int>& ids) const = 0;
    // Layer n: X (T×d) → T×d, filling `trace` per `detail` and `asked` (multiHeadAttentionInto);
    // `digests`: LayerDetail::Summary's, one a head, else may be null.
    MatF layer(const MatF& X, int n, LayerDetail detail, LayerTrace& trace, const HeadsAsked& asked,
               std::vector<HeadDigest>* digests) const {
        return feedForward(attend(X, n, detail, trace, asked, digests), n);
    }
    // Layer n's attention half: X → the stream after attention (T×d), the Trace filled. A layer
    // rebuilt for its Trace stops here: the feed-forward half is most of a layer's products.
    // LayerDetail::WeightsNoOutput: only the Trace is wanted; a family may return an empty matrix.
    virtual MatF attend(const MatF& X, int n, LayerDetail detail, LayerTrace& trace, const HeadsAsked& asked,
                        std::vector<HeadDigest>* digests) const = 0;
    // Layer n's feed-forward half: the stream after attention → the layer's output (T×d).
    virtual MatF feedForward(MatF afterAttention, int n) const = 0;
    // After the last layer (a final norm; transformers reports its output as the last hidden state).
    virtual void finish(MatF& /*X*/) const {}
    virtual std::vector<Prediction> predict(const MatF& X, const PredictionRequest& request) const = 0;
    virtual bool canPredict() const { return true; }  // false: a bare encoder without its LM head
    virtual std::optional<Unembedding> unembedding() const { return std::nullopt; }
    virtual const MatrixRef* positionTable() const { return nullptr; }  // a learned P×d table, if any
    std::vector<std::string> usedNames;  // every tensor bound, for the unexpected-tensor check
    std::vector<Notice> notices;         // e.g. "decoder tied to the word embeddings"
};

using FamilyBinder = std::function<Result<std::shared_ptr<const FamilyWeights>>(
    const TensorStore& store, const TransformerConfig& config, const std::string& source)>;

// config.json's own spelling of the sizes the loader checks against the file.
struct SizeFieldNames {
    std::string layers, width, positions;
};

struct FamilyRow {
    std::string name;                     // "Llama": errors, the window's title
    std::vector<std::string> modelTypes;  // config.json model_type values, e.g. {"llama"}
    Reading reading = Reading::Bidirectional;
    NormKind norm = NormKind::LayerNorm;
    MlpKind mlp = MlpKind::Plain;
    PositionKind position = PositionKind::LearnedTable;
    SizeFieldNames fields{"num_hidden_layers", "hidden_size", "max_position_embeddings"};
    std::string layerMarker;     // "encoder.layer.", "h.", "layers.": the layer number follows it
    std::string wordsTable;      // the word embeddings' name tail, e.g. "embed_tokens.weight"
    std::string positionsTable;  // the learned position table's tail; empty: none (RoPE)
    // Fills what only this family reads (after the shared fields; may refuse the config).
    std::function<Result<void>(const HfConfig& hf, const std::string& file, TransformerConfig& config)> configure;
    FamilyBinder bind;
    // Tensors the family's files store but the engine does not use (buffers, pooler, …).
    std::function<bool(const std::string& name, const TransformerConfig& config)> knownUnused;
};

using FamilyTable = std::vector<const FamilyRow*>;
// Every family AttnScope reads (families.cpp), in the order errors list them.
const FamilyTable& builtInFamilies();
// The row reading `modelType`, if any.
const FamilyRow* findFamily(const FamilyTable& table, const std::string& modelType);

}  // namespace attnscope
