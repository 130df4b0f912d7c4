// One self-attention or cross-attention layer.  Shapes: T tokens (T_q queries, T_k keys in
// cross-attention), d model width, H heads, d_k, d_v head widths.
#include "core/pipeline/attention_layer.hpp"

#include "core/pipeline/steps.hpp"

namespace attnscope {

namespace {

// Applies hand-rounding when it is on, so each step starts from what a student wrote down.
struct Rounder {
    std::optional<int> decimals;
    Mat operator()(Mat m) const { return decimals ? roundTo(m, *decimals) : m; }
};

// X·W + b, or X + b when W is empty (the identity, see identityHead).
Mat projectOrCopy(const Mat& X, const Mat& W, const RowVec& b) {
    if (W.size() > 0) return project(X, W, b);
    Mat out = X;
    if (b.size() > 0) out.rowwise() += b;
    return out;
}

Mat shownIdentity(Eigen::Index width) {
    return width <= kLargestShownIdentity ? Mat(Mat::Identity(width, width)) : Mat();
}

// Self-attention passes the same X twice (Xq = Xkv, T_q = T_k = T).
HeadTrace runHead(const Mat& Xq, const Mat& Xkv, const HeadWeights& w, const AttentionOptions& options,
                  const std::vector<std::string>& tokenNames, std::vector<std::string>* notices) {
    const Rounder r{options.handRounding};
    const int T = static_cast<int>(Xq.rows());
    HeadTrace h;
    h.params = w;
    h.q = r(projectOrCopy(Xq, w.wq, w.bq));          // T_q×d_k
    h.k = r(projectOrCopy(Xkv, w.wk, w.bk));         // T_k×d_k
    h.v = r(projectOrCopy(Xkv, w.wv, w.bv));         // T_k×d_v
    h.scores = r(attentionScores(h.q, h.k));         // T_q×T_k
    const double divisor = options.scaled ? sqrtOf(static_cast<int>(h.q.cols())) : 1.0;
    h.scaledScores = r(scaleScores(h.scores, divisor));  // T_q×T_k
    // Masks exist only in self-attention (T_q = T_k = T); cross-attention adds zeros.
    h.mask = options.causal ? causalMask(T) : Mat(Mat::Zero(Xq.rows(), Xkv.rows()));  // T_q×T_k
    if (options.realTokens >= 0) h.mask += paddingMask(T, options.realTokens);  // -inf + -inf stays -inf
    h.maskedScores = applyMask(h.scaledScores, h.mask);  // T_q×T_k
    h.weights = r(softmaxRows(h.maskedScores, notices, tokenNames));  // T_q×T_k
    h.weightedSum = r(weightedSum(h.weights, h.v));  // T_q×T_k · T_k×d_v → T_q×d_v
    return h;
}

LayerTrace runLayer(const Mat& Xq, const Mat& Xkv, const std::vector<HeadWeights>& heads, const Mat& wo,
                    const RowVec& bo, const AttentionOptions& options, const std::vector<std::string>& tokenNames,
                    std::vector<std::string>* notices) {
    LayerTrace layer;
    layer.input = Xq;  // T_q×d
    std::vector<Mat> outputs;
    for (const HeadWeights& w : heads) {
        std::vector<std::string> headNotices;
        layer.heads.push_back(runHead(Xq, Xkv, w, options, tokenNames, &headNotices));
        outputs.push_back(layer.heads.back().weightedSum);
        for (const std::string& n : headNotices)
            if (notices) notices->push_back("head " + std::to_string(layer.heads.size()) + ": " + n);
    }
    layer.concat = concatHeads(outputs);  // T_q×(H·d_v)
    layer.wo = wo.size() > 0 ? wo : shownIdentity(layer.concat.cols());
    layer.bo = bo;
    const Rounder r{options.handRounding};
    // T_q×d (T_q×H·d_v without W_O)
    layer.output = r(wo.size() > 0 ? outputProjection(layer.concat, wo, bo) : projectOrCopy(layer.concat, Mat(), bo));
    return layer;
}

}  // namespace

HeadWeights identityHead(int d) {
    const Mat eye = shownIdentity(d);
    return HeadWeights{eye, eye, eye, {}, {}, {}};
}

LayerTrace runAttentionLayer(const Mat& X, const std::vector<HeadWeights>& heads, const Mat& wo,
                             const RowVec& bo, const AttentionOptions& options,
                             const std::vector<std::string>& tokenNames,
                             std::vector<std::string>* notices) {
    return runLayer(X, X, heads, wo, bo, options, tokenNames, notices);  // T×d in, T×d out
}

LayerTrace runCrossAttentionLayer(const Mat& Xq, const Mat& Xkv, const std::vector<HeadWeights>& heads,
                                  const Mat& wo, const RowVec& bo, const AttentionOptions& options,
                                  const std::vector<std::string>& queryNames, std::vector<std::string>* notices) {
    AttentionOptions unmasked = options;
    unmasked.causal = false;  // see the header: no mask between two different sentences
    unmasked.realTokens = -1;
    LayerTrace layer = runLayer(Xq, Xkv, heads, wo, bo, unmasked, queryNames, notices);  // T_q×d out
    layer.keyInput = Xkv;  // T_k×d
    return layer;
}

}  // namespace attnscope
