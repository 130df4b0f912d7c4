// Cell explanations: the arithmetic behind any cell of any step, as data plus rendered lines.
// Shapes: T tokens, d model width, H heads, d_k, d_v head widths; in cross-attention T_q query
// (target) tokens and T_k key/value (source) tokens.
#include "core/trace/explain.hpp"
#include "core/trace/explain_steps.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <functional>

#include "core/lesson/lesson.hpp"
#include "core/pipeline/rope.hpp"
#include "core/text/error_messages.hpp"
#include "core/text/messages.hpp"
#include "core/trace/explain_context.hpp"
#include "core/trace/token_names.hpp"

namespace attnscope {

std::string formatNumber(double value, int decimals) {
    if (std::isnan(value)) return "NaN";
    if (std::isinf(value)) return value < 0 ? "−∞" : "+∞";
    // to_chars prints exactly what printf's %.*f does, several times faster (wide tables).
    char buffer[400];  // 309 integer digits and up to 80 decimals
    const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals);
    std::string text = error == std::errc() ? std::string(buffer, end) : std::to_string(value);
    if (text.find_first_not_of("-0.") == std::string::npos && text[0] == '-') text.erase(0, 1);
    return text;
}

int decimalsFor(double value, int decimals) {
    // Exact: products and sums of a lesson's integers are exact in double; 0.99999 is no integer.
    return std::isfinite(value) && value != std::round(value) ? decimals : 0;
}

int decimalsFor(GridRef values, int decimals) {
    return values.visit([&](const auto& m) {
        for (Eigen::Index i = 0; i < m.size(); ++i)
            if (decimalsFor(static_cast<double>(m.data()[i]), decimals) != 0) return decimals;
        return 0;
    });
}

std::vector<ColumnRange> columnRanges(GridRef values) {
    return values.visit([](const auto& m) {
        std::vector<ColumnRange> ranges(static_cast<std::size_t>(m.cols()));
        for (Eigen::Index r = 0; r < m.rows(); ++r)
            for (Eigen::Index c = 0; c < m.cols(); ++c) {
                const auto value = static_cast<double>(m(r, c));
                ColumnRange& range = ranges[static_cast<std::size_t>(c)];
                if (std::isfinite(value)) range.low = std::min(range.low, value), range.high = std::max(range.high, value);
                else if (std::isnan(value)) range.nan = true;
                else (value < 0 ? range.negativeInfinity : range.positiveInfinity) = true;
            }
        return ranges;
    });
}

namespace explain_detail {

// Σ_r a(r)·b(r) over n terms, each product a term; the sources are both factors' cells.
void addProducts(Explanation& e, const Context& c, int n, const std::function<double(int)>& a,
                 const std::function<double(int)>& b, const std::function<std::string(int)>& label,
                 const std::function<std::pair<CellRef, CellRef>(int)>& refs) {
    e.kind = ExplanationKind::DotProduct;
    for (int r = 0; r < n; ++r) {
        const double product = a(r) * b(r);
        e.terms.push_back({label(r) + " = " + c.num(a(r)) + " × " + c.num(b(r)) + " = " + c.num(product),
                           product});
        const auto [ra, rb] = refs(r);
        e.sources.push_back(ra);
        e.sources.push_back(rb);
    }
}

const Mat& softmaxSourceOf(const Context& c) {
    if (c.cell.step == Step::Probabilities) return c.trace.block.logits;
    const Step input = c.trace.hasMask() ? Step::Masked : (c.trace.scaled ? Step::Scaled : Step::Scores);
    return c.m(input).exact();
}

}  // namespace explain_detail

