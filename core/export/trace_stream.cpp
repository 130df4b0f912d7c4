// The JSON trace written piece by piece, laid out exactly as nlohmann::json::dump(1) lays it out
// (one value a line, one space of indent per level), so a streamed document and the in-memory one
// it replaced are the same bytes.
#include "core/export/trace_stream.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <thread>

#include "core/export/export.hpp"
#include "core/io/json_index.hpp"
#include "core/io/json_rows.hpp"
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
        case PositionalKind::Rotary: return "rotary";
        default: return "none";
    }
}

// A model's token also keeps its vocabulary piece ("Ġworld", "<0xE5>") and, for byte pieces that
// are not whole text, how many tokens later its character is shown or that it forms none.
// `word` counts from 1 (docs/cli.md); null: the token is a word of its own.
Json tokenInfo(const Token& t) {
    const Json word = t.word >= 0 ? Json(json::oneBased(t.word)) : Json(nullptr);
    Json info{{"text", t.text}, {"in_table", t.inTable}, {"id", t.id}, {"word", word}, {"special", t.special}};
    if (!t.piece.empty()) info["piece"] = t.piece;
    if (t.completedAhead > 0) info["character_completed_ahead"] = t.completedAhead;
    if (t.invalidText) info["not_whole_text"] = true;
    return info;
}

