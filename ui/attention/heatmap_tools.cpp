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
    from_ = new QSpinBox(box);
    from_->setObjectName("rangeFrom");
    to_ = new QSpinBox(box);
    to_->setObjectName("rangeTo");
    QHBoxLayout* row = bareRow(box);
    row->addWidget(new QLabel(tr("Tokens"), box));
    row->addWidget(from_);
    row->addWidget(new QLabel(tr("to"), box));
    row->addWidget(to_);
    // Typing a number waits for Enter or leaving the box; the arrows act at once.
    from_->setKeyboardTracking(false);
    to_->setKeyboardTracking(false);
    const auto chosen = [this] {
        const int a = from_->value(), b = to_->value();
        const auto [low, high] = std::minmax(a, b);
        emit rangeChosen(low - 1, high - 1);
    };
    connect(from_, &QSpinBox::valueChanged, this, chosen);
    connect(to_, &QSpinBox::valueChanged, this, chosen);
    return box;
}

QWidget* HeatmapTools::findBox() {
    auto* box = new QWidget(this);
    find_ = new QLineEdit(box);
    find_->setObjectName("findToken");
    find_->setPlaceholderText(tr("Find token"));
    find_->setClearButtonEnabled(true);
    previous_ = new QToolButton(box);
    previous_->setObjectName("findPrevious");
    previous_->setArrowType(Qt::LeftArrow);
    previous_->setToolTip(tr("Previous match"));
    next_ = new QToolButton(box);
    next_->setObjectName("findNext");
    next_->setArrowType(Qt::RightArrow);
    next_->setToolTip(tr("Next match"));
    matches_ = new QLabel(box);
    matches_->setObjectName("findCount");
    QHBoxLayout* row = bareRow(box);
    row->addWidget(find_);
    row->addWidget(previous_);
    row->addWidget(next_);
    row->addWidget(matches_);
    connect(find_, &QLineEdit::textChanged, this, &HeatmapTools::findChanged);
    connect(find_, &QLineEdit::returnPressed, this, [this] { emit findStep(1); });
    connect(previous_, &QToolButton::clicked, this, [this] { emit findStep(-1); });
    connect(next_, &QToolButton::clicked, this, [this] { emit findStep(1); });
    showMatches(0, -1);
    return box;
}

void HeatmapTools::setTokenCount(int count) {
    for (QSpinBox* box : {from_, to_}) {
        const QSignalBlocker blocker(box);
        box->setRange(count > 0 ? 1 : 0, count);
    }
}

void HeatmapTools::showRange(int first, int last) {
    const QSignalBlocker a(from_), b(to_);
    from_->setValue(first + 1);
    to_->setValue(last + 1);
}

void HeatmapTools::showMatches(int count, int current) {
    previous_->setEnabled(count > 1);
    next_->setEnabled(count > 1);
    if (find_->text().trimmed().isEmpty()) matches_->clear();
    else if (count == 0) matches_->setText(tr("no match"));
    else if (count == 1) matches_->setText(tr("1 match"));
    else matches_->setText(tr("%1 matches (%2 of %1)").arg(count).arg(current + 1));
}

QString HeatmapTools::findText() const { return find_->text().trimmed(); }

HeatmapColours HeatmapTools::colours() const { return static_cast<HeatmapColours>(colours_->currentIndex()); }

}  // namespace attnscope
