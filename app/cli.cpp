// attnscope --lesson FILE|NAME|JSON --sentence TEXT --print [--step S] [--head H]
//           [--format text|json|csv|markdown] [--decimals N] [--hand-rounding N] [--explain]
//           [--export-png FILE]
#include "app/cli.hpp"

#include <QCommandLineParser>
#include <cstdio>
#include <string>

#include "app/heatmap_export.hpp"
#include "app/lesson_source.hpp"
#include "core/export.hpp"
#include "core/run_lesson.hpp"

namespace attnscope {

namespace {

void addOptions(QCommandLineParser& parser) {
    parser.setApplicationDescription("AttnScope: transformer self-attention, every number visible.");
    parser.addHelpOption();
    parser.addOptions({
        {"lesson", "Built-in lesson NAME, a lesson FILE, or inline lesson JSON.", "lesson"},
        {"sentence", "The sentence to run (default: the lesson's own).", "text"},
        {"print", "Print the matrices instead of opening a window."},
        {"step", "Only this step: embedding, positional, x, q, k, v, scores, scaled_scores, mask, "
                 "masked_scores, weights, weighted_sum, concat, output, w_q, w_k, w_v, w_o.", "step"},
        {"head", "Only this head (1 = first).", "h"},
        {"format", "text (default), json, csv or markdown.", "format"},
        {"decimals", "Decimals shown (default: the lesson's).", "n"},
        {"hand-rounding", "Round every intermediate to N decimals, as by hand.", "n"},
        {"exact", "Ignore the lesson's hand-rounding setting."},
        {"explain", "Text and Markdown: add each cell's explanation (a worksheet)."},
        {"export-png", "Write the attention heatmaps (all heads) to a PNG file.", "file"},
        {"list-lessons", "List the built-in lessons."},
        {"screenshots", "Open the window and save a screenshot of every step to DIR.", "dir"},
    });
}

int fail(const std::string& message) {
    std::fprintf(stderr, "attnscope: %s\n", message.c_str());
    return 1;
}

void write(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }

std::optional<int> readCount(const QCommandLineParser& parser, const QString& name, int lo, int hi,
                             std::string& error) {
    if (!parser.isSet(name)) return std::nullopt;
    bool ok = false;
    const int value = parser.value(name).toInt(&ok);
    if (!ok || value < lo || value > hi) {
        error = "--" + name.toStdString() + " expects a whole number from " + std::to_string(lo) + " to " +
                std::to_string(hi) + ", got \"" + parser.value(name).toStdString() + "\"";
        return std::nullopt;
    }
    return value;
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

std::optional<std::string> readRequest(const QCommandLineParser& parser, const Lesson& lesson, Request& r) {
    std::string error;
    const auto format = exportFormatFromName(parser.value("format").isEmpty() ? "text" : parser.value("format").toStdString());
    if (!format) return "--format expects text, json, csv or markdown, got \"" + parser.value("format").toStdString() + "\"";
    r.format = *format;
    if (parser.isSet("step")) {
        r.exportRequest.step = stepFromKey(parser.value("step").toStdString());
        if (!r.exportRequest.step) return "--step: unknown step \"" + parser.value("step").toStdString() + "\" (see --help)";
    }
    const auto head = readCount(parser, "head", 1, std::max(1, lesson.numHeads), error);
    const auto decimals = readCount(parser, "decimals", 0, 12, error);
    const auto rounding = readCount(parser, "hand-rounding", 0, 12, error);
    if (!error.empty()) return error;
    if (head) r.exportRequest.head = *head - 1;
    r.exportRequest.decimals = decimals.value_or(lesson.decimals);
    r.exportRequest.explain = parser.isSet("explain");
    r.settings.handRounding = rounding;
    r.settings.exact = parser.isSet("exact");
    return std::nullopt;
}

}  // namespace

bool isCommandLineRun(const QStringList& arguments) {
    for (const QString& a : arguments)
        if (a == "--print" || a.startsWith("--export-png") || a == "--list-lessons" || a == "--help" ||
            a == "-h" || a == "--help-all")
            return true;
    return false;
}

int runCommandLine(const QStringList& arguments) {
    QCommandLineParser parser;
    addOptions(parser);
    if (!parser.parse(arguments)) return fail(parser.errorText().toStdString());
    if (parser.isSet("help")) return write(parser.helpText().toStdString()), 0;
    if (parser.isSet("list-lessons")) return listLessons();

    auto lesson = loadLesson(parser.isSet("lesson") ? parser.value("lesson") : "first-hand-exercise");
    if (!lesson) return fail(lesson.error().text());
    Request request;
    if (auto error = readRequest(parser, lesson.value(), request)) return fail(*error);
    const std::string sentence = parser.isSet("sentence") ? parser.value("sentence").toStdString()
                                                          : lesson.value().sentence;
    auto trace = runLesson(lesson.value(), sentence, request.settings);
    if (!trace) return fail(trace.error().text());
    for (const std::string& notice : trace.value().notices) std::fprintf(stderr, "notice: %s\n", notice.c_str());

    if (parser.isSet("export-png")) {
        if (auto error = exportHeatmapPng(trace.value(), parser.value("export-png"))) return fail(error->text());
    }
    if (parser.isSet("print")) write(exportTrace(trace.value(), request.format, request.exportRequest));
    return 0;
}

}  // namespace attnscope
