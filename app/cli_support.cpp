#include "app/cli_support.hpp"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

#include "app/language.hpp"
#include "app/lesson_source.hpp"
#include "core/export/export.hpp"
#include "core/io/atomic_file.hpp"
#include "core/text/utf8.hpp"
#include "core/trace/ablation.hpp"
#include "ui/common/core_error_text.hpp"
#include "core/source/model_session.hpp"
#include "ui/common/core_language.hpp"

namespace attnscope {

namespace {

void removeTemporariesAndDie(int signalNumber) {
    removeTemporaryFilesNow();  // async-signal-safe (core/io/atomic_file.hpp)
    ::signal(signalNumber, SIG_DFL);
    ::raise(signalNumber);
}

}  // namespace

void removeTemporariesOnSignals() {
    struct sigaction action {};
    action.sa_handler = removeTemporariesAndDie;
    sigemptyset(&action.sa_mask);
    for (const int signalNumber : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(signalNumber, &action, nullptr);
}

int fail(const std::string& message) {
    // Names from files (tensors, refs) may hold escape sequences or NUL: shown as \xHH.
    std::fprintf(stderr, "attnscope: %s\n", utf8::printable(message).c_str());
    return 1;
}

namespace {
int outputErrno = 0;  // the first failed write to stdout (e.g. `--print > file` on a full disk)
}

void write(std::string_view text) {
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() && outputErrno == 0) outputErrno = errno;
}

int finishOutput(int exitCode) {
    if (std::fflush(stdout) != 0 && outputErrno == 0) outputErrno = errno;
    if (outputErrno == 0) return exitCode;
    fail(translate("cli", "standard output could not be written: %1").arg(QString::fromLocal8Bit(std::strerror(outputErrno))).toStdString());
    return 1;
}

void notice(const std::string& text) {
    std::fprintf(stderr, "%s%s\n", std::string(message(MessageId::LabelNotice, coreLanguage())).c_str(),
                 utf8::printable(text).c_str());
}

void notices(const std::vector<Notice>& list) {
    for (const std::string& text : noticeTexts(list, coreLanguage())) notice(text);
}

std::optional<int> readCount(const QCommandLineParser& parser, const QString& name, int lo, int hi,
                             std::string& error) {
    if (!parser.isSet(name)) return std::nullopt;
    bool ok = false;
    const int value = parser.value(name).toInt(&ok);
    if (!ok || value < lo || value > hi) {
        error = translate("cli", "--%1 expects a whole number from %2 to %3, got \"%4\"")
                    .arg(name)
                    .arg(lo)
                    .arg(hi)
                    .arg(parser.value(name))
                    .toStdString();
        return std::nullopt;
    }
    return value;
}

// --ablate L:H[,L:H…] against a model or lesson of `layers` × `heads`; no option: no head.
std::optional<std::string> readAblation(const QCommandLineParser& parser, int layers, int heads,
                                        std::vector<HeadRef>& ablate) {
    if (!parser.isSet("ablate")) return std::nullopt;
    auto parsed = parseHeadSpec(parser.value("ablate").toStdString());
    if (!parsed) return "--ablate: " + coreErrorMessage(parsed.error());
    if (auto bad = checkHeadsExist(parsed.value(), layers, heads, "--ablate"); !bad.ok()) return coreErrorString(bad.error());
    ablate = std::move(parsed).value();
    return std::nullopt;
}

QString translate(const char* context, const char* text) { return QCoreApplication::translate(context, text); }

std::string eitherNotBoth(const char* one, const char* other) {
    return translate("cli", "give either %1 or %2, not both").arg(QLatin1String(one), QLatin1String(other)).toStdString();
}

std::string modelShapeText(const OpenedModel& model, Language language) {
    return fillMessage(message(MessageId::LabelModelShape, language),
                       {model.name, familyName(model.family()), std::to_string(model.layerCount()),
                        std::to_string(model.headCount())});
}

std::optional<QString> languageOption(const QStringList& arguments, std::string& error) {
    for (int i = 1; i < arguments.size(); ++i) {
        QString value;
        if (arguments[i] == QLatin1String("--lang")) value = i + 1 < arguments.size() ? arguments[i + 1] : QString();
        else if (arguments[i].startsWith(QLatin1String("--lang="))) value = arguments[i].mid(7);
        else continue;
        if (supportedLanguages().contains(value)) return value;
        error = translate("cli", "--lang expects zh_CN or en, got \"%1\"").arg(value).toStdString();
        return std::nullopt;
    }
    return QString();
}

void addSubcommandBasics(QCommandLineParser& parser, const QString& description, const QString& command) {
    parser.setApplicationDescription(description);
    parser.addHelpOption();
    parser.addPositionalArgument(translate("cli", "command"), command);
    addOptionRows(parser, {
        {"model", QT_TRANSLATE_NOOP("cli", "A pretrained model: a FOLDER or a Hugging Face id in the local cache."), "model"},
        {"lesson", QT_TRANSLATE_NOOP("cli", "Built-in lesson NAME, a lesson FILE, or inline lesson JSON."), "lesson"},
        {"sentence", QT_TRANSLATE_NOOP("cli", "The sentence (default: the lesson's own)."), "text"},
    });
}

const OptionRow kLanguageRow{
    "lang", QT_TRANSLATE_NOOP("cli", "Interface language: zh_CN (Simplified Chinese) or en (default: the system locale)."),
    "language"};
const OptionRow kAtomicOutRow{"output", QT_TRANSLATE_NOOP("cli", "Write to FILE (atomically) instead of standard output."),
                              "file"};
const OptionRow kTextJsonCsvRow{"format", QT_TRANSLATE_NOOP("cli", "text (default), json or csv."), "format"};
const OptionRow kTextDecimalsRow{"decimals", QT_TRANSLATE_NOOP("cli", "Text: decimals shown (default 3)."), "n"};

void addOptionRows(QCommandLineParser& parser, std::initializer_list<OptionRow> rows) {
    for (const OptionRow& row : rows) {
        parser.addOption(QCommandLineOption(QString::fromLatin1(row.name), translate("cli", row.help), QString::fromLatin1(row.value)));
    }
}

Result<ModelOrLesson> openModelOrLesson(const QCommandLineParser& parser, const QString& missing) {
    if (parser.isSet("model") && parser.isSet("lesson")) return Error{"", eitherNotBoth("--model", "--lesson")};
    if (parser.isSet("model")) {
        auto opened = openModel(parser.value("model").toStdString());
        if (!opened) return opened.error();
        notices(opened.value().notices);
        return ModelOrLesson{std::make_shared<const OpenedModel>(std::move(opened).value()), nullptr};
    }
    if (!parser.isSet("lesson")) return Error{"", missing.toStdString()};
    auto loaded = loadLesson(parser.value("lesson"));
    if (!loaded) return loaded.error();
    return ModelOrLesson{nullptr, std::make_shared<const Lesson>(std::move(loaded).value())};
}

std::string parseErrorText(const QCommandLineParser& parser) {
    if (parser.unknownOptionNames().contains(QLatin1String("out")))
        return translate("cli", "--out is not an option: write the output file as --output FILE").toStdString();
    return parser.errorText().toStdString();
}

std::optional<int> parseOrAnswer(QCommandLineParser& parser, const QStringList& arguments) {
    if (!parser.parse(arguments)) return fail(parseErrorText(parser));
    if (parser.isSet("help")) return write(parser.helpText().toStdString()), 0;
    if (parser.isSet("output") && parser.value("output").isEmpty())
        return fail(translate("cli", "--output expects a file name, got nothing").toStdString());
    return std::nullopt;
}

int writeOutput(const QCommandLineParser& parser, const std::string& text) {
    if (!parser.isSet("output") || parser.value("output") == "-") return write(text), 0;  // "-": standard output
    auto written = writeFileAtomically(parser.value("output").toStdString(), text);
    return written ? 0 : fail(coreErrorString(written.error()));
}

// Options of one source only: given with the other they would be silently ignored.
std::optional<std::string> misplacedOption(const QCommandLineParser& parser) {
    if (parser.isSet("model") && parser.isSet("lesson"))
        return translate("cli", "--model and --lesson exclude each other: give one").toStdString();
    if (parser.isSet("model") && parser.isSet("paste")) return translate("cli", "--paste applies to lessons only").toStdString();
    if (!parser.isSet("model") && parser.isSet("top-k")) return translate("cli", "--top-k applies to --model runs only").toStdString();
    if (!parser.isSet("model") && parser.isSet("words"))
        return translate("cli", "--words applies to --model runs only (a lesson's tokens are words already)").toStdString();
    if (parser.isSet("output") && !parser.isSet("print")) return translate("cli", "--output needs --print").toStdString();
    if (parser.isSet("norms") && !parser.isSet("export-png")) return translate("cli", "--norms needs --export-png").toStdString();
    if (parser.isSet("norms") && parser.isSet("words"))
        return translate("cli", "--norms and --words exclude each other: the norms are of the tokens' value vectors").toStdString();
    if (parser.isSet("print") && !parser.isSet("output") && exportFormatFromName(parser.value("format").toStdString()) == ExportFormat::Npy)
        return translate("cli", "--format npy writes a binary .npz file: give --output FILE").toStdString();
    // PNG bytes under another image's name (.svg, .jpg) would open as a broken file; no suffix
    // (a device such as /dev/stdout) is fine.
    const QString suffix = QFileInfo(parser.value("export-png")).suffix();
    if (parser.isSet("export-png") && !suffix.isEmpty() && suffix.compare("png", Qt::CaseInsensitive) != 0)
        return translate("cli", "--export-png writes PNG only: name the file .png, not .%1").arg(suffix).toStdString();
    return std::nullopt;
}

}  // namespace attnscope
