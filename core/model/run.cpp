// The run: token ids → the family's embeddings → its layers → its predictions, filling the
// Trace. Knows no family: it talks to the FamilyWeights the row's binder made.
//
// Shape legend: T tokens, d model width, H heads, V vocabulary, P positions, L layers.
#include "core/model/transformer.hpp"

#include <algorithm>
#include <cmath>

#include "core/model/recycled_weights.hpp"
#include "core/text/error_messages.hpp"
#include "core/text/message_id.hpp"
#include "core/trace/ablation.hpp"

namespace attnscope {

namespace {

// Tokens for the Trace: the caller's, or the ids as text.
Result<std::vector<Token>> labelTokens(const std::vector<int>& ids, const std::vector<Token>& tokens) {
    if (!tokens.empty() && tokens.size() != ids.size())
        return Error{ErrorId::WhereModelInput, errorText(ErrorId::IdsButLabels, ids.size(), tokens.size())};
    if (!tokens.empty()) return tokens;
    std::vector<Token> labels;
    for (int id : ids) labels.push_back(Token{std::to_string(id), true, id, -1, false});
    return labels;
}

Result<void> checkIds(const std::vector<int>& ids, int vocabSize) {
    if (ids.empty()) return Error{ErrorId::WhereModelInput, ErrorId::NoTokensToRun};
    for (std::size_t i = 0; i < ids.size(); ++i)
        if (ids[i] < 0 || ids[i] >= vocabSize)
            return Error{errorText(ErrorId::WhereModelInputToken, i), errorText(ErrorId::IdOutsideVocabulary, ids[i], vocabSize - 1)};
    return {};
}

}  // namespace

Result<void> checkCancelled(const RunControl& control) {
    if (control.cancel && control.cancel->load()) return Error{ErrorId::WhereModelRun, ErrorId::Cancelled};
    return {};
}

void reportProgress(const RunControl& control, int layersDone, int layerCount) {
    if (control.progress) control.progress(layersDone, layerCount);
}

// ---------------------------------------------------------------- running

namespace {

void setTraceFlags(Trace& trace, const TransformerConfig& config) {
    trace.positionalKind = config.family->position == PositionKind::LearnedTable ? PositionalKind::Table
                                                                                  : PositionalKind::Rotary;
    trace.projections = true;
    trace.scaled = true;
    trace.scaleDivisor = std::sqrt(config.queryPreAttnScalar > 0 ? config.queryPreAttnScalar
                                                                 : static_cast<double>(config.headWidth()));
    trace.causal = config.family->reading == Reading::Causal;
    trace.hasOutputProjection = true;
}

// Each layer's mapped weights leave the resident memory once the layer has run (after every
// layer runLayers reports progress): issue 16's memory bound, core/model/tensor_store.hpp.
void releaseEachLayer(const TensorStore& store, const RunControl& control, RunControl& effective) {
    effective.progress = [&store, report = control.progress](int done, int count) {
        store.releaseLayer(done - 1);
        if (report) report(done, count);
    };
}

// Where an encoder fills in (the tokens whose id is the tokenizer's mask id) or a decoder
// predicts (after the last token).
std::vector<int> defaultPredictions(const TransformerConfig& config, const std::vector<int>& ids, int maskTokenId) {
    if (config.family->reading == Reading::Causal) return {static_cast<int>(ids.size()) - 1};
    std::vector<int> at;
    for (std::size_t i = 0; i < ids.size(); ++i)
        if (maskTokenId >= 0 && ids[i] == maskTokenId) at.push_back(static_cast<int>(i));
    return at;
}

// The heads of `layer` whose weights a streamed long run holds for onLayer (all of them when
// RunControl::sendsHead is empty).
std::vector<bool> sentHeads(const RunControl& control, int layer, int heads) {
    std::vector<bool> sent(static_cast<std::size_t>(heads), true);
    if (control.sendsHead)
        for (int h = 0; h < heads; ++h) sent[static_cast<std::size_t>(h)] = control.sendsHead(layer, h);
    return sent;
}

// The heads of a long run's layer whose weights it holds beside their digests: those a streamed
// run sends, or those of the window's shown layer it hands over early (RunControl::sendsHead).
std::vector<bool> keptHeads(const RunControl& control, int layer, int heads) {
    const bool early = control.onDetailLayer && layer == control.detailLayer;
    return control.onLayer || early ? sentHeads(control, layer, heads) : std::vector<bool>{};
}

// The window's shown layer, handed over before the later layers run: a copy when the run keeps it,
// else (a long run) the heads it held for this, moved out (the run keeps their digests).
void sendDetailLayer(const RunControl& control, const Trace& soFar, int n, LayerTrace& layer, bool summary) {
    if (!summary) return control.onDetailLayer(soFar, n, layer);
    LayerTrace kept = ablationFlagsOf(layer);
    control.onDetailLayer(soFar, n, std::move(layer));
    layer = std::move(kept);
}

// The layer loop every family shares: before each layer an error when `control` asks to cancel;
// after it, its LayerTrace in run.trace.layers, its output in run.hiddenStates and progress
// reported. X enters as the embeddings' output and leaves as the last layer's.
Result<void> runLayers(MatF& X, const FamilyWeights& weights, int layers, int heads, const RunControl& control,
                       ModelRun& run) {
    for (int n = 0; n < layers; ++n) {
        if (auto cancelled = checkCancelled(control); !cancelled.ok()) return cancelled;
        LayerTrace layer;
        LayerDetail& detail = run.detail[static_cast<std::size_t>(n)];
        const bool summary = detail == LayerDetail::Summary;
        // A long run keeps only its digests; a streamed one holds the weights it sends beside them,
        // as does the window's shown layer for the heads drawn early.
        const HeadsAsked asked{layerHeadMask(control.ablate, n, heads),
                               summary ? keptHeads(control, n, heads) : std::vector<bool>{}};
        std::vector<HeadDigest> digests;
        X = weights.layer(X, n, detail, layer, asked, &digests);
        const bool anyKept = std::find(asked.kept.begin(), asked.kept.end(), true) != asked.kept.end();
        if (control.onDetailLayer && !control.onLayer && n == control.detailLayer && (!summary || anyKept))
            sendDetailLayer(control, run.trace, n, layer, summary);
        if (control.onLayer) {
            LayerTrace kept = ablationFlagsOf(layer);
            if (auto sent = control.onLayer(run.trace, n, layer); !sent.ok()) return sent;
            layer = std::move(kept);
            if (!summary) detail = LayerDetail::WeightsOnly;
        }
        if (summary) run.digests.push_back(std::move(digests));
        run.trace.layers.push_back(std::move(layer));
        run.hiddenStates.push_back(X);
        reportProgress(control, n + 1, layers);
    }
    return {};
}

// Embeddings, the layers, the family's last step and its predictions (ids already cut to the
// position table).
Result<void> forward(const FamilyWeights& weights, const TransformerConfig& config, const std::vector<int>& ids,
                     const RunControl& control, ModelRun& run) {
    FamilyWeights::Embedded embedded = weights.embed(ids);
    run.trace.embedding = toDouble(embedded.tokens);
    run.trace.positional = toDouble(embedded.positions);
    MatF X = std::move(embedded.stream);  // T×d
    run.hiddenStates.push_back(X);
    if (auto ran = runLayers(X, weights, config.layers, config.heads, control, run); !ran.ok()) return ran;
    weights.finish(X);
    run.hiddenStates.back() = X;
    if (!control.predictAt.empty() && weights.canPredict())
        run.predictions = weights.predict(X, PredictionRequest{control.predictAt, control.topK, control.releasePages});
    return {};
}

}  // namespace

Result<ModelRun> runModel(const LoadedModel& model, const std::vector<int>& ids, const std::vector<Token>& tokens,
                          const RunControl& control) {
    const TransformerConfig& config = model.config;
    if (auto error = checkIds(ids, config.vocabSize); !error.ok()) return error.error();
    auto labels = labelTokens(ids, tokens);
    if (!labels) return labels.error();

    dropKeptBuffers();  // a new run never has an old run's rebuilt layer on top
    ModelRun run;
    std::vector<int> input = ids;
    run.trace.tokens = std::move(labels).value();
    const auto limit = static_cast<std::size_t>(config.maxTokens());
    if (input.size() > limit) {
        run.trace.notices.push_back(Notice{MessageId::NoticeModelTruncated, {std::to_string(input.size()), std::to_string(limit)}});
        input.resize(limit);
        run.trace.tokens.resize(limit);
    }
    setTraceFlags(run.trace, config);
    const int T = static_cast<int>(input.size());
    run.detail = layerDetails(config, T, control.fullDetailMaxTokens, T <= control.detailLayerMaxTokens ? control.detailLayer : -1,
                              control.allWeightsBudget);
    RunControl effective = control;
    if (effective.predictAt.empty()) effective.predictAt = defaultPredictions(config, input, control.maskTokenId);
    if (auto error = checkHeadsExist(control.ablate, config.layers, config.heads, ErrorId::WhereAblate); !error.ok())
        return error.error();
    if (!control.ablate.empty()) run.trace.notices.push_back(ablationNotice(control.ablate));
    for (int p : effective.predictAt)
        if (p < 0 || p >= static_cast<int>(input.size()))
            return Error{ErrorId::WhereModelRun, errorText(ErrorId::PositionOutsideInput, p)};
    const bool release = static_cast<int>(input.size()) >= control.releaseWeightPagesFrom;
    if (release) {
        releaseEachLayer(*model.store, control, effective);
        effective.releasePages = [store = model.store](const void* data, std::size_t bytes) {
            store->releasePages(data, bytes);
        };
    }
    const auto error = forward(*model.weights, config, input, effective, run);
    if (release) model.store->releaseAll();  // the embeddings and the LM head
    if (run.isLong()) releaseThreadLayerBuffers();
    if (!error.ok()) return error.error();
    return run;
}

Result<LayerTrace> traceLayerInDetail(const LoadedModel& model, const ModelRun& run, int layer,
                                      const std::vector<bool>& heads, HeadsFirst first) {
    if (layer < 0 || layer >= model.config.layers || static_cast<std::size_t>(layer) + 1 >= run.hiddenStates.size())
        return Error{ErrorId::WhereModelRun, errorText(ErrorId::NoLayerNumber, layer)};
    const MatF& X = run.hiddenStates[static_cast<std::size_t>(layer)];  // T×d entering the layer
    LayerTrace trace;
    if (run.isLong()) {
        seedWithKeptBuffers(trace);  // the last rebuilt layer the window let go
        useKeptLayerBuffers();       // the last rebuild's, on another thread
    }
    HeadsAsked asked{layerHeadMask(ablatedHeads(run.trace), layer, model.config.heads), heads};  // ablated as the run
    asked.first = std::move(first);
    // The attention half only: its Trace is all the layer shows; the feed-forward half's output is
    // hiddenStates[layer + 1], kept already.
    model.weights->attend(X, layer, rebuiltDetail(model.config, static_cast<int>(X.rows())), trace, asked, nullptr);
    if (run.isLong() && !keepsThreadLayerBuffersAfterRebuilds()) releaseRebuildBuffers(model.config);
    return trace;
}

}  // namespace attnscope
