// The lesson editor as a real editor (issue 13 §5): undo/redo that gives back the exact lesson,
// the modified mark and the Save / Discard / Cancel question, the typed sentence saved, words
// and dimensions changed through core, File ▸ Open recent, and drag and drop.
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUrl>
#include <memory>

#include "app/lesson_document.hpp"
#include "app/lesson_source.hpp"
#include "app/main_window.hpp"
#include "app/recent_files.hpp"
#include "core/lesson/lesson.hpp"
#include "ui/editor/lesson_editor.hpp"
#include "ui/step/matrix_table.hpp"
#include "window_access.hpp"

using namespace attnscope;

namespace {

const char* kLesson = R"({"format": "attnscope-lesson", "version": 1, "title": "Editor test",
  "sentence": "cats chase mice", "d_model": 2, "heads": 1, "d_k": 2,
  "embeddings": {"cats": [1, 0], "chase": [0, 1], "mice": [1, 1]},
  "heads_weights": [{"W_Q": [[1, 0], [0, 1]], "W_K": [[1, 0], [0, 1]], "W_V": [[1, 0], [0, 1]]}]})";

using Answer = LessonDocument::Answer;

}  // namespace

class EditorSessionTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup() {
        answering.stop();
        window.reset();
    }

    void undoGivesBackTheExactLesson();
    void modifiedMarkFollowsSaveAndUndo();
    void questionBeforeAnotherLessonOrClosing();
    void saveAnswerWritesTheEditsFirst();
    void questionBeforeAModelAndDiscardRevertsTheLesson();
    void saveKeepsTheTypedSentence();
    void wordsAreAddedRenamedAndDeleted();
    void badWordsChangeNothing();
    void dimensionsChangeAndUndo();
    void dimensionsWithoutProjectionsFollowDModel();
    void badDimensionsChangeNothing();
    void keyValueHeadsAreSetAndRefused();
    void recentFilesListAndMenu();
    void droppingALessonOrAFolderOpensIt();
    void droppingANonLessonKeepsTheLesson();

private:
    QString writeFile(const QString& name, const QByteArray& bytes);
    LessonEditor* editor() { return child<LessonEditor>(*window, "lessonEditor"); }
    LessonDocument* document() { return child<LessonDocument>(*window, "lessonDocument"); }
    std::string lessonText() { return serializeLesson(sessionOf(*window).lesson()); }
    void editWq(int row, int col, const QString& value);
    QAction* action(const char* name) { return child<QAction>(*window, name); }
    void answerTheQuestion();

    QTemporaryDir dir, settingsDir;
    QString lessonPath;
    std::unique_ptr<MainWindow> window;
    QStringList asked;  // the lessons the question was asked about
    Answer answer = Answer::Cancel;
    QTimer answering;   // answers the window's real question box while it waits
};

void EditorSessionTest::initTestCase() {
    initResources();
    // A settings folder of our own (app/user_settings.cpp reads it at the first use): the recent
    // list of the person running the tests is never touched.
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(settingsDir.path()));
}

void EditorSessionTest::init() {
    lessonPath = writeFile("editor-test.json", kLesson);
    window = std::make_unique<MainWindow>();
    asked.clear();
    answer = Answer::Cancel;
    answering.setInterval(10);
    connect(&answering, &QTimer::timeout, this, &EditorSessionTest::answerTheQuestion, Qt::UniqueConnection);
    answering.start();
    QVERIFY2(window->openLessonFile(lessonPath), qPrintable(window->lastError()));
}

// The box LessonDocument shows (modal, in its own event loop): records the lesson it names
// (between “ and ”) and clicks the button `answer` stands for.
void EditorSessionTest::answerTheQuestion() {
    auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
    if (!box || !box->isVisible() || !box->button(QMessageBox::Save)) return;  // not the question
    const QString text = box->text();
    const qsizetype open = text.indexOf(QChar(0x201C)), close = text.indexOf(QChar(0x201D));
    asked << text.mid(open + 1, close - open - 1);
    const auto button = answer == Answer::Save      ? QMessageBox::Save
                        : answer == Answer::Discard ? QMessageBox::Discard
                                                    : QMessageBox::Cancel;
    box->button(button)->click();
}

QString EditorSessionTest::writeFile(const QString& name, const QByteArray& bytes) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
    f.write(bytes);
    return path;
}

void EditorSessionTest::editWq(int row, int col, const QString& value) {
    QVERIFY(editor()->selectMatrix(LessonMatrixKind::WQ, 0));
    QVERIFY(editor()->model()->setData(editor()->model()->index(row, col), value));
}

