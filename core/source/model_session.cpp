#include "core/source/model_session.hpp"

#include <filesystem>
#include <memory>
#include <utility>

#include "core/model/hf_cache.hpp"
#include "core/source/example_models.hpp"
#include "core/model/blocks.hpp"
#include "core/model/long_run.hpp"
#include "core/model/recycled_weights.hpp"
#include "core/model/sgemm.hpp"
#include "core/text/error_messages.hpp"
#include "core/text/message_id.hpp"
#include "core/trace/ablation.hpp"
#include "core/trace/non_finite.hpp"

namespace attnscope {

namespace {

// Encoders read [CLS] … [SEP] (the tokenizer's own pieces); decoders read the ids as they are.
bool wrapsWithSpecials(ModelFamily family) { return family->reading == Reading::Bidirectional; }

// A BERT-family model is trained on [CLS] … [SEP]: its tokenizer must know both.
Result<void> checkSpecialTokens(const OpenedModel& opened) {
    if (!wrapsWithSpecials(opened.family())) return {};
    const ModelSpecialPieces pieces = opened.tokenizer.specials();
    if (!pieces.cls || !pieces.sep)
        return Error{opened.folder, errorText(ErrorId::NoClsSep, familyName(opened.family()))};
    return {};
}

// Cuts word pieces before wrapping, so [SEP] survives (runModel would cut it off). The pieces
// were encoded only up to one past the cut, so the notice's count comes from a full encoding.
void truncate(const ModelTokenizer& tokenizer, std::string_view sentence, std::vector<Token>& pieces, int maxPieces,
              std::vector<Notice>& notices) {
    if (static_cast<int>(pieces.size()) <= maxPieces) return;
    const auto all = tokenizer.encode(sentence);
    const std::size_t total = all ? all.value().size() : pieces.size();
    notices.push_back(Notice{MessageId::NoticeSentenceTruncated, {std::to_string(total), std::to_string(maxPieces)}});
    pieces.resize(static_cast<std::size_t>(maxPieces));
}

// An existing folder first, then a shipped example's name, then a Hugging Face cache id; a
// failure also names the examples, which are what a user without a model can open.
Result<std::filesystem::path> resolveModel(std::string_view pathOrId) {
    std::error_code ec;
    if (!std::filesystem::is_directory(std::string(pathOrId), ec) && isExampleModelName(pathOrId))
        return findExampleModel(ExampleModelPlaces::fromProcess(), pathOrId);
    auto folder = resolveModelPath(CacheEnv::fromProcess(), pathOrId);
    if (folder) return folder;
    return Error{folder.error().whereForm(), errorText(ErrorId::WithNote, folder.error().messageForm(),
                                                       errorText(ErrorId::TheExampleModels, exampleModelNames()))};
}

}  // namespace

Result<OpenedModel> openModel(std::string_view pathOrId) {
    auto folder = resolveModel(pathOrId);
    if (!folder) return folder.error();
    auto model = loadModel(folder.value());
    if (!model) return model.error();
    auto tokenizer = ModelTokenizer::load(folder.value());
    if (!tokenizer) return tokenizer.error();
    OpenedModel opened{folder.value().string(), std::string(pathOrId), std::move(model).value(),
                       std::move(tokenizer).value(), {}};
    opened.notices = opened.model.notices;
    if (opened.tokenizer.vocabSize() > opened.model.config.vocabSize)
        opened.notices.push_back(Notice{MessageId::NoticeTokenizerLarger, {std::to_string(opened.tokenizer.vocabSize()),
                                                                           std::to_string(opened.model.config.vocabSize)}});
    if (auto special = checkSpecialTokens(opened); !special) return special.error();
    return opened;
}

// The special tokens around the sentence are the tokenizer's own (its post_processor or
// add_bos_token; BERT's vocab.txt folders [CLS] … [SEP]); a BERT model still needs [CLS]/[SEP].
// Only what the position table can use is tokenized (one more, to notice the cut).
Result<OpenedModel> withShuffledWeights(const OpenedModel& opened, std::uint32_t seed) {
    auto shuffled = withShuffledWeights(opened.model, seed);
    if (!shuffled) return shuffled.error();
    OpenedModel control = opened;
    control.model = std::move(shuffled).value();
    control.name += " (weights shuffled, seed " + std::to_string(seed) + ")";
    return control;
}

Result<ModelInput> prepareInput(const OpenedModel& opened, std::string_view sentence) {
    if (auto special = checkSpecialTokens(opened); !special) return special.error();
    const int reserved = static_cast<int>(opened.tokenizer.wrappingSize());
    const int maxPieces = std::max(1, opened.model.config.maxTokens() - reserved);
    auto pieces = opened.tokenizer.encode(sentence, static_cast<std::size_t>(maxPieces) + 1);
    if (!pieces) return pieces.error();
    // Spaces are a token for byte-level BPE (GPT-2: " " → "Ġ"); for BERT any spaces, ASCII or
    // Unicode, are no token, and a sentence without one is refused the same way.
    if (pieces.value().empty()) return Error{ErrorId::WhereSentence, ErrorId::SentenceHasNoTokens};
    ModelInput input;
    std::vector<Token> tokens = std::move(pieces).value();
    truncate(opened.tokenizer, sentence, tokens, maxPieces, input.notices);
    std::vector<int> ids;
    ids.reserve(tokens.size());
    for (const Token& t : tokens) ids.push_back(t.id);
    input.ids = opened.tokenizer.wrap(ids);
    input.tokens = opened.tokenizer.wrap(tokens);
    input.wordGroups = opened.tokenizer.wordGroups(input.tokens);
    return input;
}

Result<ModelRun> runSentence(const OpenedModel& opened, std::string_view sentence, const RunControl& control) {
    auto input = prepareInput(opened, sentence);
    if (!input) return input.error();
    if (input.value().ids.empty()) return Error{ErrorId::WhereSentence, ErrorId::NothingToRun};
    RunControl withMask = control;  // an encoder fills in the tokenizer's own mask token
    if (withMask.maskTokenId < 0) withMask.maskTokenId = opened.tokenizer.specials().mask.value_or(-1);
    auto run = runModel(opened.model, input.value().ids, input.value().tokens, withMask);
    if (!run) return run.error();
    ModelRun result = std::move(run).value();
    for (Notice& notice : input.value().notices) result.trace.notices.push_back(std::move(notice));
    result.trace.wordGroups = std::move(input.value().wordGroups);
    // An overflow on the way is named, never an all-NaN picture. Every head's weights are read,
    // on every product thread: on one, 30–40 ms between Qwen2.5-0.5B's run at 512 tokens and its heatmap.
    addNonFiniteNotices(result.trace, [](std::size_t n, const std::function<void(std::size_t, std::size_t)>& slice) {
        runInSlices(n, 1, productThreads(), slice);
    });
    return result;
}

namespace {

// `withInputs`: the embedding and (`withPositional`) the positional matrix, T×d each.
Trace headerOf(const Trace& full, bool withPositional, bool withInputs = true) {
    Trace copy;
    copy.tokens = full.tokens;
    copy.keyTokens = full.keyTokens;
    if (withInputs) copy.embedding = full.embedding;
    if (withInputs && withPositional) copy.positional = full.positional;
    copy.featureNames = full.featureNames;
    copy.positionalKind = full.positionalKind;
    copy.projections = full.projections;
    copy.scaled = full.scaled;
    copy.scaleDivisor = full.scaleDivisor;
    copy.causal = full.causal;
    copy.paddedFrom = full.paddedFrom;
    copy.hasOutputProjection = full.hasOutputProjection;
    copy.residual = full.residual;
    copy.handRounding = full.handRounding;
    copy.notices = full.notices;
    copy.wordGroups = full.wordGroups;
    copy.block = full.block;
    return copy;
}

}  // namespace

Trace withoutLayers(const Trace& full) { return headerOf(full, true); }

namespace {

// Layer `layer` of the run in full detail: the run's own copy when it kept the layer Full, else
// recomputed from its input (traceLayerInDetail).
Result<LayerTrace> layerInDetail(const OpenedModel& opened, const ModelRun& run, int layer,
                                 const std::vector<bool>& heads = {}, HeadsFirst first = {}) {
    if (layer < 0 || layer >= static_cast<int>(run.trace.layers.size()))
        return Error{ErrorId::WhereModelRun, errorText(ErrorId::NoLayerNumber, layer + 1)};
    const auto index = static_cast<std::size_t>(layer);
    if (index < run.detail.size() && run.detail[index] == LayerDetail::Full) return run.trace.layers[index];
    return traceLayerInDetail(opened.model, run, layer, heads, std::move(first));
}

// The heads flagged of a layer being computed, taken out of it (HeadsFirst computes them again),
// every other head its ablated flag alone.
LayerTrace takeHeads(LayerTrace& soFar, const std::vector<bool>& heads) {
    LayerTrace taken;
    taken.heads.resize(soFar.heads.size());
    for (std::size_t h = 0; h < soFar.heads.size(); ++h) {
        taken.heads[h].ablated = soFar.heads[h].ablated;
        if (h < heads.size() && heads[h]) taken.heads[h].weights = std::exchange(soFar.heads[h].weights, AttentionWeights());
    }
    return taken;
}

// A long run's layer switch: the heads `first` names, handed over as soon as they are computed.
HeadsFirst handingOver(const ModelRun& run, int layer, const ShownHeadsFirst& first) {
    if (first.heads.empty()) return {};
    return {first.heads, [&run, layer, &first](LayerTrace& soFar) {
                LayerTrace heads = takeHeads(soFar, first.heads);
                const auto layers = static_cast<int>(run.trace.layers.size());
                first.deliver(sharedEarlyTrace(earlyTraceOf(run.trace, layer, std::move(heads), layers, ablatedHeads(run.trace)),
                                               layer, true));
            }};
}

}  // namespace

Result<Trace> detailTraceOf(const OpenedModel& opened, const ModelRun& run, int layer, const std::vector<bool>& heads) {
    auto shown = layerInDetail(opened, run, layer, heads);
    if (!shown) return shown.error();
    Trace detail = withoutLayers(run.trace);
    detail.layers.push_back(std::move(shown).value());
    return detail;
}

Result<std::shared_ptr<const Trace>> shownTraceOf(const OpenedModel& opened, std::shared_ptr<const ModelRun> run,
                                                  int layer, const ShownHeadsFirst& first) {
    if (!run->isLong()) return std::shared_ptr<const Trace>(run, &run->trace);  // shares the run's
    // The layer alone (detailTraceOf would copy the run's embeddings once more: T×d doubles,
    // 64 MB at 4,096 tokens on Llama-3.2-1B's shape).
    auto recomputed = layerInDetail(opened, *run, layer, {}, handingOver(*run, layer, first));
    if (!recomputed) return recomputed.error();
    // A RoPE family's positional matrix is zeros no step of the window shows (nothing is added to
    // the embeddings): not copied, T×d doubles (28 MB at 4,096 tokens on Qwen2.5-0.5B's shape).
    // Exports never read this copy: they run their own.
    auto shown = std::make_unique<Trace>(headerOf(run->trace, false, false));
    shown->embedding = takeKeptEmbedding();  // the last shown Trace's: its pages are there
    shown->embedding = run->trace.embedding;
    if (run->trace.positionalKind != PositionalKind::Rotary) shown->positional = run->trace.positional;
    shown->layers = run->trace.layers;  // each head's ablated flag
    const auto rebuilt = static_cast<std::size_t>(layer);
    shown->layers[rebuilt] = std::move(recomputed).value();
    // Once no view shows it, its weights' buffers serve the next layer rebuilt, and in a layer of
    // many heads its embeddings' too (switchesHeadsFirst: the memory that policy may spend).
    const bool keepEmbedding = switchesHeadsFirst(opened.model.config);
    return std::shared_ptr<const Trace>(shown.release(), [rebuilt, keepEmbedding](Trace* gone) {
        keepForNextRebuild(std::move(gone->layers[rebuilt]), keepEmbedding ? std::move(gone->embedding) : Mat());
        delete gone;
    });
}

std::shared_ptr<const Trace> sharedEarlyTrace(Trace early, int layer, bool keepsBuffer) {
    if (!keepsBuffer) return std::make_shared<const Trace>(std::move(early));
    return std::shared_ptr<const Trace>(new Trace(std::move(early)), [layer](Trace* gone) {
        for (HeadTrace& head : gone->layers.at(static_cast<std::size_t>(layer)).heads)
            if (head.weights.isFloat() && head.weights.size() > 0) keepSpareHeadBuffer(std::move(head.weights.floatStorage()));
        delete gone;
    });
}

Trace earlyTraceOf(const Trace& soFar, int layer, LayerTrace computed, int layers, const std::vector<HeadRef>& ablate) {
    Trace early = headerOf(soFar, false, false);  // the heatmap reads neither input (T×d doubles each)
    const int heads = static_cast<int>(computed.heads.size());
    early.layers.resize(static_cast<std::size_t>(layers));
    for (int n = 0; n < layers; ++n) {
        const std::vector<bool> off = layerHeadMask(ablate, n, heads);
        LayerTrace& flags = early.layers[static_cast<std::size_t>(n)];
        flags.heads.resize(off.size());
        for (std::size_t h = 0; h < off.size(); ++h) flags.heads[h].ablated = off[h];
    }
    early.layers.at(static_cast<std::size_t>(layer)) = std::move(computed);
    return early;
}

namespace {

LayerTrace weightsOnlyOf(const LayerTrace& full) {  // what runLayers keeps of a WeightsOnly layer
    LayerTrace kept;
    kept.heads.resize(full.heads.size());
    for (std::size_t h = 0; h < full.heads.size(); ++h) {
        kept.heads[h].weights = full.heads[h].weights;
        kept.heads[h].ablated = full.heads[h].ablated;
    }
    return kept;
}

}  // namespace

Result<Trace> takeDetailTrace(const OpenedModel& opened, ModelRun& run, int layer) {
    const auto index = static_cast<std::size_t>(layer);
    if (layer < 0 || index >= run.trace.layers.size() || index >= run.detail.size() ||
        run.detail[index] != LayerDetail::Full)
        return detailTraceOf(opened, run, layer);
    Trace detail = withoutLayers(run.trace);
    LayerTrace& kept = run.trace.layers[index];
    LayerTrace weights = weightsOnlyOf(kept);
    detail.layers.push_back(std::move(kept));
    kept = std::move(weights);
    run.detail[index] = LayerDetail::WeightsOnly;
    return detail;
}

}  // namespace attnscope
