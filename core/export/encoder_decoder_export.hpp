#pragma once
// An encoder–decoder run (core/lesson/run_encoder_decoder.hpp) as text or Markdown: each stage's
// heading and its Trace as exportTrace prints it, then teacher forcing's table (decoder input,
// label, p(label), −ln p(label) per position) and the mean loss. Pure string building.
#include <string>

#include "core/export/export.hpp"
#include "core/lesson/run_encoder_decoder.hpp"
#include "core/export/table_format.hpp"

namespace attnscope {

// The labels table: a row per decoder position (1-based), p and −ln p with `decimals` digits.
Table teacherForcingTable(const EncoderDecoderRun& run, int decimals, Language language);

// format: Text or Markdown (the caller refuses the others); request as for exportTrace, applied to
// every stage (a --step a stage does not have prints nothing for it).
std::string exportEncoderDecoder(const EncoderDecoderRun& run, ExportFormat format, const ExportRequest& request);
// One stage under its heading, as exportEncoderDecoder prints it; the cross stage with the labels
// table and the mean loss (the window shows them beside it).
std::string exportEncoderDecoderStage(const EncoderDecoderRun& run, EncoderDecoderStage stage, ExportFormat format,
                                      const ExportRequest& request);

}  // namespace attnscope