namespace {

using namespace explain_detail;

std::string headSuffix(const Context& c) {
    const bool severalHeads = c.trace.headCount() > 1;
    if (!isPerHead(c.cell.step) || !severalHeads) return "";
    const std::string shared = readsKeyValueHead(c.cell.step)
                                   ? kvSharingText(c.trace, c.cell.layer, c.cell.head, c.language, true) : "";
    return c.say(MessageId::ExplainHead, {std::to_string(c.cell.head + 1)}) + shared;
}

std::string layerSuffix(const Context& c) {
    const bool titleSaysIt = c.cell.step == Step::Input && c.cell.layer > 0;  // "Input of layer 2: …"
    return c.trace.layerCount() > 1 && !titleSaysIt ? c.say(MessageId::ExplainLayer, {std::to_string(c.cell.layer + 1)}) : "";
}

// Feature names in the explanation's language (a lesson file's code: "en", "zh_CN").
std::string cellName(const Context& c) {
    const char* code = c.language == Language::Chinese ? "zh_CN" : "en";
    const auto rows = rowLabels(c.trace, c.cell.step, c.cell.layer, c.cell.head, code);
    const auto cols = columnLabels(c.trace, c.cell.step, c.cell.layer, c.cell.head, code);
    return std::string(stepSymbol(c.cell.step)) + "[" + rows.at(c.cell.row) + ", " +
           cols.at(c.cell.col) + "]";
}

// Cross-attention's queries and keys come from two sentences, which its explanations say.
MessageId selfOrCross(const Context& c, MessageId self, MessageId cross) {
    return c.trace.isCrossAttention() ? cross : self;
}

void explainProjection(Explanation& e, const Context& c, Step weightStep) {
    // Cross-attention: K and V rows are source tokens, projected from the source's X.
    const bool fromSource = weightStep != Step::WQ && c.trace.isCrossAttention();
    const Step inputStep = fromSource ? Step::SourceInput : Step::Input;
    const std::string x = fromSource ? "X_src" : "X";
    const GridRef X = c.m(inputStep);  // T×d (T_k×d for K and V)
    const GridRef W = c.m(weightStep);
    const int i = c.cell.row, col = c.cell.col;
    const std::string rowToken = fromSource ? c.keyToken(i) : c.token(i);
    const std::string sym(stepSymbol(c.cell.step));
    if (!c.trace.projections) {
        e.kind = ExplanationKind::Copy;
        e.rule = sym + " = " + x + " " + c.say(MessageId::ExplainNoProjections);
        e.terms.push_back({x + "[" + rowToken + ", " + nth(col) + "]", X(i, col)});
        e.sources.push_back(c.at(inputStep, i, col));
        return;
    }
    const std::string w(stepSymbol(weightStep));
    e.rule = sym + "[i,c] = Σ_r " + x + "[i,r] · " + w + "[r,c]  " + c.say(MessageId::ExplainProjection, {x, w});
    addProducts(e, c, static_cast<int>(X.cols()), [&](int r) { return X(i, r); },
                [&](int r) { return W(r, col); },
                [&](int r) { return x + "[" + rowToken + "," + nth(r) + "]·" + w + "[" + nth(r) + "," + nth(col) + "]"; },
                [&](int r) { return std::pair{c.at(inputStep, i, r), c.at(weightStep, r, col)}; });
    const HeadWeights& p = c.head.params;
    const RowVec& bias = weightStep == Step::WQ ? p.bq : weightStep == Step::WK ? p.bk : p.bv;
    if (bias.size()) e.terms.push_back({c.say(MessageId::ExplainBias, {"b[" + nth(col) + "]"}), bias[col]});
}

// Q or K before RoPE: the projection; with q_norm / k_norm the sum is then RMS-normalised over the head.
void explainBeforeRope(Explanation& e, const Context& c, Step weightStep) {
    explainProjection(e, c, weightStep);
    if (c.layer.headNorm) e.rule += c.say(MessageId::ExplainHeadNorm, {weightStep == Step::WQ ? "q_norm" : "k_norm"});
}

// Six significant digits: θ_i spans 1 to 10⁻⁶, so fixed decimals would print most of them as 0.
std::string significant(double value) {
    char buffer[64];
    const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, 6);
    return error == std::errc() ? std::string(buffer, end) : std::to_string(value);
}

