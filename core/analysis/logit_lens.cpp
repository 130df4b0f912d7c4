// The logit lens and direct logit attribution (see logit_lens.hpp).
//
// Shape legend: T tokens, d model width, H heads, d_v head width, V vocabulary, L layers, k top tokens.
#include "core/analysis/logit_lens.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/analysis/encoder_logit_path.hpp"
#include "core/export/table_format.hpp"
#include "core/model/bert.hpp"
#include "core/text/error_messages.hpp"
#include "core/text/messages.hpp"
#include "core/trace/ablation.hpp"

namespace attnscope {

namespace {

using Json = nlohmann::ordered_json;

std::string dump(const Json& doc) { return doc.dump(1, ' ', false, Json::error_handler_t::replace) + "\n"; }
std::string text(MessageId id, Language language) { return std::string(message(id, language)); }

// Decoders: every position (each predicts the next token); encoders: where the run filled in masks.
Result<std::vector<int>> lensPositions(const TransformerConfig& config, const ModelRun& run) {
    std::vector<int> at;
    if (config.family->reading == Reading::Causal) {
        for (int i = 0; i < run.trace.tokenCount(); ++i) at.push_back(i);
        return at;
    }
    for (const Prediction& p : run.predictions) at.push_back(p.position);
    if (at.empty()) return Error{ErrorId::WhereLogitLens, ErrorId::NoMaskToRead};
    return at;
}

Result<void> checkRun(const LoadedModel& model, const ModelRun& run, ErrorId where) {
    if (!model.weights->canPredict())
        return Error{where, errorText(ErrorId::NoMaskedLmHead, maskedLmHeadTensor(model.config.family))};
    const std::size_t states = static_cast<std::size_t>(model.config.layers) + 1;
    if (run.hiddenStates.size() != states)
        return Error{where, errorText(ErrorId::ExpectedFound, errorText(ErrorId::HiddenStatesCount, states),
                                      run.hiddenStates.size())};
    return {};
}

// The final norm with its scale frozen at the stream x (1×d), then the token's row of the output
// head, as one 1×d readout r: a contribution c adds c·r to the logit. LayerNorm removes c's mean,
// and (c − c̄)·r = c·(r − r̄), so the mean is taken off r instead.
RowVec frozenReadout(const Unembedding& u, const RowVec& x, int token) {
    const double n = static_cast<double>(x.size());
    const bool layerNorm = u.norm == NormKind::LayerNorm;
    const double centre = layerNorm ? x.mean() : 0.0;
    const double spread = std::sqrt((x.array() - centre).square().sum() / n + static_cast<double>(u.eps));  // σ or RMS
    RowVec gamma = u.finalNorm.gamma.view().cast<double>();  // 1×d
    if (u.norm == NormKind::RmsNormPlusOne) gamma.array() += 1.0;
    const RowVec row = u.table.rowsAsFloat(token, 1).row(0).cast<double>();  // 1×d, W_U[token]
    RowVec r = (gamma.array() * row.array() / spread).matrix();
    if (layerNorm) r.array() -= r.mean();
    return r;
}

// Gemma 3: a head's output through the layer's norm after attention, its scale frozen at the
// whole attention output o (1×d) of that position: c / RMS(o) · (1 + w).
RowVec throughPostAttentionNorm(const RowVec& c, const RowVec& o, const VectorRef& weight, float eps) {
    const double rms = std::sqrt(o.array().square().mean() + static_cast<double>(eps));
    return (c.array() / rms * (weight.view().cast<double>().array() + 1.0)).matrix();
}

// Pre-norm decoders: every layer's heads write straight into the stream the final norm reads, so
// one readout (the final norm frozen at the stream before it) serves all L layers.
Result<std::vector<RowVec>> decoderReadouts(const LoadedModel& model, const Unembedding& u, const ModelRun& run, int position,
                                            int token) {
    const int last = model.config.layers - 1;
    LayerTrace scratch;  // the last layer again from its input: the stream before the final norm
    const MatF before = model.weights->layer(run.hiddenStates[static_cast<std::size_t>(last)], last, LayerDetail::WeightsOnly,
                                             scratch, layerHeadMask(ablatedHeads(run.trace), last, model.config.heads), nullptr);  // T×d
    const RowVec readout = frozenReadout(u, before.row(position).cast<double>(), token);  // 1×d
    return std::vector<RowVec>(static_cast<std::size_t>(model.config.layers), readout);
}

}  // namespace

Result<LogitLens> logitLens(const LoadedModel& model, const ModelRun& run, int topK) {
    const TransformerConfig& c = model.config;
    if (topK < 1 || topK > c.vocabSize)
        return Error{ErrorId::WhereLogitLens, errorText(ErrorId::ExpectedFound, errorText(ErrorId::Range, 1, c.vocabSize), topK)};
    if (auto checked = checkRun(model, run, ErrorId::WhereLogitLens); !checked) return checked.error();
    auto positions = lensPositions(c, run);
    if (!positions) return positions.error();
    LogitLens lens{positions.value(), c.family->reading == Reading::Causal, {}};
    for (std::size_t l = 0; l < run.hiddenStates.size(); ++l) {
        MatF X = run.hiddenStates[l];                                // T×d
        if (l + 1 < run.hiddenStates.size()) model.weights->finish(X);  // the last one is finished already
        std::vector<std::vector<TokenScore>> row;
        for (Prediction& p : model.weights->predict(X, PredictionRequest{lens.positions, topK, {}}))
            row.push_back(std::move(p.top));
        lens.rows.push_back(std::move(row));
    }
    return lens;
}

Result<LogitAttribution> attributeLogit(const LoadedModel& model, const ModelRun& run, int prediction) {
    const TransformerConfig& c = model.config;
    const std::optional<Unembedding> u = model.weights->unembedding();
    const bool encoder = model.weightsAs<EncoderWeights>() != nullptr;
    if (!u && !encoder) return Error{ErrorId::WhereLogitAttribution, errorText(ErrorId::NoDirectPath, familyName(c.family))};
    // A missing masked-LM head, then a sentence without [MASK], before the prediction's number.
    if (auto checked = checkRun(model, run, ErrorId::WhereLogitAttribution); !checked) return checked.error();
    if (encoder && run.predictions.empty()) return Error{ErrorId::WhereLogitAttribution, ErrorId::NoMaskToRead};
    if (prediction < 0 || prediction >= static_cast<int>(run.predictions.size()))
        return Error{ErrorId::WhereLogitAttribution,
                     errorText(ErrorId::ExpectedFound, errorText(ErrorId::APredictionFrom, run.predictions.size()), prediction + 1)};
    const Prediction& chosen = run.predictions[static_cast<std::size_t>(prediction)];
    LogitAttribution a{chosen.position, chosen.top.empty() ? -1 : chosen.top.front().id, 0, {}, !u};
    a.logit = logitOf(chosen, a.token);
    auto readouts = u ? decoderReadouts(model, *u, run, a.position, a.token) : encoderDirectReadouts(model, run, a.position, a.token);
    if (!readouts) return readouts.error();
    for (int n = 0; n < c.layers; ++n) {
        auto layer = traceLayerInDetail(model, run, n);
        if (!layer) return layer.error();
        const LayerTrace& t = layer.value();
        for (int h = 0; h < c.heads; ++h) {
            const Mat& out = t.heads[static_cast<std::size_t>(h)].weightedSum;  // T×d_v
            const Eigen::Index dv = out.cols();
            RowVec written = out.row(a.position) * t.wo.middleRows(h * dv, dv);  // 1×d_v · d_v×d → 1×d
            if (u && !u->postAttentionNorms.empty())
                written = throughPostAttentionNorm(written, t.output.row(a.position), u->postAttentionNorms[static_cast<std::size_t>(n)], u->eps);
            a.heads.push_back({{n, h}, written.dot(readouts.value()[static_cast<std::size_t>(n)])});
        }
    }
    std::stable_sort(a.heads.begin(), a.heads.end(),
                     [](const HeadAttribution& x, const HeadAttribution& y) { return std::abs(x.logit) > std::abs(y.logit); });
    return a;
}

// ---------------------------------------------------------------- exports

namespace {

std::string fixed(double v, int decimals) {
    char cell[48];
    std::snprintf(cell, sizeof cell, "%.*f", decimals, v);
    return cell;
}

std::string headName(const HeadRef& h) { return std::to_string(h.layer + 1) + ":" + std::to_string(h.head + 1); }

const HeadEffect* effectOf(const HeadEffects* effects, const HeadRef& head) {
    if (!effects) return nullptr;
    for (const HeadEffect& e : effects->heads)
        if (e.head == head) return &e;
    return nullptr;
}

}  // namespace

std::string lensToJson(const LogitLens& lens, const Trace& trace, const IdLabel& label, const std::string& source) {
    Json positions = Json::array(), rows = Json::array();
    for (int p : lens.positions) positions.push_back(Json{{"position", p + 1}, {"token", trace.tokens[static_cast<std::size_t>(p)].text}});
    for (std::size_t l = 0; l < lens.rows.size(); ++l) {
        Json cells = Json::array();
        for (std::size_t i = 0; i < lens.positions.size(); ++i) {
            Json top = Json::array();
            for (const TokenScore& s : lens.rows[l][i])
                top.push_back(Json{{"id", s.id}, {"token", label(s.id)}, {"probability", s.probability}, {"logit", s.logit}});
            cells.push_back(Json{{"position", lens.positions[i] + 1}, {"top", top}});
        }
        rows.push_back(Json{{"layer", l}, {"cells", cells}});
    }
    return dump(Json{{"format", "attnscope-logit-lens"}, {"version", 1}, {"source", source}, {"indices", "1-based"},
                     {"layer_0", "the embeddings' output, before layer 1"},
                     {"reads", lens.nextToken ? "next token" : "masked token"}, {"positions", positions}, {"layers", rows}});
}

std::string lensToCsv(const LogitLens& lens, const Trace& trace, const IdLabel& label) {
    std::string out = "layer,position,position_token,rank,id,token,probability,logit\n";
    for (std::size_t l = 0; l < lens.rows.size(); ++l)
        for (std::size_t i = 0; i < lens.positions.size(); ++i) {
            const int p = lens.positions[i];
            for (std::size_t r = 0; r < lens.rows[l][i].size(); ++r) {
                const TokenScore& s = lens.rows[l][i][r];
                out += std::to_string(l) + "," + std::to_string(p + 1) + "," + csvField(trace.tokens[static_cast<std::size_t>(p)].text) +
                       "," + std::to_string(r + 1) + "," + std::to_string(s.id) + "," + csvField(label(s.id)) + "," +
                       shortestNumber(s.probability) + "," + shortestNumber(s.logit) + "\n";
            }
        }
    return out;
}

std::string lensToText(const LogitLens& lens, const Trace& trace, const IdLabel& label, int decimals, Language language) {
    Table t;
    for (int p : lens.positions) t.columns.push_back(std::to_string(p + 1) + " " + trace.tokens[static_cast<std::size_t>(p)].text);
    for (std::size_t l = 0; l < lens.rows.size(); ++l) {
        t.rows.push_back(l == 0 ? text(MessageId::LensEmbeddingRow, language)
                                : fillMessage(message(MessageId::LensLayerRow, language), {std::to_string(l)}));
        std::vector<std::string> cells;
        for (const std::vector<TokenScore>& top : lens.rows[l])
            cells.push_back(top.empty() ? "-" : label(top.front().id) + " " + fixed(top.front().probability, decimals));
        t.cells.push_back(std::move(cells));
    }
    return text(lens.nextToken ? MessageId::LensNoteNext : MessageId::LensNoteMasked, language) + "\n" + textTable(t);
}

std::string attributionToJson(const LogitAttribution& a, const HeadEffects* effects, const IdLabel& label,
                              const std::string& source) {
    Json heads = Json::array();
    for (const HeadAttribution& h : a.heads) {
        Json row{{"layer", h.head.layer + 1}, {"head", h.head.head + 1}, {"direct_logit", h.logit}};
        if (const HeadEffect* e = effectOf(effects, h.head))
            row.update(Json{{"ablated_probability", e->after}, {"ablated_logit", e->logitAfter},
                            {"ablated_logit_change", e->logitAfter - effects->logitBefore}});
        heads.push_back(row);
    }
    Json doc{{"format", "attnscope-logit-attribution"}, {"version", 1}, {"source", source}, {"indices", "1-based"},
             {"position", a.position + 1}, {"token", Json{{"id", a.token}, {"text", label(a.token)}}}, {"logit", a.logit},
             {"method", a.linearised ? "first-order" : "direct"}};  // docs/cli.md, "dla"

    if (effects) doc["probability"] = effects->before;
    doc["heads"] = heads;
    return dump(doc);
}

std::string attributionToCsv(const LogitAttribution& a, const HeadEffects* effects) {
    std::string out = "layer,head,direct_logit,ablated_probability,ablated_logit,ablated_logit_change\n";
    for (const HeadAttribution& h : a.heads) {
        const HeadEffect* e = effectOf(effects, h.head);
        out += std::to_string(h.head.layer + 1) + "," + std::to_string(h.head.head + 1) + "," + shortestNumber(h.logit) + "," +
               (e ? shortestNumber(e->after) + "," + shortestNumber(e->logitAfter) + "," +
                        shortestNumber(e->logitAfter - effects->logitBefore)
                  : std::string(",,")) +
               "\n";
    }
    return out;
}

std::string attributionToText(const LogitAttribution& a, const HeadEffects* effects, const IdLabel& label, int decimals,
                              Language language) {
    std::string out = fillMessage(message(a.linearised ? MessageId::AttributionNoteFirstOrder : MessageId::AttributionNote, language),
                                  {label(a.token), std::to_string(a.position + 1), fixed(a.logit, decimals)}) + "\n";
    Table t;
    t.columns = {text(MessageId::AttributionDirect, language)};
    if (effects)
        t.columns.insert(t.columns.end(), {text(MessageId::AttributionProbabilityOff, language), text(MessageId::AttributionLogitOff, language)});
    for (const HeadAttribution& h : a.heads) {
        t.rows.push_back(headName(h.head));
        std::vector<std::string> cells{fixed(h.logit, decimals)};
        if (const HeadEffect* e = effectOf(effects, h.head)) {
            cells.push_back(fixed(effects->before, decimals) + " → " + fixed(e->after, decimals));
            cells.push_back(fixed(effects->logitBefore, decimals) + " → " + fixed(e->logitAfter, decimals));
        } else if (effects) {
            cells.insert(cells.end(), {"-", "-"});  // a head the run already had off
        }
        t.cells.push_back(std::move(cells));
    }
    return out + textTable(t);
}

}  // namespace attnscope
