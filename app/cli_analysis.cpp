// attnscope coref / attnscope heads: coreference and head statistics from attention. The numbers
// come from core/analysis; this file only reads options, runs sentences and prints.
#include "app/cli_analysis.hpp"

#include <QCommandLineParser>
#include <cstdio>
#include <memory>
#include <string>
#include <unistd.h>

#include "app/cli_analysis_source.hpp"
#include "app/cli_beyond.hpp"
#include "app/cli_compare.hpp"
#include "app/cli_movement.hpp"
#include "app/cli_qk.hpp"
#include "app/cli_support.hpp"
#include "app/lesson_source.hpp"
#include "core/source/model_session.hpp"
#include "app/sentence_runners.hpp"
#include "core/analysis/coref_eval.hpp"
#include "core/analysis/coref_export.hpp"
#include "core/analysis/corpus_export.hpp"
#include "core/analysis/corpus_stats.hpp"
#include "core/analysis/coreference.hpp"
#include "core/analysis/head_stats.hpp"
#include "core/analysis/word_attention.hpp"
#include "ui/common/qt_text.hpp"
#include "core/text/error_messages.hpp"
#include "ui/common/core_error_text.hpp"

namespace attnscope {

namespace {

void addOptions(QCommandLineParser& parser) {
    addSubcommandBasics(parser, translate(
        "cli", "attnscope coref: which earlier word a pronoun attends to.\n"
               "attnscope heads: every head's antecedent accuracy on a coreference set, or head statistics."), translate("cli", "coref or heads"));
    addOptionRows(parser, {
        {"heads", QT_TRANSLATE_NOOP("cli", "coref: the mean of these heads, LAYER:HEAD pairs counted from 1, e.g. 5:4,6:1."), "list"},
        {"layer", QT_TRANSLATE_NOOP("cli", "coref: the mean of every head of this layer (1 = first)."), "l"},
        {"rollout", QT_TRANSLATE_NOOP("cli", "coref: attention rollout through every layer (the default).")},
        {"mention", QT_TRANSLATE_NOOP("cli", "coref: resolve this word (WORD or WORD#N for its N-th occurrence) instead of every pronoun."),
         "word"},
        {"cataphora", QT_TRANSLATE_NOOP("cli", "Let words after the mention be candidates too.")},
        {"words", QT_TRANSLATE_NOOP("cli", "coref: score on attention between words (to a word: the sum over its tokens, from a "
                                           "word: the mean; Chinese split into words by ICU), so 它 can point to 马路, not 路.")},
        {"ablate", QT_TRANSLATE_NOOP("cli", "Switch these heads off in every run (LAYER:HEAD, counted from 1, comma-separated)."),
         "list"},
        {"coref-set", QT_TRANSLATE_NOOP("cli", "heads: a coreference set (JSON lines, see docs/coreference.md)."), "file"},
        {"stats", QT_TRANSLATE_NOOP("cli", "heads: print entropy and attention shares of every head on --sentence.")},
        {"corpus", QT_TRANSLATE_NOOP("cli", "heads --stats: the statistics over a text FILE, one sentence a line (blank lines skipped)."),
         "file"},
        {"max-lines", QT_TRANSLATE_NOOP("cli", "heads --corpus: read at most N sentences (default 10000)."), "n"},
        {"max-tokens", QT_TRANSLATE_NOOP("cli", "heads --corpus: skip sentences longer than N tokens (default 512)."), "n"},
        {"output", QT_TRANSLATE_NOOP("cli", "heads: write to FILE (atomically) instead of standard output."), "file"},
        {"top", QT_TRANSLATE_NOOP("cli", "heads: print only the N best heads of the ranking."), "n"},
        {"resamples", QT_TRANSLATE_NOOP("cli", "heads --coref-set: bootstrap resamples of the examples for the 95% intervals (default 1000)."), "n"},
        {"seed", QT_TRANSLATE_NOOP("cli", "heads --coref-set: seed of the bootstrap and of --control's shuffle (default 1)."), "n"},
        {"control", QT_TRANSLATE_NOOP("cli", "heads --coref-set: also evaluate a copy of the model with every tensor's weights shuffled, and show where its best head lands.")},
        {"format", QT_TRANSLATE_NOOP("cli", "text (default) or json; heads --coref-set and --corpus also csv."), "format"},
        kLanguageRow,
        {"decimals", QT_TRANSLATE_NOOP("cli", "Decimals shown in text (default 3)."), "n"},
    });
}

// ---------------------------------------------------------------- where traces come from

std::string formatError(const std::string& format) {
    return translate("cli", "--format expects text or json, got \"%1\"").arg(qs(format)).toStdString();
}

// ---------------------------------------------------------------- coref

// Layer and head counts come from the run, so lessons of any depth work alike.
struct TraceShape {
    int layers = 0, heads = 0;
};

Result<HeadRef> parseHeadPair(const std::string& text, const TraceShape& source) {
    const auto colon = text.find(':');
    bool okLayer = false, okHead = false;
    const int layer = colon == std::string::npos ? 0 : QString::fromStdString(text.substr(0, colon)).toInt(&okLayer);
    const int head = colon == std::string::npos ? 0 : QString::fromStdString(text.substr(colon + 1)).toInt(&okHead);
    if (!okLayer || !okHead)
        return Error{"--heads", translate("cli", "expected LAYER:HEAD pairs like 5:4,6:1, got \"%1\"").arg(qs(text)).toStdString()};
    if (layer < 1 || layer > source.layers || head < 1 || head > source.heads)
        return Error{"--heads", translate("cli", "expected layers 1 to %1 and heads 1 to %2, got \"%3\"")
                                    .arg(source.layers)
                                    .arg(source.heads)
                                    .arg(qs(text))
                                    .toStdString()};
    return HeadRef{layer - 1, head - 1};
}

Result<Scoring> readScoring(const QCommandLineParser& parser, const TraceShape& source) {
    const int chosen = parser.isSet("heads") + parser.isSet("layer") + parser.isSet("rollout");
    if (chosen > 1) return Error{"", translate("cli", "give one of --heads, --layer and --rollout").toStdString()};
    if (parser.isSet("heads")) {
        std::vector<HeadRef> heads;
        for (const QString& item : parser.value("heads").split(',', Qt::SkipEmptyParts)) {
            auto head = parseHeadPair(item.trimmed().toStdString(), source);
            if (!head) return head.error();
            heads.push_back(head.value());
        }
        if (heads.empty()) return Error{"--heads", translate("cli", "expected LAYER:HEAD pairs like 5:4,6:1, got nothing").toStdString()};
        return Scoring::headSet(std::move(heads));
    }
    std::string error;
    const auto layer = readCount(parser, "layer", 1, source.layers, error);
    if (!error.empty()) return Error{"", error};
    return layer ? Scoring::wholeLayer(*layer - 1) : Scoring::rollout();
}

// --mention WORD or WORD#N → the word index where that occurrence starts.
Result<int> mentionWord(const QString& option, const std::vector<Word>& words) {
    QString text = option;
    int occurrence = 1;
    if (const int hash = option.lastIndexOf('#'); hash > 0) {
        bool ok = false;
        occurrence = option.mid(hash + 1).toInt(&ok);
        if (!ok || occurrence < 1)
            return Error{"--mention", translate("cli", "expected WORD or WORD#N, got \"%1\"").arg(option).toStdString()};
        text = option.left(hash);
    }
    const auto span = findWordSpan(words, text.toStdString(), occurrence);
    if (span) return span->first;
    std::string list;
    for (const Word& w : words) list += (list.empty() ? "" : " ") + w.text;
    return Error{"--mention",
                 translate("cli", "\"%1\" is not a word of the sentence (its words: %2)").arg(option, qs(list)).toStdString()};
}

int runCoref(const QCommandLineParser& parser, const AnalysisSource& source) {
    const std::string format = parser.value("format").isEmpty() ? "text" : parser.value("format").toStdString();
    if (format != "text" && format != "json") return fail(formatError(format));
    std::string error;
    const int decimals = readCount(parser, "decimals", 0, 12, error).value_or(3);
    if (!error.empty()) return fail(error);
    auto sentence = sentenceOf(parser, source);
    if (!sentence) return fail(coreErrorString(sentence.error()));
    auto trace = runAndReport(source, sentence.value());
    if (!trace) return fail(coreErrorString(trace.error()));
    if (parser.isSet("words")) trace = wordLevelTrace(trace.value());  // a lesson's tokens are words already
    auto scoring = readScoring(parser, {static_cast<int>(trace.value().layers.size()), trace.value().headCount()});
    if (!scoring) return fail(coreErrorString(scoring.error()));
    ResolveOptions options{scoring.value(), parser.isSet("cataphora"), std::nullopt};
    if (parser.isSet("mention")) {
        auto word = mentionWord(parser.value("mention"), wordsOf(trace.value().tokens));
        if (!word) return fail(coreErrorString(word.error()));
        options.mentionWord = word.value();
    }
    auto resolved = resolveSentence(trace.value(), options);
    if (!resolved) return fail(coreErrorString(resolved.error()));
    if (format == "json") return write(resolutionToJson(resolved.value())), 0;
    write(source.description + "\n" + resolutionToText(resolved.value(), decimals, coreLanguage()));
    return 0;
}

// ---------------------------------------------------------------- heads

void printProgress(int done, int total) {
    std::fprintf(stderr, "\r%s", translate("cli", "evaluating: %1/%2").arg(done).arg(total).toLocal8Bit().constData());
    if (done == total) std::fprintf(stderr, "\n");
}

// A model's statistics within the window's memory budget: past it the run is a long run, which
// keeps each head's digest (made while its weights existed), not L·H·T² weights (core/model/long_run.hpp).
Result<std::vector<HeadStatistics>> modelStatsOf(const AnalysisSource& source, const std::string& sentence,
                                                 const CorefEvaluation* evaluation) {
    RunControl control;
    control.ablate = source.ablate;
    control.fullDetailMaxTokens = 0;  // the weights are all the statistics read
    control.topK = 1;
    auto run = runSentence(*source.model, sentence, control);
    if (!run) return run.error();
    notices(run.value().trace.notices);
    const ModelRun& done = run.value();
    return done.isLong() ? headStatistics(done.trace, done.digests, evaluation) : headStatistics(done.trace, evaluation);
}

Result<std::vector<HeadStatistics>> statsOf(const QCommandLineParser& parser, const AnalysisSource& source,
                                            const CorefEvaluation* evaluation) {
    auto sentence = sentenceOf(parser, source);
    if (!sentence) return sentence.error();
    if (source.model) return modelStatsOf(source, sentence.value(), evaluation);
    auto trace = runAndReport(source, sentence.value());
    if (!trace) return trace.error();
    return headStatistics(trace.value(), evaluation);
}

// ---------------------------------------------------------------- heads --corpus

void printCorpusProgress(const CorpusProgress& p) {
    const QString line = translate("cli", "sentences: %1/%2, about %3 s left").arg(p.done).arg(p.total).arg(p.etaSeconds, 0, 'f', 0);
    std::fprintf(stderr, "\r%s   ", line.toLocal8Bit().constData());
    if (p.done == p.total) std::fprintf(stderr, "\n");
}

Result<void> checkCorpusOptions(const QCommandLineParser& parser, const std::string& format) {
    if (!parser.isSet("stats")) return Error{"--corpus", translate("cli", "needs --stats (heads --corpus FILE --stats)").toStdString()};
    if (parser.isSet("sentence")) return Error{"", eitherNotBoth("--sentence", "--corpus")};
    if (parser.isSet("coref-set")) return Error{"", eitherNotBoth("--coref-set", "--corpus")};
    if (format != "text" && format != "json" && format != "csv")
        return Error{"--format", translate("cli", "expected text, json or csv, got \"%1\"").arg(qs(format)).toStdString()};
    return {};
}

Result<CorpusLimits> corpusLimits(const QCommandLineParser& parser) {
    CorpusLimits limits;
    std::string error;
    limits.maxLines = readCount(parser, "max-lines", 1, 10000000, error).value_or(limits.maxLines);
    if (error.empty()) limits.maxTokens = readCount(parser, "max-tokens", 1, 100000, error).value_or(limits.maxTokens);
    if (!error.empty()) return Error{"", error};
    return limits;
}

int runCorpusStats(const QCommandLineParser& parser, const AnalysisSource& source, const std::string& format) {
    if (auto checked = checkCorpusOptions(parser, format); !checked) return fail(coreErrorString(checked.error()));
    std::string error;
    const int decimals = readCount(parser, "decimals", 0, 12, error).value_or(3);
    if (!error.empty()) return fail(error);
    auto limits = corpusLimits(parser);
    if (!limits) return fail(coreErrorString(limits.error()));
    auto corpus = readCorpus(parser.value("corpus").toStdString(), limits.value());
    if (!corpus) return fail(coreErrorString(corpus.error()));
    CorpusControl control;
    control.limits = limits.value();
    if (isatty(STDERR_FILENO)) control.progress = printCorpusProgress;
    auto stats = runCorpus(corpus.value(), source.run, control);
    if (!stats) return fail(coreErrorString(stats.error()));
    for (const std::string& n : corpusNoticeTexts(stats.value().notices, coreLanguage())) notice(n);
    const std::string text = format == "json"  ? corpusStatsToJson(stats.value(), source.jsonDescription)
                             : format == "csv" ? corpusStatsToCsv(stats.value())
                                               : corpusStatsToText(stats.value(), source.description, decimals, coreLanguage());
    return writeOutput(parser, text);
}

// --resamples and --seed: how the intervals are drawn.
Result<BootstrapSettings> bootstrapSettings(const QCommandLineParser& parser) {
    BootstrapSettings settings;
    std::string error;
    settings.resamples = readCount(parser, "resamples", 100, 100000, error).value_or(settings.resamples);
    if (error.empty())
        settings.seed = static_cast<std::uint32_t>(readCount(parser, "seed", 0, 2147483647, error).value_or(1));
    if (!error.empty()) return Error{"", error};
    return settings;
}

Result<CorefEvaluation> evaluateSet(const QCommandLineParser& parser, const CorefSet& set, const SentenceRunner& run) {
    auto settings = bootstrapSettings(parser);
    if (!settings) return settings.error();
    EvaluationControl control;
    control.cataphora = parser.isSet("cataphora");
    control.bootstrap = settings.value();
    if (isatty(STDERR_FILENO)) control.progress = printProgress;
    return evaluateCorefSet(set, run, control);
}

// --control: the same set on the model with its weights shuffled (seed --seed).
Result<ControlComparison> controlOf(const QCommandLineParser& parser, const AnalysisSource& source,
                                    const CorefSet& set, const CorefEvaluation& trained) {
    if (!source.model) return Error{"--control", translate("cli", "needs --model (a lesson has no weights to shuffle)").toStdString()};
    auto shuffled = withShuffledWeights(*source.model, trained.bootstrap.seed);
    if (!shuffled) return shuffled.error();
    const auto control = std::make_shared<const OpenedModel>(std::move(shuffled).value());
    auto evaluated = evaluateSet(parser, set, modelSentenceRunner(control, -1, source.ablate));
    if (!evaluated) return evaluated.error();
    return compareWithControl(trained, evaluated.value(), trained.bootstrap.seed);
}

struct HeadsResult {
    std::optional<CorefSet> set;
    std::optional<CorefEvaluation> evaluation;
    std::optional<ControlComparison> control;
    std::optional<std::vector<HeadStatistics>> stats;
};

Result<void> evaluateCorefOption(const QCommandLineParser& parser, const AnalysisSource& source, HeadsResult& out) {
    auto read = readCorefSet(parser.value("coref-set").toStdString());
    if (!read) return read.error();
    out.set = std::move(read).value();
    auto evaluated = evaluateSet(parser, *out.set, source.run);
    if (!evaluated) return evaluated.error();
    out.evaluation = std::move(evaluated).value();
    if (!parser.isSet("control")) return {};
    auto control = controlOf(parser, source, *out.set, *out.evaluation);
    if (!control) return control.error();
    out.control = control.value();
    return {};
}

std::string headsText(const AnalysisSource& source, const HeadsResult& r, const std::string& format, int top) {
    const ControlComparison* control = r.control ? &*r.control : nullptr;
    if (format == "csv") return evaluationToCsv(*r.evaluation, control);
    if (format == "json") {
        const std::string e = r.evaluation ? evaluationToJson(*r.evaluation, *r.set, control) : "null\n";
        const std::string s = r.stats ? headStatsToJson(*r.stats, HeadLabelThresholds{}) : "null\n";
        return "{\"evaluation\": " + e + ", \"head_stats\": " + s + "}\n";
    }
    std::string text = source.description + "\n";
    if (r.evaluation) text += evaluationToText(*r.evaluation, *r.set, top, coreLanguage(), control);
    if (r.stats) text += headStatsToText(*r.stats, coreLanguage());
    return text;
}

Result<void> checkHeadsOptions(const QCommandLineParser& parser, const std::string& format) {
    if (format != "text" && format != "json" && format != "csv")
        return Error{"--format", translate("cli", "expected text, json or csv, got \"%1\"").arg(qs(format)).toStdString()};
    if (!parser.isSet("coref-set") && !parser.isSet("stats"))
        return Error{"", translate("cli", "heads needs --coref-set FILE or --stats").toStdString()};
    if (format == "csv" && (parser.isSet("stats") || !parser.isSet("coref-set")))
        return Error{"--format", translate("cli", "csv is for heads --coref-set or --corpus alone").toStdString()};
    for (const char* option : {"control", "resamples", "seed"})
        if (parser.isSet(option) && !parser.isSet("coref-set"))
            return Error{"--" + std::string(option), translate("cli", "needs --coref-set FILE").toStdString()};
    return {};
}

int runHeads(const QCommandLineParser& parser, const AnalysisSource& source) {
    const std::string format = parser.value("format").isEmpty() ? "text" : parser.value("format").toStdString();
    if (parser.isSet("corpus")) return runCorpusStats(parser, source, format);
    if (auto checked = checkHeadsOptions(parser, format); !checked) return fail(coreErrorString(checked.error()));
    std::string error;
    const int top = readCount(parser, "top", 1, 100000, error).value_or(0);
    if (!error.empty()) return fail(error);
    HeadsResult result;
    if (parser.isSet("coref-set"))
        if (auto evaluated = evaluateCorefOption(parser, source, result); !evaluated) return fail(coreErrorString(evaluated.error()));
    if (parser.isSet("stats")) {
        auto computed = statsOf(parser, source, result.evaluation ? &*result.evaluation : nullptr);
        if (!computed) return fail(coreErrorString(computed.error()));
        result.stats = std::move(computed).value();
    }
    return writeOutput(parser, headsText(source, result, format, top));
}

}  // namespace

QStringList withSubcommandFirst(QStringList arguments) {
    // Only --lang may stand before a subcommand ("attnscope --lang zh_CN coref …"): the language is
    // the one option every subcommand shares, and users type it first.
    int at = 1;
    while (at < arguments.size() && arguments[at].startsWith(QLatin1String("--lang")))
        at += arguments[at] == QLatin1String("--lang") ? 2 : 1;
    if (at > 1 && at < arguments.size()) {
        QStringList probe{arguments[0], arguments[at]};
        if (isAnalysisCommand(probe)) arguments.move(at, 1);
    }
    return arguments;
}

bool isAnalysisCommand(const QStringList& arguments) {
    return arguments.size() > 1 && (arguments[1] == "coref" || arguments[1] == "heads" || arguments[1] == "qk" ||
                                   arguments[1] == "compare" || arguments[1] == "movement" ||
                                   isBeyondWeightsCommand(arguments[1]));
}

int runAnalysisCommand(const QStringList& arguments) {
    if (arguments[1] == "qk") return runQkCommand(arguments);  // app/cli_qk.cpp
    if (arguments[1] == "compare") return runCompareCommand(arguments);  // app/cli_compare.cpp
    if (arguments[1] == "movement") return runMovementCommand(arguments);  // app/cli_movement.cpp
    if (isBeyondWeightsCommand(arguments[1])) return runBeyondWeightsCommand(arguments);  // app/cli_beyond.cpp
    QCommandLineParser parser;
    addOptions(parser);
    if (const auto ended = parseOrAnswer(parser, arguments)) return *ended;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        return fail(translate("cli", "expected one command (coref or heads), got %1").arg(positional.join(' ')).toStdString());
    auto source = openAnalysisSource(parser);
    if (!source) {
        const Error& e = source.error();
        return fail(e.where.empty() ? positional[0].toStdString() + " " + coreErrorMessage(e) : coreErrorString(e));
    }
    if (positional[0] == "coref") return runCoref(parser, source.value());
    return runHeads(parser, source.value());
}

}  // namespace attnscope
