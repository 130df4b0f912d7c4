#pragma once
// The editor panel: pick a matrix of the lesson, edit its numbers. Refused edits are shown in
// the panel's message line; accepted ones are reported through lessonEdited. Word and dimension
// changes are only asked for (the *Requested signals); the window's lesson document makes them.
#include <QWidget>
#include <vector>

#include "core/lesson/lesson_block_edit.hpp"
#include "core/lesson/lesson_edit.hpp"
#include "ui/editor/lesson_matrix_model.hpp"

class QComboBox;
class QLabel;
class QScrollArea;

namespace attnscope {

class LessonBlockBar;
class LessonSettingsBar;
class LessonStructureBar;
class MatrixTable;

class LessonEditor : public QWidget {
    Q_OBJECT
public:
    explicit LessonEditor(QWidget* parent = nullptr);

    void setLesson(Lesson* lesson);  // not owned
    void refresh();                  // the lesson's numbers changed outside the editor
    void reload();                   // its shape changed (undo, words, dimensions): same matrix if it is still there
    void showMessage(const QString& text, bool error);

    QComboBox* matrixBox() const { return matrixBox_; }
    MatrixTable* table() const { return table_; }
    LessonMatrixModel* model() const;  // the table's (it keeps no other pointer to it)
    QString message() const;
    bool selectMatrix(LessonMatrixKind kind, int head = 0, int layer = 0, LessonLayerPart part = LessonLayerPart::Encoder);
    LessonSettingsBar* settingsBar() const { return settings_; }
    LessonBlockBar* blockBar() const { return block_; }

signals:
    void lessonEdited(const QString& cell);  // a number was changed in place
    void wordAddRequested(const QString& word);
    void wordRenameRequested(const QString& from, const QString& to);
    void wordDeleteRequested(const QString& word);
    void dimensionsRequested(const LessonDimensions& dims);
    void settingsRequested(const LessonSettings& settings);  // in the interface language
    void blockRequested(const LessonBlockChoice& choice);     // the parts after attention
    void editRejected(const QString& message);

private:
    QString selectedWord();  // the embedding table's current row, else empty (with a message)
    void connectStructureBar();
    QScrollArea* buildForm();
    void sizeTable();

    QComboBox* matrixBox_ = nullptr;
    std::vector<LessonMatrixChoice> choices_;  // what each of matrixBox_'s entries shows
    MatrixTable* table_ = nullptr;
    QLabel* message_ = nullptr;
    LessonStructureBar* structure_ = nullptr;
    LessonSettingsBar* settings_ = nullptr;
    LessonBlockBar* block_ = nullptr;
};

}  // namespace attnscope
