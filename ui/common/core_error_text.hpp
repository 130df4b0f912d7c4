#pragma once
// A core Error as the window and the command line show it: in the interface language (--lang, else
// View ▸ Language, else the locale), from core's error catalogue (core/text/error_messages.hpp).
#include <QString>
#include <string>

#include "core/base/result.hpp"
#include "ui/common/core_language.hpp"

namespace attnscope {

inline std::string coreErrorString(const Error& error) { return error.textIn(coreLanguage()); }
inline QString coreErrorText(const Error& error) { return QString::fromStdString(coreErrorString(error)); }
// The message alone ("is missing"), for a caller that names the place itself.
inline std::string coreErrorMessage(const Error& error) { return error.messageForm().in(coreLanguage()); }

}  // namespace attnscope
