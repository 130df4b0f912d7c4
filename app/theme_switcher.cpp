#include "app/theme_switcher.hpp"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QMainWindow>
#include <QMenu>
#include <QStyle>
#include <QStyleFactory>
#include <cstdio>

#include "ui/common/theme_colors.hpp"
#include "app/user_settings.hpp"

namespace attnscope {

namespace {

const QString kThemeKey = QStringLiteral("view/theme");
bool remembersTheme = false;
bool themeWasSet = false;  // until Light or Dark is chosen, Qt keeps following the platform's palette

// The look Qt had before AttnScope changed it: what "Follow the system" goes back to.
struct SystemLook {
    QString styleName;
    QPalette palette;
};
const SystemLook& systemLook() {
    static const SystemLook look{QApplication::style()->name(), QGuiApplication::palette()};
    return look;
}

// At most 40 characters of a saved value, its control characters escaped: a NUL would end the
// message on stderr, a newline would split it.
QString shownValue(const QString& value) {
    QString shown;
    for (const QChar c : value.left(40))
        shown += c.isPrint() ? QString(c) : QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
    return value.size() > 40 ? shown + QStringLiteral("…") : shown;
}

void useStyle(const QString& name) {
    if (QApplication::style()->name().compare(name, Qt::CaseInsensitive) == 0) return;  // a restyle is costly
    if (QStyle* style = QStyleFactory::create(name)) QApplication::setStyle(style);
}

}  // namespace

void ThemeSwitcher::rememberTheme(bool on) { remembersTheme = on; }

std::optional<ThemeChoice> ThemeSwitcher::parseChoice(const QString& name) {
    for (ThemeChoice c : {ThemeChoice::Light, ThemeChoice::Dark, ThemeChoice::System})
        if (name == choiceName(c)) return c;
    return std::nullopt;
}

QString ThemeSwitcher::choiceName(ThemeChoice choice) {
    switch (choice) {
        case ThemeChoice::Light: return QStringLiteral("light");
        case ThemeChoice::Dark: return QStringLiteral("dark");
        case ThemeChoice::System: break;
    }
    return QStringLiteral("system");
}

ThemeChoice ThemeSwitcher::savedChoice(QString* problem) {
    const QVariant saved = UserSettings().value(kThemeKey);
    if (!saved.isValid()) return ThemeChoice::System;
    if (const auto choice = parseChoice(saved.toString())) return *choice;
    if (problem)
        *problem = tr("%1: the saved theme \"%2\" is not light, dark or system; following the system")
                       .arg(userSettingsPath(), shownValue(saved.toString()));
    return ThemeChoice::System;
}

ThemeSwitcher::ThemeSwitcher(QMainWindow* window) : QObject(window) {
    setObjectName(QStringLiteral("themeSwitcher"));
    systemLook();  // captured before anything changes it
    if (!remembersTheme) return;
    QString problem;
    choice_ = savedChoice(&problem);
    if (!problem.isEmpty()) std::fprintf(stderr, "%s\n", qPrintable(problem));
    if (choice_ != ThemeChoice::System) apply(choice_);
}

void ThemeSwitcher::apply(ThemeChoice choice) {
    if (choice == ThemeChoice::System && !themeWasSet) return;  // nothing changed: Qt still follows the platform
    themeWasSet = true;
    const SystemLook& system = systemLook();
    useStyle(choice == ThemeChoice::System ? system.styleName : QStringLiteral("Fusion"));
    QApplication::setPalette(choice == ThemeChoice::Dark    ? theme::darkPalette()
                             : choice == ThemeChoice::Light ? theme::lightPalette()
                                                            : system.palette);
    theme::notifyChanged();  // plots and themed style sheets, even where no palette event reaches
}

void ThemeSwitcher::setChoice(ThemeChoice choice) {
    if (remembersTheme) UserSettings().setValue(kThemeKey, choiceName(choice));
    if (choice == choice_) return;
    choice_ = choice;
    apply(choice);
    emit themeChanged(choice);
}

void ThemeSwitcher::addToViewMenu(QMenu* view) {
    QMenu* menu = view->addMenu(tr("&Theme"));
    menu->setObjectName(QStringLiteral("themeMenu"));
    auto* group = new QActionGroup(menu);
    const std::pair<ThemeChoice, QString> entries[] = {{ThemeChoice::Light, tr("&Light")},
                                                       {ThemeChoice::Dark, tr("&Dark")},
                                                       {ThemeChoice::System, tr("Follow the &system")}};
    for (const auto& [choice, text] : entries) {
        QAction* action = menu->addAction(text, this, [this, c = choice] { setChoice(c); });
        action->setObjectName(QStringLiteral("theme-") + choiceName(choice));
        action->setCheckable(true);
        action->setChecked(choice == choice_);
        group->addAction(action);
    }
    view->addSeparator();
}

}  // namespace attnscope
