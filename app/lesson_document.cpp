#include "app/lesson_document.hpp"

#include <QActionGroup>
#include <QClipboard>
#include <QCloseEvent>
#include <QGuiApplication>
#include <QFileDialog>
#include <QKeySequence>
#include <QMenu>
#include <QMessageBox>
#include <utility>

#include <QMainWindow>
#include "app/source/lesson_trace_source.hpp"
#include "core/lesson/lesson_paste.hpp"
#include "core/text/error_messages.hpp"
#include "ui/common/core_error_text.hpp"
#include "ui/common/core_language.hpp"
#include "ui/editor/lesson_editor.hpp"
#include "ui/common/qt_text.hpp"

namespace attnscope {

namespace {

constexpr int kMostDecimalsInMenu = 8;  // a lesson file allows 12; more than 8 no class reads
constexpr int kUndoLimit = 200;  // whole lessons: small ones, but a 4096-wide one is 100+ MB per step

LessonDocument::Answer askToSave(QWidget* parent, const QString& lessonName) {
    const auto button = QMessageBox::question(
        parent, LessonDocument::tr("Unsaved changes"),
        LessonDocument::tr("The lesson “%1” has changes that are not saved. Save them first?").arg(lessonName),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (button == QMessageBox::Save) return LessonDocument::Answer::Save;
    return button == QMessageBox::Discard ? LessonDocument::Answer::Discard : LessonDocument::Answer::Cancel;
}

// Where to save a lesson that has no file yet; empty: cancelled.
QString askSavePath(QWidget* parent) {
    return QFileDialog::getSaveFileName(parent, LessonDocument::tr("Save lesson as"), QString(),
                                        LessonDocument::tr("AttnScope lessons (*.json)"));
}

std::string utf8(const QString& text) { return text.toUtf8().toStdString(); }

}  // namespace

// One change of the lesson: the whole lesson before and after (lessons are small), so undo is exact.
class LessonChange : public QUndoCommand {
public:
    LessonChange(LessonDocument& document, Lesson before, Lesson after, const QString& text)
        : QUndoCommand(text), document_(document), before_(std::move(before)), after_(std::move(after)) {}
    void undo() override { document_.apply(before_); }
    void redo() override {
        if (std::exchange(alreadyApplied_, false)) return;  // pushed after the change was made
        document_.apply(after_);
    }

private:
    LessonDocument& document_;
    Lesson before_, after_;
    bool alreadyApplied_ = true;
};

LessonDocument::LessonDocument(QMainWindow& window, LessonTraceSource& lesson, WindowActions actions)
    : QObject(&window), window_(window), lesson_(lesson), actions_(std::move(actions)) {
    setObjectName("lessonDocument");
    stack_.setUndoLimit(kUndoLimit);
    connect(&stack_, &QUndoStack::cleanChanged, &window_, [this](bool clean) { window_.setWindowModified(!clean); });
    window_.installEventFilter(this);
}

void LessonDocument::fillEditMenu(QMenu* edit) {
    edit->setObjectName("editMenu");
    QAction* undo = stack_.createUndoAction(edit, tr("Undo"));
    undo->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Z));
    undo->setObjectName("undoAction");
    QAction* redo = stack_.createRedoAction(edit, tr("Redo"));
    redo->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    redo->setObjectName("redoAction");
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    QAction* paste = edit->addAction(tr("&Paste table"), this, [this] { pasteTable(QGuiApplication::clipboard()->text()); });
    paste->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V));
    paste->setObjectName("pasteTableAction");
    paste->setStatusTip(tr("Rows copied from a blog or a textbook (笔=[1,2,1,2,1], a Markdown or tab-separated table, "
                           "W_Q = and its rows) into the lesson"));
}

void LessonDocument::addDecimalsMenu(QMenu* view) {
    QMenu* menu = view->addMenu(tr("&Decimals"));
    menu->setObjectName("decimalsMenu");
    auto* group = new QActionGroup(menu);
    for (int d = 0; d <= kMostDecimalsInMenu; ++d) {
        QAction* choice = menu->addAction(QString::number(d), this, [this, d] { setDecimals(d); });
        choice->setObjectName(QStringLiteral("decimals%1").arg(d));
        choice->setCheckable(true);
        group->addAction(choice);
    }
    connect(menu, &QMenu::aboutToShow, this, [this, menu] {
        const bool lesson = actions_.showsLesson();
        for (QAction* choice : menu->actions()) {
            choice->setEnabled(lesson);
            choice->setChecked(lesson && choice->text().toInt() == lesson_.session().lesson().decimals);
        }
    });
}

void LessonDocument::connectEditor(LessonEditor* editor) {
    editor_ = editor;
    connect(editor, &LessonEditor::lessonEdited, this, &LessonDocument::recordEdit);
    connect(editor, &LessonEditor::wordAddRequested, this, &LessonDocument::addWord);
    connect(editor, &LessonEditor::wordRenameRequested, this, &LessonDocument::renameWord);
    connect(editor, &LessonEditor::wordDeleteRequested, this, &LessonDocument::deleteWord);
    connect(editor, &LessonEditor::dimensionsRequested, this, &LessonDocument::setDimensions);
    connect(editor, &LessonEditor::settingsRequested, this, &LessonDocument::setSettings);
    connect(editor, &LessonEditor::blockRequested, this, &LessonDocument::setBlock);
    connect(this, &LessonDocument::lessonReplaced, editor, &LessonEditor::reload);
    connect(this, &LessonDocument::refused, editor, [editor](const QString& text) { editor->showMessage(text, true); });
    connect(this, &LessonDocument::applied, editor, [editor](const QString& text) { editor->showMessage(text, false); });
}

