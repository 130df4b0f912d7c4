#pragma once
// Drag and drop onto the window: a lesson file or a model folder dropped anywhere opens it, after
// the unsaved-changes question, exactly as File ▸ Open would (a non-lesson file is refused with
// a message and the window keeps what it shows).
#include <QObject>

namespace attnscope {

class MainWindow;

class DropOpener : public QObject {
    Q_OBJECT
public:
    explicit DropOpener(MainWindow& window);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    MainWindow& window_;
};

}  // namespace attnscope
