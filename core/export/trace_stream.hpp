#pragma once
// The JSON trace (docs/trace-format.md) and the tidy CSV written piece by piece into a sink, so a
// whole model run is never held as one text: a layer can be written as soon as it is computed
// and dropped (RunControl::onLayer). traceToJson and exportTrace's CSV are built on these.
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/result.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

// Where streamed text goes (a FileChunkWriter, stdout, a string). false: the write failed; the
// writer stops writing and reports it.
using TextSink = std::function<bool(std::string_view)>;
inline TextSink stringSink(std::string& out) {
    return [&out](std::string_view text) { return out.append(text), true; };
}

// Exact: every number as nlohmann::json spells a double (shortest round-trip, "1.0"): lessons.
// FloatShortest: as the float it was computed in (std::to_chars, ≤ 9 significant digits, reads back
// as the same float): real model runs, whose intermediates are float32.
enum class NumberSpelling { Exact, FloatShortest };

// Which parts to write, 0-based, sorted; an empty list keeps every layer / head / step.
struct TraceSelection {
    std::vector<int> layers;
    std::vector<int> heads;
    std::vector<Step> steps;
    bool any() const { return !layers.empty() || !heads.empty() || !steps.empty(); }
    bool hasLayer(int layer) const;
    bool hasHead(int head) const;
    bool hasStep(Step step) const;
    bool hasHeadStep() const;  // a step with a matrix per head (no steps named: all of them)
};

// Extra top-level fields written after "layers" (e.g. "layer_index", "predictions"), in order.
using JsonTail = std::vector<std::pair<std::string, nlohmann::ordered_json>>;

// Writes one JSON trace document: begin (everything before the layers), layer (each, in order),
// finish. Text is handed to the sink in chunks of about a megabyte.
class TraceJsonStream {
public:
    TraceJsonStream(TextSink sink, NumberSpelling spelling, TraceSelection selection = {});
    ~TraceJsonStream();
    // tokens … positional, from `header` (its layers are not read); `ablated`: the whole run's heads.
    void begin(const Trace& header, const std::vector<HeadRef>& ablated);
    void layer(const LayerTrace& layer, int index);  // skipped unless the selection holds `index`
    // Closes "layers", writes `tail`; false once a write failed (the sink knows why).
    bool finish(const JsonTail& tail = {});
    bool begun() const { return !firstField_; }
    bool failed() const { return failed_; }

private:
    template <class Matrix>  // Mat or MatF
    void matrix(const Matrix& m, int level, Step step);
    template <class Matrix>
    void matrixField(std::string_view key, Step step, const Matrix& m, int level, bool& first);
    void headObject(const HeadTrace& head, int level);
    void modernLayerFields(const LayerTrace& layer, bool& first);
    void field(std::string_view key, int level, bool& first);
    void value(const nlohmann::ordered_json& v, int level);
    void put(std::string_view text);
    void write(std::string_view text);  // put, or straight to the sink when large
    void indent(int level);
    void closeWith(char bracket, int level, bool empty);
    void flush();

    TextSink sink_;
    NumberSpelling spelling_;
    TraceSelection selection_;
    std::string buffer_;
    bool failed_ = false;
    bool firstLayer_ = true;
    bool firstField_ = true;  // of the document
    struct SpelledText;  // the matrices' text as it is spelled, and the last ones kept (trace_stream.cpp)
    std::unique_ptr<SpelledText> spelled_;
};

// The small fields before the matrices, in order: format, version, tokens, token_info, key_tokens
// (cross-attention only), settings, notices (English), ablated (`ablated`: the whole run's heads).
nlohmann::ordered_json traceHeaderJson(const Trace& header, const std::vector<HeadRef>& ablated);

// {"layers": […], "heads": […], "steps": […]}: the parts a selection names (layers and heads
// 0-based, steps by their --step key), for a "selection" field in the tail.
nlohmann::ordered_json selectionJson(const TraceSelection& selection);

// The whole Trace through TraceJsonStream (ablated: ablatedHeads(trace)); false once a write failed.
bool writeTraceJson(const Trace& trace, const TextSink& sink, NumberSpelling spelling,
                    const TraceSelection& selection = {}, const JsonTail& tail = {});

}  // namespace attnscope
