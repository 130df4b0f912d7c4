#pragma once
// A tab bar whose every tab stays in sight: at 1280×720, or at a projector's zoom, the labels first
// take a smaller font, then their short forms where a tab has one, down to kSmallestTabPoints, and
// only then shorten with "…", instead of the bar scrolling tabs out of reach behind its arrows; a
// shortened or short label shows its whole text as a tool tip.
#include <QString>

class QTabWidget;
class QWidget;

namespace attnscope {

// The tabs are the teacher's to read, near the screen: whole words at a smaller size read better
// than "E…" and "C…" (the main tabs at 200 % on 1280×720), while the page keeps its zoom.
inline constexpr double kSmallestTabPoints = 7.0;

// Below this share of the page's font for the whole labels, the tabs that have a shorter label
// show it instead ("Heatmap" for "Attention heatmap": eleven tabs of a model window beside its
// predictions at 1280×720 read "Worked exa…", "H…" at 7 points).
inline constexpr double kWholeLabelsDownTo = 0.75;

void keepEveryTabInSight(QTabWidget* tabs);
// `page`'s tab (added to `tabs` already, with its whole label) reads `label` when the bar is
// short of room; its whole label is then its tool tip.
void setShortTabLabel(QTabWidget* tabs, QWidget* page, const QString& label);
// Tab `tab`'s whole label, whichever form it shows.
QString wholeTabLabel(const QTabWidget& tabs, int tab);

}  // namespace attnscope
