#pragma once
// The lab window's screenshots for docs/screenshots, taken through openLab and the panels' own
// controls, as a user would.
#include <QString>

class QWidget;

namespace attnscope {

class Session;

// Screenshots: `widget` as drawn now, written as PNG by the one atomic writer; a failure keeps its
// text (the file and the OS's reason) in `firstError` unless an earlier one is there.
bool saveScreenshot(QWidget* widget, const QString& path, QString& firstError);
// PNGs of the three panels, numbered from n + 1 (lab-….png); returns how many were written.
int saveLabScreenshots(QWidget* owner, const Session& session, const QString& dir, int n, QString& firstError);
// A PNG of the Positional panel on the learned table setLabModel passed in; false without one.
bool saveLearnedPositionsScreenshot(QWidget* owner, const Session& session, const QString& path,
                                    QString& firstError);


}  // namespace attnscope