Json tokensJson(const std::vector<Token>& all, bool detailed) {
    Json tokens = Json::array();
    for (const Token& t : all) tokens.push_back(detailed ? tokenInfo(t) : Json(t.text));
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
                {"padded_from", trace.paddedFrom >= 0 ? Json(json::oneBased(trace.paddedFrom)) : Json(nullptr)},
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
bool TraceSelection::hasHeadStep() const { return steps.empty() || std::any_of(steps.begin(), steps.end(), isPerHead); }

Json selectionJson(const TraceSelection& selection) {
    Json out = Json::object();
    if (!selection.layers.empty()) out["layers"] = json::oneBased(selection.layers);
    if (!selection.heads.empty()) out["heads"] = json::oneBased(selection.heads);
    if (!selection.steps.empty()) {
        Json steps = Json::array();
        for (Step s : selection.steps) steps.push_back(std::string(stepKey(s)));
        out["steps"] = std::move(steps);
    }
    return out;
}

void TraceJsonStream::flush() {
    if (!failed_ && !buffer_.empty() && !sink_(buffer_)) failed_ = true;
    buffer_.clear();
}

void TraceJsonStream::put(std::string_view text) {
    buffer_.append(text);
    if (buffer_.size() >= kChunkBytes) flush();
}

void TraceJsonStream::write(std::string_view text) {
    if (text.size() < kChunkBytes / 8) return put(text);
    flush();  // a matrix's rows in large pieces: handed on as they are, not copied into the buffer
    if (!failed_ && !sink_(text)) failed_ = true;
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
static_assert(kNumberRoom >= kFloatShortestRoom && kNumberRoom >= kFloatShortestMaxChars + 2,
              "a float's spelling, the bytes it may write past it, and its \".0\"");

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

// Text that grows without being zero-filled first: the spelling writes every byte it keeps.
class RawText {
public:
    char* room(std::size_t more) {  // where the next bytes go, with room for `more` of them
        if (size_ + more > capacity_) grow(size_ + more);
        return bytes_.get() + size_;
    }
    void endAt(const char* end) { size_ = static_cast<std::size_t>(end - bytes_.get()); }
    std::size_t size() const { return size_; }
    void clear() { size_ = 0; }
    std::string_view view(std::size_t from, std::size_t to) const { return {bytes_.get() + from, to - from}; }

private:
    void grow(std::size_t need) {
        capacity_ = std::max(need, 2 * capacity_);
        auto bigger = std::make_unique_for_overwrite<char[]>(capacity_);
        if (size_ > 0) std::memcpy(bigger.get(), bytes_.get(), size_);
        bytes_ = std::move(bigger);
    }
    std::unique_ptr<char[]> bytes_;
    std::size_t size_ = 0, capacity_ = 0;
};

// Where each cell's number sits in a matrix's text (cell r·cols + c), to be copied into another.
struct CellSpans {
    std::vector<std::uint32_t> start;
    std::vector<std::uint8_t> length;
};

// A matrix spelled before, whose numbers are copied where a new one holds the same bits: a
// decoder's masked scores are its scaled scores below the diagonal.
struct CellSource {
    const char* values;  // its storage: the new matrix's type and shape
    const char* text;
    const CellSpans* spans;
};

template <class Scalar>
bool sameBits(const Scalar& a, const char* b) {
    return std::memcmp(&a, b, sizeof(Scalar)) == 0;
}

// Rows [first, last) of a row-major matrix whose "[" sits at `level`, each row "[" … "]" at
// level + 1 and its numbers at level + 2, as dump(1) lays them out (the separator before row
// `first` included), appended to `out` through a raw pointer: no string call per number. With
// `reuse`, a cell of the same bits is copied from there; with `log`, each cell's span is noted
// (offsets in `out`).
template <class Matrix>
void appendRows(RawText& out, const Matrix& m, Eigen::Index first, Eigen::Index last, int level,
                NumberSpelling spelling, const CellSource* reuse, CellSpans* log) {
    static_assert(Matrix::IsRowMajor, "cells are indexed r·cols + c");
    using Scalar = typename Matrix::Scalar;
    const auto rowIndent = static_cast<std::size_t>(level + 1), cellIndent = rowIndent + 1;
    const Eigen::Index cols = m.cols();
    for (Eigen::Index r = first; r < last; ++r) {
        char* const begin = out.room(4 + 2 * rowIndent + static_cast<std::size_t>(cols) * (cellIndent + 2 + kNumberRoom));
        char* p = begin;
        p = std::copy_n(r ? ",\n" : "\n", r ? 2 : 1, p);
        p = std::fill_n(p, rowIndent, ' ');
        *p++ = '[';
        const Scalar* row = m.data() + r * cols;
        for (Eigen::Index c = 0; c < cols; ++c) {
            p = std::copy_n(c ? ",\n" : "\n", c ? 2 : 1, p);
            p = std::fill_n(p, cellIndent, ' ');
            const auto cell = static_cast<std::size_t>(r * cols + c);
            char* const number = p;
            if (reuse && sameBits(row[c], reuse->values + cell * sizeof(Scalar)))
                p = std::copy_n(reuse->text + reuse->spans->start[cell], reuse->spans->length[cell], p);
            else
                p = spellNumber(p, row[c], spelling);
            if (log) {
                log->start[cell] = static_cast<std::uint32_t>(out.size() + static_cast<std::size_t>(number - begin));
                log->length[cell] = static_cast<std::uint8_t>(p - number);
            }
        }
        if (cols > 0) {
            *p++ = '\n';
            p = std::fill_n(p, rowIndent, ' ');
        }
        *p++ = ']';
        out.endAt(p);
    }
}

// Matrices of at least this many cells are spelled by two threads: the spelling is most of a
// model export's time (T×T matrices), and a second core is the norm.
constexpr Eigen::Index kSplitCells = 1 << 15;
constexpr Eigen::Index kBlockCells = 1 << 13;  // the rows a thread takes at a time hold about this many

template <class Matrix>
std::string_view bytesOf(const Matrix& m) {  // a Mat or MatF: contiguous
    return {reinterpret_cast<const char*>(m.data()), static_cast<std::size_t>(m.size()) * sizeof(typename Matrix::Scalar)};
}

}  // namespace

// A matrix's rows are spelled in blocks into two lanes, one a thread, and written in order.
// The last large mask and scaled scores stay spelled: they come back (see isKept).
struct TraceJsonStream::SpelledText {
    struct Block {
        Eigen::Index firstRow = 0, lastRow = 0;
        int lane = 0;
        std::size_t from = 0, to = 0;  // its text in the lane
    };
    struct Kept {
        int level = -1;
        Eigen::Index rows = 0, cols = 0;
        std::string values;  // the matrix's storage, byte for byte
        std::string text;    // its rows, spelled at `level`
        CellSpans spans;     // each number in `text` (scaled scores only: the cells masked scores copy)
        bool holds(std::string_view bytes, Eigen::Index r, Eigen::Index c, int at) const {
            return level == at && rows == r && cols == c && values == bytes;
        }
    };
    std::array<RawText, 2> lanes;
    std::vector<Block> blocks;
    std::array<Kept, 2> kept;  // the last mask, the last scaled scores

    static bool isKept(Step step) { return step == Step::Mask || step == Step::Scaled; }
    Kept& keptFor(Step step) { return kept[step == Step::Mask ? 0 : 1]; }

    template <class Matrix>
    void spell(const Matrix& m, int level, NumberSpelling spelling, const CellSource* reuse, CellSpans* log);
    template <class Matrix>
    const Kept* wholeRepeat(const Matrix& m, int level, Step step) const;
    template <class Matrix>
    std::optional<CellSource> cellSource(const Matrix& m, Step step) const;
    // withSpans: the spans were logged (scaled scores) and move with the text.
    void keep(Kept& slot, std::string_view bytes, Eigen::Index rows, Eigen::Index cols, int level, bool withSpans);
};

// Every row of `m` into blocks, taken in turn by two threads when it is large (a causal matrix's
// later rows hold more numbers, so halves would not balance), by this one otherwise.
template <class Matrix>
void TraceJsonStream::SpelledText::spell(const Matrix& m, int level, NumberSpelling spelling, const CellSource* reuse,
                                         CellSpans* log) {
    const Eigen::Index rows = m.rows(), rowsPerBlock = std::max<Eigen::Index>(1, kBlockCells / std::max<Eigen::Index>(1, m.cols()));
    blocks.assign(static_cast<std::size_t>((rows + rowsPerBlock - 1) / rowsPerBlock), Block{});
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        blocks[b].firstRow = static_cast<Eigen::Index>(b) * rowsPerBlock;
        blocks[b].lastRow = std::min(rows, blocks[b].firstRow + rowsPerBlock);
    }
    if (log) {
        log->start.resize(static_cast<std::size_t>(m.size()));
        log->length.resize(static_cast<std::size_t>(m.size()));
    }
    std::atomic<std::size_t> next{0};
    const auto work = [&](int lane) {
        for (std::size_t b; (b = next++) < blocks.size();) {
            Block& block = blocks[b];
            block.lane = lane;
            block.from = lanes[static_cast<std::size_t>(lane)].size();
            appendRows(lanes[static_cast<std::size_t>(lane)], m, block.firstRow, block.lastRow, level, spelling, reuse, log);
            block.to = lanes[static_cast<std::size_t>(lane)].size();
        }
    };
    lanes[0].clear();
    lanes[1].clear();
    if (m.size() >= kSplitCells && blocks.size() >= 2 && std::thread::hardware_concurrency() > 1) {
        std::thread helper(work, 1);
        work(0);
        helper.join();
    } else {
        work(0);
    }
}

