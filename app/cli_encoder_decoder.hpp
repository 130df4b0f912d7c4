#pragma once
// attnscope --lesson L --print for an encoder–decoder lesson (format version 8): every stage
// (encoder, masked decoder self-attention, cross-attention with the output head) and teacher
// forcing's labels, p(label) and −ln p (core/export/encoder_decoder_export.hpp); with --stage NAME
// (encoder, decoder_self, cross: core/lesson/encoder_decoder_stage.hpp) that stage alone, --ablate
// switching off its heads, and --export-png drawing its heatmaps.
#include <QCommandLineParser>
#include <optional>
#include <string>

#include "core/export/export.hpp"
#include "core/lesson/encoder_decoder_stage.hpp"
#include "core/lesson/lesson.hpp"
#include "core/lesson/run_lesson.hpp"

namespace attnscope {

// Runs the lesson on `source` and writes its stages (or --stage's) to stdout or --output; text and
// Markdown only. settings.ablate: the encoder's heads (without --stage).
int printEncoderDecoder(const QCommandLineParser& parser, const Lesson& lesson, const std::string& source,
                        ExportFormat format, const ExportRequest& request, const RunSettings& settings);

// --stage NAME shared by --print, compare and movement: none when not given (an encoder–decoder
// lesson then runs its encoder); the stage, or core's error for a lesson without a decoder or an
// unknown name.
Result<std::optional<EncoderDecoderStage>> readStage(const QCommandLineParser& parser, const Lesson& lesson);
// The stage compare and movement run an encoder–decoder lesson on: --stage's, by default the
// encoder (no heads off: the runners add --ablate's); none for another lesson.
Result<std::optional<StageView>> readStageView(const QCommandLineParser& parser, const Lesson& lesson);
// --stage with --model: refused (a model has no stages); nothing when the options go together.
std::optional<std::string> stageWithModel(const QCommandLineParser& parser);

}  // namespace attnscope
