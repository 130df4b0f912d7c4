#pragma once
// The interface language (issue 12): English (the source texts) or Simplified Chinese (the
// compiled-in :/i18n/attnscope_zh_CN.qm, plus Qt's own qtbase_zh_CN.qm for its dialogs and
// buttons when the system has it). Chosen by --lang, else the saved choice (View ▸ Language),
// else the system locale.
#include <QString>
#include <QStringList>

namespace attnscope {

QStringList supportedLanguages();                  // "en", "zh_CN"
QString languageForLocale(const QString& locale);  // "zh_CN" for any Chinese locale, else "en"
QString systemLanguage();                          // languageForLocale(QLocale::system().name())
QString savedLanguage();                           // QSettings' choice, else systemLanguage()
void saveLanguage(const QString& language);

// Installs the translators of `language` (removing the previous ones) and makes it QLocale's
// default, so texts built from QLocale() at display time follow. Returns false when the
// application's own catalogue could not be loaded (then English stays).
bool applyLanguage(const QString& language);
QString currentLanguage();
// Whether Qt's own translation of `language` (qtbase_*.qm) was found and installed.
bool qtTranslationLoaded();

}  // namespace attnscope