// The kept text, when `m` is a step that comes back whole and the bytes are those kept.
template <class Matrix>
const TraceJsonStream::SpelledText::Kept* TraceJsonStream::SpelledText::wholeRepeat(const Matrix& m, int level,
                                                                                  Step step) const {
    if (step != Step::Mask && step != Step::Masked) return nullptr;
    for (const Kept& k : kept)
        if (k.holds(bytesOf(m), m.rows(), m.cols(), level)) return &k;
    return nullptr;
}

// Masked scores copy the scaled scores' numbers cell by cell where the bits agree.
template <class Matrix>
std::optional<CellSource> TraceJsonStream::SpelledText::cellSource(const Matrix& m, Step step) const {
    const Kept& scaled = kept[1];
    if (step != Step::Masked || scaled.rows != m.rows() || scaled.cols != m.cols() ||
        scaled.values.size() != bytesOf(m).size())
        return std::nullopt;
    return CellSource{scaled.values.data(), scaled.text.data(), &scaled.spans};
}

// The lanes' blocks, in order, become `slot`'s text; the spans logged in lane offsets move with them.
void TraceJsonStream::SpelledText::keep(Kept& slot, std::string_view bytes, Eigen::Index rows, Eigen::Index cols,
                                        int level, bool withSpans) {
    slot.text.clear();
    if (!withSpans) slot.spans = {};
    for (const Block& block : blocks) {
        const auto shift = static_cast<std::int64_t>(slot.text.size()) - static_cast<std::int64_t>(block.from);
        for (auto cell = static_cast<std::size_t>(block.firstRow * cols); withSpans && cell < static_cast<std::size_t>(block.lastRow * cols); ++cell)
            slot.spans.start[cell] = static_cast<std::uint32_t>(slot.spans.start[cell] + shift);
        slot.text.append(lanes[static_cast<std::size_t>(block.lane)].view(block.from, block.to));
    }
    slot.values.assign(bytes);
    slot.rows = rows;
    slot.cols = cols;
    slot.level = level;
}