void EditorSessionTest::undoGivesBackTheExactLesson() {
    const std::string before = lessonText();
    editWq(1, 0, "2.5");
    const std::string after = lessonText();
    QVERIFY(after != before);
    QCOMPARE(sessionOf(*window).lesson().layers[0].heads[0].wq(1, 0), 2.5);
    QCOMPARE(action("undoAction")->text(), QString("Undo Edit W_Q[1, 0]"));
    QVERIFY(action("undoAction")->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_Z));
    QVERIFY(action("redoAction")->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)));
    // Q of "chase" (row 1 of X = [0, 1]) follows the weight: [2.5, 1] after the edit.
    QCOMPARE(sessionOf(*window).trace().layers[0].heads[0].q(1, 0), 2.5);

    action("undoAction")->trigger();
    QCOMPARE(lessonText(), before);
    QCOMPARE(sessionOf(*window).trace().layers[0].heads[0].q(1, 0), 0.0);  // the run follows the undo
    QCOMPARE(editor()->model()->valueAt(1, 0), 0.0);
    QCOMPARE(action("redoAction")->text(), QString("Redo Edit W_Q[1, 0]"));
    action("redoAction")->trigger();
    QCOMPARE(lessonText(), after);
    QCOMPARE(sessionOf(*window).trace().layers[0].heads[0].q(1, 0), 2.5);
}

void EditorSessionTest::modifiedMarkFollowsSaveAndUndo() {
    QVERIFY(window->windowTitle().endsWith("[*]"));
    QVERIFY(!window->isWindowModified());
    editWq(0, 1, "3");
    QVERIFY(window->isWindowModified());
    QVERIFY(window->saveLessonTo(lessonPath));
    QVERIFY(!window->isWindowModified());
    editWq(0, 1, "4");
    QVERIFY(window->isWindowModified());
    action("undoAction")->trigger();  // back to what the file holds
    QVERIFY(!window->isWindowModified());
    action("undoAction")->trigger();  // before the save: differs from the file again
    QVERIFY(window->isWindowModified());
}

void EditorSessionTest::questionBeforeAnotherLessonOrClosing() {
    const QString other = writeFile("other.json", QByteArray(kLesson).replace("Editor test", "Other lesson"));
    QVERIFY(window->openLessonFile(other));  // nothing modified: no question
    QVERIFY(asked.isEmpty());
    editWq(0, 0, "7");
    const std::string edited = lessonText();
    answer = Answer::Cancel;
    QVERIFY(!window->openLessonFile(lessonPath));
    QCOMPARE(asked, QStringList{"Other lesson"});
    QCOMPARE(lessonText(), edited);  // cancel: the edited lesson stays
    QVERIFY(window->actions().lessonPath() == other);
    window->show();
    QVERIFY(!window->close());  // cancel keeps the window open
    QVERIFY(window->isVisible());
    answer = Answer::Discard;
    QVERIFY(window->openLessonFile(lessonPath));
    QCOMPARE(window->actions().lessonPath(), lessonPath);
    QVERIFY(!window->isWindowModified());
    editWq(0, 0, "8");
    QVERIFY(window->close());  // discard closes
    QCOMPARE(asked.size(), 4);
}

void EditorSessionTest::saveAnswerWritesTheEditsFirst() {
    editWq(1, 1, "-1.5");
    answer = Answer::Save;
    QVERIFY(window->openBuiltInLesson("first-hand-exercise"));
    auto saved = loadLessonFile(lessonPath);
    QVERIFY(saved.ok());
    QCOMPARE(saved.value().layers[0].heads[0].wq(1, 1), -1.5);
}

// A model opens over the lesson, which stays underneath (the lab works on it): Discard puts
// back the saved lesson there, Cancel opens nothing.
void EditorSessionTest::questionBeforeAModelAndDiscardRevertsTheLesson() {
    const std::string saved = lessonText();
    editWq(0, 0, "9");
    const std::string edited = lessonText();
    answer = Answer::Cancel;
    window->openModel(dir.path());
    QVERIFY(waitForModel(*window));
    QCOMPARE(asked.size(), 1);
    QVERIFY(window->lastError().isEmpty());  // nothing was opened, so nothing failed
    QCOMPARE(lessonText(), edited);
    answer = Answer::Discard;
    window->openModel(dir.path());  // a folder without a model: refused after the question
    QVERIFY(waitForModel(*window));
    QCOMPARE(asked.size(), 2);
    QVERIFY(!window->lastError().isEmpty());
    QCOMPARE(lessonText(), saved);
    QCOMPARE(sessionOf(*window).trace().layers[0].heads[0].q(0, 0), 1.0);  // cats·W_Q with W_Q[0,0] = 1 again
    QVERIFY(!window->isWindowModified());
    QVERIFY(!action("undoAction")->isEnabled());
}

