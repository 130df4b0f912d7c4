#include "ui/attention/heatmap_tools.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QToolButton>
#include <algorithm>

#include "core/analysis/head_summary.hpp"

namespace attnscope {

namespace {

QHBoxLayout* bareRow(QWidget* box) {
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    return row;
}

}  // namespace

HeatmapTools::HeatmapTools(QWidget* parent) : QWidget(parent) {
    colours_ = new QComboBox(this);
    colours_->setObjectName("heatmapColours");
    // Every choice maps onto the same colour-blind-safe viridis gradient.
    colours_->addItems({tr("Weight"), tr("Weight ÷ row maximum"), tr("Log scale (from %1)").arg(kLogColourFloor)});
    auto* reset = new QPushButton(tr("Reset zoom"), this);
    reset->setObjectName("resetZoom");
    reset->setToolTip(tr("Wheel: zoom around the cursor. Drag: zoom into a rectangle. "
                         "Shift + drag or middle button: pan. Double-click: reset."));
    QHBoxLayout* row = bareRow(this);
    row->addWidget(rangeBox());
    row->addSpacing(12);
    row->addWidget(findBox());
    row->addSpacing(12);
    row->addWidget(new QLabel(tr("Colours:"), this));
    row->addWidget(colours_);
    row->addWidget(reset);
    row->addStretch(1);
    connect(colours_, &QComboBox::currentIndexChanged, this, &HeatmapTools::coloursChanged);
    connect(reset, &QPushButton::clicked, this, &HeatmapTools::resetRequested);
}

QWidget* HeatmapTools::rangeBox() {
    auto* box = new QWidget(this);
    const auto chosen = [this] {
        const int a = range_[0]->value(), b = range_[1]->value();
        const auto [low, high] = std::minmax(a, b);  // references: to a and b, not to temporaries
        emit rangeChosen(low - 1, high - 1);
    };
    const char* names[] = {"rangeFrom", "rangeTo"};
    for (int end = 0; end < 2; ++end) {
        range_[end] = new QSpinBox(box);
        range_[end]->setObjectName(names[end]);
        // Typing a number waits for Enter or leaving the box; the arrows act at once.
        range_[end]->setKeyboardTracking(false);
        connect(range_[end], &QSpinBox::valueChanged, this, chosen);
    }
    QHBoxLayout* row = bareRow(box);
    row->addWidget(new QLabel(tr("Tokens"), box));
    row->addWidget(range_[0]);
    row->addWidget(new QLabel(tr("to"), box));
    row->addWidget(range_[1]);
    return box;
}

QWidget* HeatmapTools::findBox() {
    auto* box = new QWidget(this);
    find_.text = new QLineEdit(box);
    find_.text->setObjectName("findToken");
    find_.text->setPlaceholderText(tr("Find token"));
    find_.text->setClearButtonEnabled(true);
    find_.previous = new QToolButton(box);
    find_.previous->setObjectName("findPrevious");
    find_.previous->setArrowType(Qt::LeftArrow);
    find_.previous->setToolTip(tr("Previous match"));
    find_.next = new QToolButton(box);
    find_.next->setObjectName("findNext");
    find_.next->setArrowType(Qt::RightArrow);
    find_.next->setToolTip(tr("Next match"));
    find_.matches = new QLabel(box);
    find_.matches->setObjectName("findCount");
    QHBoxLayout* row = bareRow(box);
    row->addWidget(find_.text);
    row->addWidget(find_.previous);
    row->addWidget(find_.next);
    row->addWidget(find_.matches);
    connect(find_.text, &QLineEdit::textChanged, this, &HeatmapTools::findChanged);
    connect(find_.text, &QLineEdit::returnPressed, this, [this] { emit findStep(1); });
    connect(find_.previous, &QToolButton::clicked, this, [this] { emit findStep(-1); });
    connect(find_.next, &QToolButton::clicked, this, [this] { emit findStep(1); });
    showMatches(0, -1);
    return box;
}

void HeatmapTools::setTokenCount(int count) {
    for (QSpinBox* box : range_) {
        const QSignalBlocker blocker(box);
        box->setRange(count > 0 ? 1 : 0, count);
    }
}

void HeatmapTools::showRange(int first, int last) {
    const QSignalBlocker a(range_[0]), b(range_[1]);
    range_[0]->setValue(first + 1);
    range_[1]->setValue(last + 1);
}

void HeatmapTools::showMatches(int count, int current) {
    find_.previous->setEnabled(count > 1);
    find_.next->setEnabled(count > 1);
    if (find_.text->text().trimmed().isEmpty()) find_.matches->clear();
    else if (count == 0) find_.matches->setText(tr("no match"));
    else if (count == 1) find_.matches->setText(tr("1 match"));
    else find_.matches->setText(tr("%1 matches (%2 of %1)").arg(count).arg(current + 1));
}

QString HeatmapTools::findText() const { return find_.text->text().trimmed(); }

HeatmapColours HeatmapTools::colours() const { return static_cast<HeatmapColours>(colours_->currentIndex()); }

}  // namespace attnscope
