// The command line's encoder–decoder lessons: core runs and words them; this reads --stage and writes.
#include "app/cli_encoder_decoder.hpp"

#include "app/cli_stream.hpp"
#include "app/cli_support.hpp"
#include "app/heatmap_export.hpp"
#include "ui/common/core_error_text.hpp"
#include "ui/common/qt_text.hpp"
#include "core/export/encoder_decoder_export.hpp"
#include "core/lesson/run_encoder_decoder.hpp"

namespace attnscope {

namespace {

// Every stage's heads as --ablate and --stage ask: the encoder's from `settings` without --stage.
// --ablate and --layer name the stage's layers: a decoder stage has one (--ablate 1:H).
Result<StageView> viewOf(const QCommandLineParser& parser, const Lesson& lesson, std::optional<EncoderDecoderStage> stage,
                         const RunSettings& settings) {
    if (!stage) return StageView{EncoderDecoderStage::Encoder, settings.ablate, {}};
    const int layers = stageLayerCount(lesson, *stage);
    std::string error;
    readCount(parser, "layer", 1, layers, error);
    if (!error.empty()) return Error{"", error};
    std::vector<HeadRef> heads;
    if (auto bad = readAblation(parser, layers, lesson.numHeads, heads)) return Error{"", *bad};
    return withShownStageHeads(StageView{*stage, {}, {}}, std::move(heads));
}

std::string stagesText(const EncoderDecoderRun& run, std::optional<EncoderDecoderStage> stage, ExportFormat format,
                       const ExportRequest& request) {
    return stage ? exportEncoderDecoderStage(run, *stage, format, request) : exportEncoderDecoder(run, format, request);
}

}  // namespace

Result<std::optional<EncoderDecoderStage>> readStage(const QCommandLineParser& parser, const Lesson& lesson) {
    if (!parser.isSet("stage")) return std::optional<EncoderDecoderStage>();
    auto stage = stageNamed(lesson, parser.value("stage").toStdString());
    if (!stage) return stage.error();
    return std::optional<EncoderDecoderStage>(stage.value());
}

Result<std::optional<StageView>> readStageView(const QCommandLineParser& parser, const Lesson& lesson) {
    auto stage = readStage(parser, lesson);
    if (!stage) return stage.error();
    if (!lesson.encoderDecoder.present) return std::optional<StageView>();
    return std::optional<StageView>(StageView{stage.value().value_or(EncoderDecoderStage::Encoder), {}, {}});
}

std::optional<std::string> stageWithModel(const QCommandLineParser& parser) {
    if (!parser.isSet("model") || !parser.isSet("stage")) return std::nullopt;
    return translate("cli", "--stage applies to encoder-decoder lessons only (a model runs one stack)").toStdString();
}

int printEncoderDecoder(const QCommandLineParser& parser, const Lesson& lesson, const std::string& source,
                        ExportFormat format, const ExportRequest& request, const RunSettings& settings) {
    auto stage = readStage(parser, lesson);  // first: --stage on another lesson is refused as such
    if (!stage) return fail(coreErrorString(stage.error()));
    if (format != ExportFormat::Text && format != ExportFormat::Markdown)
        return fail(translate("cli", "an encoder-decoder lesson prints its stages as text or markdown (--format)").toStdString());
    auto view = viewOf(parser, lesson, stage.value(), settings);
    if (!view) return fail(coreErrorString(view.error()));
    RunSettings stageSettings = settings;
    stageSettings.ablate = view.value().encoderOff;
    auto run = runEncoderDecoder(lesson, source, stageSettings, view.value().decoderOff);
    if (!run) return fail(coreErrorString(run.error()));
    for (const Trace* shown : {&run.value().encoder, &run.value().decoderSelf, &run.value().cross}) notices(shown->notices);
    if (stage.value()) {  // the stage's heatmaps, of its last layer unless --layer
        const Trace& trace = stageTrace(run.value(), *stage.value());  // cross: T_dec×T_src maps, as the window draws them
        const int layer = request.layer.value_or(trace.layerCount() - 1);
        if (auto png = exportPngIfAsked(parser, trace, layer, {qs(lesson.title), layer + 1}); !png) return fail(coreErrorString(png.error()));
    }
    if (!parser.isSet("print")) return 0;
    return writeOutput(parser, [&](const TextSink& sink, const std::string& target) -> Result<void> {
        return writeWhole(sink, stagesText(run.value(), stage.value(), format, request), target);
    });
}

}  // namespace attnscope
