// The command line's print of an encoder–decoder lesson: core runs and words it; this only writes.
#include "app/cli_encoder_decoder.hpp"

#include "app/cli_stream.hpp"
#include "app/cli_support.hpp"
#include "ui/common/core_error_text.hpp"
#include "core/export/encoder_decoder_export.hpp"
#include "core/lesson/run_encoder_decoder.hpp"

namespace attnscope {

int printEncoderDecoder(const QCommandLineParser& parser, const Lesson& lesson, const std::string& source,
                        ExportFormat format, const ExportRequest& request, const RunSettings& settings) {
    if (format != ExportFormat::Text && format != ExportFormat::Markdown)
        return fail(translate("cli", "an encoder-decoder lesson prints its stages as text or markdown (--format)").toStdString());
    auto run = runEncoderDecoder(lesson, source, settings);
    if (!run) return fail(coreErrorString(run.error()));
    for (const Trace* stage : {&run.value().encoder, &run.value().decoderSelf, &run.value().cross}) notices(stage->notices);
    return writeOutput(parser, [&](const TextSink& sink, const std::string& target) -> Result<void> {
        return writeWhole(sink, exportEncoderDecoder(run.value(), format, request), target);
    });
}

}  // namespace attnscope
