#pragma once
// Renders a Trace as text, CSV, Markdown worksheets or the versioned JSON trace schema
// (docs/trace-format.md). Pure string building: the caller decides where it goes.
#include <optional>
#include <string>
#include <string_view>

#include "core/export/trace_stream.hpp"
#include "core/text/language.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

inline constexpr int kTraceFormatVersion = 2;  // 2: every index counts from 1 (docs/cli.md)

// Npy: the JSON trace's matrices as a NumPy .npz (binary; core/export/trace_npz.hpp).
enum class ExportFormat { Text, Json, Csv, Markdown, Npy };
std::optional<ExportFormat> exportFormatFromName(std::string_view name);

struct ExportRequest {
    std::optional<Step> step;  // all steps of the run when empty
    std::optional<int> head;   // all heads when empty (0-based)
    int decimals = 3;
    bool explain = false;      // worksheets: add each cell's explanation (text/markdown)
    std::optional<int> layer;  // every layer when empty (0-based)
    Language language = Language::English;  // text/Markdown: titles, explanations, notices (not JSON/CSV)
    TraceSelection selection;  // --layers/--heads/--steps: only these (every format; with layer/head/step too)
};

// Whether exportTrace prints head `head` (0-based; request.head and request.selection.heads), and
// that of every head of a layer of H: what a long run's layer is rebuilt for (traceLayerInDetail).
bool printsHead(const ExportRequest& request, int head);
std::vector<bool> headsPrinted(const ExportRequest& request, int heads);

// Text, CSV and Markdown print the requested matrices with token labels. JSON holds the whole
// Trace (every layer, head and intermediate) so that tools need one schema; with request.layer
// it holds that one layer and says which ("layer_index").
std::string exportTrace(const Trace& trace, ExportFormat format, const ExportRequest& request);

std::string traceToJson(const Trace& trace, std::optional<int> onlyLayer = std::nullopt);

// The CSV of exportTrace written into `sink` block by block; `header`: the column line first.
// `layerNumber` (counted from 1) labels every row, for a one-layer Trace cut out of a longer run.
bool writeTraceCsv(const Trace& trace, const ExportRequest& request, const TextSink& sink, bool header = true,
                   std::optional<int> layerNumber = std::nullopt);

// One matrix as {"rows": R, "cols": C, "data": [[…], …]}, non-finite cells spelled as the trace
// schema spells them ("-inf", "inf", "nan"); numbers round-trip exactly.
std::string matrixToJson(const Mat& m);

}  // namespace attnscope
