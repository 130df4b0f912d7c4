#include "ui/common/job_progress.hpp"

#include <QHBoxLayout>
#include <QProgressBar>
#include <QPushButton>

namespace attnscope {

JobProgress::JobProgress(const QString& format, const QString& barName, const QString& cancelName, QWidget* parent)
    : QWidget(parent) {
    bar_ = new QProgressBar(this);
    bar_->setObjectName(barName);
    bar_->setFormat(format);
    bar_->setMaximumWidth(260);
    auto* cancel = new QPushButton(tr("Cancel"), this);
    cancel->setObjectName(cancelName);
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(bar_);
    row->addWidget(cancel);
    connect(cancel, &QPushButton::clicked, this, &JobProgress::cancelRequested);
}

void JobProgress::setRunning(bool running) {
    setVisible(running);
    if (running) bar_->setRange(0, 0);  // busy until the first report
}

void JobProgress::setProgress(int done, int total) {
    bar_->setRange(0, total);
    bar_->setValue(done);
}

}  // namespace attnscope
