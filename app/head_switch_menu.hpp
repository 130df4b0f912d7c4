#pragma once
// Right-click on a head wherever the window draws one (a model-view thumbnail, a heatmap of one
// head, a cell of the Heads ranking, a row of the head statistics): "Switch head L:H off" (or
// back on). It edits the window's "Switch heads off:" box and applies it as if typed, so the box
// stays the one place that says which heads are off.
#include <QPoint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "core/trace/trace.hpp"

class QLineEdit;
class QMenu;
class QWidget;

namespace attnscope {

// `heads` with `head` added, or removed when it is already there; sorted as parseHeadSpec sorts.
std::vector<HeadRef> toggledHead(std::vector<HeadRef> heads, HeadRef head);

// The menu for `head` of `trace` (off or back on). Its action writes the new list into
// `ablateEdit` and calls `apply`.
QMenu* headSwitchMenu(HeadRef head, const Trace& trace, QLineEdit* ablateEdit, std::function<void()> apply);

// What the window hands every view that shows heads.
struct HeadSwitching {
    QLineEdit* ablateEdit = nullptr;
    std::function<std::shared_ptr<const Trace>()> trace;  // the trace on screen (may be null)
    std::function<void()> apply;
};

// Switches `head` off (when it is on) by adding it to the box and applying it.
void switchHeadOff(HeadRef head, const Trace& trace, const HeadSwitching& switching);

// Installs headSwitchMenu on `widget`: `headAt` names the head under a point of `widget`
// (nullopt: none there, e.g. an average of heads).
void addHeadSwitchMenu(QWidget* widget, std::function<std::optional<HeadRef>(QPoint)> headAt,
                       const HeadSwitching& switching);

}  // namespace attnscope
