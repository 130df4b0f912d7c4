// The block after attention: residual, norms, feed-forward network, output head (block.hpp).
// Shape legend: T tokens, d model width, d_ff feed-forward width, V vocabulary size.
#include "core/pipeline/block.hpp"

#include <cmath>

#include "core/pipeline/steps.hpp"

namespace attnscope {

namespace {

Mat rounded(const Mat& m, const std::optional<int>& round) { return round ? roundTo(m, *round) : m; }

}  // namespace

Mat addResidual(const Mat& X, const Mat& sublayerOutput) {
    return X + sublayerOutput;  // T×d
}

void layerNormRows(const Mat& X, NormTrace& norm) {
    const Eigen::Index T = X.rows(), d = X.cols();
    norm.mean.resize(T, 1);      // T×1
    norm.variance.resize(T, 1);  // T×1
    norm.output.resize(T, d);    // T×d
    for (Eigen::Index t = 0; t < T; ++t) {
        const double mu = X.row(t).sum() / static_cast<double>(d);
        const RowVec centred = X.row(t).array() - mu;  // 1×d
        const double variance = centred.squaredNorm() / static_cast<double>(d);  // biased, as torch
        norm.mean(t, 0) = mu;
        norm.variance(t, 0) = variance;
        RowVec y = centred / std::sqrt(variance + norm.eps);
        y = y.cwiseProduct(norm.gamma);
        if (norm.beta.size() > 0) y += norm.beta;
        norm.output.row(t) = y;
    }
}

void rmsNormRows(const Mat& X, NormTrace& norm) {
    const Eigen::Index T = X.rows(), d = X.cols();
    norm.mean.resize(0, 0);
    norm.variance.resize(T, 1);  // T×1 mean of squares
    norm.output.resize(T, d);    // T×d
    for (Eigen::Index t = 0; t < T; ++t) {
        const double meanSquare = X.row(t).squaredNorm() / static_cast<double>(d);
        norm.variance(t, 0) = meanSquare;
        norm.output.row(t) = (X.row(t) / std::sqrt(meanSquare + norm.eps)).cwiseProduct(norm.gamma);
    }
}

void normRows(const Mat& X, NormTrace& norm) {
    if (norm.kind == BlockNorm::RmsNorm) rmsNormRows(X, norm);
    else layerNormRows(X, norm);
}

double reluOf(double x) { return x > 0 ? x : 0.0; }
double geluOf(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }
double siluOf(double x) { return x / (1.0 + std::exp(-x)); }

Mat activateCells(const Mat& H, BlockFfn kind) {
    return kind == BlockFfn::Gelu ? Mat(H.unaryExpr(&geluOf)) : Mat(H.unaryExpr(&reluOf));  // T×d_ff
}

void feedForward(const Mat& N, FeedForwardTrace& ffn, const std::optional<int>& round) {
    if (ffn.kind == BlockFfn::SwiGlu) {
        ffn.gate = rounded(project(N, ffn.wGate, RowVec()), round);              // T×d · d×d_ff → T×d_ff
        ffn.hidden = rounded(project(N, ffn.wIn, RowVec()), round);              // T×d_ff  U = N·W_up
        const Mat silu = ffn.gate.unaryExpr(&siluOf);                            // T×d_ff
        ffn.activated = rounded(silu.cwiseProduct(ffn.hidden), round);           // T×d_ff  SiLU(G) ⊙ U
    } else {
        ffn.gate.resize(0, 0);
        ffn.hidden = rounded(project(N, ffn.wIn, ffn.bIn), round);               // T×d_ff  H = N·W_1 + b_1
        ffn.activated = rounded(activateCells(ffn.hidden, ffn.kind), round);     // T×d_ff
    }
    ffn.output = rounded(project(ffn.activated, ffn.wOut, ffn.bOut), round);     // T×d_ff · d_ff×d → T×d
}

void runBlock(const Mat& X, const Mat& attentionOutput, BlockTrace& block, const std::optional<int>& round,
              const std::vector<std::string>& tokenNames, std::vector<Notice>* notices) {
    Mat current = attentionOutput;  // T×d
    if (block.residual) current = block.afterAttention = rounded(addResidual(X, attentionOutput), round);
    if (block.norm.present()) {
        normRows(current, block.norm);
        current = block.norm.output = rounded(block.norm.output, round);
    }
    if (block.ffn.present()) {
        feedForward(current, block.ffn, round);
        current = block.residual ? (block.afterFfn = rounded(addResidual(current, block.ffn.output), round))
                                 : block.ffn.output;
    }
    if (block.finalNorm.present()) {
        normRows(current, block.finalNorm);
        current = block.finalNorm.output = rounded(block.finalNorm.output, round);
    }
    if (block.wVocab.size() == 0) return;
    block.logits = rounded(project(current, block.wVocab, block.bVocab), round);  // T×d · d×V → T×V
    block.probabilities = rounded(softmaxRows(block.logits, notices, tokenNames), round);  // T×V
}

}  // namespace attnscope
