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
// Two sections below their pages' fold, each scrolled into view: Positional encoding's RoPE
// (lab-rope) and Multi-head's grouped-query attention on a random X of width 8 with H = 4
// (lab-grouped-query), numbered from n + 1; returns how many were written.
int saveLabSectionScreenshots(QWidget* owner, const Session& session, const QString& dir, int n, QString& firstError);
// A PNG of the Positional panel on the learned table setLabModel passed in; false without one.
bool saveLearnedPositionsScreenshot(QWidget* owner, const Session& session, const QString& path,
                                    QString& firstError);


}  // namespace attnscope
