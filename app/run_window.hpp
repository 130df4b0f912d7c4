#pragma once
#include <QStringList>

namespace attnscope {
// Opens the main window on the built-in lesson (or --lesson / --sentence) and runs the event loop.
int runWindow(const QStringList& arguments);
}  // namespace attnscope
