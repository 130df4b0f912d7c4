#pragma once
// Under the editor's table: the parts of the block after attention (lesson format version 6):
// the residual connection, the norm and final norm (none, LayerNorm, RMSNorm), the feed-forward
// network (none, ReLU, GELU, SwiGLU, with its width d_ff) and the output head (none, tied to the
// embedding table, own weights). It only asks; the lesson document makes the change
// (core/lesson/lesson_block_edit), and the new weights appear in the editor's matrix list.
#include <QWidget>

#include "core/lesson/lesson_block_edit.hpp"

class QCheckBox;
class QComboBox;
class QSpinBox;

namespace attnscope {

class LessonBlockBar : public QWidget {
    Q_OBJECT
public:
    explicit LessonBlockBar(QWidget* parent = nullptr);
    void showChoice(const LessonBlockChoice& choice);
    LessonBlockChoice choice() const;

signals:
    void blockRequested(const LessonBlockChoice& choice);

private:
    QCheckBox* residual_ = nullptr;
    QComboBox *norm_ = nullptr, *ffn_ = nullptr, *finalNorm_ = nullptr, *head_ = nullptr;
    QSpinBox* dFf_ = nullptr;
};

}  // namespace attnscope
