#pragma once
// The language of core's message catalogue for what ui/ shows: the interface language, which
// app/language.cpp makes QLocale's default (so this follows View ▸ Language at display time).
#include <QLocale>

#include "core/text/messages.hpp"

namespace attnscope {

inline Language coreLanguage() {
    return QLocale().language() == QLocale::Chinese ? Language::Chinese : Language::English;
}

}  // namespace attnscope
