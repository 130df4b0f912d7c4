#pragma once
// A progress bar and its Cancel button, shown only while a job runs: busy until the job first
// reports, then "done of total" as `format` says ("layer %v of %m"). The window's model runs
// (in its status bar) and the Heads panel's evaluations each show theirs in one of these.
#include <QWidget>

class QProgressBar;

namespace attnscope {

class JobProgress : public QWidget {
    Q_OBJECT
public:
    // The bar and the button are named `barName` and `cancelName` (tests find them so).
    JobProgress(const QString& format, const QString& barName, const QString& cancelName, QWidget* parent = nullptr);

    void setRunning(bool running);  // shown and busy, or hidden
    void setProgress(int done, int total);

signals:
    void cancelRequested();

private:
    QProgressBar* bar_ = nullptr;
};

}  // namespace attnscope
