#include "core/export/model_export.hpp"
#include "core/export/table_format.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/export/export.hpp"
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

bool predictsNextToken(ModelFamily family) { return family == ModelFamily::Gpt2; }

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

std::string modelRunToJson(const ModelRun& run, const Trace& trace, ModelFamily family, const TokenLabeler& label,
                           std::optional<int> onlyLayer) {
    // Re-parsed as an ordered document so the trace's own fields keep their order.
    Json doc = Json::parse(traceToJson(trace));
    Json predictions = Json::array();
    for (const Prediction& p : run.predictions) {
        Json top = Json::array();
        for (const TokenScore& s : p.top)
            top.push_back(Json{{"id", s.id}, {"token", label(s.id)}, {"probability", s.probability},
                               {"logit", s.logit}});
        predictions.push_back(Json{{"position", p.position},
                                   {"kind", predictsNextToken(family) ? "next_token" : "masked_token"},
                                   {"top", std::move(top)}});
    }
    if (onlyLayer) doc["layer_index"] = *onlyLayer;
    // The whole run's heads, also when `trace` is one layer of it (whose own list would say layer 1).
    Json ablated = Json::array();
    for (const HeadRef& h : ablatedHeads(run.trace)) ablated.push_back(Json::array({h.layer + 1, h.head + 1}));
    doc["ablated"] = std::move(ablated);
    doc["predictions"] = std::move(predictions);
    return doc.dump(1, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string predictionsToCsvRows(const ModelRun& run, const TokenLabeler& label, int decimals) {
    std::string out;
    for (const Prediction& p : run.predictions) {
        const std::string token = p.position < run.trace.tokenCount() ? run.trace.tokens[p.position].text : "";
        for (std::size_t rank = 0; rank < p.top.size(); ++rank)
            out += "prediction,,," + std::to_string(p.position) + "," + csvField(token) + "," + std::to_string(rank) +
                   "," + csvField(label(p.top[rank].id)) + "," + fixed(p.top[rank].probability, decimals) + "\n";
    }
    return out;
}

}  // namespace attnscope