void EditorSessionTest::saveKeepsTheTypedSentence() {
    window->setSentence("mice chase cats");
    const QString copy = dir.filePath("typed.json");
    QVERIFY(window->saveLessonTo(copy));
    auto saved = loadLessonFile(copy);
    QVERIFY(saved.ok());
    QCOMPARE(QString::fromStdString(saved.value().sentence), QString("mice chase cats"));
}

void EditorSessionTest::wordsAreAddedRenamedAndDeleted() {
    const std::string before = lessonText();
    auto* word = child<QLineEdit>(*window, "wordEdit");
    word->setText("dogs");
    child<QPushButton>(*window, "addWord")->click();
    const RowVec* dogs = sessionOf(*window).lesson().findEmbedding("dogs");
    QVERIFY(dogs);
    QCOMPARE(Mat(*dogs), Mat(Mat::Zero(1, 2)));  // a new row starts at zeros, not hashed
    window->setSentence("dogs chase cats");
    QCOMPARE(Mat(sessionOf(*window).trace().layers[0].input.row(0)), Mat(Mat::Zero(1, 2)));
    QCOMPARE(action("undoAction")->text(), QString("Undo Add word “dogs”"));
    QVERIFY(window->isWindowModified());

    QVERIFY(editor()->selectMatrix(LessonMatrixKind::Embeddings));
    QCOMPARE(editor()->model()->rowCount(), 4);
    editor()->table()->setCurrentIndex(editor()->model()->index(0, 0));  // cats
    word->setText("cat");
    child<QPushButton>(*window, "renameWord")->click();
    QVERIFY(sessionOf(*window).lesson().findEmbedding("cat"));
    QVERIFY(!sessionOf(*window).lesson().findEmbedding("cats"));
    QCOMPARE(editor()->model()->headerData(0, Qt::Vertical, Qt::DisplayRole).toString(), QString("cat"));

    editor()->table()->setCurrentIndex(editor()->model()->index(1, 0));  // chase
    child<QPushButton>(*window, "deleteWord")->click();
    QVERIFY(!sessionOf(*window).lesson().findEmbedding("chase"));
    QCOMPARE(editor()->model()->rowCount(), 3);

    for (int i = 0; i < 3; ++i) action("undoAction")->trigger();
    QCOMPARE(lessonText(), before);
    QCOMPARE(editor()->model()->rowCount(), 3);
    QVERIFY(!window->isWindowModified());
}

void EditorSessionTest::badWordsChangeNothing() {
    const std::string before = lessonText();
    QVERIFY(editor()->selectMatrix(LessonMatrixKind::Embeddings));
    editor()->table()->setCurrentIndex(editor()->model()->index(0, 0));  // cats
    auto* word = child<QLineEdit>(*window, "wordEdit");
    word->setText("mice");
    child<QPushButton>(*window, "renameWord")->click();
    QVERIFY2(editor()->message().contains("\"mice\" is already in the embedding table"), qPrintable(editor()->message()));
    QVERIFY(editor()->message().contains("nothing changed"));
    word->clear();
    child<QPushButton>(*window, "addWord")->click();
    QVERIFY2(editor()->message().contains("expected a word, found nothing"), qPrintable(editor()->message()));
    word->setText("Dogs");  // the lesson lower-cases: "Dogs" could never be looked up
    child<QPushButton>(*window, "addWord")->click();
    QVERIFY2(editor()->message().contains("dogs;"), qPrintable(editor()->message()));
    QVERIFY(editor()->selectMatrix(LessonMatrixKind::WQ, 0));  // rename needs a row of the embedding table
    child<QPushButton>(*window, "deleteWord")->click();
    QVERIFY(editor()->message().contains("Select a word's row"));
    QCOMPARE(lessonText(), before);
    QVERIFY(!window->isWindowModified());
    QVERIFY(!action("undoAction")->isEnabled());
}

