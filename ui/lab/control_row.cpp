#include "ui/lab/control_row.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QWidget>

namespace attnscope {

ControlRow::ControlRow(QWidget* parent) : box_(new QWidget(parent)), row_(new QHBoxLayout(box_)) {
    row_->setContentsMargins(0, 0, 0, 0);
}

ControlRow& ControlRow::add(const QString& caption, QWidget* control) {
    row_->addWidget(new QLabel(caption, box_));
    row_->addWidget(control);
    return *this;
}

ControlRow& ControlRow::add(QWidget* widget, int stretch) {
    row_->addWidget(widget, stretch);
    return *this;
}

QWidget* ControlRow::done() {
    row_->addStretch(1);
    return box_;
}

QSpinBox* spinBox(QWidget* parent, int low, int high, int value, int step) {
    auto* box = new QSpinBox(parent);
    box->setRange(low, high);
    box->setSingleStep(step);
    box->setValue(value);
    return box;
}

}  // namespace attnscope
