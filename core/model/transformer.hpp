#pragma once
// Real transformer models (BERT family, GPT-2 family) run on Hugging Face checkpoints, filling
// the same Trace as the lessons plus the model's own outputs. See docs/models.md.
//
// Shape legend: T tokens, d model width, H heads, d_k = d / H head width, d_ff feed-forward
// width, V vocabulary size, P position-table length, L layers.
//
// The forward pass computes in float32 exactly as the reference implementations do; the
// attention intermediates are converted to double when they are written into the Trace.
#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/tensor_store.hpp"
#include "core/base/result.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

enum class ModelFamily { Bert, Roberta, DistilBert, Gpt2 };

// "BERT", "RoBERTa", "DistilBERT", "GPT-2": how errors and the window name a family.
std::string familyName(ModelFamily family);
enum class Activation { GeluErf, GeluTanh, Relu };

// What the engine needs from config.json (names differ per family; see parseTransformerConfig).
struct TransformerConfig {
    ModelFamily family = ModelFamily::Bert;
    std::string modelType;   // config.json "model_type", e.g. "bert", "gpt2"
    int vocabSize = 0;       // V
    int width = 0;           // d
    int layers = 0;          // L
    int heads = 0;           // H
    int feedForward = 0;     // d_ff
    int positions = 0;       // P, rows of the position table
    int typeVocabSize = 0;   // token-type rows (0: the family has none)
    int positionOffset = 0;  // first position id (RoBERTa: padding_idx + 1 = 2)
    float layerNormEps = 1e-12f;
    Activation activation = Activation::GeluErf;

    int headWidth() const { return heads > 0 ? width / heads : 0; }  // d_k
    int maxTokens() const { return positions - positionOffset; }    // longest input the table covers
};

// config.json text → config; `where` names the file in errors.
Result<TransformerConfig> parseTransformerConfig(std::string_view jsonText, std::string_view where);

// ---------------------------------------------------------------- weights bound by HF name

// A view of a float tensor owned by the TensorStore (zero-copy for F32 files).
struct MatrixRef {
    const float* data = nullptr;
    Eigen::Index rows = 0, cols = 0;
    ConstMatMapF view() const { return ConstMatMapF(data, rows, cols); }
};
struct VectorRef {
    const float* data = nullptr;
    Eigen::Index size = 0;
    ConstRowVecMapF view() const { return ConstRowVecMapF(data, size); }
};
// HF nn.Linear: weight [out, in], y = x·Wᵀ + b. GPT-2 Conv1D: weight [in, out], y = x·W + b.
struct LinearRef {
    MatrixRef weight;
    VectorRef bias;
};
struct LayerNormRef {
    VectorRef gamma, beta;
};

struct EncoderWeights;  // bert.hpp: BERT, RoBERTa, DistilBERT
struct Gpt2Weights;     // gpt2.hpp

// A loaded checkpoint: config, the mapped tensors and the weights bound by name. Cheap to copy
// (shared, immutable), so a worker thread can hold one while the UI holds another.
struct LoadedModel {
    TransformerConfig config;
    std::string source;  // the folder or file it came from, for messages
    std::shared_ptr<const TensorStore> store;
    std::shared_ptr<const EncoderWeights> encoder;  // set for BERT, RoBERTa, DistilBERT
    std::shared_ptr<const Gpt2Weights> gpt2;        // set for GPT-2
    std::vector<Notice> notices;  // e.g. "decoder tied to the word embeddings" (noticeText)
};

// Finds the files with findCheckpointFiles (config.json, model.safetensors or the sharded index;
// a pickle-only folder is refused by name), reads the config,
// binds every weight by its HF name and rejects missing, mis-shaped and unexpected tensors.
Result<LoadedModel> loadModel(const std::filesystem::path& folder);
// The same with the parts given separately; `source` names them in errors.
Result<LoadedModel> bindModel(const TransformerConfig& config, std::shared_ptr<const TensorStore> store,
                              std::string source);

// ---------------------------------------------------------------- running

// How much of each layer's attention the Trace keeps.
enum class LayerDetail {
    Full,         // every HeadTrace field, the head's W_Q/W_K/W_V slices, W_O
    WeightsOnly,  // HeadTrace::weights only: what the heat maps, the head view and the analyses
                  // read. The layer's input is run.hiddenStates[n] (float), so traceLayerInDetail
                  // can rebuild the rest of one layer on demand.
};

