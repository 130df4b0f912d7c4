#pragma once
// What every command-line command shares: how it fails, writes and reads a bounded number.
#include <QString>
#include <optional>
#include <string>

class QCommandLineParser;

namespace attnscope {

// "attnscope: MESSAGE" on stderr; returns the exit code 1.
int fail(const std::string& message);
void write(const std::string& text);   // stdout, as is
// The exit code once stdout is flushed: 1, with the OS's reason, if anything written to it was lost.
int finishOutput(int exitCode);
void notice(const std::string& text);  // "notice: TEXT" on stderr

// --NAME as a whole number in [lo, hi]; nullopt when absent or bad (then `error` says why).
std::optional<int> readCount(const QCommandLineParser& parser, const QString& name, int lo, int hi,
                             std::string& error);

}  // namespace attnscope
