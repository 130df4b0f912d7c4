// attnscope --lesson FILE|NAME|JSON --sentence TEXT --print [--layer L] [--step S] [--head H]
//           [--format text|json|csv|markdown] [--decimals N] [--hand-rounding N] [--explain]
//           [--export-png FILE] [--ablate L:H[,L:H…]] [--layers 1,3-5] [--heads 2,7] [--steps weights,scores]
//           [--output FILE]
// attnscope --model FOLDER|HF-ID --sentence TEXT --print [--layer L] [--head H] [--step S]
//           [--format text|json|csv|markdown|npy] [--top-k K] [--decimals N] [--export-png FILE]
//           [--ablate L:H[,L:H…]] [--layers …] [--heads …] [--steps …] [--output FILE]
//           (json, npy, and csv with --layers, are written layer by layer as the run computes them;
//           npy: a NumPy .npz, core/export/trace_npz.hpp, --output only)
// attnscope --session-file FILE --print|--export-png … (a window's saved session, cli_session.hpp)
// attnscope --list-lessons · attnscope --version · attnscope --help (every option, also in packaging/attnscope.1)
// attnscope coref …, attnscope heads …: see cli_analysis.hpp
#include "app/cli.hpp"

#include <QCommandLineParser>
#include <QFileInfo>
#include <cstdio>
#include <string>

#include "app/app_identity.hpp"
#include "app/cli_analysis.hpp"
#include "app/cli_encoder_decoder.hpp"
#include "app/cli_session.hpp"
#include "app/cli_stream.hpp"
#include "app/cli_support.hpp"
#include "app/heatmap_export.hpp"
#include "app/lesson_source.hpp"
#include "core/analysis/word_attention.hpp"
#include "core/source/model_session.hpp"
#include "core/export/export.hpp"
#include "core/export/model_export.hpp"
#include "core/model/blas_kernels.hpp"
#include "core/io/text_file.hpp"
#include "core/lesson/lesson_paste.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/text/error_messages.hpp"
#include "core/trace/ablation.hpp"
#include "ui/common/core_error_text.hpp"
#include "ui/common/core_language.hpp"
#include "ui/common/qt_text.hpp"

