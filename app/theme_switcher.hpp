#pragma once
// View ▸ Theme ▸ Light / Dark / Follow the system (issue 13 §6): applied at once to the whole
// application (Fusion with a dark QPalette for Dark), remembered in QSettings ("view/theme") like
// the zoom, and applied again at start-up. Views pick their colours through ui/common/theme_colors.
//
// "Follow the system" is the style and palette Qt had at start-up (the platform theme: GTK or KDE
// through QT_QPA_PLATFORMTHEME; plain Fusion light under Xvfb). Qt 6.4 has no colorScheme(): a
// desktop switching to dark while AttnScope runs is seen only through QEvent::ApplicationPaletteChange
// as long as the user never picked Light or Dark in this session; otherwise at the next start.
#include <QObject>
#include <QString>
#include <optional>

class QAction;
class QActionGroup;
class QMainWindow;
class QMenu;

namespace attnscope {

enum class ThemeChoice { Light, Dark, System };

class ThemeSwitcher : public QObject {
    Q_OBJECT
public:
    // The app (main.cpp) remembers the theme across sessions; tests that never call this start
    // with the system's look and write nothing.
    static void rememberTheme(bool on);
    static std::optional<ThemeChoice> parseChoice(const QString& name);  // "light", "dark", "system"
    static QString choiceName(ThemeChoice choice);
    // The remembered choice; a value that is not one of the three is System, and `problem` says why.
    static ThemeChoice savedChoice(QString* problem = nullptr);

    explicit ThemeSwitcher(QMainWindow* window);  // applies the saved choice when remembering
    void addToViewMenu(QMenu* view);             // the Theme submenu (rebuilt with the language)
    ThemeChoice choice() const { return choice_; }
    void setChoice(ThemeChoice choice);          // applied live, remembered when asked

signals:
    void themeChanged(ThemeChoice choice);

private:
    static void apply(ThemeChoice choice);
    ThemeChoice choice_ = ThemeChoice::System;
};

}  // namespace attnscope
