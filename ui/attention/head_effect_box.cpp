#include "ui/attention/head_effect_box.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>
#include <cmath>

#include "ui/common/job_progress.hpp"
#include "ui/common/qt_text.hpp"

namespace attnscope {

namespace {

QString signedChange(double change) {
    return (change >= 0 ? QStringLiteral("+") : QStringLiteral("−")) + QString::number(std::abs(change), 'f', 3);
}

// Probability and logit: a token far down the list keeps p ≈ 0.000 either way, its logit still moves.
QString entryText(const HeadEffect& e, const HeadEffects& effects, const HeadEffectBox::Labeler& label) {
    return QObject::tr("%1:%2   p %3 → %4 (%5), logit %6 → %7 (%8), then “%9”")
        .arg(e.head.layer + 1)
        .arg(e.head.head + 1)
        .arg(effects.before, 0, 'f', 3)
        .arg(e.after, 0, 'f', 3)
        .arg(signedChange(e.after - effects.before))
        .arg(effects.logitBefore, 0, 'f', 3)
        .arg(e.logitAfter, 0, 'f', 3)
        .arg(signedChange(e.logitAfter - effects.logitBefore))
        .arg(qs(label(e.topAfter)));
}

}  // namespace

HeadEffectBox::HeadEffectBox(QWidget* parent) : QWidget(parent) {
    setObjectName("headEffects");
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 6, 0, 0);
    auto* title = new QLabel(tr("<b>Most important heads</b>"));
    title->setToolTip(tr("Switches each head off in turn (one run of the model per head) and ranks the heads by how "
                         "far the predicted token's probability moves."));
    layout->addWidget(title);
    buildRankRow();
    caption_ = new QLabel;
    caption_->setWordWrap(true);
    list_ = new QListWidget;
    list_->setObjectName("headEffectList");
    list_->setToolTip(tr("Double-click a head to switch it off."));
    list_->setWordWrap(true);  // the panel is narrow: an entry takes two lines rather than a scrollbar
    list_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(caption_);
    layout->addWidget(list_);
    connect(list_, &QListWidget::itemDoubleClicked, this, [this](QListWidgetItem* item) {
        const int row = list_->row(item);
        if (row >= 0 && row < static_cast<int>(entries_.size())) emit switchOffRequested(entries_[std::size_t(row)].head);
    });
    setPredictions({});
}

// The prediction to explain and Rank heads; while ranking, the shared JobProgress (bar + Cancel).
void HeadEffectBox::buildRankRow() {
    auto* row = new QHBoxLayout;
    prediction_ = new QComboBox;
    prediction_->setObjectName("headEffectPrediction");
    rank_ = new QPushButton(tr("Rank heads"));
    rank_->setObjectName("rankHeadsByEffect");
    row->addWidget(prediction_, 1);
    row->addWidget(rank_);
    static_cast<QVBoxLayout*>(layout())->addLayout(row);
    progress_ = new JobProgress(tr("head %v of %m"), "headEffectProgress", "cancelHeadEffects");
    layout()->addWidget(progress_);
    connect(rank_, &QPushButton::clicked, this, [this] { emit rankRequested(chosenPrediction()); });
    connect(progress_, &JobProgress::cancelRequested, this, &HeadEffectBox::cancelRequested);
}

void HeadEffectBox::setPredictions(const QStringList& headings) {
    prediction_->clear();
    prediction_->addItems(headings);
    prediction_->setEnabled(headings.size() > 1);
    rank_->setEnabled(!headings.isEmpty());
    entries_.clear();
    list_->clear();
    caption_->setText(headings.isEmpty() ? tr("No prediction to explain.") : QString());
    setRunning(false);
}

void HeadEffectBox::showProgress(int done, int total) {
    setRunning(true);
    progress_->setProgress(done, total);
}

void HeadEffectBox::showEffects(const HeadEffects& effects, const Labeler& label) {
    setRunning(false);
    entries_.clear();
    list_->clear();
    caption_->setText(tr("“%1” had p = %2 at position %3. Each head switched off alone:")
                          .arg(qs(label(effects.token)))
                          .arg(effects.before, 0, 'f', 3)
                          .arg(effects.position + 1));
    for (const HeadEffect& e : effects.heads) {
        entries_.push_back({e.head, e.after, entryText(e, effects, label)});
        list_->addItem(entries_.back().text);
    }
}

void HeadEffectBox::showMessage(const QString& message) {
    setRunning(false);
    entries_.clear();
    list_->clear();
    caption_->setText(message);
}

int HeadEffectBox::chosenPrediction() const { return std::max(0, prediction_->currentIndex()); }

void HeadEffectBox::setRunning(bool running) {
    rank_->setEnabled(!running && prediction_->count() > 0);
    progress_->setRunning(running);
}

}  // namespace attnscope