// RoPE (core/pipeline/rope.hpp): row m's pair (i, i + d_k/2) of Q_pre (K_pre), or (2i, 2i+1) in the
// interleaved pairing, turned by m·θ_i.
void explainRope(Explanation& e, const Context& c, Step before) {
    const GridRef X = c.m(before);  // T×d_k
    const int m = c.cell.row, col = c.cell.col;
    const int half = static_cast<int>(c.layer.ropeFrequencies.size());  // d_k/2
    if (half == 0) return;  // a layer that kept only its weights has no θ_i (checkCell refuses it first)
    const bool interleaved = c.layer.ropeInterleaved;
    const int i = interleaved ? col / 2 : col % half;
    const auto [firstColumn, secondColumn] = ropePairColumns(i, half, interleaved);
    const bool firstOfPair = col == firstColumn;
    const int partner = firstOfPair ? secondColumn : firstColumn;
    const double theta = c.layer.ropeFrequencies(i), angle = m * theta, cosA = std::cos(angle), sinA = std::sin(angle);
    const std::string pre(stepSymbol(before)), sym(stepSymbol(c.cell.step));
    const std::string token = before == Step::KeyBeforeRope ? c.keyToken(m) : c.token(m);
    const auto at = [&](int column) { return pre + "[" + token + "," + nth(column) + "]"; };
    e.kind = ExplanationKind::Rotation;
    // m is the rotation's multiplier: the first token (m = 0) is not turned.
    e.rule = c.say(MessageId::ExplainRopeRule, {nth(firstColumn), nth(secondColumn), token, std::to_string(m), nth(i)});
    e.details.push_back(sym + "[" + token + "," + nth(col) + "] = " + at(col) + "·cos(m·θ_" + nth(i) + ") " +
                        (firstOfPair ? "− " : "+ ") + at(partner) + "·sin(m·θ_" + nth(i) + ")");
    e.details.push_back(c.say(MessageId::ExplainRopeAngle, {nth(i), std::to_string(m), significant(theta),
                                                            significant(angle), significant(cosA), significant(sinA)}));
    const double a = X(m, col), b = X(m, partner);
    e.terms.push_back({at(col) + "·cos = " + c.num(a) + " × " + significant(cosA) + " = " + c.num(a * cosA), a * cosA});
    const double sinTerm = firstOfPair ? -(b * sinA) : b * sinA;
    e.terms.push_back({std::string(firstOfPair ? "−" : "") + at(partner) + "·sin = " + (firstOfPair ? "−(" : "") + c.num(b) +
                           " × " + significant(sinA) + (firstOfPair ? ")" : "") + " = " + c.num(sinTerm),
                       sinTerm});
    e.sources = {c.at(before, m, col), c.at(before, m, partner)};
}

void explainScores(Explanation& e, const Context& c) {
    const GridRef Q = c.m(Step::Query);
    const GridRef K = c.m(Step::Key);
    const int i = c.cell.row, j = c.cell.col;
    e.rule = "S[i,j] = q_i · k_j = Σ_c Q[i,c] · K[j,c]  " +
             c.say(selfOrCross(c, MessageId::ExplainScores, MessageId::ExplainScoresCross), {c.token(i), c.keyToken(j)});
    addProducts(e, c, static_cast<int>(Q.cols()), [&](int k) { return Q(i, k); },
                [&](int k) { return K(j, k); },
                [&](int k) { return "q[" + c.token(i) + "," + nth(k) + "]·k[" + c.keyToken(j) + "," + nth(k) + "]"; },
                [&](int k) { return std::pair{c.at(Step::Query, i, k), c.at(Step::Key, j, k)}; });
}

void explainScaled(Explanation& e, const Context& c) {
    e.kind = ExplanationKind::Division;
    const double score = c.m(Step::Scores)(c.cell.row, c.cell.col);
    const int dK = static_cast<int>(c.head.q.cols());
    e.rule = "scaled = S[i,j] / √d_k " +
             c.say(MessageId::ExplainScaled, {std::to_string(dK), formatNumber(c.trace.scaleDivisor, 8)});
    e.numerator = score;
    e.divisor = c.trace.scaleDivisor;
    e.terms.push_back({c.num(score) + " / " + formatNumber(c.trace.scaleDivisor, 8), score / c.trace.scaleDivisor});
    e.sources.push_back(c.at(Step::Scores, c.cell.row, c.cell.col));
}

