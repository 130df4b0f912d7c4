#pragma once
// What a part of the window (the File menu, the Heads tab) has to tell the user: a failure, as a
// dialog's title and text, or a file it wrote. The window shows both the same way for every part
// that derives from this (MainWindow::connectViews finds them as its children).
#include <QObject>
#include <QString>

namespace attnscope {

class ReportingPart : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

signals:
    void failed(const QString& title, const QString& text);
    void wrote(const QString& path);
};

}  // namespace attnscope
