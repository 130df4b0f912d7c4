#pragma once
// Real transformer models (the families of family.hpp: BERT, RoBERTa, DistilBERT, GPT-2, Llama,
// Mistral, Qwen 2, Qwen 3, Gemma 3) loaded from Hugging Face checkpoints and run, filling the
// same Trace as the lessons plus the model's own outputs. See docs/models.md.
//
// The model wing, by responsibility (nothing below calls up):
//   blocks.hpp       float32 building blocks (projections, norms, MLPs, the LM head)
//   attention.hpp    multi-head / grouped-query attention with Trace recording
//   family.hpp       a family as one row; FamilyWeights, what a family's binder returns
//   bert, gpt2, decoder   the families' blocks put together (families.cpp: the table)
//   loading.cpp      config.json → TransformerConfig, files → bound weights (this header)
//   run.cpp          runModel, traceLayerInDetail (this header)
//
// Shape legend: T tokens, d model width, H heads, d_k head width, d_ff feed-forward width,
// V vocabulary size, P position-table length, L layers.
//
// The forward pass computes in float32 exactly as the reference implementations do; the
// attention intermediates are converted to double when they are written into the Trace.
#include <atomic>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/result.hpp"
#include "core/model/family.hpp"
#include "core/model/long_run.hpp"
#include "core/model/tensor_store.hpp"
#include "core/model/weight_binder.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

// config.json text → config; `where` names the file in errors. `families`: the rows to read.
Result<TransformerConfig> parseTransformerConfig(std::string_view jsonText, std::string_view where,
                                                 const FamilyTable& families = builtInFamilies());

// A loaded checkpoint: config, the mapped tensors and the weights bound by name. Cheap to copy
// (shared, immutable), so a worker thread can hold one while the UI holds another.
struct LoadedModel {
    TransformerConfig config;
    std::string source;  // the folder or file it came from, for messages
    std::shared_ptr<const TensorStore> store;
    std::shared_ptr<const FamilyWeights> weights;  // the family's, from its row's binder
    std::vector<Notice> notices;  // e.g. "decoder tied to the word embeddings" (noticeText)

    // The family's own weights type (EncoderWeights, Gpt2Weights, DecoderWeights), or nullptr.
    template <typename W>
    const W* weightsAs() const { return dynamic_cast<const W*>(weights.get()); }
};

// Finds the files with findCheckpointFiles (config.json, model.safetensors or the sharded index;
// a pickle-only folder is refused by name), reads the config,
// binds every weight by its HF name and rejects missing, mis-shaped and unexpected tensors.
Result<LoadedModel> loadModel(const std::filesystem::path& folder, const FamilyTable& families = builtInFamilies());
// The same with the parts given separately; `source` names them in errors.
Result<LoadedModel> bindModel(const TransformerConfig& config, std::shared_ptr<const TensorStore> store,
                              std::string source);

// The random-weights control: the same model with every tensor's numbers in a seeded random
// order (TensorStore::shuffledCopy), bound again. Same architecture and tokenizer, no learned
// structure: what a head scores here is what the architecture alone gives.
Result<LoadedModel> withShuffledWeights(const LoadedModel& model, std::uint32_t seed);

// ---------------------------------------------------------------- running

