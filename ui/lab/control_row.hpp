#pragma once
// A strip of settings laid left to right in a margin-less box, each control after its caption,
// onto further lines when the page is narrower (a projector's zoom): how the lab panels lay out
// their controls. Make the controls with box() as their parent, add them in reading order, and
// return done() to the panel's layout.
#include <QString>

class QLayout;
class QSpinBox;
class QWidget;

namespace attnscope {

class ControlRow {
public:
    explicit ControlRow(QWidget* parent);
    QWidget* box() const { return box_; }
    ControlRow& add(const QString& caption, QWidget* control);  // a caption, then its control
    ControlRow& add(QWidget* widget, int stretch = 0);          // a title, a check box, a slider…
    QWidget* done();                                            // returns box()

private:
    QWidget* box_;
    QLayout* row_;  // wraps onto further lines when the page is narrow (FlowLayout)
};

// The largest seed a seed box offers (a QSpinBox holds an int).
inline constexpr int kMaxSeed = 2'000'000'000;

// A spin box from `low` to `high` showing `value`.
QSpinBox* spinBox(QWidget* parent, int low, int high, int value, int step = 1);

}  // namespace attnscope
