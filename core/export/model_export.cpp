#include "core/export/model_export.hpp"
#include "core/export/table_format.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/export/export.hpp"
#include "core/export/trace_npz.hpp"
#include "core/source/model_session.hpp"
#include "core/text/error_messages.hpp"
#include "core/text/messages.hpp"
#include "core/trace/ablation.hpp"

namespace attnscope {

namespace {

using Json = nlohmann::ordered_json;

std::string fixed(double value, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

// predictsNextToken: core/source/model_session.hpp

std::string predictionHeading(const Prediction& p, const Trace& trace, ModelFamily family, Language language) {
    const std::string position = std::to_string(p.position + 1);
    const std::string token = p.position < trace.tokenCount() ? trace.tokens[p.position].text : "?";
    const MessageId id = predictsNextToken(family) ? MessageId::PredictionNextToken : MessageId::PredictionMaskedToken;
    return fillMessage(message(id, language), {position, token});
}

}  // namespace

std::string predictionsToText(const ModelRun& run, ModelFamily family, const TokenLabeler& label,
                              int decimals, Language language) {
    std::string out;
    for (const Prediction& p : run.predictions) {
        out += predictionHeading(p, run.trace, family, language) + ":";
        for (std::size_t i = 0; i < p.top.size(); ++i)
            out += (i ? ", " : " ") + label(p.top[i].id) + " " + fixed(p.top[i].probability, decimals);
        out += "\n";
    }
    return out;
}

namespace {

Json predictionsJson(const ModelRun& run, ModelFamily family, const TokenLabeler& label) {
    Json predictions = Json::array();
    for (const Prediction& p : run.predictions) {
        Json top = Json::array();
        for (const TokenScore& s : p.top)
            top.push_back(Json{{"id", s.id}, {"token", label(s.id)}, {"probability", s.probability},
                               {"logit", s.logit}});
        predictions.push_back(Json{{"position", p.position + 1},
                                   {"kind", predictsNextToken(family) ? "next_token" : "masked_token"},
                                   {"top", std::move(top)}});
    }
    return predictions;
}

// ablatedHeads of a run, from what it was asked (the streamed run keeps no layers to read them from).
std::vector<HeadRef> sortedHeads(std::vector<HeadRef> heads) {
    const auto key = [](const HeadRef& h) { return std::pair(h.layer, h.head); };
    std::sort(heads.begin(), heads.end(), [&](const HeadRef& a, const HeadRef& b) { return key(a) < key(b); });
    heads.erase(std::unique(heads.begin(), heads.end(), [&](const HeadRef& a, const HeadRef& b) { return key(a) == key(b); }),
                heads.end());
    return heads;
}

// Every layer Full (it is dropped once written), unless the attention weights are all that is
// asked for: WeightsOnly keeps them and a fraction of the memory.
int fullDetailFor(const TraceSelection& selection) {
    const bool weightsOnly = !selection.steps.empty() &&
                             std::all_of(selection.steps.begin(), selection.steps.end(), [](Step s) { return s == Step::Weights; });
    return weightsOnly ? 0 : std::numeric_limits<int>::max();
}

// Whether a stream of `selection` writes head `head` of layer `layer`: in a long run only those
// heads' weights are held (RunControl::sendsHead), the others digested as they are computed.
bool writesHead(const TraceSelection& selection, int layer, int head) {
    return selection.hasHeadStep() && selection.hasLayer(layer) && selection.hasHead(head);
}

Error writeFailed(const std::string& target) {
    return Error{target, errorText(ErrorId::CouldNotBeWritten, std::string("the output refused a write"))};
}

}  // namespace

std::string modelRunToJson(const ModelRun& run, const Trace& trace, ModelFamily family, const TokenLabeler& label,
                           std::optional<int> onlyLayer) {
    std::string out;
    TraceJsonStream stream(stringSink(out), NumberSpelling::FloatShortest);
    // The whole run's heads, also when `trace` is one layer of it (whose own list would say layer 1).
    stream.begin(trace, ablatedHeads(run.trace));
    for (int l = 0; l < trace.layerCount(); ++l) stream.layer(trace.layers[static_cast<std::size_t>(l)], l);
    JsonTail tail;
    if (onlyLayer) tail.emplace_back("layer_index", *onlyLayer + 1);
    tail.emplace_back("predictions", predictionsJson(run, family, label));
    stream.finish(tail);
    return out;
}

namespace {

TraceSelection withOnlyLayer(TraceSelection selection, std::optional<int> onlyLayer) {
    if (onlyLayer) selection.layers = {*onlyLayer};
    return selection;
}

// The run streamed into a TraceJsonStream or a TraceNpzStream (the same calls), layer by layer.
template <class Stream>
Result<ModelRun> streamModelRunInto(Stream& stream, const ModelRunner& runner, RunControl control, ModelFamily family,
                                    const TokenLabeler& label, const TraceSelection& selection,
                                    std::optional<int> onlyLayer, const std::string& target) {
    const std::vector<HeadRef> ablated = sortedHeads(control.ablate);
    control.fullDetailMaxTokens = fullDetailFor(selection);  // it reads the steps only
    control.detailLayer = -1;
    const TraceSelection written = withOnlyLayer(selection, onlyLayer);
    control.sendsHead = [&](int layer, int head) { return writesHead(written, layer, head); };
    control.onLayer = [&](const Trace& soFar, int layer, LayerTrace& trace) -> Result<void> {
        if (!stream.begun()) stream.begin(soFar, ablated);
        stream.layer(trace, layer);
        return stream.failed() ? Result<void>(writeFailed(target)) : Result<void>{};
    };
    auto run = runner(control);
    if (!run) return run.error();
    if (!stream.begun()) stream.begin(run.value().trace, ablated);
    JsonTail tail;
    if (onlyLayer) tail.emplace_back("layer_index", *onlyLayer + 1);
    if (selection.any()) tail.emplace_back("selection", selectionJson(selection));
    tail.emplace_back("predictions", predictionsJson(run.value(), family, label));
    if (!stream.finish(tail)) return writeFailed(target);
    return run;
}

}  // namespace

Result<ModelRun> streamModelRunJson(const ModelRunner& runner, RunControl control, ModelFamily family,
                                    const TokenLabeler& label, const TraceSelection& selection,
                                    std::optional<int> onlyLayer, const TextSink& sink, const std::string& target) {
    TraceJsonStream stream(sink, NumberSpelling::FloatShortest, withOnlyLayer(selection, onlyLayer));
    return streamModelRunInto(stream, runner, std::move(control), family, label, selection, onlyLayer, target);
}

Result<ModelRun> streamModelRunNpz(const ModelRunner& runner, RunControl control, ModelFamily family,
                                   const TokenLabeler& label, const TraceSelection& selection,
                                   std::optional<int> onlyLayer, const TextSink& sink, const std::string& target) {
    TraceNpzStream stream(sink, NumberSpelling::FloatShortest, withOnlyLayer(selection, onlyLayer));
    return streamModelRunInto(stream, runner, std::move(control), family, label, selection, onlyLayer, target);
}

Result<ModelRun> streamModelRunCsv(const ModelRunner& runner, RunControl control, const ExportRequest& request,
                                   const TokenLabeler& label, const TextSink& sink, const std::string& target) {
    bool first = true;
    control.fullDetailMaxTokens = fullDetailFor(request.selection);
    control.detailLayer = -1;
    control.sendsHead = [&](int layer, int head) {
        return writesHead(request.selection, layer, head) && printsHead(request, head);
    };
    control.onLayer = [&](const Trace& soFar, int layer, LayerTrace& trace) -> Result<void> {
        if (!request.selection.hasLayer(layer)) return {};
        Trace one = withoutLayers(soFar);
        one.layers.push_back(std::move(trace));
        ExportRequest part = request;
        part.selection.layers.clear();
        std::vector<Step> steps = request.selection.steps.empty() ? stepsOf(one, first ? 0 : 1) : request.selection.steps;
        if (!first) std::erase_if(steps, [](Step s) { return s == Step::Embedding || s == Step::Positional; });  // once
        if (steps.empty()) return {};
        part.selection.steps = steps;
        const bool written = writeTraceCsv(one, part, sink, first, layer + 1);
        first = false;
        return written ? Result<void>{} : Result<void>(writeFailed(target));
    };
    auto run = runner(control);
    if (!run) return run.error();
    if (!sink(predictionsToCsvRows(run.value(), label, request.decimals))) return writeFailed(target);
    return run;
}

std::string predictionsToCsvRows(const ModelRun& run, const TokenLabeler& label, int decimals) {
    std::string out;
    for (const Prediction& p : run.predictions) {
        const std::string token = p.position < run.trace.tokenCount() ? run.trace.tokens[p.position].text : "";
        for (std::size_t rank = 0; rank < p.top.size(); ++rank)
            out += "prediction,,," + std::to_string(p.position + 1) + "," + csvField(token) + "," + std::to_string(rank + 1) +
                   "," + csvField(label(p.top[rank].id)) + "," + fixed(p.top[rank].probability, decimals) + "\n";
    }
    return out;
}

}  // namespace attnscope
