// The JSON trace written piece by piece, laid out exactly as nlohmann::json::dump(1) lays it out
// (one value a line, one space of indent per level), so a streamed document and the in-memory one
// it replaced are the same bytes.
#include "core/export/trace_stream.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "core/export/export.hpp"
#include "core/text/messages.hpp"
#include "core/trace/ablation.hpp"

namespace attnscope {

using Json = nlohmann::ordered_json;

namespace {

constexpr std::size_t kChunkBytes = 1 << 20;  // handed to the sink at about this size

std::string_view positionalName(PositionalKind kind) {
    switch (kind) {
        case PositionalKind::Sinusoidal: return "sinusoidal";
        case PositionalKind::Table: return "table";
        default: return "none";
    }
}

Json tokensJson(const std::vector<Token>& all, bool detailed) {
    Json tokens = Json::array();
    for (const Token& t : all)
        tokens.push_back(detailed ? Json{{"text", t.text}, {"in_table", t.inTable}, {"id", t.id},
                                         {"word", t.word}, {"special", t.special}}
                                  : Json(t.text));
    return tokens;
}

// [[layer, head], …] counted from 1, as the command line's --ablate.
Json ablatedJson(const std::vector<HeadRef>& heads) {
    Json list = Json::array();
    for (const HeadRef& h : heads) list.push_back(Json::array({h.layer + 1, h.head + 1}));
    return list;
}

Json settingsJson(const Trace& trace) {
    return Json{{"positional_encoding", positionalName(trace.positionalKind)},
                {"projections", trace.projections},
                {"scaled", trace.scaled},
                {"scale_divisor", trace.scaleDivisor},
                {"causal_mask", trace.causal},
                {"padded_from", trace.paddedFrom >= 0 ? Json(trace.paddedFrom) : Json(nullptr)},
                {"residual", trace.residual},
                {"hand_rounding", trace.handRounding ? Json(*trace.handRounding) : Json(nullptr)}};
}

bool contains(const auto& list, const auto& item) {
    return list.empty() || std::find(list.begin(), list.end(), item) != list.end();
}

}  // namespace

bool TraceSelection::hasLayer(int layer) const { return contains(layers, layer); }
bool TraceSelection::hasHead(int head) const { return contains(heads, head); }
bool TraceSelection::hasStep(Step step) const { return contains(steps, step); }

Json selectionJson(const TraceSelection& selection) {
    Json out = Json::object();
    if (!selection.layers.empty()) out["layers"] = selection.layers;
    if (!selection.heads.empty()) out["heads"] = selection.heads;
    if (!selection.steps.empty()) {
        Json steps = Json::array();
        for (Step s : selection.steps) steps.push_back(std::string(stepKey(s)));
        out["steps"] = std::move(steps);
    }
    return out;
}

TraceJsonStream::TraceJsonStream(TextSink sink, NumberSpelling spelling, TraceSelection selection)
    : sink_(std::move(sink)), spelling_(spelling), selection_(std::move(selection)) {
    buffer_.reserve(kChunkBytes + 4096);
}

void TraceJsonStream::flush() {
    if (!failed_ && !buffer_.empty() && !sink_(buffer_)) failed_ = true;
    buffer_.clear();
}

void TraceJsonStream::put(std::string_view text) {
    buffer_.append(text);
    if (buffer_.size() >= kChunkBytes) flush();
}

void TraceJsonStream::indent(int level) { buffer_.append(static_cast<std::size_t>(level), ' '); }

// The key of the next field of an object whose fields sit at `level`.
void TraceJsonStream::field(std::string_view key, int level, bool& first) {
    buffer_.append(first ? "\n" : ",\n");
    first = false;
    indent(level);
    buffer_ += '"';
    buffer_.append(key);
    buffer_.append("\": ");
}

// "]" or "}" closing a container whose elements sat at level + 1; dump spells an empty one "[]", "{}".
void TraceJsonStream::closeWith(char bracket, int level, bool empty) {
    if (!empty) {
        buffer_ += '\n';
        indent(level);
    }
    buffer_ += bracket;
}

// A small value (tokens, settings, predictions) through nlohmann, re-indented to `level`: JSON
// strings hold no raw line break, so every '\n' of the dump starts a line of the value.
void TraceJsonStream::value(const Json& v, int level) {
    const std::string text = v.dump(1, ' ', false, Json::error_handler_t::replace);
    std::string shifted;
    shifted.reserve(text.size());
    for (char c : text) {
        shifted += c;
        if (c == '\n') shifted.append(static_cast<std::size_t>(level), ' ');
    }
    put(shifted);
}

void TraceJsonStream::number(double v) {
    if (std::isnan(v)) return buffer_.append("\"nan\""), void();
    if (std::isinf(v)) return buffer_.append(v < 0 ? "\"-inf\"" : "\"inf\""), void();
    char text[64];
    if (spelling_ == NumberSpelling::Exact) {
        buffer_.append(text, nlohmann::detail::to_chars(text, text + sizeof text, v));
        return;
    }
    const auto single = static_cast<float>(v);
    char* end = std::to_chars(text, text + sizeof text, single).ptr;
    buffer_.append(text, end);
    if (std::find_if(text, end, [](char c) { return c == '.' || c == 'e' || c == 'n' || c == 'i'; }) == end)
        buffer_.append(".0");  // "1.0" as dump writes a whole double, so a reader still sees a float
}

template <class Matrix>
void TraceJsonStream::matrix(const Matrix& m, int level) {
    buffer_ += '[';
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        buffer_.append(r ? ",\n" : "\n");
        indent(level + 1);
        buffer_ += '[';
        for (Eigen::Index c = 0; c < m.cols(); ++c) {
            buffer_.append(c ? ",\n" : "\n");
            indent(level + 2);
            number(m(r, c));
        }
        closeWith(']', level + 1, m.cols() == 0);
        if (buffer_.size() >= kChunkBytes) flush();
    }
    closeWith(']', level, m.rows() == 0);
}