struct RunControl {
    std::atomic<bool>* cancel = nullptr;                    // checked before every layer
    std::function<void(int layersDone, int layerCount)> progress;  // called after every layer
    // T ≤ this: every layer Full; above: WeightsOnly except detailLayer. Callers that show one
    // layer at a time (the window, the command line) pass 0 and rebuild that layer with
    // traceLayerInDetail: Full keeps each head's weight slices as double (4·d² doubles per
    // layer, 226 MB for bert-base), which is what took the resident memory past the file size.
    int fullDetailMaxTokens = 128;
    int detailLayer = -1;           // stays Full up to detailLayerMaxTokens (-1: none)
    // Above this many tokens detailLayer too keeps its weights only: the window draws the run
    // first and rebuilds that layer in full after (traceLayerInDetail).
    int detailLayerMaxTokens = std::numeric_limits<int>::max();
    // Above this many bytes of attention weights (L·H·T² floats) the run is a long run: every layer
    // LayerDetail::Summary, rebuilt on demand (core/model/long_run.hpp). 0: always.
    std::size_t allWeightsBudget = kAllWeightsBudget;
    // Set by runModel when it releases the weights' pages (releaseWeightPagesFrom): for the parts
    // read outside the layers (a language-model head's table), so they too leave the resident memory.
    std::function<void(const void* data, std::size_t bytes)> releasePages;
    int topK = 10;
    // Where to predict. Empty: an encoder at every token whose id is maskTokenId, a decoder
    // after the last token.
    std::vector<int> predictAt;
    // The tokenizer's mask token ([MASK], <mask>), from its own files; -1: none.
    int maskTokenId = -1;
    // Heads switched off (0-based), as Hugging Face's head_mask: see core/trace/ablation.hpp.
    // A head outside the model is an error naming it.
    std::vector<HeadRef> ablate;
    // Streaming exports: called with each layer as soon as it is computed and the Trace so far
    // (tokens, settings, notices, embedding, positional). The layer is then dropped, so memory
    // stays one layer deep (the callee may move from `trace`): run.trace.layers keeps only its heads'
    // `ablated` flags and run.detail says WeightsOnly (traceLayerInDetail rebuilds it). An error
    // stops the run with that error.
    std::function<Result<void>(const Trace& soFar, int layer, LayerTrace& trace)> onLayer;
    // With onLayer in a long run: whether onLayer reads head `head` of layer `layer` (0-based).
    // Only those heads' weights are held; the others are digested as they are computed, one
    // T×T buffer a thread (a streamed export of one head of 4,096 tokens held the whole layer).
    // With onDetailLayer: the heads of the shown layer a long run hands over. Empty: every head.
    std::function<bool(int layer, int head)> sendsHead;
    // The window's first heatmap (not with onLayer): called once layer detailLayer has run, with the
    // Trace so far and that layer, while the later layers are still to run (Llama-3.2-1B's first
    // heatmap at 512 tokens waited for all 16). A run that keeps the layer passes a copy. A long
    // run holds the weights of the heads sendsHead names beside their digests and passes those
    // alone (none named: no call): a whole layer's beside the run's buffers would pass the memory
    // goal (Qwen2.5-0.5B at 4,096 tokens: 940 MB).
    std::function<void(const Trace& soFar, int layer, LayerTrace computed)> onDetailLayer;
    // From this many tokens on, each layer's mapped weight pages are dropped from the process once
    // it has run, the rest (embeddings, LM head) after the run (TensorStore::releaseLayer): the
    // resident memory holds about one layer of weights beside the Trace. The next run faults them
    // back from the page cache: +45 ms at 32 tokens (+31%), +75 ms at 512 (+8%) for bert-base,
    // worth it only where the Trace is large (bench/README.md, "Weight pages"). 0: always.
    int releaseWeightPagesFrom = 256;
};

struct ModelRun {
    Trace trace;
    // L+1 entries, T×d each: the residual stream entering layer 0, 1, …, then the final output
    // (decoders: after the final norm, as transformers' hidden_states).
    std::vector<MatF> hiddenStates;
    std::vector<LayerDetail> detail;  // L, what each Trace layer holds
    std::vector<Prediction> predictions;
    // A long run (core/model/long_run.hpp): L×H, each head's thumbnail and statistics' sums, made
    // from the weights its Trace layers no longer hold (each head keeps its `ablated` flag). Else empty.
    RunDigests digests;

    bool isLong() const { return !detail.empty() && detail.front() == LayerDetail::Summary; }
};

// Runs the model on token ids (already wrapped by the tokenizer: ModelTokenizer::wrap).
// `tokens` labels them (same length as ids; empty: labels are the ids). Longer input than the
// position table is cut, with a notice in trace.notices.
Result<ModelRun> runModel(const LoadedModel& model, const std::vector<int>& ids,
                          const std::vector<Token>& tokens, const RunControl& control = {});

// Recomputes one layer of a finished run from its input (run.hiddenStates), e.g. when the user
// opens a layer that was kept WeightsOnly or Summary: Full, or WeightsOnly where a Full layer would
// pass kRebuiltLayerBudget (rebuiltDetail, core/model/long_run.hpp). `heads` (H entries, or empty
// for all): the heads the caller reads; past the budget only those are computed, the others hold
// no weights (the command line's --head at 4,096 tokens: one head's 64 MB, not the layer's).
// `first`: heads computed and handed over before the others (HeadsFirst).
Result<LayerTrace> traceLayerInDetail(const LoadedModel& model, const ModelRun& run, int layer,
                                      const std::vector<bool>& heads = {}, HeadsFirst first = {});

// Between layers: an error when the caller asked to cancel; else reports progress.
Result<void> checkCancelled(const RunControl& control);
void reportProgress(const RunControl& control, int layersDone, int layerCount);

}  // namespace attnscope
