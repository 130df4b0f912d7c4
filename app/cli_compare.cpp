// attnscope compare: two sentences side by side. The numbers and every format come from
// core/analysis/compare_export (also behind the Compare tab's data export); this file reads the
// options, runs both sentences the same way (same heads switched off) and writes the result.
#include "app/cli_compare.hpp"

#include <QCommandLineParser>
#include <memory>
#include <string>

#include "app/cli_encoder_decoder.hpp"
#include "app/cli_support.hpp"
#include "app/lesson_source.hpp"
#include "app/sentence_runners.hpp"
#include "core/analysis/compare_export.hpp"
#include "core/text/error_messages.hpp"
#include "core/text/messages.hpp"
#include "ui/common/core_language.hpp"
#include "ui/common/core_error_text.hpp"

namespace attnscope {

namespace {

// Its own option table after the shared ones: alike in shape to qk's and coref/heads', a list of
// different options (the rows that read the same everywhere are cli_support's k…Row constants).
void addOptions(QCommandLineParser& parser) {
    addSubcommandBasics(parser, translate(
        "cli", "attnscope compare: the same heads' attention in two sentences (A: --sentence, B: --sentence-b), "
               "tokens aligned by position when both have as many, else by word, and the difference A − B."),
        translate("cli", "compare"));
    addOptionRows(parser, {
        {"sentence-b", QT_TRANSLATE_NOOP("cli", "The second sentence (B)."), "text"},
        {"layer", QT_TRANSLATE_NOOP("cli", "The layer (1 = first; default: the last)."), "l"},
        {"head", QT_TRANSLATE_NOOP("cli", "Only this head (1 = first; default: every head of the layer)."), "h"},
        {"ablate", QT_TRANSLATE_NOOP("cli", "Switch these heads off in both runs (LAYER:HEAD, counted from 1, comma-separated)."),
         "heads"},
        kTextJsonCsvRow,
        kTextDecimalsRow,
        {"stage", QT_TRANSLATE_NOOP("cli", "Encoder-decoder lessons: the stage, encoder (default) or cross (B is another "
                                          "source: the same decoder rows looking at B's words); --layer, --head and --ablate "
                                          "name its heads."), "name"},
        {"norms", QT_TRANSLATE_NOOP("cli", "Compare weight × ‖value‖ (Kobayashi et al. 2020) instead of the weights: each "
                                          "row's shares of α·‖f(x)‖, as the Compare tab's colour scale.")},
        kAtomicOutRow,
        kLanguageRow,
    });
}

// Where both sentences run, and the shape the options are checked against.
struct CompareSource {
    std::string defaultSentence;
    int layers = 0, heads = 0;
    std::shared_ptr<const OpenedModel> model;
    std::shared_ptr<const Lesson> lesson;
    std::optional<StageView> stage;  // an encoder–decoder lesson's (--stage): `ablate` are its heads
    SentenceRunner runner(std::vector<HeadRef> ablate) const {
        return model ? modelSentenceRunner(model, -1, std::move(ablate)) : lessonSentenceRunner(lesson, std::move(ablate), stage);
    }
    // --norms: the norm-weighted Trace (weight × ‖value‖ shares), as the Compare tab shows it.
    SentenceRunner normRunner(std::vector<HeadRef> ablate) const {
        NormSentenceRunner run = model ? modelNormSentenceRunner(model, std::move(ablate))
                                       : lessonNormSentenceRunner(lesson, std::move(ablate), stage);
        return [run = std::move(run)](const std::string& sentence) { return run(sentence, RunControl{}); };
    }
};

Result<CompareSource> openSource(const QCommandLineParser& parser) {
    auto opened = openModelOrLesson(parser, translate("cli", "compare needs --model FOLDER|ID or --lesson NAME|FILE"));
    if (!opened) return opened.error();
    if (auto bad = stageWithModel(parser)) return Error{"", *bad};
    CompareSource source;
    source.model = opened.value().model;
    source.lesson = opened.value().lesson;
    if (source.model) {
        source.layers = source.model->layerCount(), source.heads = source.model->headCount();
        return source;
    }
    auto stage = readStageView(parser, *source.lesson);
    if (!stage) return stage.error();
    source.stage = stage.value();
    // The window's Compare is off on this stage, for the same reason.
    if (const auto why = source.stage ? stageCompareUnavailable(source.stage->stage) : std::nullopt)
        return Error{"--stage", std::string(message(*why, coreLanguage()))};
    source.defaultSentence = source.lesson->sentence;
    source.layers = source.stage ? stageLayerCount(*source.lesson, source.stage->stage) : static_cast<int>(source.lesson->layers.size());
    source.heads = source.lesson->numHeads;
    return source;
}

// --layer and --head against the source: one head, or every head of one layer (default: the last).
Result<std::vector<HeadRef>> readHeads(const QCommandLineParser& parser, const CompareSource& source) {
    std::string error;
    const auto layer = readCount(parser, "layer", 1, std::max(1, source.layers), error);
    const auto head = readCount(parser, "head", 1, std::max(1, source.heads), error);
    if (!error.empty()) return Error{"", error};
    const int l = layer.value_or(source.layers) - 1;
    if (head) return std::vector<HeadRef>{{l, *head - 1}};
    std::vector<HeadRef> heads;
    for (int h = 0; h < source.heads; ++h) heads.push_back({l, h});
    return heads;
}

Result<std::pair<std::string, std::string>> readSentences(const QCommandLineParser& parser, const CompareSource& source) {
    for (const char* name : {"sentence", "sentence-b"})
        if (parser.value(name).contains(QChar(0xFFFD)))
            return Error{std::string("--") + name,
                         errorText(ErrorId::ExpectedFoundNote, ErrorId::Utf8Text, ErrorId::InvalidBytes, ErrorId::ShownAsFffd)};
    const std::string a = parser.isSet("sentence") ? parser.value("sentence").toStdString() : source.defaultSentence;
    if (a.find_first_not_of(" \t") == std::string::npos) return Error{"", translate("cli", "compare needs --sentence TEXT (sentence A)").toStdString()};
    const std::string b = parser.value("sentence-b").toStdString();
    if (b.find_first_not_of(" \t") == std::string::npos) return Error{"", translate("cli", "compare needs --sentence-b TEXT (sentence B)").toStdString()};
    return std::make_pair(a, b);
}

Result<SentenceComparison> runBoth(const CompareSource& source, const std::pair<std::string, std::string>& sentences,
                                   const std::vector<HeadRef>& heads, std::vector<HeadRef> ablate, bool norms) {
    const SentenceRunner run = norms ? source.normRunner(std::move(ablate)) : source.runner(std::move(ablate));
    auto a = run(sentences.first);
    if (!a) return Error{errorText(ErrorId::WhereSentenceNamed, "A"), a.error().textForm()};
    notices(a.value().notices);
    auto b = run(sentences.second);
    if (!b) return Error{errorText(ErrorId::WhereSentenceNamed, "B"), b.error().textForm()};
    notices(b.value().notices);
    auto comparison = compareHeads(a.value(), b.value(), heads);
    if (comparison) comparison.value().normWeighted = norms;
    return comparison;
}

std::string formatted(const SentenceComparison& c, const std::string& format, int decimals) {
    if (format == "json") return comparisonToJson(c);
    if (format == "csv") return comparisonToCsv(c);
    const std::string text = comparisonToText(c, decimals, coreLanguage());
    if (!c.normWeighted) return text;
    // Before the tables: the numbers are not the weights the other commands print.
    const std::string note = translate("cli", "Shaded by weight × ‖value‖ (Kobayashi et al. 2020): each cell is α·‖f(x)‖ "
                                              "as a share of its row, not the attention weight.").toStdString();
    return note + "\n" + text;
}

}  // namespace

int runCompareCommand(const QStringList& arguments) {
    QCommandLineParser parser;
    addOptions(parser);
    if (const auto ended = parseOrAnswer(parser, arguments)) return *ended;
    if (parser.positionalArguments().size() != 1)
        return fail(translate("cli", "compare expects options only, got %1").arg(parser.positionalArguments().mid(1).join(' ')).toStdString());
    const std::string format = parser.value("format").isEmpty() ? "text" : parser.value("format").toStdString();
    if (format != "text" && format != "json" && format != "csv")
        return fail(translate("cli", "--format expects text, json or csv, got \"%1\"").arg(QString::fromStdString(format)).toStdString());
    std::string error;
    const int decimals = readCount(parser, "decimals", 0, 12, error).value_or(3);
    if (!error.empty()) return fail(error);
    auto source = openSource(parser);
    if (!source) return fail(coreErrorString(source.error()));
    auto heads = readHeads(parser, source.value());
    if (!heads) return fail(coreErrorString(heads.error()));
    std::vector<HeadRef> ablate;
    if (auto bad = readAblation(parser, source.value().layers, source.value().heads, ablate)) return fail(*bad);
    auto sentences = readSentences(parser, source.value());
    if (!sentences) return fail(coreErrorString(sentences.error()));
    auto comparison = runBoth(source.value(), sentences.value(), heads.value(), ablate, parser.isSet("norms"));
    if (!comparison) return fail(coreErrorString(comparison.error()));
    return writeOutput(parser, formatted(comparison.value(), format, decimals));
}

}  // namespace attnscope