void EditorSessionTest::dimensionsChangeAndUndo() {
    const std::string before = lessonText();
    child<QSpinBox>(*window, "headsBox")->setValue(2);
    child<QSpinBox>(*window, "dKBox")->setValue(3);
    child<QPushButton>(*window, "applyDimensions")->click();
    const Lesson& lesson = sessionOf(*window).lesson();
    QCOMPARE(lesson.numHeads, 2);
    QCOMPARE(lesson.dK, 3);
    QCOMPARE(lesson.dV, 2);
    QCOMPARE(lesson.layers[0].heads[0].wq, Mat(Mat::Identity(2, 3)));  // top-left block kept, new column zero
    QCOMPARE(lesson.layers[0].heads[1].wq, Mat(Mat::Zero(2, 3)));
    QCOMPARE(sessionOf(*window).trace().headCount(), 2);  // the run after it is valid
    // The editor offers the new head's matrices.
    QVERIFY(editor()->selectMatrix(LessonMatrixKind::WQ, 1));
    QCOMPARE(editor()->model()->columnCount(), 3);
    action("undoAction")->trigger();
    QCOMPARE(lessonText(), before);
    QCOMPARE(sessionOf(*window).trace().headCount(), 1);
    QVERIFY(!editor()->selectMatrix(LessonMatrixKind::WQ, 1));
    QCOMPARE(child<QSpinBox>(*window, "headsBox")->value(), 1);
}

// Without projections Q = K = V = X: d_k and d_v follow d_model (their boxes are disabled).
void EditorSessionTest::dimensionsWithoutProjectionsFollowDModel() {
    QVERIFY(window->openBuiltInLesson("first-hand-exercise"));
    QVERIFY(!sessionOf(*window).lesson().projections);
    QVERIFY(!child<QSpinBox>(*window, "dKBox")->isEnabled());
    child<QSpinBox>(*window, "dModelBox")->setValue(6);
    child<QPushButton>(*window, "applyDimensions")->click();
    const Lesson& lesson = sessionOf(*window).lesson();
    QCOMPARE(lesson.dModel, 6);
    QCOMPARE(lesson.dK, 6);
    QCOMPARE(lesson.dV, 6);
    QCOMPARE(sessionOf(*window).trace().layers[0].heads[0].q.cols(), 6);
}

// Grouped-query attention (issue 29 §3): the key/value heads box; an H_kv that does not divide H
// is refused with the message and the lesson keeps its last valid state.
void EditorSessionTest::keyValueHeadsAreSetAndRefused() {
    QVERIFY(window->openBuiltInLesson("grouped-query"));
    auto* kvBox = child<QSpinBox>(*window, "kvHeadsBox");
    QCOMPARE(kvBox->value(), 2);
    QVERIFY(editor()->selectMatrix(LessonMatrixKind::WK, 1));   // key/value head 2
    QVERIFY(!editor()->selectMatrix(LessonMatrixKind::WK, 2));  // there is no third
    QVERIFY(editor()->matrixBox()->findText("W_K (K/V head 2)") >= 0);
    const std::string before = lessonText();
    kvBox->setValue(3);
    child<QPushButton>(*window, "applyDimensions")->click();
    QVERIFY2(editor()->message().contains("kv_heads: expected a number of key/value heads that divides heads = 4, found 3"),
             qPrintable(editor()->message()));
    QCOMPARE(lessonText(), before);
    QCOMPARE(sessionOf(*window).trace().layers[0].kvHeadOf, (std::vector<int>{0, 0, 1, 1}));
    kvBox->setValue(1);  // multi-query attention
    child<QPushButton>(*window, "applyDimensions")->click();
    QCOMPARE(sessionOf(*window).lesson().kvHeadCount(), 1);
    QCOMPARE(sessionOf(*window).trace().layers[0].kvHeadOf, (std::vector<int>{0, 0, 0, 0}));
    action("undoAction")->trigger();
    QCOMPARE(lessonText(), before);
    QCOMPARE(kvBox->value(), 2);
    // While every head has its own K and V the box follows the heads box.
    QVERIFY(window->openBuiltInLesson("two-heads"));
    QCOMPARE(kvBox->value(), 2);
    child<QSpinBox>(*window, "headsBox")->setValue(4);
    QCOMPARE(kvBox->value(), 4);
}

