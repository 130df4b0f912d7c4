#include "ui/lab/control_row.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QWidget>

#include "ui/common/flow_layout.hpp"

namespace attnscope {

// The row wraps onto further lines when the page is narrower than its controls (a projector's
// zoom), a caption staying with its control.
ControlRow::ControlRow(QWidget* parent) : box_(new QWidget(parent)), row_(new FlowLayout(box_)) {}

ControlRow& ControlRow::add(const QString& caption, QWidget* control) {
    auto* pair = new QWidget(box_);
    auto* layout = new QHBoxLayout(pair);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(caption, pair));
    control->setParent(pair);
    layout->addWidget(control);
    row_->addWidget(pair);
    return *this;
}

ControlRow& ControlRow::add(QWidget* widget, int /*stretch: a line of its own takes what it needs*/) {
    row_->addWidget(widget);
    return *this;
}

QWidget* ControlRow::done() { return box_; }

QSpinBox* spinBox(QWidget* parent, int low, int high, int value, int step) {
    auto* box = new QSpinBox(parent);
    box->setRange(low, high);
    box->setSingleStep(step);
    box->setValue(value);
    return box;
}

}  // namespace attnscope