template <class Matrix>
void TraceJsonStream::matrixField(std::string_view key, Step step, const Matrix& m, int level, bool& first) {
    if (!selection_.hasStep(step)) return;
    field(key, level, first);
    matrix(m, level);
}

Json traceHeaderJson(const Trace& header, const std::vector<HeadRef>& ablated) {
    Json out = Json::object();
    out["format"] = "attnscope-trace";
    out["version"] = kTraceFormatVersion;
    out["tokens"] = tokensJson(header.tokens, false);
    out["token_info"] = tokensJson(header.tokens, true);
    if (header.isCrossAttention()) out["key_tokens"] = tokensJson(header.keyTokens, false);
    out["settings"] = settingsJson(header);
    out["notices"] = noticeTexts(header.notices, Language::English);  // English: the format stays stable
    out["ablated"] = ablatedJson(ablated);
    return out;
}

void TraceJsonStream::begin(const Trace& header, const std::vector<HeadRef>& ablated) {
    put("{");
    const Json fields = traceHeaderJson(header, ablated);  // kept: items() refers into it
    for (const auto& [key, v] : fields.items()) {
        field(key, 1, firstField_);
        value(v, 1);
    }
    matrixField("embedding", Step::Embedding, header.embedding, 1, firstField_);
    matrixField("positional", Step::Positional, header.positional, 1, firstField_);
    field("layers", 1, firstField_);
    put("[");
}

void TraceJsonStream::headObject(const HeadTrace& h, int level) {
    bool first = true;
    buffer_ += '{';
    matrixField("q", Step::Query, h.q, level + 1, first);
    matrixField("k", Step::Key, h.k, level + 1, first);
    matrixField("v", Step::Value, h.v, level + 1, first);
    matrixField("scores", Step::Scores, h.scores, level + 1, first);
    matrixField("scaled_scores", Step::Scaled, h.scaledScores, level + 1, first);
    matrixField("mask", Step::Mask, h.mask, level + 1, first);
    matrixField("masked_scores", Step::Masked, h.maskedScores, level + 1, first);
    matrixField("weights", Step::Weights, h.weights, level + 1, first);
    matrixField("output", Step::WeightedSum, h.weightedSum, level + 1, first);
    field("ablated", level + 1, first);
    buffer_.append(h.ablated ? "true" : "false");
    closeWith('}', level, false);
}

void TraceJsonStream::layer(const LayerTrace& l, int index) {
    if (!selection_.hasLayer(index)) return;
    buffer_.append(firstLayer_ ? "\n" : ",\n");
    firstLayer_ = false;
    indent(2);
    buffer_ += '{';
    bool first = true;
    matrixField("input", Step::Input, l.input, 3, first);
    const bool anyHeadStep = selection_.steps.empty() ||
                             std::any_of(selection_.steps.begin(), selection_.steps.end(), isPerHead);
    if (anyHeadStep) {
        field("heads", 3, first);
        buffer_ += '[';
        bool firstHead = true;
        for (std::size_t h = 0; h < l.heads.size(); ++h) {
            if (!selection_.hasHead(static_cast<int>(h))) continue;
            buffer_.append(firstHead ? "\n" : ",\n");
            firstHead = false;
            indent(4);
            headObject(l.heads[h], 4);
        }
        closeWith(']', 3, firstHead);
    }
    matrixField("concat", Step::Concat, l.concat, 3, first);
    matrixField("output", Step::Output, l.output, 3, first);
    if (l.keyInput.size() > 0) matrixField("key_input", Step::SourceInput, l.keyInput, 3, first);
    closeWith('}', 2, first);
    flush();
}

bool TraceJsonStream::finish(const JsonTail& tail) {
    closeWith(']', 1, firstLayer_);
    for (const auto& [key, v] : tail) {
        field(key, 1, firstField_);
        value(v, 1);
    }
    put("\n}\n");
    flush();
    return !failed_;
}

bool writeTraceJson(const Trace& trace, const TextSink& sink, NumberSpelling spelling,
                    const TraceSelection& selection, const JsonTail& tail) {
    TraceJsonStream stream(sink, spelling, selection);
    stream.begin(trace, ablatedHeads(trace));
    for (int l = 0; l < trace.layerCount(); ++l) stream.layer(trace.layers[static_cast<std::size_t>(l)], l);
    return stream.finish(tail);
}

}  // namespace attnscope
