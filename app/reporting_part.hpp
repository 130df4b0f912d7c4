#pragma once
// What a part of the window (the File menu, the Heads tab) has to tell the user: a failure, as a
// dialog's title and text, or a file it wrote. The window shows both the same way for every part
// that derives from this (MainWindow::connectViews finds them as its children).
#include <QByteArray>
#include <QObject>
#include <QString>

namespace attnscope {

class ReportingPart : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    // Writes `bytes` to `path` atomically and reports it: wrote(path), or failed(…) when `bytes` is
    // empty (an unknown `format`) or the write fails. True when written.
    bool writeReported(const QString& path, const QByteArray& bytes, const QString& format);
    // The save dialog's filter for `format` ("CSV (*.csv)", "PNG files (*.png)", …).
    static QString exportFilter(const QString& format);

signals:
    void failed(const QString& title, const QString& text);
    void wrote(const QString& path);
};

}  // namespace attnscope
