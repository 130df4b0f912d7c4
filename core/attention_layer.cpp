// One self-attention layer.  Shapes: T tokens, d model width, H heads, d_k, d_v head widths.
#include "core/attention_layer.hpp"

#include "core/pipeline/steps.hpp"

namespace attnscope {

namespace {

// Applies hand-rounding when it is on, so each step starts from what a student wrote down.
struct Rounder {
    std::optional<int> decimals;
    Mat operator()(Mat m) const { return decimals ? roundTo(m, *decimals) : m; }
};

HeadTrace runHead(const Mat& X, const HeadWeights& w, const AttentionOptions& options,
                  const std::vector<std::string>& tokenNames, std::vector<std::string>* notices) {
    const Rounder r{options.handRounding};
    const int T = static_cast<int>(X.rows());
    HeadTrace h;
    h.params = w;
    h.q = r(project(X, w.wq, w.bq));                 // T×d_k
    h.k = r(project(X, w.wk, w.bk));                 // T×d_k
    h.v = r(project(X, w.wv, w.bv));                 // T×d_v
    h.scores = r(attentionScores(h.q, h.k));         // T×T
    const double divisor = options.scaled ? sqrtOf(static_cast<int>(h.q.cols())) : 1.0;
    h.scaledScores = r(scaleScores(h.scores, divisor));  // T×T
    h.mask = options.causal ? causalMask(T) : noMask(T);  // T×T
    if (options.realTokens >= 0) h.mask += paddingMask(T, options.realTokens);  // -inf + -inf stays -inf
    h.maskedScores = applyMask(h.scaledScores, h.mask);  // T×T
    h.weights = r(softmaxRows(h.maskedScores, notices, tokenNames));  // T×T
    h.weightedSum = r(weightedSum(h.weights, h.v));  // T×d_v
    return h;
}

}  // namespace

HeadWeights identityHead(int d) {
    const Mat eye = Mat::Identity(d, d);
    return HeadWeights{eye, eye, eye, {}, {}, {}};
}

LayerTrace runAttentionLayer(const Mat& X, const std::vector<HeadWeights>& heads, const Mat& wo,
                             const RowVec& bo, const AttentionOptions& options,
                             const std::vector<std::string>& tokenNames,
                             std::vector<std::string>* notices) {
    LayerTrace layer;
    layer.input = X;  // T×d
    std::vector<Mat> outputs;
    for (const HeadWeights& w : heads) {
        std::vector<std::string> headNotices;
        layer.heads.push_back(runHead(X, w, options, tokenNames, &headNotices));
        outputs.push_back(layer.heads.back().weightedSum);
        for (const std::string& n : headNotices)
            if (notices) notices->push_back("head " + std::to_string(layer.heads.size()) + ": " + n);
    }
    layer.concat = concatHeads(outputs);  // T×(H·d_v)
    layer.wo = wo.size() > 0 ? wo : Mat(Mat::Identity(layer.concat.cols(), layer.concat.cols()));
    layer.bo = bo;
    const Rounder r{options.handRounding};
    layer.output = r(outputProjection(layer.concat, layer.wo, layer.bo));  // T×d (T×H·d_v without W_O)
    return layer;
}

}  // namespace attnscope
