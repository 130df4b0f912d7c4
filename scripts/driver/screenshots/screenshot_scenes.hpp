#pragma once
// The scenes the screenshot tour (screenshot_tour.cpp) stages in the window before it grabs it:
// each drives the window's own widgets, found by object name, and waits for what it started.
#include <QString>

class QMainWindow;
class QMenu;
class QWidget;

namespace attnscope {

class MainWindow;
class Session;

// The Compare tab on the open lesson: "…too tired" against "…too wide", head 2. False when B did not run.
bool showTiredAgainstWide(MainWindow& w);
// After showTiredAgainstWide: the Coreference tab (rollout) with A's arcs above B's.
bool showBothArcSets(MainWindow& w);
// Writes the window with `menu` drawn open under its menu-bar entry to `path` (PNG).
bool grabWithMenuOpen(QMainWindow& window, QMenu* menu, const QString& path, QString& firstError);
// Heads `spec` switched off in the window, then "Most important heads" ranked. False on failure.
bool switchOffAndRank(MainWindow& w, const QString& spec);
// The head view at 512 tokens, 12 heads, in `window`'s font: head-view-512.png (scrolled to the
// middle) and head-view-512-focus.png (a focus token) in `dir`. Returns how many were written;
// nothing when `firstError` already holds a failed write.
int saveLongHeadViewScreenshots(QWidget& window, const QString& dir, QString& firstError);
// The window in the dark theme on the open model (issue 13 §6): model view, head view, the
// worked example, Queries & keys, the Heads tab and its corpus page (when the tour ran it), the
// Coreference tab, a 128-token heatmap and a lab plot, as dark-*.png in
// `dir`; the theme chosen before is put back. Returns the number of files written.
int saveDarkScreenshots(MainWindow& w, const Session& session, const QString& dir, QString& firstError);

}  // namespace attnscope
