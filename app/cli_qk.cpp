// attnscope qk: one head's queries and keys in one 2-D picture. The numbers come from
// core/analysis/qk_space; this file reads options, runs the sentences and writes the result.
#include "app/cli_qk.hpp"

#include <QCommandLineParser>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <unistd.h>

#include "app/cli_support.hpp"
#include "app/lesson_source.hpp"
#include "app/sentence_runners.hpp"
#include "core/analysis/qk_space.hpp"
#include "core/io/text_file.hpp"
#include "core/text/error_messages.hpp"
#include "ui/common/core_error_text.hpp"

namespace attnscope {

namespace {

// Its own option table after the shared ones: alike in shape to coref/heads' (cli_analysis.cpp), a
// list of different options.
void addOptions(QCommandLineParser& parser) {
    addSubcommandBasics(parser, translate(
        "cli", "attnscope qk: one head's queries and keys projected together to 2-D (AttentionViz's normalisation, "
               "then PCA)."), translate("cli", "qk"));
    addOptionRows(parser, {
        {"corpus", QT_TRANSLATE_NOOP("cli", "A text file: every non-empty line is a sentence (at most 1000 are read)."), "file"},
        {"layer", QT_TRANSLATE_NOOP("cli", "The layer (1 = first)."), "l"},
        {"head", QT_TRANSLATE_NOOP("cli", "The head (1 = first)."), "h"},
        {"layout", QT_TRANSLATE_NOOP("cli", "pca (default) or tsne (exact t-SNE of the same normalised points, at most 2000)."),
         "layout"},
        {"perplexity", QT_TRANSLATE_NOOP("cli", "t-SNE: the effective number of neighbours (default 30, at most (points - 1) / 3)."),
         "p"},
        {"seed", QT_TRANSLATE_NOOP("cli", "t-SNE: the seed of its random start (default 1)."), "n"},
        {"format", QT_TRANSLATE_NOOP("cli", "json (default) or csv."), "format"},
        kAtomicOutRow,
        kLanguageRow,
    });
}

// Where the sentences run: a lesson or a model (whose chosen layer is kept in full detail).
struct QkSource {
    std::string defaultSentence;
    SentenceRunner run;
};

Result<QkSource> openSource(const QCommandLineParser& parser, int layer) {
    auto opened = openModelOrLesson(parser, translate("cli", "needs --model FOLDER|ID or --lesson NAME|FILE"));
    if (!opened) return opened.error();
    const auto& [model, lesson] = opened.value();
    if (model) return QkSource{{}, modelSentenceRunner(model, layer)};
    return QkSource{lesson->sentence, lessonSentenceRunner(lesson)};
}

// The non-empty lines of the corpus, at most kMaxQkCorpusSentences (a notice says when more).
Result<std::vector<std::string>> corpusLines(const std::string& path) {
    auto text = readTextFile(path);
    if (!text) return text.error();
    std::vector<std::string> lines;
    std::size_t start = 0, skipped = 0;
    const std::string& all = text.value();
    while (start < all.size()) {
        std::size_t end = all.find('\n', start);
        if (end == std::string::npos) end = all.size();
        std::string line = all.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") != std::string::npos) {
            if (static_cast<int>(lines.size()) < kMaxQkCorpusSentences) lines.push_back(std::move(line));
            else ++skipped;
        }
        start = end + 1;
    }
    if (lines.empty())
        return Error{path, translate("cli", "expected at least one non-empty line (one sentence per line), found none").toStdString()};
    if (skipped > 0)
        notice(translate("cli", "%1: read the first %2 sentences (the cap), left %3 more")
                   .arg(QString::fromStdString(path), QString::number(kMaxQkCorpusSentences), QString::number(skipped))
                   .toStdString());
    return lines;
}

Result<std::vector<std::string>> sentencesOf(const QCommandLineParser& parser, const QkSource& source) {
    if (parser.isSet("sentence") && parser.isSet("corpus")) return Error{"", eitherNotBoth("--sentence", "--corpus")};
    if (parser.isSet("corpus")) return corpusLines(parser.value("corpus").toStdString());
    if (parser.value("sentence").contains(QChar(0xFFFD)))
        return Error{"--sentence", errorText(ErrorId::ExpectedFoundNote, ErrorId::Utf8Text, ErrorId::InvalidBytes, ErrorId::ShownAsFffd)};
    std::string sentence = parser.isSet("sentence") ? parser.value("sentence").toStdString() : source.defaultSentence;
    if (sentence.empty()) return Error{"", translate("cli", "needs --sentence TEXT or --corpus FILE").toStdString()};
    return std::vector<std::string>{sentence};
}

// "layer: expected …" from core becomes "--layer: expected …": the option the user typed.
Error asOption(Error e) {
    if (e.where == "layer" || e.where == "head") e.where = "--" + e.where;
    return e;
}

Result<std::vector<QkSentence>> runSentences(const std::vector<std::string>& sentences, const QkSource& source,
                                             HeadRef head) {
    std::vector<QkSentence> out;
    const bool progress = sentences.size() > 1 && isatty(STDERR_FILENO);
    for (std::size_t i = 0; i < sentences.size(); ++i) {
        auto trace = source.run(sentences[i]);
        if (!trace)
            return sentences.size() > 1 ? Error{translate("cli", "line %1").arg(i + 1).toStdString(), trace.error().textForm()}
                                        : trace.error();
        if (sentences.size() == 1)
            notices(trace.value().notices);
        auto sentence = qkSentenceOf(trace.value(), head.layer, head.head);
        if (!sentence) return asOption(sentence.error());
        out.push_back(std::move(sentence).value());
        if (progress)
            std::fprintf(stderr, "\r%s%s", translate("cli", "running: %1/%2").arg(i + 1).arg(sentences.size()).toLocal8Bit().constData(),
                         i + 1 == sentences.size() ? "\n" : "");
    }
    return out;
}

Result<HeadRef> readHead(const QCommandLineParser& parser) {
    std::string error;
    const auto layer = readCount(parser, "layer", 1, 10000, error);
    if (!error.empty()) return Error{"", error};
    const auto head = readCount(parser, "head", 1, 10000, error);
    if (!error.empty()) return Error{"", error};
    if (!layer || !head) return Error{"", translate("cli", "qk needs --layer L and --head H (counted from 1)").toStdString()};
    return HeadRef{*layer - 1, *head - 1};
}

// --layout, --perplexity, --seed; the perplexity defaults to 30, or less when there are few points.
Result<QkOptions> readLayout(const QCommandLineParser& parser, int points) {
    QkOptions options;
    const QString layout = parser.value("layout").isEmpty() ? "pca" : parser.value("layout");
    if (layout != "pca" && layout != "tsne")
        return Error{"", translate("cli", "--layout expects pca or tsne, got \"%1\"").arg(layout).toStdString()};
    const bool tsneOnly = parser.isSet("perplexity") || parser.isSet("seed");
    if (layout == "pca" && tsneOnly) return Error{"", translate("cli", "--perplexity and --seed need --layout tsne").toStdString()};
    if (layout == "pca") return options;
    options.layout = QkLayout::Tsne;
    options.tsne.perplexity = std::clamp(largestPerplexity(points), 1.0, 30.0);
    if (parser.isSet("perplexity")) {
        bool ok = false;
        options.tsne.perplexity = parser.value("perplexity").toDouble(&ok);
        if (!ok)
            return Error{"", translate("cli", "--perplexity expects a number, got \"%1\"").arg(parser.value("perplexity")).toStdString()};
    }
    std::string error;
    options.tsne.seed = static_cast<std::uint64_t>(readCount(parser, "seed", 0, 2147483647, error).value_or(1));
    if (!error.empty()) return Error{"", error};
    return options;
}

}  // namespace

