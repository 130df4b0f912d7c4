// The BERT family forward pass, as transformers' BertModel / RobertaModel / DistilBertModel in
// eval mode on one unpadded sentence (token type 0 everywhere, so no attention mask).
//
// Shape legend: T tokens, d model width, H heads, d_k = d / H, d_ff feed-forward width,
// V vocabulary size, P position-table length, L layers.
#include "core/model/bert.hpp"

#include <numeric>

#include "core/model/layer_trace.hpp"
#include "core/model/weight_binder.hpp"
#include "core/text/error_messages.hpp"
#include "core/text/message_id.hpp"
#include "core/trace/ablation.hpp"

namespace attnscope {

namespace {

// Where each weight lives in a family's checkpoint. Encoder names take the model prefix
// ("bert." etc., absent in a bare encoder checkpoint); head names never do.
struct LayerNames {
    std::string path;  // "encoder.layer." + N + "."
    std::string query, key, value, attentionOutput, attentionNorm, intermediate, output, outputNorm;
};
struct HeadNames {  // the masked-LM head
    std::string transform, norm, decoder, bias;
    std::vector<std::string> unused;  // stored but not needed
};
struct EncoderNames {
    std::string prefix;  // "bert.", "roberta.", "distilbert."
    LayerNames layer;
    HeadNames head;
};

// BERT and RoBERTa name their layers alike; DistilBERT names them its own way.
const LayerNames& bertLayerNames() {
    static const LayerNames names{"encoder.layer.", "attention.self.query", "attention.self.key", "attention.self.value",
                                  "attention.output.dense", "attention.output.LayerNorm", "intermediate.dense",
                                  "output.dense", "output.LayerNorm"};
    return names;
}

EncoderNames namesOf(ModelFamily family) {
    if (family == ModelFamily::Bert)
        return {"bert.", bertLayerNames(),
                {"cls.predictions.transform.dense", "cls.predictions.transform.LayerNorm",
                 "cls.predictions.decoder.weight", "cls.predictions.bias",
                 {"cls.predictions.decoder.bias", "cls.seq_relationship.weight", "cls.seq_relationship.bias"}}};
    if (family == ModelFamily::Roberta)
        return {"roberta.", bertLayerNames(),
                {"lm_head.dense", "lm_head.layer_norm", "lm_head.decoder.weight", "lm_head.bias", {"lm_head.decoder.bias"}}};
    // DistilBERT
    return {"distilbert.",
            {"transformer.layer.", "attention.q_lin", "attention.k_lin", "attention.v_lin", "attention.out_lin",
             "sa_layer_norm", "ffn.lin1", "ffn.lin2", "output_layer_norm"},
            {"vocab_transform", "vocab_layer_norm", "vocab_projector.weight", "vocab_projector.bias", {}}};
}

EncoderLayerWeights bindLayer(WeightBinder& bind, const LayerNames& names, const std::string& prefix, int n,
                              const TransformerConfig& c) {
    const std::string p = prefix + names.path + std::to_string(n) + ".";
    const Eigen::Index d = c.width, ff = c.feedForward;
    EncoderLayerWeights w;
    w.query = bind.linear(p + names.query, d, d);
    w.key = bind.linear(p + names.key, d, d);
    w.value = bind.linear(p + names.value, d, d);
    w.attentionOutput = bind.linear(p + names.attentionOutput, d, d);
    w.attentionNorm = bind.layerNorm(p + names.attentionNorm, d);
    w.intermediate = bind.linear(p + names.intermediate, ff, d);
    w.output = bind.linear(p + names.output, d, ff);
    w.outputNorm = bind.layerNorm(p + names.outputNorm, d);
    return w;
}

}  // namespace

std::string maskedLmHeadTensor(ModelFamily family) { return namesOf(family).head.bias; }

namespace {

// The masked-LM head when the checkpoint has one; the decoder is the word embeddings unless stored.
std::optional<MaskedLmHead> bindHead(WeightBinder& bind, const HeadNames& names, const TransformerConfig& c,
                                     const MatrixRef& words) {
    if (!bind.has(names.bias)) return std::nullopt;
    MaskedLmHead head;
    head.transform = bind.linear(names.transform, c.width, c.width);
    head.norm = bind.layerNorm(names.norm, c.width);
    head.tied = !bind.has(names.decoder);
    head.decoder = head.tied ? words : bind.matrix(names.decoder, c.vocabSize, c.width);
    head.bias = bind.vector(names.bias, c.vocabSize);
    return head;
}

// The model prefix this checkpoint uses: "bert." in BertForMaskedLM files, none in BertModel's.
std::optional<std::string> detectPrefix(const TensorStore& store, const EncoderNames& names) {
    for (const std::string& prefix : {names.prefix, std::string()})
        if (store.find(prefix + "embeddings.word_embeddings.weight")) return prefix;
    return std::nullopt;
}

// Q = X·W_Qᵀ + b_Q with HF's [out, in] weight: head h's W_Q is rows h·d_k… of W, transposed.
HeadWeights headSlices(const EncoderLayerWeights& w, int h, int dk) {
    const auto slice = [&](const LinearRef& l) { return Mat(l.weight.rowsAsFloat(h * dk, dk).transpose().cast<double>()); };
    const auto bias = [&](const LinearRef& l) { return RowVec(l.bias.view().segment(h * dk, dk).cast<double>()); };
    return HeadWeights{slice(w.query), slice(w.key), slice(w.value), bias(w.query), bias(w.key), bias(w.value)};
}

// The masked-LM head on the rows at `positions` → one Prediction each.
std::vector<Prediction> predictMasked(const MaskedLmHead& head, const TransformerConfig& c, const MatF& X,
                                      const PredictionRequest& request) {
    MatF rows = X(request.positions, Eigen::all);  // n×d
    MatF t = linear(rows, head.transform);         // n×d
    activate(t, maskedLmActivation(c));
    layerNorm(t, head.norm, c.layerNormEps);
    MatF logits = logitsOf(t, head.decoder, request.releasePages);  // n×V
    logits.rowwise() += head.bias.view();
    std::vector<Prediction> out;
    for (std::size_t i = 0; i < request.positions.size(); ++i)
        out.push_back(predictionFrom(request.positions[i], logits.row(static_cast<Eigen::Index>(i)), request.topK));
    return out;
}

}  // namespace

Activation maskedLmActivation(const TransformerConfig& c) {
    return c.family == ModelFamily::Roberta ? Activation::GeluErf : c.activation;
}

bool isKnownUnusedEncoderTensor(const std::string& name, const TransformerConfig& config) {
    const EncoderNames names = namesOf(config.family);
    for (const std::string& unused : names.head.unused)
        if (name == unused) return true;
    const bool prefixed = name.rfind(names.prefix, 0) == 0;
    const std::string bare = prefixed ? name.substr(names.prefix.size()) : name;
    return bare == "embeddings.position_ids" || bare == "embeddings.token_type_ids" ||
           bare == "pooler.dense.weight" || bare == "pooler.dense.bias";
}

Result<EncoderWeights> bindEncoder(const TensorStore& store, const TransformerConfig& c, const std::string& source) {
    const EncoderNames names = namesOf(c.family);
    const auto prefix = detectPrefix(store, names);
    if (!prefix)
        return Error{source, errorText(ErrorId::TensorMissingPrefix, "embeddings.word_embeddings.weight", names.prefix)};
    WeightBinder bind(store);
    EncoderWeights w;
    w.prefix = *prefix;
    const std::string e = *prefix + "embeddings.";
    w.words = bind.matrix(e + "word_embeddings.weight", c.vocabSize, c.width);
    w.positions = bind.matrix(e + "position_embeddings.weight", c.positions, c.width);
    if (c.typeVocabSize > 0) w.tokenTypes = bind.matrix(e + "token_type_embeddings.weight", c.typeVocabSize, c.width);
    w.embeddingNorm = bind.layerNorm(e + "LayerNorm", c.width);
    for (int n = 0; n < c.layers && bind.status().ok(); ++n)  // the first missing tensor ends the binding
        w.layers.push_back(bindLayer(bind, names.layer, *prefix, n, c));
    w.mlm = bindHead(bind, names.head, c, w.words);
    if (!bind.status().ok()) return bind.status().error();
    w.usedNames = bind.used();
    w.config = c;
    if (w.mlm && w.mlm->tied) w.notices.push_back(Notice{MessageId::NoticeDecoderTied, {}});
    return w;
}

MatF encoderAttention(const MatF& X, const EncoderLayerWeights& w, const TransformerConfig& c, LayerDetail detail,
                      LayerTrace& trace, const HeadsAsked& asked, std::vector<HeadDigest>* digests) {
    LayerBuffers& b = threadLayerBuffers();  // reused across layers and runs: no page faults
    linearInto(X, w.query, b.q);
    linearInto(X, w.key, b.k);
    linearInto(X, w.value, b.v);                                                       // T×d each
    multiHeadAttentionInto(b.q, b.k, b.v, c.heads, false, detail, trace, asked, b.context, digests);  // T×d
    linearInto(b.context, w.attentionOutput, b.attended);                               // T×d
    recordAttentionLayer({X, b.context, b.attended, w.attentionOutput, WeightLayout::OutIn,
                          [&](int h) { return headSlices(w, h, c.headWidth()); }},
                         detail, trace);
    b.attended += X;  // residual, then post-LayerNorm
    layerNorm(b.attended, w.attentionNorm, c.layerNormEps);
    return b.attended;  // T×d
}

MatF encoderFeedForward(const MatF& attended, const EncoderLayerWeights& w, const TransformerConfig& c) {
    LayerBuffers& b = threadLayerBuffers();
    linearInto(attended, w.intermediate, b.inner);  // T×d_ff
    activate(b.inner, c.activation);
    MatF out = linear(b.inner, w.output);  // T×d, the layer's output (kept: run.hiddenStates)
    out += attended;
    layerNorm(out, w.outputNorm, c.layerNormEps);
    return out;
}

FamilyWeights::Embedded EncoderWeights::embed(const std::vector<int>& ids) const {
    Embedded e;
    e.tokens = gatherRows(words, ids);  // T×d
    if (tokenTypes.present()) e.tokens.rowwise() += tokenTypes.rowsAsFloat(0, 1).row(0);  // one sentence: type 0
    std::vector<int> positionIds(ids.size());
    std::iota(positionIds.begin(), positionIds.end(), config.positionOffset);
    e.positions = gatherRows(positions, positionIds);  // T×d
    e.stream = e.tokens + e.positions;                 // T×d
    layerNorm(e.stream, embeddingNorm, config.layerNormEps);
    return e;
}

MatF EncoderWeights::attend(const MatF& X, int n, LayerDetail detail, LayerTrace& trace,
                            const HeadsAsked& asked, std::vector<HeadDigest>* digests) const {
    return encoderAttention(X, layers[static_cast<std::size_t>(n)], config, detail, trace, asked, digests);
}

MatF EncoderWeights::feedForward(MatF afterAttention, int n) const {
    return encoderFeedForward(afterAttention, layers[static_cast<std::size_t>(n)], config);
}

std::vector<Prediction> EncoderWeights::predict(const MatF& X, const PredictionRequest& request) const {
    if (!mlm || request.positions.empty()) return {};
    return predictMasked(*mlm, config, X, request);
}

}  // namespace attnscope
