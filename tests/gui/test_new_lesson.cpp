// Issue 28 §2: a lesson made in the window. The blog exercise 笔 记 本 is built with File ▸ New
// lesson and Edit ▸ Paste table only, then read back in the worked example at the decimals the
// dialog and View ▸ Decimals chose, with the textbook form of the softmax beside the safe one.
#include <QAction>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

#include "app/lesson_document.hpp"
#include "app/main_window.hpp"
#include "core/lesson/lesson.hpp"
#include "ui/coref/coref_tab.hpp"
#include "ui/editor/lesson_editor.hpp"
#include "ui/editor/lesson_settings_bar.hpp"
#include "ui/editor/new_lesson_dialog.hpp"
#include "ui/step/matrix_panel.hpp"
#include "ui/step/step_navigator.hpp"
#include "ui/step/trace_matrix_model.hpp"
#include "window_access.hpp"

using namespace attnscope;

namespace {

// The blog's three characters, d_model 5, Q = K = V = X, no scaling. Scores of 笔 by hand:
// 笔·笔 = 1+4+1+4+1 = 11, 笔·记 = 1+2+1+4+1 = 9, 笔·本 = 1+6+2+6+1 = 16.
// Safe softmax: e⁻⁵ = 0.006738, e⁻⁷ = 0.000912, e⁰ = 1, sum 1.007650; A[笔, 记] = 0.000912 / 1.007650
// = 0.000905 (0.00090496). Textbook: e⁹ / (e¹¹ + e⁹ + e¹⁶) = 8103.083928 / 8954087.746151, the same.
const char* kBlog = "笔=[1,2,1,2,1]\n\"记\": [1, 1, 1, 2, 1],\n本 1 3 2 3 1\n";

int indexOfStep(const StepNavigator& nav, Step step) {
    const auto& steps = nav.steps();
    for (std::size_t i = 0; i < steps.size(); ++i)
        if (steps[i] == step) return static_cast<int>(i);
    return -1;
}

}  // namespace

class NewLessonTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup() { window.reset(); }

    void blogExerciseFromTheDialogAndAPaste();
    void decimalsAreChosenInTheWindowAndUndone();
    void aBadPasteNamesItsLineAndChangesNothing();
    void settingsAreChangedInTheEditorAndUndone();
    void wordsMissingFromTheTableGetTheChosenRuleAndAreNamed();
    void ropeIsChosenInTheSettingsWithItsBaseAndPairing();
    void keyValueHeadsAreChosenInTheDialog();

private:
    QAction* action(const char* name) { return child<QAction>(*window, name); }
    void createBlogLesson();
    void paste(const QString& text);
    QString weightExplanation(int row, int col);

    QTemporaryDir settingsDir;
    std::unique_ptr<MainWindow> window;
};

void NewLessonTest::initTestCase() {
    initResources();
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(settingsDir.path()));
}

void NewLessonTest::init() {
    window = std::make_unique<MainWindow>();
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
}

