#pragma once
// Right-click on a model-view thumbnail: "Switch head L:H off" (or back on). It edits the window's
// "Switch heads off:" box and applies it as if typed, so the box stays the one place that says
// which heads are off.
#include <functional>
#include <memory>
#include <vector>

#include "core/trace/trace.hpp"

class QLineEdit;
class QMenu;
class QPoint;
class QString;

namespace attnscope {

class ModelView;

// `heads` with `head` added, or removed when it is already there; sorted as parseHeadSpec sorts.
std::vector<HeadRef> toggledHead(std::vector<HeadRef> heads, HeadRef head);

// The menu for canvas point `at` of `view` showing `trace`; null when `at` is on no head.
// Its action writes the new list into `ablateEdit` and calls `apply`.
QMenu* headSwitchMenu(const ModelView& view, const Trace& trace, QPoint at, QLineEdit* ablateEdit,
                      std::function<void()> apply);

// Installs headSwitchMenu on `view`'s canvas; `trace` gives the trace on screen (may be null).
void addHeadSwitchMenu(ModelView* view, QLineEdit* ablateEdit, std::function<std::shared_ptr<const Trace>()> trace,
                       std::function<void()> apply);

}  // namespace attnscope
