#pragma once
// An editable table over one matrix of a Lesson (embedding table, W_Q/W_K/W_V of a head, W_O,
// positional table). Only finite numbers in C-locale notation are accepted; anything else is
// refused, the old value stays and editRejected explains why.
#include <QAbstractTableModel>
#include <QString>
#include <vector>

#include "core/lesson/lesson.hpp"
#include "core/lesson/lesson_edit.hpp"

namespace attnscope {

struct LessonMatrixChoice {
    LessonMatrixKind kind = LessonMatrixKind::Embeddings;
    int head = 0;
    QString name;  // e.g. "W_Q (head 1)", "W_Q (layer 2, head 1)"
    int layer = 0;  // 0-based; for W_Q, W_K, W_V and W_O
    LessonLayerPart part = LessonLayerPart::Encoder;  // an encoder–decoder's decoder stages
    LessonMatrixRef ref() const { return {kind, layer, head, part}; }
};

// The matrices of `lesson` a teacher can edit, in menu order.
std::vector<LessonMatrixChoice> editableMatrices(const Lesson& lesson);

class LessonMatrixModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit LessonMatrixModel(QObject* parent = nullptr);

    void setLesson(Lesson* lesson);  // not owned; nullptr clears
    void setChoice(const LessonMatrixChoice& choice);
    const LessonMatrixChoice& choice() const { return choice_; }
    Lesson* lesson() const { return lesson_; }
    double valueAt(int row, int col) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

signals:
    void lessonEdited(const QString& cell);  // e.g. "W_Q[2, 1]": names the edit for Edit ▸ Undo
    void editRejected(const QString& message);

private:
    double* cell(int row, int col) const;
    Mat* matrix() const;  // the chosen matrix, null when it does not exist
    int rows() const;
    int cols() const;
    QString cellName(int row, int col) const;  // e.g. "W_Q[2,1]" or "embedding[cats, animal]"

    Lesson* lesson_ = nullptr;
    LessonMatrixChoice choice_;
};

// How an edited number is shown: shortest text that reads back to the same double.
QString editableNumber(double value);

}  // namespace attnscope
