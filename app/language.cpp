#include "app/language.hpp"
#include "app/user_settings.hpp"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>
#include <memory>

namespace attnscope {

namespace {

const QString kSettingsKey = QStringLiteral("interface/language");


struct Installed {
    QString language = QStringLiteral("en");
    std::unique_ptr<QTranslator> app, qt;  // owned here; removed before they are replaced
};

Installed& installed() {
    static Installed state;
    return state;
}

void remove(std::unique_ptr<QTranslator>& translator) {
    if (translator) QCoreApplication::removeTranslator(translator.get());
    translator.reset();
}

}  // namespace

QStringList supportedLanguages() { return {QStringLiteral("en"), QStringLiteral("zh_CN")}; }

QString languageForLocale(const QString& locale) {
    return locale.startsWith(QLatin1String("zh")) ? QStringLiteral("zh_CN") : QStringLiteral("en");
}

QString systemLanguage() { return languageForLocale(QLocale::system().name()); }

QString savedLanguage() {
    const QString saved = UserSettings().value(kSettingsKey).toString();
    return supportedLanguages().contains(saved) ? saved : systemLanguage();
}

void saveLanguage(const QString& language) { UserSettings().setValue(kSettingsKey, language); }

bool applyLanguage(const QString& language) {
    Installed& state = installed();
    remove(state.app);
    remove(state.qt);
    state.language = QStringLiteral("en");
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    if (language == QLatin1String("en")) return true;
    auto app = std::make_unique<QTranslator>();
    if (!app->load(QStringLiteral(":/i18n/attnscope_%1.qm").arg(language))) return false;
    QCoreApplication::installTranslator(app.get());
    state.app = std::move(app);
    // Qt's own strings (file dialogs, OK/Cancel): from the system's Qt translations if installed
    // (Debian: qt6-translations-l10n); without them Qt's dialogs stay English.
    auto qt = std::make_unique<QTranslator>();
    if (qt->load(QStringLiteral("qtbase_%1").arg(language), QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt.get());
        state.qt = std::move(qt);
    }
    state.language = language;
    QLocale::setDefault(QLocale(language));
    return true;
}

QString currentLanguage() { return installed().language; }

bool qtTranslationLoaded() { return installed().qt != nullptr; }

}  // namespace attnscope
