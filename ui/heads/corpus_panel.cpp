#include "ui/heads/corpus_panel.hpp"

#include <QComboBox>
#include <QSignalBlocker>
#include <algorithm>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMouseEvent>
#include <QPushButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <cmath>
#include <qcustomplot.h>

#include "ui/common/job_progress.hpp"
#include "ui/heads/corpus_plots.hpp"

namespace attnscope {

QString timeLeftText(double seconds) {
    if (!(seconds >= 1)) return QObject::tr("less than a second left");  // also NaN
    const long long whole = static_cast<long long>(std::ceil(seconds));
    if (whole < 60) return QObject::tr("about %1 s left").arg(whole);
    if (whole < 3600) return QObject::tr("about %1 min %2 s left").arg(whole / 60).arg(whole % 60);
    return QObject::tr("about %1 h %2 min left").arg(whole / 3600).arg(whole % 3600 / 60);
}

CorpusPanel::CorpusPanel(QWidget* parent) : QWidget(parent) {
    auto* plot = new QCustomPlot(this);
    plot->setObjectName("corpusPlot");
    plot->setMinimumSize(480, 260);
    plot->setMouseTracking(true);
    plots_ = std::make_unique<CorpusPlotsBuilder>(plot);
    message_ = new QLabel(this);
    message_->setObjectName("corpusMessage");
    message_->setWordWrap(true);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(buildControls());
    layout->addWidget(message_);
    layout->addWidget(plot, 1);
    connectPlot();
    setRunning(false);
    clear(tr("Press “Corpus statistics…” and choose a text file, one sentence a line, to see what every head "
             "does over all of them."));
}

CorpusPanel::~CorpusPanel() = default;

QWidget* CorpusPanel::buildControls() {
    auto* row = new QWidget(this);
    run_.button = new QPushButton(tr("Corpus statistics…"), row);
    run_.button->setObjectName("runCorpus");
    run_.button->setToolTip(tr("Choose a text file (one sentence a line) and run every sentence through the open "
                        "lesson or model."));
    run_.progress = new JobProgress(tr("sentence %v of %m"), "corpusProgress", "cancelCorpus", row);
    run_.timeLeft = new QLabel(row);
    run_.timeLeft->setObjectName("corpusTimeLeft");
    statistic_ = new QComboBox(row);
    statistic_->setObjectName("corpusStatistic");
    fillStatistics(nullptr);
    export_ = new QPushButton(tr("Export…"), row);
    export_->setObjectName("exportCorpus");
    auto* menu = new QMenu(export_);
    const std::pair<QString, QString> formats[] = {{"png", tr("Figure as PNG…")}, {"svg", tr("Figure as SVG…")},
                                                   {"pdf", tr("Figure as PDF…")}, {"csv", tr("Statistics as CSV…")},
                                                   {"json", tr("Statistics as JSON…")}};
    for (const auto& [format, text] : formats)
        connect(menu->addAction(text), &QAction::triggered, this, [this, format] { emit exportRequested(format); });
    export_->setMenu(menu);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(run_.button);
    layout->addWidget(run_.progress);
    layout->addWidget(run_.timeLeft);
    layout->addStretch(1);
    layout->addWidget(new QLabel(tr("Panel (a):"), row));
    layout->addWidget(statistic_);
    layout->addWidget(export_);
    connect(run_.button, &QPushButton::clicked, this, &CorpusPanel::chooseFile);
    connect(run_.progress, &JobProgress::cancelRequested, this, &CorpusPanel::cancelRequested);
    connect(statistic_, &QComboBox::currentIndexChanged, this, [this] { plots_->setStatistic(shownStatistic()); });
    return row;
}

// A click on a point selects its head (panel (c) shows its offsets); hovering names it.
void CorpusPanel::connectPlot() {
    QCustomPlot* plot = plots_->plot();
    connect(plot, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        if (event->button() != Qt::LeftButton) return;
        if (const auto head = plots_->headAt(event->position())) plots_->selectHead(head);
    });
    connect(plot, &QCustomPlot::mouseMove, this, [this, plot](QMouseEvent* event) {
        const QString text = plots_->hoverText(event->position());
        if (text.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(event->globalPosition().toPoint(), text, plot);
    });
}

void CorpusPanel::chooseFile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Corpus statistics"), QString(),
                                                      tr("Text files (*.txt);;All files (*)"));
    if (!path.isEmpty()) emit runRequested(path);
}

// The statistics panel (a) offers, named for the model that ran: a decoder's first token is its
// own ("<s>"), and a causal model never attends to the next token, so that one is not offered.
void CorpusPanel::fillStatistics(const CorpusStats* stats) {
    const CorpusStatistic kept = statistic_->count() > 0 ? shownStatistic() : CorpusStatistic::First;
    const QSignalBlocker blocker(statistic_);
    statistic_->clear();
    for (int s = 0; s < kCorpusStatisticCount; ++s)
        if (!(stats && stats->causal && CorpusStatistic(s) == CorpusStatistic::Next))
            statistic_->addItem(corpusStatisticName(CorpusStatistic(s), stats), s);
    statistic_->setCurrentIndex(std::max(0, statistic_->findData(static_cast<int>(kept))));
}

CorpusStatistic CorpusPanel::shownStatistic() const { return CorpusStatistic(statistic_->currentData().toInt()); }

void CorpusPanel::showStats(std::shared_ptr<const CorpusStats> stats, const QString& title) {
    stats_ = std::move(stats);
    fillStatistics(stats_.get());
    plots_->build(*stats_, shownStatistic(), title);
    export_->setEnabled(true);
}

void CorpusPanel::clear(const QString& message) {
    stats_.reset();
    plots_->clear(tr("No corpus statistics yet"));
    export_->setEnabled(false);
    showMessage(message);
}

// The run button stays enabled: another file replaces the running one.
void CorpusPanel::setRunning(bool running) {
    run_.progress->setRunning(running);
    run_.timeLeft->clear();
    if (running) message_->clear();
}

void CorpusPanel::setProgress(int done, int total, double secondsLeft) {
    run_.progress->setProgress(done, total);
    run_.timeLeft->setText(done < total ? timeLeftText(secondsLeft) : QString());
}

void CorpusPanel::showMessage(const QString& text) { message_->setText(text); }
QString CorpusPanel::messageText() const { return message_->text(); }
QString CorpusPanel::timeLeft() const { return run_.timeLeft->text(); }
QCustomPlot* CorpusPanel::plot() const { return plots_->plot(); }

}  // namespace attnscope
