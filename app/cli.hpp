#pragma once
// The command line of the attnscope binary: prints matrices, exports heatmaps, no window.
#include <QStringList>
#include <optional>

namespace attnscope {

// True when the arguments ask for headless work (--print, --export-png, --list-lessons, --help,
// or the subcommands coref and heads).
bool isCommandLineRun(const QStringList& arguments);

// Runs the command line and returns the process exit code. Results go to stdout, errors to
// stderr. Needs a QApplication when --export-png is given.
int runCommandLine(const QStringList& arguments);

}  // namespace attnscope