void EditorSessionTest::badDimensionsChangeNothing() {
    const std::string before = lessonText();
    QVERIFY(!document()->setDimensions({2, 1, 0, 2}));  // d_k = 0: the spin box cannot, a caller could
    QVERIFY2(editor()->message().contains("d_k: expected a whole number from 1 to 4096, found 0"),
             qPrintable(editor()->message()));
    // A head switched off that would no longer exist: the run refuses, the lesson stays.
    QVERIFY(document()->setDimensions({2, 2, 2, 2}));
    typeAblation(*window, "1:2");
    QVERIFY(!document()->setDimensions({2, 1, 2, 2}));
    QCOMPARE(sessionOf(*window).lesson().numHeads, 2);
    QVERIFY(editor()->message().contains("nothing changed"));
    QCOMPARE(sessionOf(*window).trace().headCount(), 2);
    typeAblation(*window, "");  // every head back on: undo to one head runs again
    action("undoAction")->trigger();
    QCOMPARE(lessonText(), before);
    QCOMPARE(sessionOf(*window).trace().headCount(), 1);
}

void EditorSessionTest::recentFilesListAndMenu() {
    clearRecentFiles();
    QVERIFY(window->openLessonFile(lessonPath));
    QCOMPARE(recentFiles(), QStringList{lessonPath});
    QStringList made;
    for (int i = 0; i < 9; ++i) made << writeFile(QString("r%1.json").arg(i), kLesson);
    for (const QString& path : made) addRecentFile(path);
    QCOMPARE(recentFiles().size(), kMaxRecentFiles);
    QCOMPARE(recentFiles().first(), made.last());
    QVERIFY(!recentFiles().contains(lessonPath));  // the oldest went
    QFile::remove(made.last());
    addRecentFile(dir.path());  // a folder: a model
    QMenu menu;
    fillRecentMenu(&menu, window->actions());
    const QList<QAction*> entries = menu.actions();
    QCOMPARE(entries[0]->text(), QString("%1 (model)").arg(dir.path()));
    QCOMPARE(entries[1]->text(), QString("%1 (missing)").arg(made.last()));
    QVERIFY(!entries[1]->isEnabled());
    QVERIFY(entries[2]->isEnabled());
    entries[2]->trigger();  // opens that lesson
    QCOMPARE(window->actions().lessonPath(), made[7]);
    QCOMPARE(recentFiles().first(), made[7]);
    menu.findChild<QAction*>("clearRecent")->trigger();
    QVERIFY(recentFiles().isEmpty());
    fillRecentMenu(&menu, window->actions());
    QVERIFY(!menu.findChild<QAction*>("clearRecent")->isEnabled());
}

namespace {

// Sends a drag of `path` over the window, then drops it; returns whether the window took the drag.
bool dragAndDrop(MainWindow& window, const QString& path) {
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &enter);
    if (!enter.isAccepted()) return false;
    QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &drop);
    return drop.isAccepted();
}

}  // namespace

void EditorSessionTest::droppingALessonOrAFolderOpensIt() {
    const QString other = writeFile("dropped.json", QByteArray(kLesson).replace("Editor test", "Dropped lesson"));
    editWq(0, 0, "5");
    answer = Answer::Cancel;
    QVERIFY(dragAndDrop(*window, other));
    QCOMPARE(asked.size(), 1);  // the question came first, and Cancel kept the lesson
    QCOMPARE(window->actions().lessonPath(), lessonPath);
    answer = Answer::Discard;
    QVERIFY(dragAndDrop(*window, other));
    QCOMPARE(window->actions().lessonPath(), other);
    QCOMPARE(shownSource(*window).name(), QString("Dropped lesson"));
    // A folder is opened as a model (a folder without a model: refused, the lesson stays).
    QVERIFY(dragAndDrop(*window, dir.path()));
    QVERIFY(waitForModel(*window));
    QVERIFY2(!window->lastError().isEmpty(), "an empty folder is no model");
    QCOMPARE(shownSource(*window).name(), QString("Dropped lesson"));
    // Text is not a file: the window does not take the drag.
    QMimeData text;
    text.setText("hello");
    QDragEnterEvent enter(QPoint(5, 5), Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(window.get(), &enter);
    QVERIFY(!enter.isAccepted());
}

void EditorSessionTest::droppingANonLessonKeepsTheLesson() {
    const std::string before = lessonText();
    const QString notes = writeFile("notes.txt", "not a lesson at all");
    QVERIFY(dragAndDrop(*window, notes));
    QVERIFY2(window->lastError().contains("notes.txt"), qPrintable(window->lastError()));
    QCOMPARE(window->actions().lessonPath(), lessonPath);
    QCOMPARE(lessonText(), before);
}

QTEST_MAIN(EditorSessionTest)
#include "test_editor_session.moc"
