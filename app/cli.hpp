#pragma once
// The command line of the attnscope binary: prints matrices, exports heatmaps, no window.
#include <QStringList>
#include <optional>
#include <string>

namespace attnscope {

// True when the arguments ask for headless work (--print, --export-png, --list-lessons, --help,
// or the subcommands coref and heads); --out too, so the old spelling is refused, not a window opened.
bool isCommandLineRun(const QStringList& arguments);

// Runs the command line and returns the process exit code. Results go to stdout, errors to
// stderr. Needs a QApplication when --export-png is given.
int runCommandLine(const QStringList& arguments);

// What is wrong with the arguments before anything runs or a window opens: an unknown option, a
// stray word, options that exclude each other, a sentence that is not UTF-8; nullopt when none.
std::optional<std::string> commandLineError(const QStringList& arguments);

}  // namespace attnscope
