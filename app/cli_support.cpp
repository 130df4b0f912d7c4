#include "app/cli_support.hpp"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "app/language.hpp"
#include "core/trace/ablation.hpp"
#include "ui/common/core_error_text.hpp"
#include "ui/common/core_language.hpp"

namespace attnscope {

int fail(const std::string& message) {
    std::fprintf(stderr, "attnscope: %s\n", message.c_str());
    return 1;
}

namespace {
int outputErrno = 0;  // the first failed write to stdout (e.g. `--print > file` on a full disk)
}

void write(const std::string& text) {
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() && outputErrno == 0) outputErrno = errno;
}

int finishOutput(int exitCode) {
    if (std::fflush(stdout) != 0 && outputErrno == 0) outputErrno = errno;
    if (outputErrno == 0) return exitCode;
    std::fprintf(stderr, "attnscope: standard output could not be written: %s\n", std::strerror(outputErrno));
    return 1;
}

void notice(const std::string& text) { std::fprintf(stderr, "notice: %s\n", text.c_str()); }

void notices(const std::vector<Notice>& list) {
    for (const std::string& text : noticeTexts(list, coreLanguage())) notice(text);
}

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

std::optional<QString> languageOption(const QStringList& arguments, std::string& error) {
    for (int i = 1; i < arguments.size(); ++i) {
        QString value;
        if (arguments[i] == QLatin1String("--lang")) value = i + 1 < arguments.size() ? arguments[i + 1] : QString();
        else if (arguments[i].startsWith(QLatin1String("--lang="))) value = arguments[i].mid(7);
        else continue;
        if (supportedLanguages().contains(value)) return value;
        error = "--lang expects zh_CN or en, got \"" + value.toStdString() + "\"";
        return std::nullopt;
    }
    return QString();
}

void addSubcommandBasics(QCommandLineParser& parser, const QString& description, const QString& command) {
    parser.setApplicationDescription(description);
    parser.addHelpOption();
    parser.addPositionalArgument("command", command);
    parser.addOptions({
        {"model", translate("cli", "A pretrained model: a FOLDER or a Hugging Face id in the local cache."), "model"},
        {"lesson", translate("cli", "Built-in lesson NAME, a lesson FILE, or inline lesson JSON."), "lesson"},
        {"sentence", translate("cli", "The sentence (default: the lesson's own)."), "text"},
    });
}

}  // namespace attnscope
