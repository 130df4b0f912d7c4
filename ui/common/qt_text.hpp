#pragma once
// The one std::string -> QString adapter for ui/ and app/: core speaks UTF-8 std::string.
// Include it from .cpp files only, so a file with its own local helper never sees two.
#include <QString>
#include <string>

namespace attnscope {

inline QString qs(const std::string& text) { return QString::fromStdString(text); }

}  // namespace attnscope