// Why M[i,j] hides or keeps a key: a [PAD] column, a later token (causal), or neither.
std::string maskReason(const Context& c, int i, int j) {
    const bool padding = c.trace.paddedFrom >= 0 && j >= c.trace.paddedFrom;
    const bool later = c.trace.causal && j > i;
    if (padding) return c.say(MessageId::ExplainMaskPadding, {c.keyToken(j)});
    if (later) return c.say(MessageId::ExplainMaskLater, {c.keyToken(j), c.token(i)});
    if (c.trace.isCrossAttention()) return c.say(MessageId::ExplainMaskCross);
    return c.trace.causal ? c.say(MessageId::ExplainMaskEarlier, {c.keyToken(j), c.token(i)})
                          : c.say(MessageId::ExplainMaskReal, {c.keyToken(j)});
}

MessageId maskRule(const Trace& trace) {
    if (trace.causal && trace.paddedFrom >= 0) return MessageId::ExplainMaskRuleCausalPadding;
    if (trace.paddedFrom >= 0) return MessageId::ExplainMaskRulePadding;
    return trace.causal ? MessageId::ExplainMaskRuleCausal : MessageId::ExplainMaskRuleNone;
}

void explainMask(Explanation& e, const Context& c) {
    const int i = c.cell.row, j = c.cell.col;
    if (c.cell.step == Step::Mask) {
        e.kind = ExplanationKind::Given;
        e.rule = maskReason(c, i, j);
        return;
    }
    e.kind = ExplanationKind::Mask;
    // A lesson without scaling masks the scores themselves.
    const Step before = c.trace.scaled ? Step::Scaled : Step::Scores;
    const std::string name = c.trace.scaled ? "scaled" : "S";
    e.rule = "masked = " + name + " + M[i,j]  " + c.say(maskRule(c.trace));
    e.terms.push_back({name + "[" + c.token(i) + "," + c.keyToken(j) + "]", c.m(before)(i, j)});
    e.terms.push_back({"M[" + c.token(i) + "," + c.keyToken(j) + "]", c.head.mask(i, j)});
    e.sources = {c.at(before, i, j), c.at(Step::Mask, i, j)};
}

Step softmaxInput(const Trace& trace) {
    return trace.hasMask() ? Step::Masked : (trace.scaled ? Step::Scaled : Step::Scores);
}

void explainSoftmax(Explanation& e, const Context& c) {
    const Step inputStep = softmaxInput(c.trace);
    const Mat& S = c.m(inputStep).exact();  // the scores before the softmax are double in every Trace
    const int i = c.cell.row, j = c.cell.col;
    e.kind = ExplanationKind::Softmax;
    const double rowMax = S.row(i).maxCoeff();
    e.rowMax = rowMax;
    e.rule = "A[i,j] = exp(s_ij − max) / Σ_j' exp(s_ij' − max)" + c.say(MessageId::ExplainSoftmax, {c.num(rowMax)});
    for (int k = 0; k < S.cols(); ++k) {
        const double shifted = std::isfinite(rowMax) ? std::exp(S(i, k) - rowMax) : 0.0;
        const std::string exp = "exp(" + c.num(S(i, k)) + " − " + c.num(rowMax) + ")";
        e.terms.push_back({c.say(MessageId::ExplainExpFor, {exp, c.keyToken(k)}), shifted});
        e.sources.push_back(c.at(inputStep, i, k));
    }
    e.numerator = e.terms.at(j).value;
    e.divisor = 0.0;
    for (const Term& t : e.terms) *e.divisor += t.value;
}

void explainWeightedSum(Explanation& e, const Context& c) {
    const GridRef A = c.m(Step::Weights);
    const GridRef V = c.m(Step::Value);
    const int i = c.cell.row, col = c.cell.col;
    e.rule = "out[i,c] = Σ_j A[i,j] · V[j,c]  " +
             c.say(selfOrCross(c, MessageId::ExplainWeightedSum, MessageId::ExplainWeightedSumCross), {c.token(i)});
    // A head switched off (head_mask 0) multiplies its weights by 0 before this sum.
    const bool off = c.head.ablated;
    if (off) e.rule = c.say(MessageId::ExplainHeadOff) + "out[i,c] = Σ_j (0·A[i,j]) · V[j,c] = 0";
    addProducts(e, c, static_cast<int>(A.cols()), [&](int j) { return off ? 0.0 * A(i, j) : A(i, j); },
                [&](int j) { return V(j, col); },
                [&](int j) { return std::string(off ? "0·" : "") + "a[" + c.token(i) + "→" + c.keyToken(j) + "]·v[" +
                                    c.keyToken(j) + "," + nth(col) + "]"; },
                [&](int j) { return std::pair{c.at(Step::Weights, i, j), c.at(Step::Value, j, col)}; });
}

