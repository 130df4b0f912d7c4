// One self-attention or cross-attention layer.  Shapes: T tokens (T_q queries, T_k keys in
// cross-attention), d model width, H heads, d_k, d_v head widths.
#include "core/pipeline/attention_layer.hpp"

#include "core/pipeline/attention_kernel.hpp"
#include "core/pipeline/rope.hpp"

namespace attnscope {

namespace {

// The lesson's arithmetic for the attention kernel: exact double through the pipeline's step
// functions, and hand-rounding, when it is on, so each step starts from what a student wrote down.
struct LessonArithmetic {
    std::optional<int> decimals;

    void scores(const ConstHeadView<double>& q, const ConstHeadView<double>& k, Mat& out) const {
        out = attentionScores(q, k);  // T_q×d_k · d_k×T_k → T_q×T_k
    }
    void weightedSum(const Mat& weights, const ConstHeadView<double>& v, HeadOutView<double> out) const {
        out = attnscope::weightedSum(weights, v);  // T_q×T_k · T_k×d_v → T_q×d_v
    }
    template <typename M>
    void round(M&& m) const {
        if (decimals) m = roundTo(Mat(m), *decimals);
    }
    Mat rounded(Mat m) const {
        round(m);
        return m;
    }
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

// The additive mask of every head: causal and padding exist only in self-attention (T_q = T_k = T);
// cross-attention adds zeros.
Mat layerMask(Eigen::Index queries, Eigen::Index keys, const AttentionOptions& options) {
    const int T = static_cast<int>(queries);
    Mat mask = options.causal ? causalMask(T) : Mat(Mat::Zero(queries, keys));  // T_q×T_k
    if (options.realTokens >= 0) mask += paddingMask(T, options.realTokens);  // -inf + -inf stays -inf
    return mask;
}

// Row m of x (T×d_k) turned by m·θ_i, pair by pair (core/pipeline/rope.hpp).
Mat rotated(Mat x, const AttentionOptions& options) {
    const RopeTables<double> tables = ropeTables<double>(static_cast<int>(x.rows()), options.ropeFrequencies);
    if (options.ropeInterleaved) applyRopeInterleaved<double>(x, tables);
    else applyRope<double>(x, tables);
    return x;
}

// Self-attention passes the same X twice (Xq = Xkv, T_q = T_k = T).
HeadTrace runHead(const Mat& Xq, const Mat& Xkv, const HeadWeights& w, const Mat& mask,
                  const AttentionOptions& options, bool ablated, const RowNotices& rows) {
    const LessonArithmetic lesson{options.handRounding};
    Mat q = lesson.rounded(projectOrCopy(Xq, w.wq, w.bq));   // T_q×d_k
    Mat k = lesson.rounded(projectOrCopy(Xkv, w.wk, w.bk));  // T_k×d_k
    const Mat v = lesson.rounded(projectOrCopy(Xkv, w.wv, w.bv));  // T_k×d_v
    const double divisor = options.scaled ? sqrtOf(static_cast<int>(q.cols())) : 1.0;
    HeadTrace h;
    h.params = w;
    if (options.ropeFrequencies.size() > 0) {  // RoPE: the scores compare Q and K turned by position
        h.qBeforeRope = q;
        h.kBeforeRope = k;
        q = lesson.rounded(rotated(q, options));  // T_q×d_k
        k = lesson.rounded(rotated(k, options));  // T_k×d_k
    }
    HeadScratch<double> scratch;
    Mat out(q.rows(), v.cols());  // T_q×d_v, recorded as h.weightedSum
    attendHead(HeadInput<double>{q, k, v, mask, divisor, ablated}, lesson, scratch, out, HeadRecord::Everything, h, rows);
    return h;
}

LayerTrace runLayer(const Mat& Xq, const Mat& Xkv, const std::vector<HeadWeights>& heads, const Mat& wo,
                    const RowVec& bo, const AttentionOptions& options, const std::vector<std::string>& tokenNames,
                    std::vector<Notice>* notices) {
    LayerTrace layer;
    layer.input = Xq;  // T_q×d
    layer.ropeFrequencies = options.ropeFrequencies;
    layer.ropeInterleaved = options.ropeInterleaved;
    std::vector<Mat> outputs;
    const Mat mask = layerMask(Xq.rows(), Xkv.rows(), options);  // T_q×T_k
    for (const HeadWeights& w : heads) {
        std::vector<Notice> headNotices;
        const std::size_t h = layer.heads.size();
        const bool ablated = h < options.ablatedHeads.size() && options.ablatedHeads[h];
        layer.heads.push_back(runHead(Xq, Xkv, w, mask, options, ablated, RowNotices{&headNotices, tokenNames}));
        outputs.push_back(layer.heads.back().weightedSum);
        for (Notice& n : headNotices) {
            n.head = static_cast<int>(h);
            if (notices) notices->push_back(std::move(n));
        }
    }
    layer.concat = concatHeads(outputs);  // T_q×(H·d_v)
    layer.wo = wo.size() > 0 ? wo : shownIdentity(layer.concat.cols());
    layer.bo = bo;
    const LessonArithmetic lesson{options.handRounding};
    // T_q×d (T_q×H·d_v without W_O, where an empty W_O means the identity: a copy)
    layer.output = lesson.rounded(wo.size() > 0 ? outputProjection(layer.concat, wo, bo) : projectOrCopy(layer.concat, Mat(), bo));
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
                             std::vector<Notice>* notices) {
    return runLayer(X, X, heads, wo, bo, options, tokenNames, notices);  // T×d in, T×d out
}

LayerTrace runCrossAttentionLayer(const Mat& Xq, const Mat& Xkv, const std::vector<HeadWeights>& heads,
                                  const Mat& wo, const RowVec& bo, const AttentionOptions& options,
                                  const std::vector<std::string>& queryNames, std::vector<Notice>* notices) {
    AttentionOptions unmasked = options;
    unmasked.causal = false;  // see the header: no mask between two different sentences
    unmasked.realTokens = -1;
    LayerTrace layer = runLayer(Xq, Xkv, heads, wo, bo, unmasked, queryNames, notices);  // T_q×d out
    layer.keyInput = Xkv;  // T_k×d
    return layer;
}

}  // namespace attnscope
