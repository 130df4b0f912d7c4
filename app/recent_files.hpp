#pragma once
// File ▸ Open recent: the last lesson files and model folders opened or saved, newest first, in
// QSettings (shared by every window), and what opening one of them, or dropping it on the window,
// means: a folder is a model, anything else a lesson file.
#include <QStringList>

#include "app/window_actions.hpp"

class QMenu;

namespace attnscope {


inline constexpr int kMaxRecentFiles = 8;

QStringList recentFiles();                  // newest first, at most kMaxRecentFiles
void addRecentFile(const QString& path);    // made absolute; moves to the top if already there
void clearRecentFiles();

// Fills `menu` now: one entry per recent file (a missing one disabled, marked missing), then
// "Clear list". Called on every opening of the menu so the list is current.
void fillRecentMenu(QMenu* menu, const WindowActions& actions);

// A model folder opens as a model, anything else as a lesson file (which refuses a non-lesson).
void openLessonOrModel(const WindowActions& actions, const QString& path);

}  // namespace attnscope