// File ▸ New lesson, filled as a teacher would, then OK.
void NewLessonTest::createBlogLesson() {
    action("newLessonAction")->trigger();
    auto* dialog = window->findChild<NewLessonDialog*>("newLessonDialog");
    QVERIFY(dialog);
    QTest::keyClicks(dialog->englishTitle(), "The notebook exercise");
    dialog->chineseTitle()->setText(QStringLiteral("笔记本练习"));
    dialog->words()->setText(QStringLiteral("笔记本"));
    dialog->dModel()->setValue(5);
    dialog->projections()->setChecked(false);
    dialog->scaling()->setChecked(false);
    dialog->decimals()->setValue(6);
    QCOMPARE(dialog->dK()->value(), 5);  // without projections d_k follows d_model
    QVERIFY(!dialog->dK()->isEnabled());
    QTest::mouseClick(dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    const Lesson& lesson = sessionOf(*window).lesson();
    QCOMPARE(lesson.title.in("zh_CN"), std::string("笔记本练习"));
    QCOMPARE(lesson.title.in("en"), std::string("The notebook exercise"));
    QCOMPARE(lesson.dModel, 5);
    QVERIFY(!lesson.projections && !lesson.scale && !lesson.causalMask);
    QCOMPARE(lesson.decimals, 6);
    QCOMPARE(static_cast<int>(lesson.embeddings.size()), 3);  // 笔, 记, 本: rows of zeros to fill
    QCOMPARE(child<QTabWidget>(*window, "tabs")->currentWidget(), static_cast<QWidget*>(child<LessonEditor>(*window, "lessonEditor")));
}

void NewLessonTest::paste(const QString& text) {
    QGuiApplication::clipboard()->setText(text);
    action("pasteTableAction")->trigger();
}

QString NewLessonTest::weightExplanation(int row, int col) {
    auto* nav = child<StepNavigator>(*window, "navigator");
    nav->setCurrentIndex(indexOfStep(*nav, Step::Weights));
    auto* panel = child<MatrixPanel>(*window, "matrixPanel");
    panel->selectCell(row, col);
    return panel->explanationText();
}

void NewLessonTest::blogExerciseFromTheDialogAndAPaste() {
    createBlogLesson();
    paste(QString::fromUtf8(kBlog));
    const Lesson& lesson = sessionOf(*window).lesson();
    QCOMPARE(lesson.embeddings.at(0).first, std::string("笔"));
    QCOMPARE(lesson.embeddings.at(2).second(0, 1), 3.0);  // 本 = [1, 3, 2, 3, 1]
    const HeadTrace& head = sessionOf(*window).trace().layers.at(0).heads.at(0);
    QCOMPARE(head.scores(0, 0), 11.0);
    QCOMPARE(head.scores(0, 1), 9.0);
    QCOMPARE(head.scores(0, 2), 16.0);
    QVERIFY(std::abs(head.weights(0, 1) - 0.0009049591825877) < 1e-15);
    const QString text = weightExplanation(0, 1);
    QVERIFY2(text.contains(QStringLiteral("exp(9 − 16) for 记 = 0.000912")), qPrintable(text));  // integers as integers
    QVERIFY2(text.contains(QStringLiteral("A = 0.000912 / 1.007650 = 0.000905")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("A = e⁹ / (e¹¹ + e⁹ + e¹⁶)")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("= 8103.083928 / (59874.141715 + 8103.083928 + 8886110.520508) = 0.000905")),
             qPrintable(text));
}

void NewLessonTest::decimalsAreChosenInTheWindowAndUndone() {
    createBlogLesson();
    paste(QString::fromUtf8(kBlog));
    action("decimals4")->trigger();
    QCOMPARE(sessionOf(*window).lesson().decimals, 4);
    QVERIFY2(weightExplanation(0, 1).contains(QStringLiteral("A = 0.0009 / 1.0076 = 0.0009")), qPrintable(weightExplanation(0, 1)));
    action("undoAction")->trigger();  // the choice is an edit of the lesson like any other
    QCOMPARE(sessionOf(*window).lesson().decimals, 6);
    auto* panel = child<MatrixPanel>(*window, "matrixPanel");
    QCOMPARE(panel->resultModel()->data(panel->resultModel()->index(0, 1), Qt::DisplayRole).toString(), QStringLiteral("0.000905"));
}

void NewLessonTest::aBadPasteNamesItsLineAndChangesNothing() {
    createBlogLesson();
    paste(QString::fromUtf8(kBlog));
    const std::string before = serializeLesson(sessionOf(*window).lesson());
    paste(QStringLiteral("笔=[1,2,1,2,1]\n记=[1,1,x,2,1]\n"));
    const QString message = child<LessonEditor>(*window, "lessonEditor")->message();
    QVERIFY2(message.contains(QStringLiteral("text: line 2: expected a number, found the text \"x\"")), qPrintable(message));
    QCOMPARE(serializeLesson(sessionOf(*window).lesson()), before);
}

// Title, description, feature names and flags after New lesson: the editor's settings row.
void NewLessonTest::settingsAreChangedInTheEditorAndUndone() {
    createBlogLesson();
    paste(QString::fromUtf8(kBlog));
    LessonSettingsBar* bar = child<LessonEditor>(*window, "lessonEditor")->settingsBar();
    QCOMPARE(bar->titleEdit()->text(), QStringLiteral("The notebook exercise"));  // the interface is English
    bar->titleEdit()->setText(QStringLiteral("Notebook, by hand"));
    bar->descriptionEdit()->setText(QStringLiteral("Scores 11, 9, 16 for 笔"));
    bar->featuresEdit()->setText(QStringLiteral("a, b, c, d, e"));
    bar->causalBox()->setChecked(true);
    QTest::mouseClick(bar->findChild<QPushButton*>("applySettings"), Qt::LeftButton);
    const Lesson& lesson = sessionOf(*window).lesson();
    QCOMPARE(lesson.title.in("en"), std::string("Notebook, by hand"));
    QCOMPARE(lesson.title.in("zh_CN"), std::string("笔记本练习"));  // the other language's title stays
    QCOMPARE(lesson.featureNames.at(4).in("en"), std::string("e"));
    QCOMPARE(child<QLabel>(*window, "lessonTitle")->text(), QStringLiteral("Notebook, by hand"));
    // Causal now: 笔 (row 0) sees only itself, weight exactly 1.
    QCOMPARE(sessionOf(*window).trace().layers.at(0).heads.at(0).weights(0, 0), 1.0);
    bar->featuresEdit()->setText(QStringLiteral("a, b"));  // 2 names for d_model 5: refused, nothing changes
    QTest::mouseClick(bar->findChild<QPushButton*>("applySettings"), Qt::LeftButton);
    QCOMPARE(static_cast<int>(sessionOf(*window).lesson().featureNames.size()), 5);
    action("undoAction")->trigger();
    QVERIFY(!sessionOf(*window).lesson().causalMask);
    QCOMPARE(sessionOf(*window).lesson().title.in("en"), std::string("The notebook exercise"));
}

// 小猫 typed into the Chinese coreference lesson, whose table has neither character (动物 is the
// lesson's animal): the banner and the Coreference tab name both; the editor's choice of zeros or
// "ask" changes what they get, and is undone like any edit.
void NewLessonTest::wordsMissingFromTheTableGetTheChosenRuleAndAreNamed() {
    QVERIFY(window->openBuiltInLesson("coreference-zh"));
    window->setSentence(QStringLiteral("小猫没有过马路，因为它太累了"));
    auto* banner = child<QLabel>(*window, "notices");
    QVERIFY(banner->isVisible());
    QVERIFY2(banner->text().contains(QStringLiteral("made up by the hash rule: 小, 猫")), qPrintable(banner->text()));
    child<QTabWidget>(*window, "tabs")->setCurrentWidget(child<CorefTab>(*window, "corefTab"));
    auto* corefNote = child<QLabel>(*window, "corefMadeUp");
    QVERIFY(QTest::qWaitFor([&] { return corefNote->isVisible(); }, 5000));
    QVERIFY2(corefNote->text().contains(QStringLiteral("rest on made-up vectors: 小, 猫")), qPrintable(corefNote->text()));

    LessonSettingsBar* bar = child<LessonEditor>(*window, "lessonEditor")->settingsBar();
    QCOMPARE(bar->unknownWordsBox()->currentIndex(), 0);  // the hash rule, as every older lesson
    bar->unknownWordsBox()->setCurrentIndex(static_cast<int>(UnknownWords::Zeros));
    QTest::mouseClick(bar->findChild<QPushButton*>("applySettings"), Qt::LeftButton);
    QCOMPARE(sessionOf(*window).lesson().unknownWords, UnknownWords::Zeros);
    QVERIFY2(banner->text().contains(QStringLiteral("their vectors are zeros: 小, 猫")), qPrintable(banner->text()));
    QVERIFY(sessionOf(*window).trace().embedding.row(0).isZero(0));  // 小
    QVERIFY(sessionOf(*window).trace().tokens[1].zeroVector);        // 猫

    // "Ask" while 小猫 is typed cannot run: refused like any edit that breaks the run, the words
    // named, the lesson kept; with a sentence the table covers it is taken, and undone like any edit.
    const auto applyAsk = [&] {
        bar->unknownWordsBox()->setCurrentIndex(static_cast<int>(UnknownWords::Ask));
        QTest::mouseClick(bar->findChild<QPushButton*>("applySettings"), Qt::LeftButton);
    };
    applyAsk();
    QCOMPARE(sessionOf(*window).lesson().unknownWords, UnknownWords::Zeros);
    const QString refusal = child<LessonEditor>(*window, "lessonEditor")->message();
    QVERIFY2(refusal.contains(QStringLiteral("not in the lesson's embedding table: 小, 猫")), qPrintable(refusal));
    window->setSentence(QStringLiteral("动物没有过马路，因为它太累了"));
    applyAsk();
    QCOMPARE(sessionOf(*window).lesson().unknownWords, UnknownWords::Ask);
    QVERIFY(!banner->isVisible() || !banner->text().contains(QStringLiteral("embedding table")));
    action("undoAction")->trigger();
    QCOMPARE(sessionOf(*window).lesson().unknownWords, UnknownWords::Zeros);
}

// The RoPE lesson's settings row shows rotary encoding, base 100 and the Hugging Face pairing;
// switching to the paper's pairing reruns with pairs (2i, 2i+1), switching RoPE off removes the
// Q_pre and K_pre steps, and undo brings RoPE back.
void NewLessonTest::ropeIsChosenInTheSettingsWithItsBaseAndPairing() {
    QVERIFY(window->openBuiltInLesson("rope"));
    auto* editor = child<LessonEditor>(*window, "lessonEditor");
    auto* tabs = qobject_cast<QTabWidget*>(editor->parentWidget()->parentWidget());  // the "Edit lesson" tab, as a teacher opens it
    QVERIFY(tabs);
    tabs->setCurrentWidget(editor);
    LessonSettingsBar* bar = editor->settingsBar();
    QCOMPARE(bar->positionalBox()->currentIndex(), static_cast<int>(PositionalKind::Rotary));
    QCOMPARE(bar->ropeBaseBox()->value(), 100.0);
    QVERIFY(bar->ropeBaseBox()->isEnabled());
    QCOMPARE(bar->ropePairingBox()->currentIndex(), 0);
    bar->ropePairingBox()->setCurrentIndex(1);
    QTest::mouseClick(bar->findChild<QPushButton*>("applySettings"), Qt::LeftButton);
    QVERIFY(sessionOf(*window).lesson().ropeInterleaved);
    QVERIFY(sessionOf(*window).trace().layers.at(0).ropeInterleaved);
    bar->positionalBox()->setCurrentIndex(static_cast<int>(PositionalKind::None));
    QVERIFY(!bar->ropeBaseBox()->isEnabled());
    QTest::mouseClick(bar->findChild<QPushButton*>("applySettings"), Qt::LeftButton);
    QVERIFY(!sessionOf(*window).trace().rotates());
    QCOMPARE(sessionOf(*window).trace().layers.at(0).heads.at(0).qBeforeRope.size(), Eigen::Index{0});
    action("undoAction")->trigger();
    QCOMPARE(sessionOf(*window).lesson().positional, PositionalKind::Rotary);
}

// Grouped-query attention (issue 29 §3): the dialog's key/value heads follow the heads until
// chosen; one that does not divide them opens nothing and names kv_heads.
void NewLessonTest::keyValueHeadsAreChosenInTheDialog() {
    action("newLessonAction")->trigger();
    auto* dialog = window->findChild<NewLessonDialog*>("newLessonDialog");
    QVERIFY(dialog);
    dialog->words()->setText("a b");
    dialog->heads()->setValue(4);
    QCOMPARE(dialog->kvHeads()->value(), 4);  // one per head until chosen
    const auto fill = [this, dialog](int kvHeads) {
        dialog->kvHeads()->setValue(kvHeads);
        QTest::mouseClick(dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    };
    fill(2);
    QCOMPARE(sessionOf(*window).lesson().kvHeadCount(), 2);
    QCOMPARE(sessionOf(*window).trace().layers[0].kvHeadOf, (std::vector<int>{0, 0, 1, 1}));
    const std::string before = serializeLesson(sessionOf(*window).lesson());
    action("newLessonAction")->trigger();
    fill(3);
    QVERIFY2(window->lastError().contains("kv_heads: expected a number of key/value heads that divides heads = 4, found 3"),
             qPrintable(window->lastError()));
    QVERIFY(window->lastError().contains("The previous lesson stays open."));
    QCOMPARE(serializeLesson(sessionOf(*window).lesson()), before);
}

QTEST_MAIN(NewLessonTest)
#include "test_new_lesson.moc"
