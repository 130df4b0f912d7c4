// Cell explanations of the block after attention: residual sums, the norms (a row's mean,
// variance, ε and the division), the feed-forward products and activations (a SwiGLU cell's gate
// and up products), the output head and the softmax over the vocabulary.
// Shape legend: T tokens, d model width, d_ff feed-forward width, V vocabulary size.
#include <charconv>
#include <cmath>
#include <string>

#include "core/pipeline/block.hpp"
#include "core/trace/explain_context.hpp"

namespace attnscope::explain_detail {

namespace {

// ε as people write it ("0.00001"): the lesson's decimals would print 0.000, six significant
// digits 1e-05. to_chars without a precision gives the shortest fixed text that reads back exactly.
std::string plainDecimal(double value) {
    char buffer[400];  // fixed notation of any double
    const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed);
    return error == std::errc() ? std::string(buffer, end) : std::to_string(value);
}

// "r[tok,c]": a cell of a block step named by its symbol.
std::string cellOf(const Context& c, Step step, int row, int column) {
    return std::string(stepSymbol(step)) + "[" + c.token(row) + "," + nth(column) + "]";
}

// What the block step reads (its first operand): the attention output, R, N, …
Step inputOf(const Context& c) { return operandsOf(c.trace, c.cell.step, c.cell.layer).at(0).step; }

void explainResidual(Explanation& e, const Context& c) {
    const auto operands = operandsOf(c.trace, c.cell.step, c.cell.layer);  // {X, sublayer output}
    const int i = c.cell.row, j = c.cell.col;
    e.kind = ExplanationKind::Sum;
    const bool afterFfn = c.cell.step == Step::AddFfn;
    e.rule = std::string(afterFfn ? "R₂ = N + F  " : "R = X + out  ") +
             c.say(afterFfn ? MessageId::ExplainFfnResidual : MessageId::ExplainBlockResidual);
    for (const Operand& o : operands) {
        e.terms.push_back({cellOf(c, o.step, i, j), c.m(o.step)(i, j)});
        e.sources.push_back(c.at(o.step, i, j));
    }
}

// "a + b + c"
std::string joined(const RowVec& values, const Context& c, const char* separator = " + ") {
    std::string out;
    for (Eigen::Index k = 0; k < values.size(); ++k) out += (k ? separator : "") + c.num(values[k]);
    return out;
}

void explainNorm(Explanation& e, const Context& c) {
    const NormTrace& norm = c.cell.step == Step::Norm ? c.trace.block.norm : c.trace.block.finalNorm;
    const Step in = inputOf(c);
    const Mat& X = c.m(in).exact();  // T×d
    const int i = c.cell.row, j = c.cell.col;
    const auto d = static_cast<double>(X.cols());
    const RowVec x = X.row(i);
    const bool layer = norm.kind == BlockNorm::LayerNorm;
    e.kind = ExplanationKind::Sum;
    e.rule = c.say(layer ? MessageId::ExplainLayerNormRule : MessageId::ExplainRmsNormRule, {c.token(i)});
    const double mu = layer ? norm.mean(i, 0) : 0.0;
    const double spread = norm.variance(i, 0);  // σ² (LayerNorm) or mean of squares (RMSNorm)
    const double root = std::sqrt(spread + norm.eps);
    std::string squares;
    for (Eigen::Index k = 0; k < x.size(); ++k)
        squares += (k ? " + " : "") + (layer ? "(" + c.num(x[k]) + " − " + c.num(mu) + ")²" : c.num(x[k]) + "²");
    if (layer) e.details.push_back(c.say(MessageId::ExplainNormMean, {joined(x, c), c.num(d), c.num(mu)}));
    e.details.push_back(c.say(layer ? MessageId::ExplainNormVariance : MessageId::ExplainNormMeanSquare,
                              {squares, c.num(d), c.num(spread)}));
    e.details.push_back(c.say(MessageId::ExplainNormRoot, {plainDecimal(norm.eps), c.num(spread), c.num(root)}));
    const double divided = (x[j] - mu) / root;
    const std::string division = layer ? "(" + c.num(x[j]) + " − " + c.num(mu) + ") / " + c.num(root)
                                       : c.num(x[j]) + " / " + c.num(root);
    e.details.push_back(c.say(MessageId::ExplainNormDivision, {division, c.num(divided)}));
    e.terms.push_back({c.say(MessageId::ExplainNormScale, {nth(j)}) + ": " + c.num(divided) + " × " +
                           c.num(norm.gamma[j]) + " = " + c.num(divided * norm.gamma[j]),
                       divided * norm.gamma[j]});
    if (layer) e.terms.push_back({c.say(MessageId::ExplainNormShift, {nth(j)}), norm.beta[j]});
    for (Eigen::Index k = 0; k < X.cols(); ++k) e.sources.push_back(c.at(in, i, static_cast<int>(k)));
}

// out[i,c] = Σ_r in[i,r]·W[r,c] (+ b[c]): the gate, the hidden layer, the FFN output, the logits.
void explainProduct(Explanation& e, const Context& c, Step in, Step weight, const RowVec& bias) {
    const GridRef X = c.m(in);
    const GridRef W = c.m(weight);
    const int i = c.cell.row, j = c.cell.col;
    const std::string x(stepSymbol(in)), w(stepSymbol(weight)), sym(stepSymbol(c.cell.step));
    e.rule = sym + "[i,c] = Σ_r " + x + "[i,r] · " + w + "[r,c]  " + c.say(MessageId::ExplainProjection, {x, w});
    addProducts(e, c, static_cast<int>(X.cols()), [&](int r) { return X(i, r); }, [&](int r) { return W(r, j); },
                [&](int r) { return x + "[" + c.token(i) + "," + nth(r) + "]·" + w + "[" + nth(r) + "," + nth(j) + "]"; },
                [&](int r) { return std::pair{c.at(in, i, r), c.at(weight, r, j)}; });
    if (bias.size()) e.terms.push_back({c.say(MessageId::ExplainBias, {"b[" + nth(j) + "]"}), bias[j]});
}

// "a × b + c × d = s": a SwiGLU cell's gate or up product written out.
std::string productLine(const Context& c, Step in, Step weight) {
    const GridRef X = c.m(in);
    const GridRef W = c.m(weight);
    std::string out;
    for (Eigen::Index r = 0; r < X.cols(); ++r)
        out += (r ? " + " : "") + c.num(X(c.cell.row, r)) + " × " + c.num(W(r, c.cell.col));
    return out;
}

void explainActivation(Explanation& e, const Context& c) {
    const FeedForwardTrace& ffn = c.trace.block.ffn;
    const int i = c.cell.row, j = c.cell.col;
    const double h = ffn.hidden(i, j);
    e.kind = ExplanationKind::Sum;
    e.sources.push_back(c.at(Step::FfnHidden, i, j));
    if (ffn.kind == BlockFfn::Relu) {
        e.rule = c.say(MessageId::ExplainRelu);
        e.terms.push_back({"max(0, " + c.num(h) + ") = " + c.num(reluOf(h)), reluOf(h)});
    } else if (ffn.kind == BlockFfn::Gelu) {
        e.rule = c.say(MessageId::ExplainGelu);
        const double erf = std::erf(h / std::sqrt(2.0));
        e.details.push_back("erf(" + c.num(h) + " / √2) = " + c.num(erf));
        e.terms.push_back({"½ × " + c.num(h) + " × (1 + " + c.num(erf) + ") = " + c.num(geluOf(h)), geluOf(h)});
    } else {
        const double g = ffn.gate(i, j), silu = siluOf(g);
        e.rule = c.say(MessageId::ExplainSwiGlu);
        const Step ffnInput = operandsOf(c.trace, Step::FfnHidden, c.cell.layer).at(0).step;  // N (or what the FFN reads)
        e.details.push_back(c.say(MessageId::ExplainGateProducts, {productLine(c, ffnInput, Step::WFfnGate), c.num(g)}));
        e.details.push_back(c.say(MessageId::ExplainUpProducts, {productLine(c, ffnInput, Step::WFfnIn), c.num(h)}));
        e.details.push_back("SiLU(g) = " + c.num(g) + " / (1 + e^" + c.num(-g) + ") = " + c.num(g) + " / " +
                            c.num(1.0 + std::exp(-g)) + " = " + c.num(silu));
        e.terms.push_back({"SiLU(g) × u = " + c.num(silu) + " × " + c.num(h) + " = " + c.num(silu * h), silu * h});
        e.sources.insert(e.sources.begin(), c.at(Step::FfnGate, i, j));
    }
}

// P[i,w]: the exponentials of row i's logits (minus their maximum) and their sum.
void explainNextWord(Explanation& e, const Context& c) {
    const Mat& logits = c.trace.block.logits;  // T×V
    const auto& words = c.trace.block.vocabulary;
    const int i = c.cell.row, w = c.cell.col;
    e.kind = ExplanationKind::Softmax;
    const double rowMax = logits.row(i).maxCoeff();
    e.rowMax = rowMax;
    e.rule = "P[i,w] = exp(logit_w − max) / Σ_w' exp(logit_w' − max)" + c.say(MessageId::ExplainSoftmax, {c.num(rowMax)}) +
             " " + c.say(MessageId::ExplainNextWord, {words.at(static_cast<std::size_t>(w)), std::to_string(words.size())});
    for (Eigen::Index k = 0; k < logits.cols(); ++k) {
        const double shifted = std::isfinite(rowMax) ? std::exp(logits(i, k) - rowMax) : 0.0;
        const std::string exp = "exp(" + c.num(logits(i, k)) + " − " + c.num(rowMax) + ")";
        e.terms.push_back({c.say(MessageId::ExplainExpFor, {exp, words.at(static_cast<std::size_t>(k))}), shifted});
        e.sources.push_back(c.at(Step::Logits, i, static_cast<int>(k)));
    }
    e.numerator = e.terms.at(static_cast<std::size_t>(w)).value;
    e.divisor = 0.0;
    for (const Term& t : e.terms) *e.divisor += t.value;
}

}  // namespace

bool explainBlockCell(Explanation& e, const Context& c) {
    const BlockTrace& b = c.trace.block;
    switch (c.cell.step) {
        case Step::AddAttention: case Step::AddFfn: explainResidual(e, c); return true;
        case Step::Norm: case Step::FinalNorm: explainNorm(e, c); return true;
        case Step::FfnGate: explainProduct(e, c, inputOf(c), Step::WFfnGate, RowVec()); return true;
        case Step::FfnHidden: explainProduct(e, c, inputOf(c), Step::WFfnIn, b.ffn.bIn); return true;
        case Step::FfnActivated: explainActivation(e, c); return true;
        case Step::FfnOutput: explainProduct(e, c, Step::FfnActivated, Step::WFfnOut, b.ffn.bOut); return true;
        case Step::Logits: explainProduct(e, c, inputOf(c), Step::WVocab, b.bVocab); return true;
        case Step::Probabilities: explainNextWord(e, c); return true;
        case Step::WFfnGate: case Step::WFfnIn: case Step::WFfnOut: case Step::WVocab:
            e.kind = ExplanationKind::Given;
            e.rule = c.say(MessageId::ExplainLessonWeight);
            return true;
        default: return false;
    }
}

}  // namespace attnscope::explain_detail
