#pragma once
// attnscope --lesson L --print for an encoder–decoder lesson (format version 8): every stage
// (encoder, masked decoder self-attention, cross-attention with the output head) and teacher
// forcing's labels, p(label) and −ln p (core/export/encoder_decoder_export.hpp).
#include <QCommandLineParser>
#include <string>

#include "core/export/export.hpp"
#include "core/lesson/lesson.hpp"
#include "core/lesson/run_lesson.hpp"

namespace attnscope {

// Runs the lesson on `source` and writes its stages to stdout or --out; text and Markdown only.
int printEncoderDecoder(const QCommandLineParser& parser, const Lesson& lesson, const std::string& source,
                        ExportFormat format, const ExportRequest& request, const RunSettings& settings);

}  // namespace attnscope
