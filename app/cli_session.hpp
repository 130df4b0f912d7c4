#pragma once
// attnscope --session-file FILE --print|--export-png …: a session saved by the window
// (docs/session-format.md) run on the command line, so its figure is made again headless. The
// session gives the source (--model or --lesson), --sentence, --ablate, --layer and --head; an
// option given on the command line as well wins.
#include <QStringList>
#include <optional>
#include <string>

namespace attnscope {

// The value of --session-file FILE (or --session-file=FILE), if given.
std::optional<QString> sessionOption(const QStringList& arguments);
// `arguments` with --session-file FILE replaced by the session's options; an unreadable or bad session
// is the error (exit 1). Files of the source that changed since the session was saved: a notice.
std::optional<std::string> withSessionOptions(QStringList& arguments);
// `run` on the session's options in place of --session-file FILE; exit 1 on a bad session.
int runWithSession(const QStringList& arguments, int (*run)(const QStringList&));

}  // namespace attnscope
