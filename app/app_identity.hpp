#pragma once
// Who the program is to the desktop and to its user: name, version (CMake's project version),
// the desktop entry's reverse-DNS id, the window icon, the About box (Help ▸ About AttnScope) and
// where installed data lives. The files a desktop reads (desktop entry, metainfo, icons) are in
// packaging/, named after kDesktopId.
#include <QString>

class QMenu;
class QWidget;

namespace attnscope {

// The desktop entry's id without ".desktop": Wayland's app id, what a desktop matches windows to.
inline constexpr char kDesktopId[] = "io.github.attnscope.AttnScope";

QString applicationVersion();  // "0.1.0", from project(VERSION) in CMakeLists.txt
QString versionLine();         // "AttnScope 0.1.0": what --version prints
// Name, version, desktop file name and window icon of the running QApplication (main() calls it).
void applyApplicationIdentity();
// <exe>/../share/attnscope: where an installed AttnScope finds files it reads from disk at run time
// (lessons and coreference sets are compiled in; the coreference sets are installed there too,
// for `attnscope heads --coref-set`).
QString installedDataDir();

// The About box's text (rich text): version, licence, where the numbers come from.
QString aboutText();
// Fills the Help menu: About AttnScope (a non-modal box named "aboutBox"), About Qt.
void fillHelpMenu(QMenu* help, QWidget* parent);

}  // namespace attnscope
