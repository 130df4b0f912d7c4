#include "app/recent_files.hpp"

#include <QDir>
#include <QFileInfo>
#include <QMenu>

#include "app/user_settings.hpp"

namespace attnscope {

namespace {

const QString kKey = QStringLiteral("recentFiles");

}  // namespace

QStringList recentFiles() { return UserSettings().value(kKey).toStringList().mid(0, kMaxRecentFiles); }

void addRecentFile(const QString& path) {
    const QString absolute = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    QStringList list = recentFiles();
    list.removeAll(absolute);
    list.prepend(absolute);
    UserSettings().setValue(kKey, list.mid(0, kMaxRecentFiles));
}

void clearRecentFiles() { UserSettings().remove(kKey); }

void fillRecentMenu(QMenu* menu, const WindowActions& actions) {
    menu->clear();
    const QStringList files = recentFiles();
    for (const QString& path : files) {
        const QFileInfo info(path);
        const QString shown = QString(path).replace('&', "&&");  // a menu reads "&x" as a shortcut key
        const QString label = info.isDir() ? QObject::tr("%1 (model)").arg(shown) : shown;
        QAction* action = menu->addAction(info.exists() ? label : QObject::tr("%1 (missing)").arg(shown),
                                          menu, [actions, path] { openLessonOrModel(actions, path); });
        action->setEnabled(info.exists());
        action->setData(path);
    }
    if (files.isEmpty()) menu->addAction(QObject::tr("No recent files"))->setEnabled(false);
    menu->addSeparator();
    QAction* clear = menu->addAction(QObject::tr("Clear list"), menu, [] { clearRecentFiles(); });
    clear->setObjectName("clearRecent");
    clear->setEnabled(!files.isEmpty());
}

void openLessonOrModel(const WindowActions& actions, const QString& path) {
    if (QFileInfo(path).isDir()) actions.openModel(path);
    else actions.openLessonFile(path);
}

}  // namespace attnscope
