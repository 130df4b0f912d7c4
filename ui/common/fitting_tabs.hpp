#pragma once
// A tab bar whose every tab stays in sight: at 1280×720, or at a projector's zoom, the labels
// shorten with "…" instead of the bar scrolling tabs out of reach behind its arrows; a shortened
// label shows its whole text as a tool tip.
class QTabWidget;

namespace attnscope {

void keepEveryTabInSight(QTabWidget* tabs);

}  // namespace attnscope
