// attnscope movement: the numbers and every format come from core/analysis/token_movement and
// token_movement_export; this file reads the options, runs the sentence(s) and writes.
#include "app/cli_movement.hpp"

#include <QCommandLineParser>
#include <climits>
#include <memory>
#include <optional>
#include <string>

#include "app/cli_encoder_decoder.hpp"
#include "app/cli_support.hpp"
#include "core/analysis/token_movement_export.hpp"
#include "core/analysis/token_movement_run.hpp"
#include "core/text/error_messages.hpp"
#include "ui/common/core_error_text.hpp"
#include "ui/common/qt_text.hpp"

namespace attnscope {

namespace {

void addOptions(QCommandLineParser& parser) {
    addSubcommandBasics(parser, translate(
        "cli", "attnscope movement: what attention did to each word: its vector entering a layer (or the whole stack) "
               "and leaving it, ‖y − x‖, cos(x, y), and the source words of its new content, largest first.\n"
               "With --sentence-b: the same word in two contexts, the cosine of its vectors layer by layer."),
        translate("cli", "movement"));
    addOptionRows(parser, {
        {"layer", QT_TRANSLATE_NOOP("cli", "The layer (1 = first; default: the whole stack, no sources)."), "l"},
        {"stage", QT_TRANSLATE_NOOP("cli", "Encoder-decoder lessons: the stage, encoder (default), decoder_self (each decoder "
                                          "row from Y₀ to Y₁) or cross (from Y₁ to Y₂: its sources are the source words)."), "name"},
        {"top", QT_TRANSLATE_NOOP("cli", "Text: the K largest sources of each word (default 3)."), "k"},
        {"ablate", QT_TRANSLATE_NOOP("cli", "Switch these heads off in the run (LAYER:HEAD, counted from 1, comma-separated)."), "heads"},
        {"sentence-b", QT_TRANSLATE_NOOP("cli", "The second sentence (B): compare one word of each instead."), "text"},
        {"token-a", QT_TRANSLATE_NOOP("cli", "With --sentence-b: the token of sentence A (1 = first)."), "i"},
        {"token-b", QT_TRANSLATE_NOOP("cli", "With --sentence-b: the token of sentence B (1 = first)."), "j"},
        kTextJsonCsvRow,
        kTextDecimalsRow,
        kAtomicOutRow,
        kLanguageRow,
    });
}

struct Request {
    std::string format, sentence, sentenceB, source;
    int decimals = 3, top = 3;
    std::optional<int> layer;  // 0-based; none: the whole stack
    std::shared_ptr<const OpenedModel> model;
    std::shared_ptr<const Lesson> lesson;
    std::optional<StageView> stage;  // an encoder–decoder lesson's (--stage, default the encoder), its heads off
    std::vector<HeadRef> ablate;     // --ablate: a model's or a lesson's heads off (a stage's are in `stage`)
};

Result<StatesRun> runOne(const Request& r, const std::string& sentence, int detailLayer) {
    RunSettings settings;
    settings.ablate = r.ablate;
    RunControl control;
    control.ablate = r.ablate;
    auto run = r.stage    ? stageStatesRun(*r.lesson, sentence, *r.stage)
               : r.lesson ? lessonStatesRun(*r.lesson, sentence, settings)
                          : modelStatesRun(*r.model, sentence, detailLayer, control);
    if (run) notices(run.value().trace.notices);
    return run;
}

Result<std::string> readSentence(const QCommandLineParser& parser, const char* name, const std::string& fallback) {
    if (parser.value(name).contains(QChar(0xFFFD)))
        return Error{std::string("--") + name, errorText(ErrorId::ExpectedFoundNote, ErrorId::Utf8Text, ErrorId::InvalidBytes, ErrorId::ShownAsFffd)};
    const std::string text = parser.isSet(name) ? parser.value(name).toStdString() : fallback;
    if (text.find_first_not_of(" \t") == std::string::npos)
        return Error{"", translate("cli", "movement needs --%1 TEXT").arg(QString::fromLatin1(name)).toStdString()};
    return text;
}

Result<Request> readRequest(const QCommandLineParser& parser) {
    Request r;
    r.format = parser.value("format").isEmpty() ? "text" : parser.value("format").toStdString();
    if (r.format != "text" && r.format != "json" && r.format != "csv")
        return Error{"--format", translate("cli", "expected text, json or csv, got \"%1\"").arg(qs(r.format)).toStdString()};
    auto opened = openModelOrLesson(parser, translate("cli", "movement needs --model FOLDER|ID or --lesson NAME|FILE"));
    if (!opened) return opened.error();
    r.model = opened.value().model, r.lesson = opened.value().lesson;
    if (auto bad = stageWithModel(parser)) return Error{"", *bad};
    if (r.lesson) {
        auto stage = readStageView(parser, *r.lesson);
        if (!stage) return stage.error();
        r.stage = stage.value();
    }
    const int layers = r.model    ? r.model->layerCount()
                       : r.stage ? stageLayerCount(*r.lesson, r.stage->stage)
                                 : static_cast<int>(r.lesson->layers.size());
    std::string error;
    r.decimals = readCount(parser, "decimals", 0, 12, error).value_or(3);
    r.top = readCount(parser, "top", 1, INT_MAX, error).value_or(3);
    if (const auto layer = readCount(parser, "layer", 1, std::max(1, layers), error)) r.layer = *layer - 1;
    if (!error.empty()) return Error{"", error};
    if (auto bad = readAblation(parser, layers, r.model ? r.model->headCount() : r.lesson->numHeads, r.ablate)) return Error{"", *bad};
    if (r.stage) r.stage = withShownStageHeads(*r.stage, std::move(r.ablate));
    r.source = r.model ? modelShapeText(*r.model, Language::English) : r.lesson->title.in("en");
    auto sentence = readSentence(parser, "sentence", r.lesson ? r.lesson->sentence : std::string());
    if (!sentence) return sentence.error();
    r.sentence = sentence.value();
    if (!parser.isSet("sentence-b")) {
        for (const char* name : {"token-a", "token-b"})
            if (parser.isSet(name))
                return Error{std::string("--") + name, translate("cli", "needs --sentence-b TEXT (the second sentence)").toStdString()};
        return r;
    }
    auto b = readSentence(parser, "sentence-b", std::string());
    if (!b) return b.error();
    r.sentenceB = b.value();
    return r;
}

// --token-a and --token-b as given (1-based, any whole number: core names one the sentence lacks).
Result<std::pair<int, int>> readTokens(const QCommandLineParser& parser) {
    std::string error;
    const auto a = readCount(parser, "token-a", INT_MIN + 1, INT_MAX, error);
    const auto b = readCount(parser, "token-b", INT_MIN + 1, INT_MAX, error);
    if (!error.empty()) return Error{"", error};
    if (!a || !b) return Error{"", translate("cli", "--sentence-b needs --token-a I and --token-b J (1 = first)").toStdString()};
    return std::make_pair(*a - 1, *b - 1);
}

Result<std::string> sameWord(const QCommandLineParser& parser, const Request& r) {
    auto tokens = readTokens(parser);
    if (!tokens) return tokens.error();
    auto a = runOne(r, r.sentence, -1);
    if (!a) return Error{errorText(ErrorId::WhereSentenceNamed, "A"), a.error().textForm()};
    auto b = runOne(r, r.sentenceB, -1);
    if (!b) return Error{errorText(ErrorId::WhereSentenceNamed, "B"), b.error().textForm()};
    auto curve = sameWordCurve(a.value().trace, a.value().states, tokens.value().first, b.value().trace,
                               b.value().states, tokens.value().second);
    if (!curve) return curve.error();
    if (r.format == "json") return sameWordToJson(curve.value(), r.source);
    if (r.format == "csv") return sameWordToCsv(curve.value());
    return sameWordToText(curve.value(), r.decimals, coreLanguage());
}

Result<std::string> movement(const Request& r) {
    auto stream = runOne(r, r.sentence, r.layer.value_or(-1));
    if (!stream) return stream.error();
    auto m = tokenMovement(stream.value().trace, stream.value().states, r.layer);
    if (!m) return m.error();
    const Trace& trace = stream.value().trace;
    if (r.format == "json") return movementToJson(m.value(), trace, r.source);
    if (r.format == "csv") return movementToCsv(m.value(), trace);
    return movementToText(m.value(), trace, r.decimals, r.top, coreLanguage());
}

}  // namespace

int runMovementCommand(const QStringList& arguments) {
    QCommandLineParser parser;
    addOptions(parser);
    if (const auto ended = parseOrAnswer(parser, arguments)) return *ended;
    if (parser.positionalArguments().size() != 1)
        return fail(translate("cli", "%1 expects options only, got %2").arg(arguments[1], parser.positionalArguments().mid(1).join(' ')).toStdString());
    auto request = readRequest(parser);
    if (!request) return fail(coreErrorString(request.error()));
    auto text = request.value().sentenceB.empty() ? movement(request.value()) : sameWord(parser, request.value());
    if (!text) return fail(coreErrorString(text.error()));
    return writeOutput(parser, text.value());
}

}  // namespace attnscope
