// The RoPE decoders' forward pass (see decoder.hpp), as transformers' LlamaDecoderLayer and its
// relatives (Qwen2, Qwen3, Mistral, Gemma3DecoderLayer) in eval mode on one unpadded sentence.
//
// Shape legend: T tokens, d model width, H query heads, H_kv key/value heads, d_k head width,
// d_ff feed-forward width, V vocabulary size, L layers.
#include "core/model/decoder.hpp"

#include <cmath>

#include "core/model/weight_binder.hpp"
#include "core/pipeline/rope.hpp"
#include "core/text/error_messages.hpp"
#include "core/text/message_id.hpp"

namespace attnscope {

namespace {

const std::string kPrefix = "model.";  // XForCausalLM's model; lm_head.weight beside it

DecoderLayerWeights bindLayer(WeightBinder& bind, int n, const TransformerConfig& c, const DecoderBlocks& blocks) {
    const std::string p = kPrefix + "layers." + std::to_string(n) + ".";
    const Eigen::Index d = c.width, dk = c.headWidth(), ff = c.feedForward;
    const Eigen::Index dq = c.heads * dk, dkv = c.keyValueHeads() * dk;  // H·d_k, H_kv·d_k
    const bool qkvBias = blocks.qkvBias || c.attentionBias;
    const auto projection = [&](const std::string& name, Eigen::Index out, Eigen::Index in, bool bias) {
        return bias ? bind.linear(p + name, out, in) : bind.linearNoBias(p + name, out, in);
    };
    const auto norm = [&](const std::string& name, Eigen::Index size) { return LayerNormRef{bind.vector(p + name + ".weight", size), {}}; };
    DecoderLayerWeights w;
    w.inputNorm = norm("input_layernorm", d);
    w.query = projection("self_attn.q_proj", dq, d, qkvBias);
    w.key = projection("self_attn.k_proj", dkv, d, qkvBias);
    w.value = projection("self_attn.v_proj", dkv, d, qkvBias);
    w.output = projection("self_attn.o_proj", d, dq, c.attentionBias);
    if (blocks.qkNorm) {
        w.queryNorm = bind.vector(p + "self_attn.q_norm.weight", dk);
        w.keyNorm = bind.vector(p + "self_attn.k_norm.weight", dk);
    }
    w.postAttentionNorm = norm("post_attention_layernorm", d);
    if (blocks.sandwichNorms) {
        w.preFeedForwardNorm = norm("pre_feedforward_layernorm", d);
        w.postFeedForwardNorm = norm("post_feedforward_layernorm", d);
    }
    w.gate = bind.linearNoBias(p + "mlp.gate_proj", ff, d);
    w.up = bind.linearNoBias(p + "mlp.up_proj", ff, d);
    w.down = bind.linearNoBias(p + "mlp.down_proj", d, ff);
    return w;
}

// Each layer's θ_i: Gemma 3's sliding layers turn at rope_local_base_freq without scaling; every
// other layer at rope_theta with rope_scaling.
std::vector<RowVec> layerFrequencies(const TransformerConfig& c, bool localBase) {
    std::vector<RowVec> theta;
    for (int n = 0; n < c.layers; ++n)
        theta.push_back(localBase && c.slides(n) ? ropeFrequencies(c.headWidth(), c.ropeLocalTheta)
                                                 : ropeFrequencies(c.headWidth(), c.ropeTheta, c.ropeScaling));
    return theta;
}

// Query head h's W_Q and its key/value head's W_K, W_V (HF [out, in], so rows, transposed).
HeadWeights headSlices(const DecoderLayerWeights& w, int h, int kv, int dk) {
    const auto slice = [&](const LinearRef& l, int head) {
        return Mat(l.weight.rowsAsFloat(head * dk, dk).transpose().cast<double>());  // d×d_k
    };
    const auto bias = [&](const LinearRef& l, int head) {
        return l.bias.data ? RowVec(l.bias.view().segment(head * dk, dk).cast<double>()) : RowVec();
    };
    return HeadWeights{slice(w.query, h), slice(w.key, kv), slice(w.value, kv),
                       bias(w.query, h), bias(w.key, kv), bias(w.value, kv)};
}

// RMSNorm over d_k on each head's columns (q_norm, k_norm): T×(heads·d_k), in place.
void normHeads(MatF& X, const VectorRef& weight, int heads, int dk, float eps, bool plusOne) {
    MatF head;
    for (int h = 0; h < heads; ++h) {
        head = X.middleCols(h * dk, dk);  // T×d_k
        rmsNorm(head, weight, eps, plusOne);
        X.middleCols(h * dk, dk) = head;
    }
}

// Heads in slices on the product threads (on one, 0.4 s of Llama-3.2-1B's 4,096-token run).
void rotateHeads(MatF& X, int heads, int dk, const RopeTables<float>& tables) {
    const auto headSize = static_cast<std::size_t>(X.rows() * dk);
    forEachSlice(static_cast<std::size_t>(heads), headSize, [&](std::size_t h0, std::size_t h1) {
        for (auto h = static_cast<int>(h0); h < static_cast<int>(h1); ++h) applyRope<float>(X.middleCols(h * dk, dk), tables);  // T×d_k
    });
}

}  // namespace

bool isKnownUnusedDecoderTensor(const std::string& name, const TransformerConfig& config) {
    const std::string buffer = "rotary_emb.inv_freq";
    if (name.size() >= buffer.size() && name.compare(name.size() - buffer.size(), buffer.size(), buffer) == 0) return true;
    return config.tieWordEmbeddings && name == "lm_head.weight";
}

Result<DecoderWeights> bindDecoder(const TensorStore& store, const TransformerConfig& c, const std::string& source,
                                   const DecoderBlocks& blocks) {
    if (!store.find(kPrefix + "embed_tokens.weight"))
        return Error{source, errorText(ErrorId::TensorMissingPrefix, "embed_tokens.weight", kPrefix)};
    WeightBinder bind(store);
    DecoderWeights w;
    w.words = bind.matrix(kPrefix + "embed_tokens.weight", c.vocabSize, c.width);
    for (int n = 0; n < c.layers && bind.status().ok(); ++n)  // the first missing tensor ends the binding
        w.layers.push_back(bindLayer(bind, n, c, blocks));
    w.finalNorm = LayerNormRef{bind.vector(kPrefix + "norm.weight", c.width), {}};
    w.lmHead = c.tieWordEmbeddings ? w.words : bind.matrix("lm_head.weight", c.vocabSize, c.width);
    if (!bind.status().ok()) return bind.status().error();
    w.usedNames = bind.used();
    w.blocks = blocks;
    w.config = c;
    w.frequencies = layerFrequencies(c, blocks.sandwichNorms);
    if (c.tieWordEmbeddings) w.notices.push_back(Notice{MessageId::NoticeLmHeadTied, {}});
    return w;
}

FamilyWeights::Embedded DecoderWeights::embed(const std::vector<int>& ids) const {
    Embedded e;
    e.tokens = gatherRows(words, ids);  // T×d
    if (blocks.scaledEmbedding) e.tokens *= std::sqrt(static_cast<float>(config.width));
    e.positions = MatF::Zero(e.tokens.rows(), e.tokens.cols());  // RoPE adds nothing to the stream
    e.stream = e.tokens;
    return e;
}

namespace {

// RMSNorm of each row by one of the layer's norm weights (Gemma's 1 + γ where the family says so).
void rmsNormRows(const TransformerConfig& c, MatF& M, const LayerNormRef& weight) {
    rmsNorm(M, weight.gamma, c.layerNormEps, c.family->norm == NormKind::RmsNormPlusOne);
}

}  // namespace

MatF DecoderWeights::attend(const MatF& X, int n, LayerDetail detail, LayerTrace& trace,
                            const HeadsAsked& asked, std::vector<HeadDigest>* digests) const {
    const DecoderLayerWeights& w = layers[static_cast<std::size_t>(n)];
    const TransformerConfig& c = config;
    const int H = c.heads, Hkv = c.keyValueHeads(), dk = c.headWidth();
    const bool plusOne = c.family->norm == NormKind::RmsNormPlusOne;
    LayerBuffers& b = threadLayerBuffers();  // reused across layers and runs
    b.normed = X;                            // T×d
    rmsNormRows(c, b.normed, w.inputNorm);
    // A layer rebuilt for its weights alone (WeightsNoOutput) needs neither V nor W_O: at 4,096
    // tokens they are a third of Llama-3.2-1B's layer switch.
    const bool output = detail != LayerDetail::WeightsNoOutput;
    linearInto(b.normed, w.query, b.q);  // T×(H·d_k)
    linearInto(b.normed, w.key, b.k);    // T×(H_kv·d_k)
    if (output) linearInto(b.normed, w.value, b.v);  // T×(H_kv·d_k)
    else b.v.resize(b.k.rows(), b.k.cols());         // never read
    if (blocks.qkNorm) {
        normHeads(b.q, w.queryNorm, H, dk, c.layerNormEps, plusOne);
        normHeads(b.k, w.keyNorm, Hkv, dk, c.layerNormEps, plusOne);
    }
    const bool full = detail == LayerDetail::Full;
    MatF qBefore, kBefore;  // the rotation's input, for the Trace (Full only)
    if (full) {
        qBefore = b.q;
        kBefore = b.k;
    }
    const RopeTables<float> tables = ropeTables<float>(static_cast<int>(X.rows()), frequencies[static_cast<std::size_t>(n)]);
    rotateHeads(b.q, H, dk, tables);
    rotateHeads(b.k, Hkv, dk, tables);
    const float divisor = c.queryPreAttnScalar > 0 ? static_cast<float>(std::sqrt(c.queryPreAttnScalar)) : 0.0f;
    const AttentionShape shape{H, Hkv, true, c.slides(n) ? c.slidingWindow : 0, divisor};
    multiHeadAttentionInto(b.q, b.k, b.v, shape, detail, trace, asked, b.context, digests);  // T×(H·d_k)
    for (int h = 0; h < H; ++h) trace.kvHeadOf.push_back(shape.keyValueHeadOf(h));
    trace.slidingWindow = shape.window;
    if (!output) return {};
    linearInto(b.context, w.output, b.attended);  // T×d
    recordAttentionLayer({b.normed, b.context, b.attended, w.output, WeightLayout::OutIn,
                          [&](int h) { return headSlices(w, h, shape.keyValueHeadOf(h), dk); }},
                         detail, trace);
    if (full) {
        trace.ropeFrequencies = frequencies[static_cast<std::size_t>(n)];
        trace.headNorm = blocks.qkNorm;
        for (int h = 0; h < H; ++h) {
            HeadTrace& head = trace.heads[static_cast<std::size_t>(h)];
            head.qBeforeRope = qBefore.middleCols(h * dk, dk).cast<double>();
            head.kBeforeRope = kBefore.middleCols(shape.keyValueHeadOf(h) * dk, dk).cast<double>();
        }
    }
    if (blocks.sandwichNorms) rmsNormRows(c, b.attended, w.postAttentionNorm);
    return X + b.attended;  // T×d
}

MatF DecoderWeights::feedForward(MatF residual, int n) const {
    const DecoderLayerWeights& w = layers[static_cast<std::size_t>(n)];
    const TransformerConfig& c = config;
    LayerBuffers& b = threadLayerBuffers();
    b.normed = residual;
    rmsNormRows(c, b.normed, blocks.sandwichNorms ? w.preFeedForwardNorm : w.postAttentionNorm);
    gatedMlpInto(b.normed, w.gate, w.up, w.down, c.activation, b, b.out);  // T×d
    if (blocks.sandwichNorms) rmsNormRows(c, b.out, w.postFeedForwardNorm);
    residual += b.out;
    return residual;  // T×d, kept: the layer's output
}

void DecoderWeights::finish(MatF& X) const {
    rmsNormRows(config, X, finalNorm);
}

std::optional<Unembedding> DecoderWeights::unembedding() const {
    Unembedding u{config.family->norm, finalNorm, config.layerNormEps, lmHead, {}};
    if (blocks.sandwichNorms)
        for (const DecoderLayerWeights& w : layers) u.postAttentionNorms.push_back(w.postAttentionNorm.gamma);
    return u;
}

std::vector<Prediction> DecoderWeights::predict(const MatF& X, const PredictionRequest& request) const {
    const MatF rows = X(request.positions, Eigen::all);          // n×d
    MatF logits = logitsOf(rows, lmHead, request.releasePages);  // n×V
    if (config.finalLogitSoftcap > 0) {  // Gemma: cap·tanh(logits / cap)
        const auto cap = static_cast<float>(config.finalLogitSoftcap);
        logits = ((logits.array() / cap).tanh() * cap).matrix();
    }
    std::vector<Prediction> out;
    for (std::size_t i = 0; i < request.positions.size(); ++i)
        out.push_back(predictionFrom(request.positions[i], logits.row(static_cast<Eigen::Index>(i)), request.topK));
    return out;
}

}  // namespace attnscope
