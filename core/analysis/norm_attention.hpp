#pragma once
// Norm-based attention (Kobayashi et al. 2020, "Attention is not only a weight"): how much of key
// token j actually reaches query i through a head is ‖α_ij · f(x_j)‖, where f(x_j) = (x_j·W_V + b_V)·W_O^h
// is the token's value vector (the value bias included, as the paper's f does) through the head's
// rows of W_O. The output bias b_O is left out: it is shared by every head and token, added once
// per layer, and carried by no key. Gemma 3's norm after attention is not applied (it mixes the
// heads). A head that puts most of its weight on a token whose f(x_j) is short ("sink" attention
// on [CLS], [SEP] or the first token) moves little: its norm-based share is small.
//
// Shape legend: T_q query tokens, T_k key tokens, d model width, d_v value width, H heads.
#include <optional>
#include <string>
#include <vector>

#include "core/base/result.hpp"
#include "core/model/transformer.hpp"
#include "core/text/language.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

// T_k×d: f(x_j) = v_j · W_O^h for every key token j (W_O^h: rows h·d_v … (h+1)·d_v of the layer's
// W_O; without W_O, v_j itself, T_k×d_v). Needs the layer in full detail; else an error naming it.
Result<Mat> transformedValues(const Trace& trace, int layer, int head);

// T_k: ‖f(x_j)‖ = ‖v_j · W_O^h‖ for every key token j (W_O^h: rows h·d_v … (h+1)·d_v of the layer's
// W_O; without W_O, ‖v_j‖). Needs the layer in full detail (the head's V); else an error naming it.
Result<RowVec> transformedValueNorms(const Trace& trace, int layer, int head);

// T_q×T_k: ‖α_ij · f(x_j)‖ = α_ij · ‖f(x_j)‖ (α_ij ≥ 0). Each row's sum is what the paper compares.
Result<Mat> normWeightedAttention(const Trace& trace, int layer, int head);

// The colour scale "weight × ‖value‖" for every view: a copy of `full` whose heads' weights are
// their norm-weighted rows divided by each row's sum (so a row still sums to 1 and reads as "the
// share of what reaches the query"); every other field as it was. Every layer must be in full detail.
Result<Trace> normWeightedTrace(const Trace& full);
// The same for a model's run that kept only the weights (the window's runs): each layer is
// recomputed in full detail (traceLayerInDetail, one layer at a time), its heads' weights replaced
// by their norm-weighted shares. Progress per layer and cancel through `control`.
Result<Trace> normWeightedTrace(const LoadedModel& model, const ModelRun& run, const RunControl& control);

// Where a head's attention goes by weight and by norm: the mean over query rows i ≥ 1 (row 0 of a
// causal head sees only itself) of the share of row i's total on the first token, and on special
// tokens ([CLS], [SEP], <s>, …). Norm shares divide by Σ_j α_ij‖f(x_j)‖, weight shares by Σ_j α_ij = 1.
struct SinkShare {
    HeadRef head;
    double weightFirst = 0, normFirst = 0;
    std::optional<double> weightSpecial, normSpecial;  // none: the sentence has no special token
};

// Every head of every layer; each layer must be in full detail (an error names the first that is not).
Result<std::vector<SinkShare>> sinkShares(const Trace& trace);

// The exports: 1-based layers and heads. JSON: {"heads": [{"layer", "head", "weight_first", …}]},
// CSV with a header row; text: one row a head in `language`.
std::string sinkSharesToJson(const std::vector<SinkShare>& shares, const std::string& source);
std::string sinkSharesToCsv(const std::vector<SinkShare>& shares);
std::string sinkSharesToText(const std::vector<SinkShare>& shares, int decimals, Language language);
// The norm-weighted matrix of one head (1-based in the JSON), rows and columns the tokens.
std::string normMatrixToJson(const Trace& trace, int layer, int head, const Mat& norms);

}  // namespace attnscope
