// Norm-based attention (see norm_attention.hpp).
//
// Shape legend: T_q query tokens, T_k key tokens, d model width, d_v value width, H heads.
#include "core/analysis/norm_attention.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>
#include <tuple>
#include <nlohmann/json.hpp>

#include "core/export/table_format.hpp"
#include "core/io/json_rows.hpp"
#include "core/text/error_messages.hpp"
#include "core/text/messages.hpp"

namespace attnscope {

namespace {

using Json = nlohmann::ordered_json;

Result<const HeadTrace*> headOf(const Trace& trace, int layer, int head) {
    if (layer < 0 || layer >= trace.layerCount())
        return Error{ErrorId::WhereNormAttention, errorText(ErrorId::HasNoLayer, layer + 1)};
    if (head < 0 || head >= trace.headCount())
        return Error{ErrorId::WhereNormAttention, errorText(ErrorId::HasNoHead, head + 1)};
    const HeadTrace& h = trace.layers[static_cast<std::size_t>(layer)].heads[static_cast<std::size_t>(head)];
    if (h.v.size() == 0 || h.weights.size() == 0)
        return Error{errorText(ErrorId::WhereLayerCommaHead, layer + 1, head + 1), ErrorId::ValuesNotKept};
    return &h;
}

// Σ_j over the columns in `keys` of row i, and of the whole row.
double share(const Mat& m, Eigen::Index i, const std::vector<Eigen::Index>& keys) {
    const double total = m.row(i).sum();
    double part = 0;
    for (Eigen::Index j : keys) part += m(i, j);
    return total > 0 ? part / total : 0;
}

// Mean over rows i ≥ 1 of the share on `keys`, for the weights (T_q×T_k) and the norms.
std::pair<double, double> meanShares(const Mat& weights, const Mat& norms, const std::vector<Eigen::Index>& keys) {
    double byWeight = 0, byNorm = 0;
    const Eigen::Index rows = weights.rows();
    for (Eigen::Index i = 1; i < rows; ++i) byWeight += share(weights, i, keys), byNorm += share(norms, i, keys);
    const double n = rows > 1 ? static_cast<double>(rows - 1) : 1;
    return {byWeight / n, byNorm / n};
}

std::vector<Eigen::Index> specialColumns(const Trace& trace) {
    std::vector<Eigen::Index> out;
    const std::vector<Token>& keys = trace.columnTokens();
    for (std::size_t j = 0; j < keys.size(); ++j)
        if (keys[j].special) out.push_back(static_cast<Eigen::Index>(j));
    return out;
}

Json orNull(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

std::string dump(const Json& doc) { return doc.dump(1, ' ', false, Json::error_handler_t::replace) + "\n"; }

}  // namespace

Result<Mat> transformedValues(const Trace& trace, int layer, int head) {
    auto h = headOf(trace, layer, head);
    if (!h) return h.error();
    const Mat& v = h.value()->v;                                 // T_k×d_v, X·W_V + b_V
    const Mat& wo = trace.layers[static_cast<std::size_t>(layer)].wo;  // (H·d_v)×d, or empty (none)
    const Eigen::Index dv = v.cols();
    if (wo.rows() < (head + 1) * dv) return v;                   // T_k×d_v
    return Mat(v * wo.middleRows(head * dv, dv));                // T_k×d_v · d_v×d → T_k×d
}

Result<RowVec> transformedValueNorms(const Trace& trace, int layer, int head) {
    auto f = transformedValues(trace, layer, head);
    if (!f) return f.error();
    return RowVec(f.value().rowwise().norm().transpose());       // T_k
}

Result<Mat> normWeightedAttention(const Trace& trace, int layer, int head) {
    auto norms = transformedValueNorms(trace, layer, head);
    if (!norms) return norms.error();
    const Mat weights = trace.layers[static_cast<std::size_t>(layer)].heads[static_cast<std::size_t>(head)].weights.toMat();
    return Mat(weights.array().rowwise() * norms.value().array());  // T_q×T_k, α_ij·‖f(x_j)‖
}

namespace {

// Layer `layer` of `shown` gets the norm-weighted shares of `detail`'s only layer (a Trace in full detail).
Result<void> replaceWeights(const Trace& detail, int detailLayer, Trace& shown, int layer) {
    for (int h = 0; h < detail.headCount(); ++h) {
        auto norms = normWeightedAttention(detail, detailLayer, h);
        if (!norms) return norms.error();
        Mat rows = norms.value();  // T_q×T_k
        for (Eigen::Index i = 0; i < rows.rows(); ++i)
            if (const double sum = rows.row(i).sum(); sum > 0) rows.row(i) /= sum;
        HeadTrace& head = shown.layers[static_cast<std::size_t>(layer)].heads[static_cast<std::size_t>(h)];
        head.weights = head.weights.isFloat() ? AttentionWeights(MatF(rows.cast<float>())) : AttentionWeights(rows);
    }
    return {};
}

}  // namespace

Result<Trace> normWeightedTrace(const Trace& full) {
    Trace shown = full;
    for (int l = 0; l < full.layerCount(); ++l)
        if (auto done = replaceWeights(full, l, shown, l); !done.ok()) return done.error();
    return shown;
}

Result<Trace> normWeightedTrace(const LoadedModel& model, const ModelRun& run, const RunControl& control) {
    Trace shown = run.trace;
    const int layers = run.trace.layerCount();
    for (int l = 0; l < layers; ++l) {
        if (auto stop = checkCancelled(control); !stop.ok()) return stop.error();
        const auto index = static_cast<std::size_t>(l);
        const bool kept = index < run.detail.size() && run.detail[index] == LayerDetail::Full;
        Trace detail;  // only layer l, in full detail
        if (kept) {
            detail.layers.push_back(run.trace.layers[index]);
        } else {
            auto recomputed = traceLayerInDetail(model, run, l);
            if (!recomputed) return recomputed.error();
            detail.layers.push_back(std::move(recomputed).value());
        }
        if (auto done = replaceWeights(detail, 0, shown, l); !done.ok()) return done.error();
        reportProgress(control, l + 1, layers);
    }
    return shown;
}

Result<std::vector<SinkShare>> sinkShares(const Trace& trace) {
    const std::vector<Eigen::Index> first{0}, special = specialColumns(trace);
    std::vector<SinkShare> out;
    for (int l = 0; l < trace.layerCount(); ++l)
        for (int h = 0; h < trace.headCount(); ++h) {
            auto norms = normWeightedAttention(trace, l, h);
            if (!norms) return norms.error();
            const Mat weights = trace.layers[static_cast<std::size_t>(l)].heads[static_cast<std::size_t>(h)].weights.toMat();
            SinkShare s{{l, h}, 0, 0, std::nullopt, std::nullopt};
            std::tie(s.weightFirst, s.normFirst) = meanShares(weights, norms.value(), first);
            if (!special.empty()) {
                const auto [w, n] = meanShares(weights, norms.value(), special);
                s.weightSpecial = w, s.normSpecial = n;
            }
            out.push_back(s);
        }
    return out;
}

std::string sinkSharesToJson(const std::vector<SinkShare>& shares, const std::string& source) {
    Json heads = Json::array();
    for (const SinkShare& s : shares)
        heads.push_back(Json{{"layer", s.head.layer + 1}, {"head", s.head.head + 1},
                             {"weight_first", s.weightFirst}, {"norm_first", s.normFirst},
                             {"weight_special", orNull(s.weightSpecial)}, {"norm_special", orNull(s.normSpecial)}});
    return dump(Json{{"format", "attnscope-norm-attention"}, {"version", 1}, {"source", source},
                     {"indices", "1-based"}, {"heads", heads}});
}

std::string sinkSharesToCsv(const std::vector<SinkShare>& shares) {
    std::string out = "layer,head,weight_first,norm_first,weight_special,norm_special\n";
    const auto cell = [](const std::optional<double>& v) { return v ? shortestNumber(*v) : std::string(); };
    for (const SinkShare& s : shares)
        out += std::to_string(s.head.layer + 1) + "," + std::to_string(s.head.head + 1) + "," +
               shortestNumber(s.weightFirst) + "," + shortestNumber(s.normFirst) + "," + cell(s.weightSpecial) + "," +
               cell(s.normSpecial) + "\n";
    return out;
}

std::string sinkSharesToText(const std::vector<SinkShare>& shares, int decimals, Language language) {
    Table t;
    std::istringstream names{std::string(message(MessageId::NormSharesHeader, language))};
    for (std::string name; names >> name;) t.columns.push_back(name);
    const auto number = [&](const std::optional<double>& v) {
        char cell[32];
        std::snprintf(cell, sizeof cell, "%.*f", decimals, v.value_or(0.0));
        return v ? std::string(cell) : std::string("-");
    };
    for (const SinkShare& s : shares) {
        t.rows.push_back(std::to_string(s.head.layer + 1) + ":" + std::to_string(s.head.head + 1));
        t.cells.push_back({number(s.weightFirst), number(s.normFirst), number(s.weightSpecial), number(s.normSpecial)});
    }
    return std::string(message(MessageId::NormSharesNote, language)) + "\n" + textTable(t);
}

std::string normMatrixToJson(const Trace& trace, int layer, int head, const Mat& norms) {
    Json tokens = Json::array();
    for (const Token& t : trace.columnTokens()) tokens.push_back(t.text);
    return dump(Json{{"format", "attnscope-norm-attention-matrix"}, {"version", 1}, {"layer", layer + 1},
                     {"head", head + 1}, {"tokens", tokens}, {"norm_weighted", json::matrixRows(norms)}});
}

}  // namespace attnscope