void explainConcat(Explanation& e, const Context& c) {
    e.kind = ExplanationKind::Copy;
    const int dV = static_cast<int>(c.layer.heads.at(0).weightedSum.cols());
    const int h = c.cell.col / dV, col = c.cell.col % dV;
    e.rule = c.say(MessageId::ExplainConcat, {nth(c.cell.col), nth(col), nth(h)});
    const std::string av = "A·V[" + c.token(c.cell.row) + "," + nth(col) + "]";
    e.terms.push_back({c.say(MessageId::ExplainConcatTerm, {std::to_string(h + 1), av}),
                       c.layer.heads.at(h).weightedSum(c.cell.row, col)});
    e.sources.push_back(CellRef{Step::WeightedSum, c.cell.layer, h, c.cell.row, col});
}

// A layer without W_O whose identity is too wide to store: its output is the concatenation.
void explainOutputCopy(Explanation& e, const Context& c) {
    const int i = c.cell.row, col = c.cell.col;
    e.kind = ExplanationKind::Copy;
    e.rule = "out = concat " + c.say(MessageId::ExplainNoWO);
    e.terms.push_back({"concat[" + c.token(i) + "," + nth(col) + "]", c.layer.concat(i, col)});
    e.sources.push_back(c.at(Step::Concat, i, col));
    if (c.layer.bo.size()) e.terms.push_back({c.say(MessageId::ExplainBias, {"b_O[" + nth(col) + "]"}), c.layer.bo[col]});
}

void explainOutput(Explanation& e, const Context& c) {
    const Mat& C = c.layer.concat;
    const Mat& W = c.layer.wo;
    if (W.size() == 0) return explainOutputCopy(e, c);
    const int i = c.cell.row, col = c.cell.col;
    const int dV = static_cast<int>(c.layer.heads.at(0).weightedSum.cols());
    const bool single = c.trace.headCount() == 1;
    e.rule = "out[i,c] = Σ_r concat[i,r] · W_O[r,c]";
    addProducts(e, c, static_cast<int>(C.cols()), [&](int r) { return C(i, r); },
                [&](int r) { return W(r, col); },
                [&](int r) { return "concat[" + c.token(i) + "," + nth(r) + "]·W_O[" + nth(r) + "," + nth(col) + "]"; },
                [&](int r) {
                    const CellRef from = single ? CellRef{Step::WeightedSum, c.cell.layer, r / dV, i, r % dV}
                                                : c.at(Step::Concat, i, r);
                    return std::pair{from, c.at(Step::WO, r, col)};
                });
    if (c.layer.bo.size()) e.terms.push_back({c.say(MessageId::ExplainBias, {"b_O[" + nth(col) + "]"}), c.layer.bo[col]});
}

void explainEmbedding(Explanation& e, const Context& c) {
    const Token& t = c.trace.tokens.at(c.cell.row);
    if (isDecoderCrossStage(c.trace)) {  // Y₁, computed in the decoder's own stage
        e.kind = ExplanationKind::Given;
        e.rule = c.say(MessageId::ExplainDecoderState, {c.token(c.cell.row), nth(c.cell.row)});
        return;
    }
    e.kind = ExplanationKind::Lookup;
    if (t.inTable) {
        e.rule = c.say(MessageId::ExplainLookup, {t.text, nth(c.cell.col)});
        return;
    }
    if (t.zeroVector) {
        e.rule = c.say(MessageId::ExplainZeroRule, {t.text});
        return;
    }
    std::string bytes = t.text;
    bytes.push_back(static_cast<char>(c.cell.col));
    const std::uint32_t hash = fnv1a32(bytes);
    e.rule = c.say(MessageId::ExplainHashRule,
                   {t.text, std::to_string(c.cell.col), std::to_string(hash), std::to_string(hash % 5)});
}

