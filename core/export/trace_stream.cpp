// The JSON trace written piece by piece, laid out exactly as nlohmann::json::dump(1) lays it out
// (one value a line, one space of indent per level), so a streamed document and the in-memory one
// it replaced are the same bytes.
#include "core/export/trace_stream.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <thread>

#include "core/export/export.hpp"
#include "core/text/float_shortest.hpp"
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

namespace {

constexpr std::size_t kNumberRoom = 32;  // the longest spelling: a double's 24 characters
static_assert(kNumberRoom >= kFloatShortestMaxChars + 2, "a float's spelling and its \".0\"");

// One number as the spelling wants it, written at `out` (room for kNumberRoom bytes); returns the end.
char* spellNumber(char* out, double v, NumberSpelling spelling) {
    const auto copy = [](std::string_view text, char* to) { return std::copy(text.begin(), text.end(), to); };
    if (std::isnan(v)) return copy("\"nan\"", out);
    if (std::isinf(v)) return copy(v < 0 ? "\"-inf\"" : "\"inf\"", out);
    if (spelling == NumberSpelling::Exact) return nlohmann::detail::to_chars(out, out + kNumberRoom, v);
    char* end = spellFloatShortest(out, static_cast<float>(v));  // what std::to_chars writes, faster
    if (std::find_if(out, end, [](char c) { return c == '.' || c == 'e'; }) == end)
        end = copy(".0", end);  // "1.0" as dump writes a whole double, so a reader still sees a float
    return end;
}

// Rows [first, last) of a matrix whose "[" sits at `level`, each row "[" … "]" at level + 1 and
// its numbers at level + 2, as dump(1) lays them out (the separator before row `first` included),
// appended to `out` through a raw pointer: no string call per number.
template <class Matrix>
void appendRows(std::string& out, const Matrix& m, Eigen::Index first, Eigen::Index last, int level,
                NumberSpelling spelling) {
    const auto rowIndent = static_cast<std::size_t>(level + 1), cellIndent = rowIndent + 1;
    for (Eigen::Index r = first; r < last; ++r) {
        const std::size_t used = out.size();
        out.resize(used + 4 + 2 * rowIndent + static_cast<std::size_t>(m.cols()) * (cellIndent + 2 + kNumberRoom));
        char* p = out.data() + used;
        p = std::copy_n(r ? ",\n" : "\n", r ? 2 : 1, p);
        p = std::fill_n(p, rowIndent, ' ');
        *p++ = '[';
        for (Eigen::Index c = 0; c < m.cols(); ++c) {
            p = std::copy_n(c ? ",\n" : "\n", c ? 2 : 1, p);
            p = std::fill_n(p, cellIndent, ' ');
            p = spellNumber(p, m(r, c), spelling);
        }
        if (m.cols() > 0) {
            *p++ = '\n';
            p = std::fill_n(p, rowIndent, ' ');
        }
        *p++ = ']';
        out.resize(static_cast<std::size_t>(p - out.data()));
    }
}

// Matrices of at least this many cells are spelled by two threads, half the rows each: the
// spelling is most of a model export's time (T×T matrices), and a second core is the norm.
constexpr Eigen::Index kSplitCells = 1 << 15;

// Every row of a large matrix spelled by two threads, half the rows each, appended to `out`.
template <class Matrix>
void appendRowsInTwo(std::string& out, const Matrix& m, int level, NumberSpelling spelling) {
    const Eigen::Index rows = m.rows(), half = rows / 2;
    std::string second;
    std::thread helper([&] { appendRows(second, m, half, rows, level, spelling); });
    appendRows(out, m, 0, half, level, spelling);
    helper.join();
    out.append(second);
}

template <class Matrix>
std::string_view bytesOf(const Matrix& m) {  // a Mat or MatF: contiguous
    return {reinterpret_cast<const char*>(m.data()), static_cast<std::size_t>(m.size()) * sizeof(typename Matrix::Scalar)};
}

}  // namespace

bool TraceJsonStream::Spelled::holds(std::string_view bytes, Eigen::Index r, Eigen::Index c, int at) const {
    return level == at && rows == r && cols == c && values == bytes;
}

// The spelling is most of a model export's time; two matrices come back whole, so each is kept
// spelled to be written again: the mask (the same for every head of a causal model) and the
// scaled scores (an encoder's masked scores are the scaled scores plus a mask of zeros).
bool TraceJsonStream::isKept(Step step) { return step == Step::Mask || step == Step::Scaled; }
bool TraceJsonStream::mayRepeat(Step step) { return step == Step::Mask || step == Step::Masked; }

template <class Matrix>
void TraceJsonStream::matrix(const Matrix& m, int level, Step step) {
    buffer_ += '[';
    const Eigen::Index rows = m.rows();
    if (m.size() >= kSplitCells && rows >= 2 && std::thread::hardware_concurrency() > 1) {
        largeMatrix(m, level, step);
    } else {
        for (Eigen::Index r = 0; r < rows; r += 64) {  // a chunk at a time: the buffer stays ~1 MB
            appendRows(buffer_, m, r, std::min(rows, r + 64), level, spelling_);
            if (buffer_.size() >= kChunkBytes) flush();
        }
    }
    closeWith(']', level, rows == 0);
    if (buffer_.size() >= kChunkBytes) flush();
}

template <class Matrix>
void TraceJsonStream::largeMatrix(const Matrix& m, int level, Step step) {
    const std::string_view bytes = bytesOf(m);
    if (mayRepeat(step))
        for (const Spelled& kept : kept_)
            if (kept.holds(bytes, m.rows(), m.cols(), level)) {
                buffer_.append(kept.text);
                return;
            }
    if (!isKept(step)) {
        appendRowsInTwo(buffer_, m, level, spelling_);
        return;
    }
    Spelled& slot = kept_[step == Step::Mask ? 0 : 1];
    slot.text.clear();
    appendRowsInTwo(slot.text, m, level, spelling_);
    buffer_.append(slot.text);
    slot.values.assign(bytes);
    slot.rows = m.rows();
    slot.cols = m.cols();
    slot.level = level;
}

template <class Matrix>
void TraceJsonStream::matrixField(std::string_view key, Step step, const Matrix& m, int level, bool& first) {
    if (!selection_.hasStep(step)) return;
    field(key, level, first);
    if constexpr (std::is_same_v<Matrix, AttentionWeights>)
        m.visit([&](const auto& typed) { matrix(typed, level, step); });  // Mat or MatF, not a view per number
    else
        matrix(m, level, step);
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