TraceJsonStream::TraceJsonStream(TextSink sink, NumberSpelling spelling, TraceSelection selection)
    : sink_(std::move(sink)), spelling_(spelling), selection_(std::move(selection)),
      spelled_(std::make_unique<SpelledText>()) {
    buffer_.reserve(kChunkBytes + 4096);
}

TraceJsonStream::~TraceJsonStream() = default;

template <class Matrix>
void TraceJsonStream::matrix(const Matrix& m, int level, Step step) {
    buffer_ += '[';
    SpelledText& s = *spelled_;
    if (const SpelledText::Kept* repeat = s.wholeRepeat(m, level, step)) {
        write(repeat->text);
    } else if (m.size() >= kSplitCells && SpelledText::isKept(step)) {
        SpelledText::Kept& slot = s.keptFor(step);
        CellSpans* spans = step == Step::Scaled ? &slot.spans : nullptr;  // only scaled scores lend cells
        s.spell(m, level, spelling_, nullptr, spans);
        s.keep(slot, bytesOf(m), m.rows(), m.cols(), level, spans != nullptr);
        write(slot.text);
    } else {
        const std::optional<CellSource> reuse = s.cellSource(m, step);
        s.spell(m, level, spelling_, reuse ? &*reuse : nullptr, nullptr);
        for (const SpelledText::Block& block : s.blocks) write(s.lanes[static_cast<std::size_t>(block.lane)].view(block.from, block.to));
    }
    closeWith(']', level, m.rows() == 0);
    if (buffer_.size() >= kChunkBytes) flush();
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
    if (h.qBeforeRope.size() > 0) matrixField("q_before_rope", Step::QueryBeforeRope, h.qBeforeRope, level + 1, first);
    if (h.kBeforeRope.size() > 0) matrixField("k_before_rope", Step::KeyBeforeRope, h.kBeforeRope, level + 1, first);
    field("ablated", level + 1, first);
    buffer_.append(h.ablated ? "true" : "false");
    closeWith('}', level, false);
}