void explainPositional(Explanation& e, const Context& c) {
    e.kind = ExplanationKind::Given;
    const int pos = c.cell.row, col = c.cell.col;
    const int d = static_cast<int>(c.trace.positional.cols());
    if (c.trace.positionalKind == PositionalKind::Sinusoidal) {
        const int pair = col / 2;
        // pos is the formula's own variable: the first token has pos = 0.
        e.rule = std::string(col % 2 == 0 ? "sin" : "cos") + "(" + std::to_string(pos) + " / 10000^(" +
                 std::to_string(2 * pair) + "/" + std::to_string(d) + "))  " +
                 c.say(MessageId::ExplainPositionColumn, {nth(pos), std::to_string(pos), nth(col)});
    } else {
        e.rule = c.say(MessageId::ExplainPositionalTableRow, {nth(pos)});
    }
}

// A later layer's input: the residual sum of the layer before (lessons), or what a real model's
// layer passed on after parts this view does not show (feed-forward block, LayerNorm).
void explainLaterInput(Explanation& e, const Context& c) {
    const int i = c.cell.row, col = c.cell.col, before = c.cell.layer - 1;
    const LayerTrace& previous = c.trace.layers.at(before);
    const std::string n = std::to_string(before + 1);
    if (!c.trace.residual) {
        e.kind = ExplanationKind::Given;
        e.rule = c.say(MessageId::ExplainPassedOn, {n});
        return;
    }
    e.kind = ExplanationKind::Sum;
    e.rule = c.say(MessageId::ExplainResidual, {n});
    const std::string at = "[" + c.token(i) + "," + nth(col) + "]";
    e.terms.push_back({c.say(MessageId::ExplainOfLayer, {"X" + at, n}), previous.input(i, col)});
    e.terms.push_back({c.say(MessageId::ExplainOfLayer, {"out" + at, n}), previous.output(i, col)});
    e.sources = {CellRef{Step::Input, before, 0, i, col}, CellRef{Step::Output, before, 0, i, col}};
}

void explainInput(Explanation& e, const Context& c) {
    if (c.cell.layer > 0) return explainLaterInput(e, c);
    const int i = c.cell.row, col = c.cell.col;
    e.kind = ExplanationKind::Sum;
    e.rule = c.say(MessageId::ExplainInput);
    e.terms.push_back({"E[" + c.token(i) + "," + nth(col) + "]", c.trace.embedding(i, col)});
    // The window's copy of a long RoPE run keeps no positional zeros (shownTraceOf): P is 0 there.
    const Mat& P = c.trace.positional;
    e.terms.push_back({"P[" + nth(i) + "," + nth(col) + "]", i < P.rows() && col < P.cols() ? P(i, col) : 0.0});
    e.sources = {c.at(Step::Embedding, i, col), c.at(Step::Positional, i, col)};
}

// The source's X is not kept split into E and P; its rule says how it was made.
void explainSourceInput(Explanation& e, const Context& c) {
    if (!c.trace.isCrossAttention()) return explainInput(e, c);  // self-attention: X itself
    e.kind = ExplanationKind::Given;
    const MessageId rule = isDecoderCrossStage(c.trace) ? MessageId::ExplainEncoderOutput : MessageId::ExplainSourceInput;
    e.rule = c.say(rule, {c.keyToken(c.cell.row), nth(c.cell.row)});
}

void build(Explanation& e, const Context& c) {
    switch (c.cell.step) {
        case Step::Embedding: return explainEmbedding(e, c);
        case Step::Positional: return explainPositional(e, c);
        case Step::Input: return explainInput(e, c);
        case Step::SourceInput: return explainSourceInput(e, c);
        case Step::QueryBeforeRope: return explainBeforeRope(e, c, Step::WQ);
        case Step::KeyBeforeRope: return explainBeforeRope(e, c, Step::WK);
        case Step::Query:
            return c.trace.rotates() ? explainRope(e, c, Step::QueryBeforeRope) : explainProjection(e, c, Step::WQ);
        case Step::Key:
            return c.trace.rotates() ? explainRope(e, c, Step::KeyBeforeRope) : explainProjection(e, c, Step::WK);
        case Step::Value: return explainProjection(e, c, Step::WV);
        case Step::Scores: return explainScores(e, c);
        case Step::Scaled: return explainScaled(e, c);
        case Step::Mask: case Step::Masked: return explainMask(e, c);
        case Step::Weights: return explainSoftmax(e, c);
        case Step::WeightedSum: return explainWeightedSum(e, c);
        case Step::Concat: return explainConcat(e, c);
        case Step::Output: return explainOutput(e, c);
        case Step::WQ: case Step::WK: case Step::WV: case Step::WO:
            e.kind = ExplanationKind::Given;
            e.rule = c.say(MessageId::ExplainLessonWeight);
            return;
        default: explainBlockCell(e, c);
    }
}