struct RunControl {
    std::atomic<bool>* cancel = nullptr;                    // checked before every layer
    std::function<void(int layersDone, int layerCount)> progress;  // called after every layer
    // T ≤ this: every layer Full; above: WeightsOnly except detailLayer. Callers that show one
    // layer at a time (the window, the command line) pass 0 and rebuild that layer with
    // traceLayerInDetail: Full keeps each head's weight slices as double (4·d² doubles per
    // layer, 226 MB for bert-base), which is what took the resident memory past the file size.
    int fullDetailMaxTokens = 128;
    int detailLayer = -1;           // stays Full whatever T is (-1: none)
    // Set by runModel when it releases the weights' pages (releaseWeightPagesFrom): for the parts
    // read outside the layers (a language-model head's table), so they too leave the resident memory.
    std::function<void(const float* data, std::size_t count)> releasePages;
    int topK = 10;
    // Where to predict. Empty: BERT family at every [MASK] / <mask> token, GPT-2 after the
    // last token.
    std::vector<int> predictAt;
    // Heads switched off (0-based), as Hugging Face's head_mask: see core/trace/ablation.hpp.
    // A head outside the model is an error naming it.
    std::vector<HeadRef> ablate;
    // Streaming exports: called with each layer as soon as it is computed and the Trace so far
    // (tokens, settings, notices, embedding, positional). The layer is then dropped, so memory
    // stays one layer deep (the callee may move from `trace`): run.trace.layers keeps only its heads'
    // `ablated` flags and run.detail says WeightsOnly (traceLayerInDetail rebuilds it). An error
    // stops the run with that error.
    std::function<Result<void>(const Trace& soFar, int layer, LayerTrace& trace)> onLayer;
    // From this many tokens on, each layer's mapped weight pages are dropped from the process once
    // it has run, the rest (embeddings, LM head) after the run (TensorStore::releaseLayer): the
    // resident memory holds about one layer of weights beside the Trace. The next run faults them
    // back from the page cache: +45 ms at 32 tokens (+31%), +75 ms at 512 (+8%) for bert-base,
    // worth it only where the Trace is large (bench/README.md, "Weight pages"). 0: always.
    int releaseWeightPagesFrom = 256;
};

struct TokenScore {
    int id = -1;
    float probability = 0;
    float logit = 0;
};
struct Prediction {
    int position = 0;              // the token whose output is read (GPT-2: predicts position + 1)
    std::vector<TokenScore> top;   // best first
    RowVecF logits;                // 1×V
};

struct ModelRun {
    Trace trace;
    // L+1 entries, T×d each: the residual stream entering layer 0, 1, …, then the final output
    // (GPT-2: after ln_f, as transformers' hidden_states).
    std::vector<MatF> hiddenStates;
    std::vector<LayerDetail> detail;  // L, what each Trace layer holds
    std::vector<Prediction> predictions;
};

// Runs the model on token ids (already wrapped with wrapIds when the family wants it).
// `tokens` labels them (same length as ids; empty: labels are the ids). Longer input than the
// position table is cut, with a notice in trace.notices.
Result<ModelRun> runModel(const LoadedModel& model, const std::vector<int>& ids,
                          const std::vector<Token>& tokens, const RunControl& control = {});

// Recomputes one layer of a finished run with LayerDetail::Full (cheap: one layer), e.g. when
// the user opens a layer that was kept WeightsOnly.
Result<LayerTrace> traceLayerInDetail(const LoadedModel& model, const ModelRun& run, int layer);

// ---------------------------------------------------------------- special tokens

struct SpecialToken {
    int id = -1;
    std::string text;
};
// Ids come from the tokenizer's vocabulary: [CLS]/[SEP] for BERT and DistilBERT, <s>/</s> for
// RoBERTa (as `cls` and `sep`). GPT-2 uses none.
struct WrapperTokens {
    SpecialToken cls, sep;
};

// BERT family: [CLS] ids [SEP]; GPT-2: ids unchanged (no BOS, as transformers' GPT-2 tokenizer).
std::vector<int> wrapIds(ModelFamily family, const std::vector<int>& ids, const WrapperTokens& special);
std::vector<Token> wrapTokens(ModelFamily family, const std::vector<Token>& tokens,
                              const WrapperTokens& special);

// ---------------------------------------------------------------- float32 building blocks
// Used by bert.cpp and gpt2.cpp; exposed for tests.

MatF linear(const MatF& X, const LinearRef& layer);  // T×in · (out×in)ᵀ + b → T×out
MatF conv1d(const MatF& X, const LinearRef& layer);  // T×in · in×out + b → T×out
// The same into a caller's buffer, resized only when its shape differs: a buffer reused across
// layers and runs costs no allocation and no page faults.
void linearInto(const MatF& X, const LinearRef& layer, MatF& Y);
void conv1dInto(const MatF& X, const LinearRef& layer, MatF& Y);
// X·tableᵀ (n×d · (V×d)ᵀ → n×V): a language-model head's logits over a whole vocabulary, through
// the projections' kernels (GPT-2's 154 MB table took ~30 ms a run as an Eigen matrix-vector
// product). With `releasePages` (RunControl's, set when a run releases its weights), the table's
// pages are let go block by block as soon as they are read, so the whole table is never resident
// on top of the Trace (GPT-2's window at 512 tokens: +98 MB at its peak otherwise).
MatF logitsOf(const MatF& X, const MatrixRef& table,
              const std::function<void(const float*, std::size_t)>& releasePages = {});