void LessonDocument::opened() {
    stack_.clear();
    shown_ = saved_ = lesson_.session().lesson();
    stack_.setClean();
    window_.setWindowModified(false);
}

void LessonDocument::saved() {
    saved_ = lesson_.session().lesson();
    stack_.setClean();
}

void LessonDocument::recordEdit(const QString& cell) {
    const Lesson& now = lesson_.session().lesson();
    stack_.push(new LessonChange(*this, shown_, now, tr("Edit %1").arg(cell)));
    shown_ = now;
}

bool LessonDocument::addWord(const QString& word) {
    return change(addLessonWord(lesson_.session().lesson(), utf8(word)), tr("Add word “%1”").arg(word));
}

bool LessonDocument::renameWord(const QString& from, const QString& to) {
    return change(renameLessonWord(lesson_.session().lesson(), utf8(from), utf8(to)),
                  tr("Rename “%1” to “%2”").arg(from, to));
}

bool LessonDocument::deleteWord(const QString& word) {
    return change(deleteLessonWord(lesson_.session().lesson(), utf8(word)), tr("Delete word “%1”").arg(word));
}

bool LessonDocument::setDimensions(const LessonDimensions& dims) {
    const bool shared = dims.numKvHeads > 0 && dims.numKvHeads < dims.numHeads;
    const QString name = shared ? tr("Change dimensions to d_model %1, %2 heads sharing %5 key/value heads, d_k %3, d_v %4")
                                      .arg(dims.dModel).arg(dims.numHeads).arg(dims.dK).arg(dims.dV).arg(dims.numKvHeads)
                                : tr("Change dimensions to d_model %1, %2 heads, d_k %3, d_v %4")
                                      .arg(dims.dModel).arg(dims.numHeads).arg(dims.dK).arg(dims.dV);
    return change(resizeLesson(lesson_.session().lesson(), dims), name);
}

bool LessonDocument::setDecimals(int decimals) {
    if (!actions_.showsLesson()) return false;
    Lesson next = lesson_.session().lesson();
    if (next.decimals == decimals) return true;
    next.decimals = decimals;
    return change(std::move(next), tr("Show %1 decimals").arg(decimals));
}

bool LessonDocument::setSettings(const LessonSettings& settings) {
    return change(applyLessonSettings(lesson_.session().lesson(), settings, lessonLanguageCode(coreLanguage())),
                  tr("Change the lesson's title, description, feature names and flags"));
}

bool LessonDocument::setBlock(const LessonBlockChoice& choice) {
    return change(applyLessonBlockChoice(lesson_.session().lesson(), choice), tr("Change the parts after attention"));
}

bool LessonDocument::pasteTable(const QString& text) {
    if (!actions_.showsLesson()) return false;
    const ErrorText source = errorText(ErrorId::WhereText);
    const LessonMatrixRef selected = editor_ ? editor_->model()->choice().ref() : LessonMatrixRef{};
    auto blocks = parsePastedTable(utf8(text), source);
    return change(blocks ? pasteIntoLesson(lesson_.session().lesson(), blocks.value(), selected, source)
                         : Result<Lesson>(blocks.error()),
                  tr("Paste table"));
}

// A changed lesson that does not run (e.g. a head switched off that no longer exists) is
// refused like an invalid one: the lesson and its trace stay as they were.
bool LessonDocument::change(Result<Lesson> next, const QString& what) {
    if (!next) {
        emit refused(tr("%1: refused, nothing changed (%2)").arg(what, coreErrorText(next.error())));
        return false;
    }
    Session& session = lesson_.session();
    Lesson before = session.lesson();
    session.lesson() = next.value();
    if (auto error = session.rerun(); !error.ok()) {
        session.lesson() = std::move(before);
        emit refused(tr("%1: refused, nothing changed (%2)").arg(what, coreErrorText(error.error())));
        return false;
    }
    stack_.push(new LessonChange(*this, std::move(before), next.value(), what));
    shown_ = std::move(next).value();
    emit lessonReplaced();
    lesson_.rerun();  // every view shows the changed lesson
    emit applied(what);
    return true;
}

void LessonDocument::apply(const Lesson& lesson) {
    lesson_.session().lesson() = lesson;
    shown_ = lesson;
    emit lessonReplaced();  // the editor takes the new shape before the new trace reaches it
    lesson_.rerun();
}

bool LessonDocument::maybeKeepChanges(bool revert) {
    if (!isModified()) return true;
    switch (askToSave(&window_, qs(lesson_.session().lesson().title))) {
    case Answer::Cancel: return false;
    case Answer::Save: return saveNow();
    case Answer::Discard: break;
    }
    if (revert) apply(saved_);
    stack_.clear();  // the history led to the discarded lesson
    stack_.setClean();
    return true;
}

bool LessonDocument::saveNow() {
    QString path = actions_.lessonPath();
    if (path.isEmpty() || path.startsWith(":/")) path = askSavePath(&window_);
    return !path.isEmpty() && actions_.saveLessonTo(path);
}

bool LessonDocument::eventFilter(QObject* watched, QEvent* event) {
    if (watched == &window_ && event->type() == QEvent::Close && !maybeKeepChanges(false)) {
        event->ignore();
        return true;
    }
    return QObject::eventFilter(watched, event);
}

}  // namespace attnscope
