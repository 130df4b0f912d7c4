#pragma once
// The editor panel: pick a matrix of the lesson, edit its numbers. Refused edits are shown in
// the panel's message line; accepted ones are reported through lessonEdited.
#include <QWidget>
#include <vector>

#include "ui/editor/lesson_matrix_model.hpp"

class QComboBox;
class QLabel;

namespace attnscope {

class MatrixTable;

class LessonEditor : public QWidget {
    Q_OBJECT
public:
    explicit LessonEditor(QWidget* parent = nullptr);

    void setLesson(Lesson* lesson);  // not owned
    void refresh();                  // the lesson changed outside the editor
    void showMessage(const QString& text, bool error);

    QComboBox* matrixBox() const { return matrixBox_; }
    MatrixTable* table() const { return table_; }
    LessonMatrixModel* model() const;  // the table's (it keeps no other pointer to it)
    QString message() const;
    bool selectMatrix(LessonMatrixKind kind, int head = 0, int layer = 0);

signals:
    void lessonEdited();
    void editRejected(const QString& message);

private:
    std::vector<LessonMatrixChoice> choices_;
    QComboBox* matrixBox_ = nullptr;
    MatrixTable* table_ = nullptr;
    QLabel* message_ = nullptr;
};

}  // namespace attnscope