// "¹¹", "⁻⁴": a whole exponent as textbooks print it.
std::string superscript(long long n) {
    static const char* const kDigits[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
    std::string out = n < 0 ? "⁻" : "";
    for (const char d : std::to_string(n < 0 ? -n : n)) out += kDigits[d - '0'];
    return out;
}

std::string power(const Context& c, double s) {
    return s == std::round(s) && std::abs(s) < 1e15 ? "e" + superscript(static_cast<long long>(s)) : "e^" + c.num(s);
}

constexpr int kTextbookTerms = 16;   // a longer sum does not fit a line a class reads
constexpr double kLargestExponent = 700;  // e^710 overflows a double

// The softmax as blogs and textbooks write it, e^s_ij / Σ e^s_ij', beside the numerically safe
// form: the same value, exponentials of the scores themselves (hidden keys, e^−∞ = 0, left out).
void renderTextbookSoftmax(Explanation& e, const Context& c) {
    const Mat& S = softmaxSourceOf(c);
    const std::string a = c.cell.step == Step::Probabilities ? "P" : "A";
    const int i = c.cell.row, j = c.cell.col;
    std::vector<double> shown;
    for (int k = 0; k < S.cols(); ++k)
        if (std::isfinite(S(i, k))) shown.push_back(S(i, k));
    const bool fits = !shown.empty() && static_cast<int>(shown.size()) <= kTextbookTerms && std::isfinite(S(i, j)) &&
                      *std::max_element(shown.begin(), shown.end()) <= kLargestExponent;
    if (!fits) return;
    std::string powers, values;
    double sum = 0;
    for (const double s : shown) {
        powers += (powers.empty() ? "" : " + ") + power(c, s);
        values += (values.empty() ? "" : " + ") + c.num(std::exp(s));
        sum += std::exp(s);
    }
    e.lines.push_back(a + "[i,j] = e^s_ij / Σ_j' e^s_ij'");  // symbols only: the same line in every language
    e.lines.push_back("  " + a + " = " + power(c, S(i, j)) + " / (" + powers + ")");
    e.lines.push_back("    = " + c.num(std::exp(S(i, j))) + " / (" + values + ") = " + c.num(std::exp(S(i, j)) / sum));
}

void renderResult(Explanation& e, const Context& c) {
    auto& out = e.lines;
    if (e.kind == ExplanationKind::Softmax) {
        out.push_back(c.say(MessageId::ExplainSumOfExponentials, {c.num(*e.divisor)}));
        out.push_back((c.cell.step == Step::Probabilities ? "P = " : "A = ") + c.num(*e.numerator) + " / " + c.num(*e.divisor) + " = " +
                      c.num(*e.divisor > 0 ? *e.numerator / *e.divisor : 0.0));
        renderTextbookSoftmax(e, c);
    } else if (e.kind == ExplanationKind::Sum || e.kind == ExplanationKind::DotProduct ||
               e.kind == ExplanationKind::Mask || e.kind == ExplanationKind::Rotation) {
        out.push_back(c.say(MessageId::ExplainSum, {c.num(e.termsTotal)}));
    }
    if (c.trace.handRounding && e.kind != ExplanationKind::Given && e.kind != ExplanationKind::Lookup)
        out.push_back(c.say(MessageId::ExplainHandRounded, {std::to_string(*c.trace.handRounding), c.num(e.value)}));
    else
        out.push_back(c.say(MessageId::ExplainValue, {c.num(e.value)}));
}

void render(Explanation& e, const Context& c) {
    e.lines.push_back(e.title);
    e.lines.push_back(e.rule);
    for (const std::string& line : e.details) e.lines.push_back(line);  // the terms start after these (linesUpToTerm)
    for (const Term& t : e.terms)
        e.lines.push_back("  " + t.label + (t.label.find(" = ") == std::string::npos ? " = " + c.num(t.value) : ""));
    renderResult(e, c);
}

// A real model's run may keep only the weights of a layer (LayerDetail::WeightsOnly); an
// explanation reads the operands too, so it needs all of them. (Empty W_Q…W_O are fine: in a
// wide lesson without projections or W_O they stand for identities that are not stored.)
bool keepsEveryIntermediate(const LayerTrace& layer) {
    if (layer.input.size() == 0 || layer.output.size() == 0 || layer.heads.empty()) return false;
    for (const HeadTrace& head : layer.heads)
        if (head.q.size() == 0 || head.maskedScores.size() == 0) return false;
    return true;
}

// An explanation of whole numbers (the cell and its operands) prints them as the lesson writes them.
int explanationDecimals(const Trace& trace, const CellRef& cell, int decimals) {
    int shown = decimalsFor(stepMatrix(trace, cell.step, cell.layer, cell.head), decimals);
    for (const Operand& o : operandsOf(trace, cell.step, cell.layer))
        shown = std::max(shown, decimalsFor(stepMatrix(trace, o.step, o.layer, cell.head), decimals));
    return shown;
}

Result<void> checkCell(const Trace& trace, const CellRef& cell) {
    const ErrorText where = errorText(ErrorId::WhereCellOf, stepKey(cell.step));
    if (cell.layer < 0 || cell.layer >= static_cast<int>(trace.layers.size()))
        return Error{where, errorText(ErrorId::LayerDoesNotExist, cell.layer)};
    if (cell.head < 0 || cell.head >= trace.headCount()) return Error{where, errorText(ErrorId::HeadDoesNotExist, cell.head)};
    const bool layerStep = cell.step != Step::Embedding && cell.step != Step::Positional;
    if (layerStep && !keepsEveryIntermediate(trace.layers[static_cast<std::size_t>(cell.layer)]))
        return Error{where, errorText(ErrorId::LayerKeptOnlyWeights, cell.layer + 1)};
    const GridRef m = stepMatrix(trace, cell.step, cell.layer, cell.head);
    if (cell.row < 0 || cell.row >= m.rows() || cell.col < 0 || cell.col >= m.cols())
        return Error{where, errorText(ErrorId::CellOutsideMatrix, cell.row, cell.col, m.rows(), m.cols())};
    return {};
}

}  // namespace

