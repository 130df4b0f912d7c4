#pragma once
// A pretrained model opened for the command line and the window: weights + tokenizer, turning
// a sentence into ids, running it, and the one-layer Trace the worked example shows.
// Plain C++ (no Qt): the worker runs these functions on its thread.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/source/model_tokenizer.hpp"
#include "core/model/transformer.hpp"

namespace attnscope {

struct OpenedModel {
    std::string folder;  // the resolved folder (a snapshot for cached ids)
    std::string name;    // what the user typed or chose, for titles
    LoadedModel model;   // shared, immutable weights
    ModelTokenizer tokenizer;
    std::vector<Notice> notices;

    ModelFamily family() const { return model.config.family; }
    int layerCount() const { return model.config.layers; }
    int headCount() const { return model.config.heads; }
};

// Resolves a folder or a Hugging Face cache id, loads config + weights, then the tokenizer.
// The weights come first (loadModel refuses a pickle-only folder by name), then the tokenizer.
Result<OpenedModel> openModel(std::string_view pathOrId);

// The random-weights control of an opened model (withShuffledWeights): same tokenizer, its name
// marked "(weights shuffled, seed N)".
Result<OpenedModel> withShuffledWeights(const OpenedModel& opened, std::uint32_t seed);

// The sentence as the model reads it: encoded, cut to the position table (keeping [SEP]),
// wrapped with the family's special tokens.
struct ModelInput {
    std::vector<int> ids;
    std::vector<Token> tokens;
    std::vector<int> wordGroups;  // each token's word (ModelTokenizer::wordGroups)
    std::vector<Notice> notices;  // truncation
};
Result<ModelInput> prepareInput(const OpenedModel& opened, std::string_view sentence);

// prepareInput + runModel; the truncation notice ends up in trace.notices.
Result<ModelRun> runSentence(const OpenedModel& opened, std::string_view sentence, const RunControl& control);

// Every field of `full` except its layers (tokens, embedding, settings, notices). Not a copy of
// the whole Trace: a run keeps every layer's T×T weights, hundreds of MB at 512 tokens. A new
// Trace field must be added here; tests/core/test_model_session.cpp fails until it is.
Trace withoutLayers(const Trace& full);

// The Trace the step-through example walks: run.trace's tokens, embedding and settings with
// only `layer`, in full detail (recomputed with traceLayerInDetail when the run kept less).
// `heads` (H entries, or empty for all): the heads the caller reads, as traceLayerInDetail's.
Result<Trace> detailTraceOf(const OpenedModel& opened, const ModelRun& run, int layer,
                            const std::vector<bool>& heads = {});

// The same from a run that kept `layer` Full (RunControl::detailLayer): the layer is moved into the
// detail Trace instead of copied or recomputed, and the run keeps what a WeightsOnly layer holds
// (each head's weights and ablated flag). The window's first run of a sentence: recomputing the
// shown layer was a twelfth of a bert-base run, copying it ~120 MB at 512 tokens. Any other layer:
// as detailTraceOf.
Result<Trace> takeDetailTrace(const OpenedModel& opened, ModelRun& run, int layer);

// What the window shows of a run: the run's Trace itself, except in a long run (ModelRun::isLong,
// core/model/long_run.hpp), whose layers hold no weights: then those layers with `layer` rebuilt in
// its place (detailTraceOf's layer), so the heat map, the head view and the worked example read
// that layer (workedLayer = layer); the other layers' thumbnails are the run's digests.
// `first`: heads handed over before the rest of the layer is computed (a layer switch draws the
// heatmap's first: Llama-3.2-1B rebuilds 32 heads at 4,096 tokens), in a Trace as this one with
// those heads alone (earlyTraceOf's), taken from the layer and computed again (HeadsFirst).
struct ShownHeadsFirst {
    std::vector<bool> heads;  // H flags; empty: none
    std::function<void(std::shared_ptr<const Trace>)> deliver;
};
Result<std::shared_ptr<const Trace>> shownTraceOf(const OpenedModel& opened, std::shared_ptr<const ModelRun> run, int layer,
                                                  const ShownHeadsFirst& first = {});

// The window's first heatmap of a run still going (RunControl::onDetailLayer): `soFar`'s tokens
// and settings (not its embedding and positional matrices), `computed` as layer `layer`, and each
// other of the model's `layers` layers holding only its heads' ablated flags (`ablate`), as a long
// run's shown Trace does.
Trace earlyTraceOf(const Trace& soFar, int layer, LayerTrace computed, int layers, const std::vector<HeadRef>& ablate);
// `early` (earlyTraceOf's) to share with the views. `keepsBuffer` (a layer of many heads,
// switchesHeadsFirst): once no view shows it, a head's T×T buffer serves the head computed again at
// the next layer switch (keepSpareHeadBuffer), the run's own early head at the first one.
std::shared_ptr<const Trace> sharedEarlyTrace(Trace early, int layer, bool keepsBuffer);

// Decoders (GPT-2, Llama, …) predict the next token; encoders (the BERT family) fill in masks.
inline bool predictsNextToken(ModelFamily family) { return family->reading == Reading::Causal; }

}  // namespace attnscope
