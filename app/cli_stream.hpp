#pragma once
// What --print writes and where: the selection (--layers, --heads, --steps) and the destination
// (--output FILE, written atomically, or stdout), handed to core's streaming writers piece by piece.
#include <functional>
#include <optional>
#include <string>

#include "core/base/result.hpp"
#include "core/export/trace_stream.hpp"

class QCommandLineParser;

namespace attnscope {

// The selection options, for addOptions.
void addSelectionOptions(QCommandLineParser& parser);

// --layers 1,3-5 --heads 2,7 --steps weights,scores (counted from 1) against `layers` × `heads`;
// the error, if any: an empty list, an index outside, an unknown step, or given beside
// --layer / --head / --step.
std::optional<std::string> readSelection(const QCommandLineParser& parser, int layers, int heads,
                                         TraceSelection& selection);

// Makes the output into a sink; `target` names it in errors ("--output" file or "standard output").
using OutputProducer = std::function<Result<void>(const TextSink& sink, const std::string& target)>;

// `text` into `sink` at once (outputs that are small); an error naming `target` if it refused.
Result<void> writeWhole(const TextSink& sink, const std::string& text, const std::string& target);

// Runs `produce` into --output FILE (atomically: nothing is left on any error) or stdout. 0, or
// 1 after printing the error.
int writeOutput(const QCommandLineParser& parser, const OutputProducer& produce);

}  // namespace attnscope