std::vector<std::string> runningSums(const Trace& trace, const Explanation& e, int decimals) {
    const bool summed = e.kind == ExplanationKind::DotProduct || e.kind == ExplanationKind::Sum ||
                        e.kind == ExplanationKind::Rotation;
    if (!summed || e.terms.size() < 2) return {};
    const int shown = explanationDecimals(trace, e.cell, decimals);  // as the explanation prints its numbers
    std::vector<std::string> sums;
    double sum = 0;
    for (const Term& t : e.terms) {
        sum += t.value;
        sums.push_back(formatNumber(sum, decimalsFor(sum, shown)));
    }
    return sums;
}

std::vector<std::string> linesUpToTerm(const Explanation& e, std::size_t shown) {
    const std::size_t end = std::min(2 + e.details.size() + std::min(shown, e.terms.size()), e.lines.size());
    return {e.lines.begin(), e.lines.begin() + static_cast<std::ptrdiff_t>(end)};
}

Result<Explanation> explainCell(const Trace& trace, const CellRef& cell, int decimals, Language language) {
    if (auto error = checkCell(trace, cell); !error.ok()) return error.error();
    const LayerTrace& layer = trace.layers[cell.layer];
    const Context c{trace, cell, explanationDecimals(trace, cell, decimals), layer, layer.heads[cell.head], language};
    Explanation e;
    e.cell = cell;
    e.value = stepMatrix(trace, cell.step, cell.layer, cell.head)(cell.row, cell.col);
    e.title = c.say(MessageId::TitleOfCell, {stepTitleIn(trace, cell.step, cell.layer, language), cellName(c)}) +
              headSuffix(c) + layerSuffix(c);
    build(e, c);
    for (const Term& t : e.terms) e.termsTotal += t.value;
    render(e, c);
    return e;
}

}  // namespace attnscope