namespace attnscope {

namespace {

void addOptions(QCommandLineParser& parser) {
    parser.setApplicationDescription(translate("cli", "AttnScope: transformer self-attention, every number visible.\n"
                                             "Subcommands, each with its own --help:\n"
                                             "  coref     which earlier word a pronoun attends to\n"
                                             "  heads     every head ranked on a coreference set, or head statistics\n"
                                             "  qk        one head's queries and keys projected together to 2-D (PCA or t-SNE)\n"
                                             "  compare   the same heads' attention in two sentences, and the difference A − B\n"
                                             "  norms     each head's attention by weight and by norm ‖α·f(x)‖ (first and special tokens)\n"
                                             "  lens      the logit lens: each layer's most likely tokens, per position\n"
                                             "  dla       each head's direct contribution to the predicted token's logit, beside switching it off\n"
                                             "  movement  what attention did to each word (‖y − x‖, cos, its sources); one word in two sentences"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOptions({
        {"lesson", translate("cli", "Built-in lesson NAME, a lesson FILE, or inline lesson JSON."), "lesson"},
        {"model", translate("cli", "A pretrained model: a FOLDER (config.json, model.safetensors, tokenizer files) "
                  "or a Hugging Face id found in the local cache (e.g. bert-base-uncased)."), "model"},
        {"layer", translate("cli", "Only this layer (1 = first). Models: default the last for text, all for json; "
                  "lessons: default every layer (the last for --export-png)."), "l"},
        {"top-k", translate("cli", "Models: how many predicted tokens to list (default 5)."), "k"},
        {"sentence", translate("cli", "The sentence to run (default: the lesson's own)."), "text"},
        {"print", translate("cli", "Print the matrices instead of opening a window.")},
        {"step", translate("cli", "Only this step: embedding, positional, x, q, k, v, scores, scaled_scores, mask, masked_scores, "
                 "weights, weighted_sum, concat, output, w_q, w_k, w_v, w_o; after attention (lessons with a block): residual, "
                 "norm, ffn_gate, ffn_hidden, ffn_activated, ffn_output, residual_ffn, final_norm, logits, next_word, w_gate, w_1, w_2, w_vocab."), "step"},
        {"head", translate("cli", "Only this head (1 = first)."), "h"},
        {"format", translate("cli", "text (default), json, csv, markdown or npy (a NumPy .npz of every matrix, with --output)."), "format"},
        {"decimals", translate("cli", "Decimals shown (default: the lesson's)."), "n"},
        {"hand-rounding", translate("cli", "Round every intermediate to N decimals, as by hand."), "n"},
        {"exact", translate("cli", "Ignore the lesson's hand-rounding setting.")},
        {"paste", translate("cli", "Put a table copied from a blog or a textbook into the lesson before the run: "
                  "lines such as cat=[1,0,1], a Markdown or tab-separated table, W_Q = and its rows."), "file"},
        {"explain", translate("cli", "Text and Markdown: add each cell's explanation (a worksheet).")},
        {"export-png", translate("cli", "Write the attention heatmaps (all heads) to a PNG file."), "file"},
        {"norms", translate("cli", "--export-png: shade by weight × ‖value‖, the share of each weight's value vector through "
                  "W_O (Kobayashi et al. 2020), instead of the weight, as the window's check box does.")},
        {"ablate", translate("cli", "Switch these heads off (LAYER:HEAD, counted from 1, comma-separated, e.g. 1:2,2:1), "
                   "as Hugging Face's head_mask: their weights are shown, their output is zero."), "heads"},
        {"stage", translate("cli", "Encoder-decoder lessons: only this stage, encoder, decoder_self or cross (the window's "
                  "Stage box); --ablate then switches off its heads (a decoder stage has one layer: 1:H)."), "name"},
        {"list-lessons", translate("cli", "List the built-in lessons.")},
        {"kernels", translate("cli", "Matrix-product kernels: auto (default: the best this CPU runs), openblas (its own "
                    "choice), avx512, avx2 or sse3. Also ATTNSCOPE_KERNELS=NAME."), "name"},
        {"products", translate("cli", "Products of BF16 weights: auto (default: in BF16 where the CPU has AMX-BF16, else "
                     "float32), bf16 (in BF16 through oneDNN wherever the CPU has AVX512_BF16) or f32. Also "
                     "ATTNSCOPE_PRODUCTS=NAME."), "name"},
        {"kernel-info", translate("cli", "Print which BLAS kernels run and why, then exit.")},
        {"lang", translate("cli", "Interface language: zh_CN (Simplified Chinese) or en (default: the system locale)."),
         "language"},
        {"session-file", translate("cli", "A session saved by the window (File ▸ Save session): its model or lesson, sentence, "
                    "switched-off heads, layer and head, unless given here too."), "f"},
        {"words", translate("cli", "Models: attention weights between words instead of tokens (to a word: the sum over its "
                  "tokens, from a word: the mean; Chinese split into words by ICU). Text, csv, markdown and --export-png.")},
    });
    addSelectionOptions(parser);
}

int listLessons() {
    for (const BuiltInLesson& l : builtInLessons())
        write(l.name.toStdString() + "\t" + l.title.toStdString() + "\n");
    return 0;
}

struct Request {
    ExportFormat format = ExportFormat::Text;
    ExportRequest exportRequest;
    RunSettings settings;
};

// --format and --step, shared by lesson and model runs.
std::optional<std::string> readFormatAndStep(const QCommandLineParser& parser, ExportFormat& format,
                                             ExportRequest& request) {
    const std::string name = parser.value("format").isEmpty() ? "text" : parser.value("format").toStdString();
    const auto parsed = exportFormatFromName(name);
    if (!parsed) return translate("cli", "--format expects text, json, csv, markdown or npy, got \"%1\"").arg(qs(name)).toStdString();
    format = *parsed;
    request.language = coreLanguage();  // --lang (main applied it): titles, explanations, notices
    if (parser.isSet("step")) {
        request.step = stepFromKey(parser.value("step").toStdString());
        if (!request.step)
            return translate("cli", "--step: unknown step \"%1\" (see --help)").arg(parser.value("step")).toStdString();
    }
    return std::nullopt;
}

std::optional<std::string> readRequest(const QCommandLineParser& parser, const Lesson& lesson, Request& r) {
    std::string error;
    if (auto bad = readFormatAndStep(parser, r.format, r.exportRequest)) return bad;
    if (auto bad = readAblation(parser, static_cast<int>(lesson.layers.size()), lesson.numHeads, r.settings.ablate))
        return bad;
    if (auto bad = readSelection(parser, std::max<int>(1, lesson.layers.size()), lesson.numHeads, r.exportRequest.selection))
        return bad;
    const auto layer = readCount(parser, "layer", 1, std::max<int>(1, lesson.layers.size()), error);
    const auto head = readCount(parser, "head", 1, std::max(1, lesson.numHeads), error);
    const auto decimals = readCount(parser, "decimals", 0, 12, error);
    const auto rounding = readCount(parser, "hand-rounding", 0, 12, error);
    if (!error.empty()) return error;
    if (layer) r.exportRequest.layer = *layer - 1;
    if (head) r.exportRequest.head = *head - 1;
    r.exportRequest.decimals = decimals.value_or(lesson.decimals);
    r.exportRequest.explain = parser.isSet("explain");
    r.settings.handRounding = rounding;
    r.settings.exact = parser.isSet("exact");
    return std::nullopt;
}

// ---------------------------------------------------------------- --model

struct ModelRequest {
    ExportFormat format = ExportFormat::Text;
    ExportRequest exportRequest;
    std::optional<int> layer;  // 0-based; empty: all (json) / the last (others)
    int topK = 5;
    std::vector<HeadRef> ablate;
};

std::optional<std::string> readModelRequest(const QCommandLineParser& parser, const OpenedModel& opened,
                                            ModelRequest& r) {
    std::string error;
    if (auto bad = readFormatAndStep(parser, r.format, r.exportRequest)) return bad;
    if (auto bad = readAblation(parser, opened.layerCount(), opened.headCount(), r.ablate)) return bad;
    if (auto bad = readSelection(parser, opened.layerCount(), opened.headCount(), r.exportRequest.selection)) return bad;
    const bool manyLayers = r.format == ExportFormat::Json || r.format == ExportFormat::Npy || r.format == ExportFormat::Csv;
    if (!manyLayers && !r.exportRequest.selection.layers.empty())
        return translate("cli", "--layers: models print several layers as json or csv (text and markdown: --layer)").toStdString();
    const auto layer = readCount(parser, "layer", 1, opened.layerCount(), error);
    const auto head = readCount(parser, "head", 1, opened.headCount(), error);
    const auto decimals = readCount(parser, "decimals", 0, 12, error);
    const auto topK = readCount(parser, "top-k", 1, 1000, error);
    if (!error.empty()) return error;
    if (layer) r.layer = *layer - 1;
    else if (r.format != ExportFormat::Json && r.format != ExportFormat::Npy) r.layer = opened.layerCount() - 1;
    if (head) r.exportRequest.head = *head - 1;
    r.exportRequest.decimals = decimals.value_or(3);
    r.exportRequest.explain = parser.isSet("explain");
    r.topK = topK.value_or(5);
    return std::nullopt;
}

// exportTrace numbers the one layer it prints 1; the CSV says which layer it really is.
std::string relabelCsvLayer(const std::string& csv, int layer) {
    std::string out;
    std::size_t start = 0;
    while (start < csv.size()) {
        std::size_t end = csv.find('\n', start);
        if (end == std::string::npos) end = csv.size();
        std::string line = csv.substr(start, end - start);
        const std::size_t comma = line.find(',');
        if (start > 0 && comma != std::string::npos && line.compare(comma, 3, ",1,") == 0)
            line.replace(comma, 3, "," + std::to_string(layer + 1) + ",");
        out += line + "\n";
        start = end + 1;
    }
    return out;
}

// `shown`: the one layer r.layer cut out of the run (detailTraceOf), or every layer between words.
std::string modelOutput(const OpenedModel& opened, const ModelRun& run, const Trace& shown,
                        const ModelRequest& r) {
    const TokenLabeler label = [&](int id) { return opened.tokenizer.label(id); };
    const int decimals = r.exportRequest.decimals;
    switch (r.format) {
        case ExportFormat::Csv: {
            const std::string csv = exportTrace(shown, ExportFormat::Csv, r.exportRequest);
            return (shown.layerCount() == 1 ? relabelCsvLayer(csv, *r.layer) : csv) + predictionsToCsvRows(run, label, decimals);
        }
        default: break;
    }
    const bool markdown = r.format == ExportFormat::Markdown;
    const Language language = r.exportRequest.language;
    std::string out = std::string(message(markdown ? MessageId::LabelModelMarkdown : MessageId::LabelModel, language)) +
                      modelShapeText(opened, language) +
                      fillMessage(message(MessageId::LabelModelLayer, language), {std::to_string(*r.layer + 1)}) + "\n";
    if (!run.predictions.empty())
        out += predictionsToText(run, opened.family(), label, decimals, r.exportRequest.language) + "\n";
    return out + exportTrace(shown, r.format, r.exportRequest);
}

// Qt decodes argv as UTF-8 and turns invalid bytes into U+FFFD, which no vocabulary or lesson holds.
std::optional<std::string> invalidSentence(const QCommandLineParser& parser) {
    if (parser.value("sentence").contains(QChar(0xFFFD)))
        return coreErrorString(Error{"--sentence", errorText(ErrorId::ExpectedFoundNote, ErrorId::Utf8Text, ErrorId::InvalidBytes,
                                                             ErrorId::ShownAsFffd)});
    return std::nullopt;
}

// --paste FILE: the table's numbers put into the lesson (core/lesson/lesson_paste); errors name the file's line.
Result<Lesson> withPastedTable(const Lesson& lesson, const QString& path) {
    const std::filesystem::path file = path.toStdString();
    auto text = readTextFile(file);
    if (!text) return text.error();
    const ErrorText source = ErrorText::verbatim(file.filename().string());
    auto blocks = parsePastedTable(text.value(), source);
    if (!blocks) return blocks.error();
    return pasteIntoLesson(lesson, blocks.value(), LessonMatrixRef{}, source);
}

// JSON and NPY (every layer, or --layer's) and CSV of --layers: written layer by layer as the run computes them.
bool streamsLayers(const QCommandLineParser& parser, const ModelRequest& r) {
    return parser.isSet("print") && (r.format == ExportFormat::Json || r.format == ExportFormat::Npy ||
                                     (r.format == ExportFormat::Csv && !r.exportRequest.selection.layers.empty()));
}

int streamModel(const QCommandLineParser& parser, const OpenedModel& opened, const RunControl& control,
                const ModelRequest& r) {
    const std::string sentence = parser.value("sentence").toStdString();
    const ModelRunner runner = [&](const RunControl& c) { return runSentence(opened, sentence, c); };
    const TokenLabeler label = [&](int id) { return opened.tokenizer.label(id); };
    std::optional<ModelRun> run;
    const int written = writeOutput(parser, [&](const TextSink& sink, const std::string& target) -> Result<void> {
        const TraceSelection& parts = r.exportRequest.selection;
        auto made = r.format == ExportFormat::Json  ? streamModelRunJson(runner, control, opened.family(), label, parts, r.layer, sink, target)
                    : r.format == ExportFormat::Npy ? streamModelRunNpz(runner, control, opened.family(), label, parts, r.layer, sink, target)
                                                    : streamModelRunCsv(runner, control, r.exportRequest, label, sink, target);
        if (!made) return made.error();
        run = std::move(made).value();
        return {};
    });
    if (written != 0 || !run) return written;
    notices(run->trace.notices);
    if (!parser.isSet("export-png")) return 0;
    const int layer = r.layer.value_or(opened.layerCount() - 1);
    auto layerTrace = detailTraceOf(opened, *run, layer);
    if (!layerTrace) return fail(coreErrorString(layerTrace.error()));
    auto png = exportPngIfAsked(parser, layerTrace.value(), 0, modelFigure(opened.name, layer));
    return png.ok() ? 0 : fail(coreErrorString(png.error()));
}

// --words: each layer's weights between words (core/analysis/word_attention.hpp), computed from
// the weights every layer of the run keeps; nothing else has a meaning between words.
std::optional<std::string> wordsRequestError(const ModelRequest& r) {
    if (r.format != ExportFormat::Text && r.format != ExportFormat::Csv && r.format != ExportFormat::Markdown)
        return translate("cli", "--words prints text, csv or markdown").toStdString();
    if ((r.exportRequest.step && *r.exportRequest.step != Step::Weights) || r.exportRequest.explain ||
        !r.exportRequest.selection.steps.empty())
        return translate("cli", "--words shows attention weights only (no --step other than weights, --steps or --explain)").toStdString();
    return std::nullopt;
}

int runWordsCommand(const QCommandLineParser& parser, const OpenedModel& opened, RunControl control, ModelRequest r) {
    if (auto error = wordsRequestError(r)) return fail(*error);
    control.fullDetailMaxTokens = 0;      // weights only: the words need nothing more,
    control.allWeightsBudget = SIZE_MAX;  // but every layer's (never a long run)
    auto run = runSentence(opened, parser.value("sentence").toStdString(), control);
    if (!run) return fail(coreErrorString(run.error()));
    notices(run.value().trace.notices);
    const Trace words = wordLevelTrace(run.value().trace);
    r.exportRequest.step = Step::Weights;
    r.exportRequest.layer = r.layer;
    const int layer = r.layer.value_or(words.layerCount() - 1);
    if (auto png = exportPngIfAsked(parser, words, layer, modelFigure(opened.name, layer)); !png) return fail(coreErrorString(png.error()));
    if (!parser.isSet("print")) return 0;
    return writeOutput(parser, [&](const TextSink& sink, const std::string& target) -> Result<void> {
        return writeWhole(sink, modelOutput(opened, run.value(), words, r), target);
    });
}

int runModelCommand(const QCommandLineParser& parser) {
    if (!parser.isSet("sentence")) return fail(translate("cli", "--model needs --sentence TEXT").toStdString());
    auto opened = openModel(parser.value("model").toStdString());
    if (!opened) return fail(coreErrorString(opened.error()));
    notices(opened.value().notices);
    ModelRequest request;
    if (auto error = readModelRequest(parser, opened.value(), request)) return fail(*error);
    RunControl control;
    control.topK = request.topK;
    control.ablate = request.ablate;
    if (parser.isSet("words")) return runWordsCommand(parser, opened.value(), control, request);
    if (streamsLayers(parser, request)) return streamModel(parser, opened.value(), control, request);
    // The one layer shown is rebuilt by detailTraceOf; the run keeps the weights or (long runs) digests.
    control.fullDetailMaxTokens = 0;
    const std::string sentence = parser.value("sentence").toStdString();
    auto run = runSentence(opened.value(), sentence, control);
    if (!run) return fail(coreErrorString(run.error()));
    notices(run.value().trace.notices);
    const int layer = request.layer.value_or(opened.value().layerCount() - 1);
    // A long run's layer rebuilt for the heads printed (a picture draws every head).
    const std::vector<bool> heads =
        parser.isSet("export-png") ? std::vector<bool>{} : headsPrinted(request.exportRequest, opened.value().headCount());
    auto layerTrace = detailTraceOf(opened.value(), run.value(), layer, heads);
    if (!layerTrace) return fail(coreErrorString(layerTrace.error()));
    auto png = exportPngIfAsked(parser, layerTrace.value(), 0, modelFigure(opened.value().name, layer));
    if (!png) return fail(coreErrorString(png.error()));
    if (!parser.isSet("print")) return 0;
    return writeOutput(parser, [&](const TextSink& sink, const std::string& target) -> Result<void> {
        return writeWhole(sink, modelOutput(opened.value(), run.value(), layerTrace.value(), request), target);
    });
}

}  // namespace

bool isCommandLineRun(const QStringList& arguments) {
    if (isAnalysisCommand(arguments)) return true;
    for (const QString& a : arguments)
        if (a == "--print" || a.startsWith("--export-png") || a.startsWith("--out") || a == "--list-lessons" || a == "--help" ||
            a == "-h" || a == "--help-all" || a == "--version" || a == "-v")
            return true;
    return false;
}

std::optional<std::string> commandLineError(const QStringList& arguments) {
    if (isAnalysisCommand(arguments)) return std::nullopt;  // coref, heads check their own options
    QCommandLineParser parser;
    addOptions(parser);
    if (!parser.parse(arguments)) return parseErrorText(parser);
    if (!parser.positionalArguments().isEmpty())
        return translate("cli", "unexpected argument \"%1\" (options start with --; see --help)")
            .arg(parser.positionalArguments().first())
            .toStdString();
    if (auto bad = misplacedOption(parser)) return bad;
    if (auto bad = stageWithModel(parser)) return bad;
    return invalidSentence(parser);
}

int runCommandLine(const QStringList& arguments) {
    if (sessionOption(arguments)) return runWithSession(arguments, runCommandLine);  // --session-file (cli_session.hpp)
    if (isAnalysisCommand(arguments)) return runAnalysisCommand(arguments);  // coref, heads: cli_analysis.cpp
    QCommandLineParser parser;
    addOptions(parser);
    if (!parser.parse(arguments)) return fail(parseErrorText(parser));
    if (parser.isSet("help")) return write(parser.helpText().toStdString()), 0;
    if (auto error = commandLineError(arguments)) return fail(*error);
    if (parser.isSet("version")) return write(versionLine().toStdString() + "\n"), 0;
    if (parser.isSet("list-lessons")) return listLessons();
    if (parser.isSet("model")) return runModelCommand(parser);

    auto lesson = loadLesson(parser.isSet("lesson") ? parser.value("lesson") : "first-hand-exercise");
    if (lesson && parser.isSet("paste")) lesson = withPastedTable(lesson.value(), parser.value("paste"));
    if (!lesson) return fail(coreErrorString(lesson.error()));
    Request request;
    if (auto error = readRequest(parser, lesson.value(), request)) return fail(*error);
    const std::string sentence = parser.isSet("sentence") ? parser.value("sentence").toStdString()
                                                          : lesson.value().sentence;
    if ((lesson.value().encoderDecoder.present && parser.isSet("print")) || parser.isSet("stage"))  // the stages, the labels
        return printEncoderDecoder(parser, lesson.value(), sentence, request.format, request.exportRequest, request.settings);
    auto trace = runLesson(lesson.value(), sentence, request.settings);
    if (!trace) return fail(coreErrorString(trace.error()));
    notices(trace.value().notices);

    const int layer = request.exportRequest.layer.value_or(trace.value().layerCount() - 1);
    auto png = exportPngIfAsked(parser, trace.value(), layer, {qs(lesson.value().title), layer + 1});
    if (!png) return fail(coreErrorString(png.error()));
    if (!parser.isSet("print")) return 0;
    return writeOutput(parser, [&](const TextSink& sink, const std::string& target) -> Result<void> {
        return writeWhole(sink, exportTrace(trace.value(), request.format, request.exportRequest), target);
    });
}

}  // namespace attnscope
