#include "core/export/trace_npz.hpp"
#include "core/io/json_index.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>

#include "core/io/npy.hpp"
#include "core/trace/ablation.hpp"

namespace attnscope {

namespace {

std::string numbered(const char* what, int index) {
    char text[32];
    std::snprintf(text, sizeof text, "%s%02d/", what, index);
    return text;
}

// Row-major numbers of `m` as Out, appended to `out`.
template <class Out, class Matrix>
void appendData(std::string& out, const Matrix& m) {
    static_assert(std::endian::native == std::endian::little, "the .npy data is little-endian");
    const std::size_t start = out.size();
    out.resize(start + sizeof(Out) * static_cast<std::size_t>(m.size()));
    char* p = out.data() + start;
    for (Eigen::Index r = 0; r < m.rows(); ++r)
        for (Eigen::Index c = 0; c < m.cols(); ++c, p += sizeof(Out)) {
            const auto v = static_cast<Out>(m(r, c));
            std::memcpy(p, &v, sizeof v);
        }
}

}  // namespace

TraceNpzStream::TraceNpzStream(TextSink sink, NumberSpelling spelling, TraceSelection selection)
    : zip_(std::move(sink)), wide_(spelling == NumberSpelling::Exact), selection_(std::move(selection)) {}

template <class Matrix>
void TraceNpzStream::matrix(const std::string& name, Step step, const Matrix& m) {
    if (!selection_.hasStep(step) || zip_.failed()) return;
    entry_ = npyHeader(wide_ ? "<f8" : "<f4", m.rows(), m.cols());
    if (wide_) appendData<double>(entry_, m);
    else appendData<float>(entry_, m);
    zip_.add(name + ".npy", entry_);
    names_.push_back(name);
}

void TraceNpzStream::begin(const Trace& header, const std::vector<HeadRef>& ablated) {
    begun_ = true;
    meta_ = traceHeaderJson(header, ablated);
    matrix("embedding", Step::Embedding, header.embedding);
    matrix("positional", Step::Positional, header.positional);
}

void TraceNpzStream::layer(const LayerTrace& l, int index) {
    if (!selection_.hasLayer(index)) return;
    const std::string folder = numbered("layer", index + 1);  // counted from 1 (docs/cli.md)
    matrix(folder + "input", Step::Input, l.input);
    for (std::size_t h = 0; h < l.heads.size(); ++h) {
        if (!selection_.hasHead(static_cast<int>(h))) continue;
        const HeadTrace& head = l.heads[h];
        const std::string in = folder + numbered("head", static_cast<int>(h) + 1);
        matrix(in + "q", Step::Query, head.q);
        matrix(in + "k", Step::Key, head.k);
        matrix(in + "v", Step::Value, head.v);
        matrix(in + "scores", Step::Scores, head.scores);
        matrix(in + "scaled_scores", Step::Scaled, head.scaledScores);
        matrix(in + "mask", Step::Mask, head.mask);
        matrix(in + "masked_scores", Step::Masked, head.maskedScores);
        matrix(in + "weights", Step::Weights, head.weights);
        matrix(in + "output", Step::WeightedSum, head.weightedSum);
        if (head.qBeforeRope.size() > 0) matrix(in + "q_before_rope", Step::QueryBeforeRope, head.qBeforeRope);
        if (head.kBeforeRope.size() > 0) matrix(in + "k_before_rope", Step::KeyBeforeRope, head.kBeforeRope);
    }
    // Grouped-query attention: layer number (from 1, as text) → each query head's key/value head (from 1).
    if (!l.kvHeadOf.empty()) meta_["kv_head_of"][std::to_string(index + 1)] = json::oneBased(l.kvHeadOf);
    matrix(folder + "concat", Step::Concat, l.concat);
    matrix(folder + "output", Step::Output, l.output);
    if (l.keyInput.size() > 0) matrix(folder + "key_input", Step::SourceInput, l.keyInput);
}

bool TraceNpzStream::finish(const JsonTail& tail) {
    meta_["arrays"] = names_;
    for (const auto& [key, v] : tail) meta_[key] = v;
    zip_.add("trace.json", meta_.dump(1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n");
    return zip_.finish();
}

void TraceNpzStream::block(const BlockTrace& b) {
    // The block after attention (lessons of format version 6): block/<step key>.npy, each only when present.
    for (const Step step : {Step::AddAttention, Step::Norm, Step::FfnGate, Step::FfnHidden, Step::FfnActivated,
                            Step::FfnOutput, Step::AddFfn, Step::FinalNorm, Step::Logits, Step::Probabilities}) {
        const Mat& m = step == Step::AddAttention ? b.afterAttention : step == Step::Norm ? b.norm.output
                     : step == Step::FfnGate ? b.ffn.gate : step == Step::FfnHidden ? b.ffn.hidden
                     : step == Step::FfnActivated ? b.ffn.activated : step == Step::FfnOutput ? b.ffn.output
                     : step == Step::AddFfn ? b.afterFfn : step == Step::FinalNorm ? b.finalNorm.output
                     : step == Step::Logits ? b.logits : b.probabilities;
        if (m.size() > 0) matrix("block/" + std::string(stepKey(step)), step, m);
    }
    if (!b.vocabulary.empty()) meta_["vocabulary"] = b.vocabulary;
}

bool writeTraceNpz(const Trace& trace, const TextSink& sink, NumberSpelling spelling,
                   const TraceSelection& selection, const JsonTail& tail) {
    TraceNpzStream stream(sink, spelling, selection);
    stream.begin(trace, ablatedHeads(trace));
    for (int l = 0; l < trace.layerCount(); ++l) stream.layer(trace.layers[static_cast<std::size_t>(l)], l);
    if (trace.block.present()) stream.block(trace.block);
    return stream.finish(tail);
}

}  // namespace attnscope
