#pragma once
// Exports of a real model's own output (its predictions) beside the Trace: the lines the command
// line prints first, and the JSON trace with a "predictions" field (docs/trace-format.md).
#include <functional>
#include <optional>
#include <string>

#include "core/export/export.hpp"
#include "core/model/transformer.hpp"
#include "core/text/language.hpp"

namespace attnscope {

// A vocabulary id as a reader should see it ("paris", "␣world"); the caller owns the tokenizer.
using TokenLabeler = std::function<std::string(int id)>;

// One line per prediction, best first, positions counted from 1 like --head and --layer:
//   BERT:  "[MASK] at position 3: paris 0.412, lyon 0.101, …"
//   GPT-2: "next token after position 3 (sat): ␣on 0.210, …"
// The words in `language` (core's catalogue); the ":" and ", " between the numbers stay.
std::string predictionsToText(const ModelRun& run, ModelFamily family, const TokenLabeler& label,
                              int decimals, Language language = Language::English);

// traceToJson(run.trace) plus "predictions": [{"position", "kind", "top": [{"id", "token",
// "probability", "logit"}]}] (positions 0-based like every index in the JSON). Numbers are
// spelled as floats (NumberSpelling::FloatShortest): a model computes in float32.
// `trace` is run.trace, or a copy holding only layer `onlyLayer` (0-based; then written as
// "layer_index" so a reader knows which one "layers" holds).
std::string modelRunToJson(const ModelRun& run, const Trace& trace, ModelFamily family, const TokenLabeler& label,
                           std::optional<int> onlyLayer = std::nullopt);

// Makes a model run with the RunControl it is given (e.g. runSentence on an opened model).
using ModelRunner = std::function<Result<ModelRun>(const RunControl& control)>;

// The whole run's JSON (modelRunToJson's document, only the `selection`'s parts, with a
// "selection" field when one is given) written into `sink` layer by layer as the run computes
// them, every layer in full detail and dropped once written: memory stays one layer deep.
// `onlyLayer` (0-based): that layer alone, with "layer_index" as modelRunToJson writes it.
// A failed write stops the run (an Error naming `target`); the returned run has no layers.
Result<ModelRun> streamModelRunJson(const ModelRunner& runner, RunControl control, ModelFamily family,
                                    const TokenLabeler& label, const TraceSelection& selection,
                                    std::optional<int> onlyLayer, const TextSink& sink, const std::string& target);

// The same run as a NumPy .npz (core/export/trace_npz.hpp: one float32 .npy a matrix, then
// trace.json with the predictions), streamed the same way.
Result<ModelRun> streamModelRunNpz(const ModelRunner& runner, RunControl control, ModelFamily family,
                                   const TokenLabeler& label, const TraceSelection& selection,
                                   std::optional<int> onlyLayer, const TextSink& sink, const std::string& target);

// The CSV of the selected layers (exportTrace's layout, each layer with its real number; the
// embedding rows with the first only), then predictionsToCsvRows, streamed the same way.
Result<ModelRun> streamModelRunCsv(const ModelRunner& runner, RunControl control, const ExportRequest& request,
                                   const TokenLabeler& label, const TextSink& sink, const std::string& target);

// CSV rows in exportTrace's column layout, one per predicted token:
//   prediction,,,<position>,<token>,<rank>,<predicted token>,<probability>
std::string predictionsToCsvRows(const ModelRun& run, const TokenLabeler& label, int decimals);

}  // namespace attnscope