int runQkCommand(const QStringList& arguments) {
    QCommandLineParser parser;
    addOptions(parser);
    if (const auto ended = parseOrAnswer(parser, arguments)) return *ended;
    if (parser.positionalArguments().size() != 1)
        return fail(translate("cli", "qk expects options only, got %1").arg(parser.positionalArguments().mid(1).join(' ')).toStdString());
    const std::string format = parser.value("format").isEmpty() ? "json" : parser.value("format").toStdString();
    if (format != "json" && format != "csv")
        return fail(translate("cli", "--format expects json or csv, got \"%1\"").arg(QString::fromStdString(format)).toStdString());
    auto head = readHead(parser);
    if (!head) return fail(coreErrorString(head.error()));
    auto source = openSource(parser, head.value().layer);
    if (!source) return fail(source.error().where.empty() ? "qk " + coreErrorMessage(source.error()) : coreErrorString(source.error()));
    auto sentences = sentencesOf(parser, source.value());
    if (!sentences) return fail(coreErrorString(sentences.error()));
    auto gathered = runSentences(sentences.value(), source.value(), head.value());
    if (!gathered) return fail(coreErrorString(gathered.error()));
    int points = 0;
    for (const QkSentence& s : gathered.value()) points += static_cast<int>(s.q.rows() + s.k.rows());
    auto options = readLayout(parser, points);
    if (!options) return fail(coreErrorString(options.error()));
    auto space = qkSpace(gathered.value(), options.value());
    if (!space) return fail(coreErrorString(space.error()));
    std::fprintf(stderr, "qk: %s\n", qkSummary(space.value(), coreLanguage()).c_str());
    return writeOutput(parser, format == "json" ? qkSpaceToJson(space.value(), head.value())
                                                : qkSpaceToCsv(space.value()));
}

}  // namespace attnscope
