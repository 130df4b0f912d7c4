#pragma once
// What every command-line command shares: how it fails, writes and reads a bounded number.
#include <QString>
#include <QStringList>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/result.hpp"
#include "core/text/language.hpp"
#include "core/text/notice.hpp"
#include "core/trace/trace.hpp"

class QCommandLineParser;

namespace attnscope {

struct Lesson;
struct OpenedModel;

// SIGINT, SIGTERM and SIGHUP first remove the temporary files being written (a long export
// stopped by Ctrl-C leaves nothing behind), then end the program as the signal would have.
void removeTemporariesOnSignals();

// "attnscope: MESSAGE" on stderr; returns the exit code 1.
int fail(const std::string& message);
void write(std::string_view text);   // stdout, as is
// The exit code once stdout is flushed: 1, with the OS's reason, if anything written to it was lost.
int finishOutput(int exitCode);
void notice(const std::string& text);  // "notice: TEXT" on stderr, the label in the interface language
void notices(const std::vector<Notice>& list);  // each with notice(), in the interface language

// Command-line texts (--help, messages) in the interface language; lupdate reads translate("cli", "…").
QString translate(const char* context, const char* text);

// "give either --model or --lesson, not both", in the interface language.
std::string eitherNotBoth(const char* one, const char* other);

// "bert-tiny (BERT, 2 layers × 2 heads)": what the command line says it runs, in `language`.
std::string modelShapeText(const OpenedModel& model, Language language);

// What every analysis subcommand (coref, heads, qk) starts with: its description, --help, the
// command word, and where sentences come from (--model, --lesson, --sentence).
void addSubcommandBasics(QCommandLineParser& parser, const QString& description, const QString& command);

// One row of a command's option table: the option, its --help text, written as
// QT_TRANSLATE_NOOP("cli", "…") so that lupdate finds it and translated when added, and the name
// of its value (empty: a switch).
struct OptionRow {
    const char* name;
    const char* help;
    const char* value = "";
};
void addOptionRows(QCommandLineParser& parser, std::initializer_list<OptionRow> rows);
// A subcommand's first step: its arguments parsed, --help answered and an empty --output refused
// (every subcommand that calls it has --output). The exit code when it ends there (a bad option: 1,
// --help: 0), else nothing.
std::optional<int> parseOrAnswer(QCommandLineParser& parser, const QStringList& arguments);
// Its last: `text` to the --output file (atomically) when given, else to standard output; the exit code.
int writeOutput(const QCommandLineParser& parser, const std::string& text);
// Why the arguments did not parse; the old spelling --out is named as such, pointing to --output.
std::string parseErrorText(const QCommandLineParser& parser);

// The rows that read the same in every command that takes them.
extern const OptionRow kLanguageRow;   // --lang (main() reads it before the parser: languageOption)
extern const OptionRow kAtomicOutRow;  // --output FILE, written atomically
extern const OptionRow kTextJsonCsvRow;   // --format: text (default), json or csv
extern const OptionRow kTextDecimalsRow;  // --decimals N in text (default 3)

// What --model or --lesson opened (exactly one is set; the model's notices are printed): how the
// analysis subcommands (coref, heads, qk, compare) start. Neither given: the error `missing`.
struct ModelOrLesson {
    std::shared_ptr<const OpenedModel> model;
    std::shared_ptr<const Lesson> lesson;
};
Result<ModelOrLesson> openModelOrLesson(const QCommandLineParser& parser, const QString& missing);

// The value of --lang (--lang X or --lang=X): empty when absent; an error unless zh_CN or en.
// main() applies it before anything is printed, so --help and messages follow it.
std::optional<QString> languageOption(const QStringList& arguments, std::string& error);

// --ablate L:H[,L:H…] against a model or lesson of `layers` × `heads` (no option: no head); the
// error, if any (shared by the main command and attnscope compare).
std::optional<std::string> readAblation(const QCommandLineParser& parser, int layers, int heads,
                                        std::vector<HeadRef>& ablate);

// --NAME as a whole number in [lo, hi]; nullopt when absent or bad (then `error` says why).
std::optional<int> readCount(const QCommandLineParser& parser, const QString& name, int lo, int hi,
                             std::string& error);

// Options of one source only, or needing another (--output without --print): the message, or
// nothing when the options go together.
std::optional<std::string> misplacedOption(const QCommandLineParser& parser);

}  // namespace attnscope
