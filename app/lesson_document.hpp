#pragma once
// The open lesson as a document: its undo history (Edit ▸ Undo/Redo), whether it differs from
// the file (the window title's [*]), and the Save / Discard / Cancel question before it goes
// away (another lesson, a model, closing the window). Every change the lesson editor makes or
// asks for goes through here as one undoable command holding the whole lesson before and after,
// so undo gives back exactly the previous lesson.
#include <QObject>
#include <QPointer>
#include <QUndoStack>
#include <functional>

#include "app/window_actions.hpp"
#include "core/lesson/lesson.hpp"
#include "core/lesson/lesson_block_edit.hpp"
#include "core/lesson/lesson_edit.hpp"

class QMainWindow;
class QMenu;

namespace attnscope {

class LessonEditor;
class LessonTraceSource;

class LessonDocument : public QObject {
    Q_OBJECT
public:
    enum class Answer { Save, Discard, Cancel };

    // Saves through `actions` (saveLessonTo, lessonPath); asks its questions over `window`.
    LessonDocument(QMainWindow& window, LessonTraceSource& lesson, WindowActions actions);

    void fillEditMenu(QMenu* edit);  // Undo, Redo, Paste table
    void addDecimalsMenu(QMenu* view);  // View ▸ Decimals: the lesson's, so saved with it
    void connectEditor(LessonEditor* editor);  // its edits and requests; again after a rebuild
    QUndoStack& undoStack() { return stack_; }
    bool isModified() const { return !stack_.isClean(); }

    void opened();  // a new lesson is open: no history, nothing modified
    void saved();   // the file now holds the lesson
    void recordEdit(const QString& cell);  // the editor changed a number in place
    bool addWord(const QString& word);
    bool renameWord(const QString& from, const QString& to);
    bool deleteWord(const QString& word);
    bool setDimensions(const LessonDimensions& dims);
    bool setDecimals(int decimals);
    bool setSettings(const LessonSettings& settings);  // texts in the interface language, flags
    bool setBlock(const LessonBlockChoice& choice);    // the parts after attention (format version 6)
    // A table from a blog or a textbook (core/lesson/lesson_paste) into the editor's selected matrix.
    bool pasteTable(const QString& text);
    // Before the lesson goes away: true to go on (saved, discarded or not modified), false to
    // stay. Discarding with `revert` puts back the saved lesson (a model opens over it, kept).
    bool maybeKeepChanges(bool revert);

signals:
    void lessonReplaced();  // undo, redo, a word or dimension change: the editor reloads
    void refused(const QString& message);
    void applied(const QString& what);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;  // the window's close

private:
    friend class LessonChange;
    void apply(const Lesson& lesson);
    bool change(Result<Lesson> next, const QString& what);
    bool saveNow();

    QMainWindow& window_;
    LessonTraceSource& lesson_;
    WindowActions actions_;
    QUndoStack stack_;
    Lesson shown_;  // the lesson as the last command left it: the "before" of the next edit
    Lesson saved_;  // as in the file (or as opened): what Discard goes back to
    QPointer<LessonEditor> editor_;  // its selected matrix receives a paste
};

}  // namespace attnscope
