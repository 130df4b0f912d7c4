#include "ui/step/step_navigator.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace attnscope {

StepNavigator::StepNavigator(QWidget* parent) : QWidget(parent) {
    list_ = new QListWidget(this);
    list_->setObjectName("steps");
    list_->setWordWrap(true);
    previous_ = new QPushButton(tr("◀ Previous"), this);
    next_ = new QPushButton(tr("Next ▶"), this);
    previous_->setToolTip(tr("Previous step (Left arrow)"));
    next_->setToolTip(tr("Next step (Right arrow)"));
    head_ = new QComboBox(this);
    head_->setObjectName("head");

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(previous_);
    buttons->addWidget(next_);
    auto* heads = new QHBoxLayout;
    heads->addWidget(new QLabel(tr("Head:"), this));
    heads->addWidget(head_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("<b>Steps</b>"), this));
    layout->addWidget(list_, 1);
    layout->addLayout(buttons);
    layout->addLayout(heads);

    connect(list_, &QListWidget::currentRowChanged, this, [this](int row) {
        updateButtons();
        if (row >= 0) emit stepChanged(row);
    });
    connect(previous_, &QPushButton::clicked, this, &StepNavigator::previous);
    connect(next_, &QPushButton::clicked, this, &StepNavigator::next);
    connect(head_, &QComboBox::currentIndexChanged, this, [this](int head) {
        if (head >= 0) emit headChanged(head);
    });
}

void StepNavigator::setSteps(const std::vector<Step>& steps, const std::vector<std::string>& titles) {
    const bool had = currentIndex() >= 0;
    const Step before = had ? currentStep() : Step::Embedding;
    {
        const QSignalBlocker blocker(list_);
        steps_ = steps;
        list_->clear();
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const std::string title = i < titles.size() ? titles[i] : std::string(stepTitle(steps[i]));
            list_->addItem(QStringLiteral("%1. %2").arg(i + 1).arg(QString::fromStdString(title)));
        }
    }
    int index = 0;
    for (std::size_t i = 0; i < steps.size(); ++i)
        if (had && steps[i] == before) index = static_cast<int>(i);
    list_->setCurrentRow(index);
    updateButtons();
}

void StepNavigator::setHeadCount(int heads) {
    const QSignalBlocker blocker(head_);
    const int current = std::max(0, head_->currentIndex());
    head_->clear();
    for (int h = 0; h < heads; ++h) head_->addItem(tr("head %1").arg(h + 1));
    head_->setCurrentIndex(std::min(current, heads - 1));
}

void StepNavigator::setHeadEnabled(bool enabled) { head_->setEnabled(enabled && head_->count() > 1); }

int StepNavigator::currentIndex() const { return list_->currentRow(); }

Step StepNavigator::currentStep() const {
    const int i = currentIndex();
    return (i >= 0 && i < static_cast<int>(steps_.size())) ? steps_[i] : Step::Embedding;
}

int StepNavigator::currentHead() const { return std::max(0, head_->currentIndex()); }

void StepNavigator::setCurrentIndex(int index) {
    if (index >= 0 && index < list_->count()) list_->setCurrentRow(index);
}

void StepNavigator::setCurrentHead(int head) {
    if (head >= 0 && head < head_->count()) head_->setCurrentIndex(head);
}

void StepNavigator::next() { setCurrentIndex(currentIndex() + 1); }
void StepNavigator::previous() { setCurrentIndex(currentIndex() - 1); }

void StepNavigator::updateButtons() {
    previous_->setEnabled(currentIndex() > 0);
    next_->setEnabled(currentIndex() + 1 < list_->count());
}

}  // namespace attnscope
