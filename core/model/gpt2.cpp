// The GPT-2 family forward pass, as transformers' GPT2LMHeadModel in eval mode.
//
// Shape legend: T tokens, d model width, H heads, d_k = d / H, d_ff feed-forward width,
// V vocabulary size, P position-table length, L layers.
#include "core/model/gpt2.hpp"

#include <numeric>

#include "core/model/layer_trace.hpp"
#include "core/model/weight_binder.hpp"
#include "core/text/error_messages.hpp"
#include "core/trace/ablation.hpp"

namespace attnscope {

namespace {

Gpt2BlockWeights bindBlock(WeightBinder& bind, const std::string& prefix, int n, const TransformerConfig& c) {
    const std::string p = prefix + "h." + std::to_string(n) + ".";
    const Eigen::Index d = c.width, ff = c.feedForward;
    Gpt2BlockWeights w;
    w.norm1 = bind.layerNorm(p + "ln_1", d);
    w.attention = bind.conv1d(p + "attn.c_attn", d, 3 * d);
    w.projection = bind.conv1d(p + "attn.c_proj", d, d);
    w.norm2 = bind.layerNorm(p + "ln_2", d);
    w.feedForward = bind.conv1d(p + "mlp.c_fc", d, ff);
    w.feedOutput = bind.conv1d(p + "mlp.c_proj", ff, d);
    return w;
}

// Conv1D weights are [in, out] already: head h's W_Q is columns h·d_k… of c_attn, W_K the same
// columns after d, W_V after 2d.
HeadWeights headSlices(const Gpt2BlockWeights& w, int h, int d, int dk) {
    const MatF W = w.attention.weight.toFloat();  // d×3d (widened when 16-bit)
    const auto b = w.attention.bias.view();    // 3d
    const auto slice = [&](int part) { return Mat(W.middleCols(part * d + h * dk, dk).cast<double>()); };
    const auto bias = [&](int part) { return RowVec(b.segment(part * d + h * dk, dk).cast<double>()); };
    return HeadWeights{slice(0), slice(1), slice(2), bias(0), bias(1), bias(2)};
}

}  // namespace

bool isKnownUnusedGpt2Tensor(const std::string& name) {
    const auto endsWith = [&](const std::string& tail) {
        return name.size() >= tail.size() && name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
    };
    // Causal-mask buffers: a lower-triangular [1, 1, P, P] matrix and a scalar -1e4.
    return endsWith(".attn.bias") || endsWith(".attn.masked_bias");
}

Result<Gpt2Weights> bindGpt2(const TensorStore& store, const TransformerConfig& c, const std::string& source) {
    std::string prefix;
    if (store.find("transformer.wte.weight")) prefix = "transformer.";
    else if (!store.find("wte.weight"))
        return Error{source, errorText(ErrorId::TensorMissingPrefix, "wte.weight", "transformer.")};
    WeightBinder bind(store);
    Gpt2Weights w;
    w.prefix = prefix;
    w.words = bind.matrix(prefix + "wte.weight", c.vocabSize, c.width);
    w.positions = bind.matrix(prefix + "wpe.weight", c.positions, c.width);
    for (int n = 0; n < c.layers && bind.status().ok(); ++n)  // the first missing tensor ends the binding
        w.blocks.push_back(bindBlock(bind, prefix, n, c));
    w.finalNorm = bind.layerNorm(prefix + "ln_f", c.width);
    w.lmHead = bind.has("lm_head.weight") ? bind.matrix("lm_head.weight", c.vocabSize, c.width) : w.words;
    if (!bind.status().ok()) return bind.status().error();
    w.usedNames = bind.used();
    w.config = c;
    return w;
}

MatF gpt2Attention(const MatF& X, const Gpt2BlockWeights& w, const TransformerConfig& c, LayerDetail detail,
                   LayerTrace& trace, const HeadsAsked& asked, std::vector<HeadDigest>* digests) {
    const Eigen::Index d = c.width;
    LayerBuffers& b = threadLayerBuffers();  // reused across layers and runs: no page faults
    b.normed = X;  // T×d
    layerNorm(b.normed, w.norm1, c.layerNormEps);
    conv1dInto(b.normed, w.attention, b.qkv);  // T×3d = [Q | K | V]
    b.q = b.qkv.leftCols(d);
    b.k = b.qkv.middleCols(d, d);
    b.v = b.qkv.rightCols(d);
    multiHeadAttentionInto(b.q, b.k, b.v, c.heads, true, detail, trace, asked, b.context, digests);  // T×d
    conv1dInto(b.context, w.projection, b.attended);                                          // T×d
    // The heads project ln_1(X), not the residual stream.
    recordAttentionLayer({b.normed, b.context, b.attended, w.projection, WeightLayout::InOut,
                          [&](int h) { return headSlices(w, h, c.width, c.headWidth()); }},
                         detail, trace);
    return X + b.attended;  // T×d
}

MatF gpt2FeedForward(MatF residual, const Gpt2BlockWeights& w, const TransformerConfig& c) {
    LayerBuffers& b = threadLayerBuffers();
    b.normed = residual;
    layerNorm(b.normed, w.norm2, c.layerNormEps);
    conv1dInto(b.normed, w.feedForward, b.inner);  // T×d_ff
    activate(b.inner, c.activation);
    conv1dInto(b.inner, w.feedOutput, b.out);
    residual += b.out;
    return residual;  // T×d, the layer's output (kept: run.hiddenStates)
}

FamilyWeights::Embedded Gpt2Weights::embed(const std::vector<int>& ids) const {
    Embedded e;
    e.tokens = gatherRows(words, ids);  // T×d
    std::vector<int> positionIds(ids.size());
    std::iota(positionIds.begin(), positionIds.end(), 0);
    e.positions = gatherRows(positions, positionIds);  // T×d
    e.stream = e.tokens + e.positions;                 // T×d, the residual stream
    return e;
}

MatF Gpt2Weights::attend(const MatF& X, int n, LayerDetail detail, LayerTrace& trace,
                         const HeadsAsked& asked, std::vector<HeadDigest>* digests) const {
    return gpt2Attention(X, blocks[static_cast<std::size_t>(n)], config, detail, trace, asked, digests);
}

MatF Gpt2Weights::feedForward(MatF afterAttention, int n) const {
    return gpt2FeedForward(std::move(afterAttention), blocks[static_cast<std::size_t>(n)], config);
}

void Gpt2Weights::finish(MatF& X) const { layerNorm(X, finalNorm, config.layerNormEps); }  // ln_f

std::vector<Prediction> Gpt2Weights::predict(const MatF& X, const PredictionRequest& request) const {
    const MatF rows = X(request.positions, Eigen::all);                 // n×d
    const MatF logits = logitsOf(rows, lmHead, request.releasePages);  // n×V
    std::vector<Prediction> out;
    for (std::size_t i = 0; i < request.positions.size(); ++i)
        out.push_back(predictionFrom(request.positions[i], logits.row(static_cast<Eigen::Index>(i)), request.topK));
    return out;
}

}  // namespace attnscope
