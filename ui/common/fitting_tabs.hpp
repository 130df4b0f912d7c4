#pragma once
// A tab bar whose every tab stays in sight: at 1280×720, or at a projector's zoom, the labels first
// take a smaller font (down to kSmallestTabPoints) and only then shorten with "…", instead of the
// bar scrolling tabs out of reach behind its arrows; a shortened label shows its whole text as a
// tool tip.
class QTabWidget;

namespace attnscope {

// The tabs are the teacher's to read, near the screen: whole words at a smaller size read better
// than "E…" and "C…" (the main tabs at 200 % on 1280×720), while the page keeps its zoom.
inline constexpr double kSmallestTabPoints = 7.0;

void keepEveryTabInSight(QTabWidget* tabs);

}  // namespace attnscope
