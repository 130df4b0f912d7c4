#pragma once
// The one std::string -> QString adapter for ui/ and app/: core speaks UTF-8 std::string.
// Include it from .cpp files only, so a file with its own local helper never sees two.
#include <QLocale>
#include <QString>
#include <string>

#include "core/lesson/lesson_tokenizer.hpp"
#include "core/text/localized_text.hpp"

namespace attnscope {

inline QString qs(const std::string& text) { return QString::fromStdString(text); }

// The language to show lesson texts in, read at the point of display: View ▸ Language changes
// the default QLocale while the program runs.
inline std::string displayLanguage() { return QLocale().name().toStdString(); }

// A lesson text (title, description, feature name) in the user's language, or its fallback.
inline QString qs(const LocalizedText& text) { return qs(text.in(displayLanguage())); }

// True when `text` has a Chinese/Japanese character: such text is drawn upright, never rotated
// or slanted (CJK fonts have no italic, so Qt would shear the glyphs).
inline bool containsCjk(const QString& text) {
    for (const char32_t cp : text.toUcs4())
        if (isCjk(cp)) return true;
    return false;
}

}  // namespace attnscope