// One layer's intermediates (T×d, T×3d, T×d_ff), reused by every layer the calling thread runs,
// in this run and the next: at 512 tokens fresh ones page-faulted ~180 MB per bert-base run.
struct LayerBuffers {
    MatF q, k, v, qkv, normed, context, attended, inner, out;
};
LayerBuffers& threadLayerBuffers();
void layerNorm(MatF& X, const LayerNormRef& norm, float eps);  // each row, in place
void geluErf(MatF& X);   // x·Φ(x) = ½x(1 + erf(x/√2))
void geluTanh(MatF& X);  // ½x(1 + tanh(√(2/π)(x + 0.044715x³))), GPT-2's "gelu_new"
void activate(MatF& X, Activation activation);
void softmaxRows(MatF& X);  // each row, in place; -inf entries get 0
MatF gatherRows(const MatrixRef& table, const std::vector<int>& rows);  // |rows|×cols

// Multi-head scaled dot-product attention. Q, K, V: T×d with head h in columns h·d_k…(h+1)·d_k.
// Returns the context T×d ([head_1 | … | head_H]); fills layer.heads (H entries) per `detail`.
// Each head goes through the attention kernel the lessons use (core/pipeline/attention_kernel.hpp).
// `ablated` (H entries, or empty for none): heads whose output is zeroed (head_mask = 0).
// How many threads multiHeadAttentionInto runs the heads on for `tokens` tokens: from 128 tokens,
// one per product thread (productThreadCount()) up to `heads`, each head's products on our own
// one-thread kernels; else 1 (heads in turn, OpenBLAS threaded inside each product).
int headThreadsFor(Eigen::Index tokens, int heads);
MatF multiHeadAttention(const MatF& Q, const MatF& K, const MatF& V, int heads, bool causal,
                        LayerDetail detail, LayerTrace& layer, const std::vector<bool>& ablated = {});
// The same into `context` (resized to T×d only when its shape differs).
void multiHeadAttentionInto(const MatF& Q, const MatF& K, const MatF& V, int heads, bool causal, LayerDetail detail,
                            LayerTrace& layer, const std::vector<bool>& ablated, MatF& context);

// Converts a float matrix for the Trace.
Mat toDouble(const MatF& m);

// logits 1×V → the top-k tokens by probability (softmax over the whole vocabulary).
Prediction predictionFrom(int position, RowVecF logits, int topK);

// Between layers: an error when the caller asked to cancel; else reports progress.
Result<void> checkCancelled(const RunControl& control);
void reportProgress(const RunControl& control, int layersDone, int layerCount);

// The index of the first NaN or ±∞ among n floats, if any (vectorised; used on every weight).
std::optional<Eigen::Index> firstNonFinite(const float* data, Eigen::Index n);

// Binds tensors by full HF name, remembering every name it bound and the first failure (a
// missing or mis-shaped tensor, named with the expected and the found shape, or a weight that
// is NaN or ±∞, named with its first such element). Once failed, it
// returns empty refs; check error() at the end.
class WeightBinder {
public:
    explicit WeightBinder(const TensorStore& store) : store_(store) {}
    bool has(const std::string& name) const { return store_.find(name) != nullptr; }
    MatrixRef matrix(const std::string& name, Eigen::Index rows, Eigen::Index cols);
    VectorRef vector(const std::string& name, Eigen::Index n);
    LinearRef linear(const std::string& name, Eigen::Index out, Eigen::Index in);  // .weight [out, in], .bias
    LinearRef conv1d(const std::string& name, Eigen::Index in, Eigen::Index out);  // .weight [in, out], .bias
    LayerNormRef layerNorm(const std::string& name, Eigen::Index n);  // .weight/.bias or .gamma/.beta
    const Result<void>& status() const { return error_; }
    const std::vector<std::string>& used() const { return used_; }

private:
    // Sets error_ when the tensor holds a NaN or ±∞, naming the first one; rows < 0: a vector.
    bool refuseNonFinite(const std::string& name, const float* data, Eigen::Index rows, Eigen::Index cols);

    const TensorStore& store_;
    Result<void> error_;
    std::vector<std::string> used_;
};

}  // namespace attnscope