// Grouped-query attention's key/value head of each query head, RoPE's θ_i, the sliding window and
// q/k norms: only for the families that have them, so BERT's and GPT-2's JSON stays as it was.
void TraceJsonStream::modernLayerFields(const LayerTrace& l, bool& first) {
    if (!l.kvHeadOf.empty()) {
        field("kv_head_of", 3, first);
        value(json::oneBased(l.kvHeadOf), 3);
    }
    if (l.ropeFrequencies.size() > 0) {
        field("rope_frequencies", 3, first);
        value(Json(std::vector<double>(l.ropeFrequencies.data(), l.ropeFrequencies.data() + l.ropeFrequencies.size())), 3);
    }
    if (l.slidingWindow > 0) {
        field("sliding_window", 3, first);
        value(Json(l.slidingWindow), 3);
    }
    if (l.headNorm) {
        field("head_norm", 3, first);
        value(Json(true), 3);
    }
}

void TraceJsonStream::layer(const LayerTrace& l, int index) {
    if (!selection_.hasLayer(index)) return;
    buffer_.append(firstLayer_ ? "\n" : ",\n");
    firstLayer_ = false;
    indent(2);
    buffer_ += '{';
    bool first = true;
    matrixField("input", Step::Input, l.input, 3, first);
    if (selection_.hasHeadStep()) {
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
    modernLayerFields(l, first);
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

namespace {

const char* normName(BlockNorm kind) { return kind == BlockNorm::RmsNorm ? "rmsnorm" : "layernorm"; }
const char* ffnName(BlockFfn kind) {
    return kind == BlockFfn::SwiGlu ? "swiglu" : kind == BlockFfn::Gelu ? "gelu" : "relu";
}

Json normJson(const NormTrace& n) {
    Json out = {{"kind", normName(n.kind)}, {"eps", n.eps}, {"gamma", json::matrixRows(n.gamma)[0]}};
    if (n.beta.size()) out["beta"] = json::matrixRows(n.beta)[0];
    if (n.mean.size()) out["mean"] = json::matrixRows(n.mean.transpose())[0];  // T
    out[n.kind == BlockNorm::RmsNorm ? "mean_square" : "variance"] = json::matrixRows(n.variance.transpose())[0];  // T
    out["output"] = json::matrixRows(n.output);
    return out;
}

Json ffnJson(const FeedForwardTrace& f) {
    Json out = {{"kind", ffnName(f.kind)}};
    if (f.gate.size()) out["gate"] = json::matrixRows(f.gate);
    out[f.kind == BlockFfn::SwiGlu ? "up" : "hidden"] = json::matrixRows(f.hidden);
    out["activated"] = json::matrixRows(f.activated);
    out["output"] = json::matrixRows(f.output);
    return out;
}

// The block after attention (lessons of format version 6): every intermediate, by name.
Json blockJson(const BlockTrace& b) {
    Json out = {{"residual", b.residual}};
    if (b.afterAttention.size()) out["residual_attention"] = json::matrixRows(b.afterAttention);
    if (b.norm.present()) out["norm"] = normJson(b.norm);
    if (b.ffn.present()) out["ffn"] = ffnJson(b.ffn);
    if (b.afterFfn.size()) out["residual_ffn"] = json::matrixRows(b.afterFfn);
    if (b.finalNorm.present()) out["final_norm"] = normJson(b.finalNorm);
    if (b.logits.size()) {
        out["vocabulary"] = b.vocabulary;
        out["logits"] = json::matrixRows(b.logits);
        out["probabilities"] = json::matrixRows(b.probabilities);
    }
    return out;
}

}  // namespace

bool writeTraceJson(const Trace& trace, const TextSink& sink, NumberSpelling spelling,
                    const TraceSelection& selection, const JsonTail& tail) {
    TraceJsonStream stream(sink, spelling, selection);
    stream.begin(trace, ablatedHeads(trace));
    for (int l = 0; l < trace.layerCount(); ++l) stream.layer(trace.layers[static_cast<std::size_t>(l)], l);
    if (!trace.block.present()) return stream.finish(tail);
    JsonTail withBlock = tail;
    withBlock.emplace(withBlock.begin(), "block", blockJson(trace.block));
    return stream.finish(withBlock);
}

}  // namespace attnscope
