#pragma once
// The Trace as a NumPy .npz (a stored ZIP of .npy files, core/io/zip_store.hpp) written piece by
// piece like TraceJsonStream: each matrix becomes one entry as soon as its layer arrives, so a
// whole model run is never held. The same parts as the JSON trace (docs/trace-format.md), named
//   embedding.npy, positional.npy,
//   layer03/input.npy, layer03/head07/{q,k,v,scores,scaled_scores,mask,masked_scores,weights,output}.npy,
//   layer03/concat.npy, layer03/output.npy, layer03/key_input.npy (cross-attention)
// with layers and heads 0-based (as in the JSON), two digits at least; then trace.json: the JSON
// trace's small fields (tokens, settings, notices, ablated), "arrays" (every entry's name, in
// order) and the tail (predictions, selection, layer_index). numpy.load(file)["layer03/head07/weights"].
// Numbers: '<f8' for NumberSpelling::Exact (lessons), '<f4' for FloatShortest (model runs).
#include <string>
#include <vector>

#include "core/export/trace_stream.hpp"
#include "core/io/zip_store.hpp"

namespace attnscope {

class TraceNpzStream {
public:
    TraceNpzStream(TextSink sink, NumberSpelling spelling, TraceSelection selection = {});
    void begin(const Trace& header, const std::vector<HeadRef>& ablated);
    void layer(const LayerTrace& layer, int index);  // skipped unless the selection holds `index`
    void block(const BlockTrace& block);  // the block after attention, block/<step>.npy
    // trace.json with `tail`, then the ZIP's central directory; false once a write failed.
    bool finish(const JsonTail& tail = {});
    bool begun() const { return begun_; }
    bool failed() const { return zip_.failed(); }

private:
    template <class Matrix>
    void matrix(const std::string& name, Step step, const Matrix& m);

    StoredZipWriter zip_;
    bool wide_;  // '<f8'
    TraceSelection selection_;
    nlohmann::ordered_json meta_;
    std::vector<std::string> names_;
    std::string entry_;  // one .npy at a time
    bool begun_ = false;
};

// The whole Trace through TraceNpzStream (ablated: ablatedHeads(trace)); false once a write failed.
bool writeTraceNpz(const Trace& trace, const TextSink& sink, NumberSpelling spelling,
                   const TraceSelection& selection = {}, const JsonTail& tail = {});

}  // namespace attnscope
