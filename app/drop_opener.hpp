#pragma once
// Drag and drop onto the window: a lesson file or a model folder dropped anywhere opens it, after
// the unsaved-changes question, exactly as File ▸ Open would (a non-lesson file is refused with
// a message and the window keeps what it shows).
#include <QObject>

#include "app/window_actions.hpp"

class QMainWindow;

namespace attnscope {


class DropOpener : public QObject {
    Q_OBJECT
public:
    DropOpener(QMainWindow& window, WindowActions actions);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QMainWindow& window_;
    WindowActions actions_;
};

}  // namespace attnscope
