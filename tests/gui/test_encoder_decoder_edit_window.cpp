// The encoder–decoder lesson edited in the window like any lesson (issue 29 §4): the decoder's
// weights and output head in the editor, a resize of every stage, save and open again, a refused
// edit keeping the lesson; "Switch heads off:" acting on the stage shown, surviving View ▸ Language;
// Compare off on the decoder's masked self-attention, with the reason; Heads ▸ Evaluate off on both
// decoder stages, with the reason.
//
// The numbers are the built-in `translation` lesson's (我 是 谁 → <s> who am i), worked by hand in
// tests/gui/test_encoder_decoder_window.cpp: at <s>, Y₂ = [0, 0.367959, 0.367959, 3.264082] and
// W_vocab reads feature 4 as who, 3 as am, 2 as i, 1 as </s>, so p(who | <s>) = 0.870544.
//   W_vocab[4, who] edited 1 → 0: logits (0, 0.367959, 0.367959, 0), p(who) = 1/(2 + 2e^0.367959) = 0.204517
//   cross head off: Y₂ = Y₁ = [0, 0, 0, 2], logits (2, 0, 0, 0), p(who) = e²/(e² + 3) = 0.711235
#include <QComboBox>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <memory>

#include "app/language.hpp"
#include "app/lesson_document.hpp"
#include "app/main_window.hpp"
#include "ui/compare/compare_view.hpp"
#include "ui/editor/lesson_editor.hpp"
#include "ui/heads/head_ranking_box.hpp"
#include "ui/heads/heads_panel.hpp"
#include "ui/lab/lab_plots.hpp"
#include "window_access.hpp"

using namespace attnscope;

#define QCOMPARE_NEAR(found, expected)                                                                    \
    do {                                                                                                  \
        const double f_ = (found), e_ = (expected);                                                       \
        QVERIFY2(std::abs(f_ - e_) < 1e-6, qPrintable(QStringLiteral("found %1, expected %2, difference %3") \
                                                          .arg(f_, 0, 'g', 10).arg(e_, 0, 'g', 10).arg(std::abs(f_ - e_)))); \
    } while (false)

namespace {

void chooseStage(const MainWindow& w, int index) { child<QComboBox>(w, "stageChoice")->setCurrentIndex(index); }
double pWho(const MainWindow& w) { return sessionOf(w).encoderDecoder()->labelProbability[0]; }
QString ablateText(const MainWindow& w) { return child<QLineEdit>(w, "ablateEdit")->text(); }

}  // namespace

class EncoderDecoderEditWindowTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        applyLanguage("en");
        initResources();
    }
    void init() {
        window = std::make_unique<MainWindow>();
        QVERIFY(window->openBuiltInLesson("translation"));
        window->show();
    }
    void cleanup() {
        window.reset();
        applyLanguage("en");
    }

    void theDecoderAndItsOutputHeadAreEditable();
    void aResizeReachesEveryStageAndIsSaved();
    void aResizeThatCannotRunKeepsTheLesson();
    void headsOffActOnTheStageShown();
    void headsOffSurviveALanguageSwitchOnADecoderStage();
    void compareIsOffOnTheDecoderSelfAttention();
    void compareRunsSentenceBsCrossAttention();
    void corefEvaluationIsOffOnTheDecoderStages();

private:
    LessonEditor* editor() { return child<LessonEditor>(*window, "lessonEditor"); }
    LessonDocument* document() { return child<LessonDocument>(*window, "lessonDocument"); }
    std::unique_ptr<MainWindow> window;
};

void EncoderDecoderEditWindowTest::theDecoderAndItsOutputHeadAreEditable() {
    QComboBox* box = editor()->matrixBox();
    for (const char* name : {"W_Q (encoder)", "W_Q (decoder self-attention)", "W_V (cross-attention)", "W_O (cross-attention)",
                             "W_vocab (output head)"})
        QVERIFY2(box->findText(name) >= 0, name);
    QVERIFY(editor()->selectMatrix(LessonMatrixKind::Vocab));
    LessonMatrixModel* model = editor()->model();
    QCOMPARE(model->headerData(0, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("who"));  // V_t's words
    QCOMPARE(model->headerData(3, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("</s>"));
    QVERIFY(model->setData(model->index(3, 0), "0"));
    QCOMPARE_NEAR(pWho(*window), 0.204517);
    chooseStage(*window, 2);  // the stage shows it too
    QCOMPARE_NEAR(sessionOf(*window).trace().block.probabilities(0, 0), 0.204517);
    child<QAction>(*window, "undoAction")->trigger();
    QCOMPARE_NEAR(pWho(*window), 0.870544);
    // The cross-attention's W_Q is its own: doubling it leaves the encoder's alone.
    QVERIFY(editor()->selectMatrix(LessonMatrixKind::WQ, 0, 0, LessonLayerPart::Cross));
    QVERIFY(editor()->model()->setData(editor()->model()->index(3, 2), "4"));
    QCOMPARE(sessionOf(*window).lesson().encoderDecoder.cross.heads[0].wq(3, 2), 4.0);
    QCOMPARE(sessionOf(*window).lesson().layers[0].heads[0].wq(3, 2), 0.0);
}

void EncoderDecoderEditWindowTest::aResizeReachesEveryStageAndIsSaved() {
    for (const char* box : {"dModelBox", "dKBox", "dVBox"}) child<QSpinBox>(*window, box)->setValue(5);  // no W_O: d_v = d_model
    child<QPushButton>(*window, "applyDimensions")->click();
    QVERIFY2(!editor()->message().contains("refused"), qPrintable(editor()->message()));
    const Lesson& lesson = sessionOf(*window).lesson();
    QCOMPARE(lesson.dModel, 5);
    QCOMPARE(lesson.encoderDecoder.wVocab.rows(), 5);
    // Every stage runs; the new feature is zero everywhere, only the scale is √5 for √4 (worked in
    // tests/core/test_encoder_decoder_edit.cpp): 我 weighs itself e^(1/√5)/(e^(1/√5) + 2) = 0.438825,
    // <s> looks at 谁 with 0.798793 and p(who | <s>) = 0.861254.
    for (int stage = 0; stage < 3; ++stage) {
        chooseStage(*window, stage);
        QCOMPARE(sessionOf(*window).trace().layers[0].input.cols(), 5);
    }
    QCOMPARE_NEAR(sessionOf(*window).trace().layers[0].heads[0].weights.exact()(0, 2), 0.798793);
    chooseStage(*window, 0);
    QCOMPARE_NEAR(sessionOf(*window).trace().layers[0].heads[0].weights.exact()(0, 0), 0.438825);
    QCOMPARE_NEAR(pWho(*window), 0.861254);
    QVERIFY(editor()->selectMatrix(LessonMatrixKind::WQ, 0, 0, LessonLayerPart::DecoderSelf));
    QCOMPARE(editor()->model()->rowCount(), 5);
    QTemporaryDir dir;
    const QString path = dir.filePath("translation-5.json");
    QVERIFY(window->saveLessonTo(path));
    QVERIFY(window->openBuiltInLesson("two-heads"));
    QVERIFY2(window->openLessonFile(path), qPrintable(window->lastError()));
    QCOMPARE(sessionOf(*window).lesson().encoderDecoder.cross.heads[0].wq.rows(), 5);
    chooseStage(*window, 2);
    QCOMPARE_NEAR(pWho(*window), 0.861254);
}

// No W_O: with d_v 2 the encoder's output M would be 2 wide, not d_model 4.
void EncoderDecoderEditWindowTest::aResizeThatCannotRunKeepsTheLesson() {
    chooseStage(*window, 2);
    const std::string before = serializeLesson(sessionOf(*window).lesson());
    QVERIFY(!document()->setDimensions({4, 1, 2, 2}));
    QVERIFY2(editor()->message().contains("nothing changed") && editor()->message().contains("W_O"), qPrintable(editor()->message()));
    QCOMPARE(serializeLesson(sessionOf(*window).lesson()), before);
    QCOMPARE(child<QComboBox>(*window, "stageChoice")->currentIndex(), 2);
    QCOMPARE_NEAR(pWho(*window), 0.870544);
}

void EncoderDecoderEditWindowTest::headsOffActOnTheStageShown() {
    chooseStage(*window, 2);
    typeAblation(*window, "1:1");
    QVERIFY(sessionOf(*window).trace().layers[0].heads[0].ablated);  // the cross-attention's head
    QCOMPARE_NEAR(pWho(*window), 0.711235);
    chooseStage(*window, 0);  // the encoder keeps its head, and the box says so
    QCOMPARE(ablateText(*window), QString());
    QVERIFY(!sessionOf(*window).trace().layers[0].heads[0].ablated);
    chooseStage(*window, 2);
    QCOMPARE(ablateText(*window), QStringLiteral("1:1"));
    typeAblation(*window, "");
    QCOMPARE_NEAR(pWho(*window), 0.870544);
}

// Fails on the code before: the head went off in the encoder, so the decoder's box came back empty.
void EncoderDecoderEditWindowTest::headsOffSurviveALanguageSwitchOnADecoderStage() {
    chooseStage(*window, 1);
    typeAblation(*window, "1:1");
    window->setLanguage("zh_CN");
    QCOMPARE(child<QComboBox>(*window, "stageChoice")->currentIndex(), 1);
    QCOMPARE(ablateText(*window), QStringLiteral("1:1"));
    QVERIFY(sessionOf(*window).trace().layers[0].heads[0].ablated);  // the decoder's own head
}

void EncoderDecoderEditWindowTest::compareIsOffOnTheDecoderSelfAttention() {
    auto* tabs = child<QTabWidget>(*window, "tabs");
    const int compare = tabs->indexOf(window->findChild<CompareView*>());
    QVERIFY(compare >= 0);
    QVERIFY(tabs->isTabEnabled(compare));
    chooseStage(*window, 1);
    QVERIFY(!tabs->isTabEnabled(compare));
    QVERIFY2(tabs->tabToolTip(compare).contains("never the sentence"), qPrintable(tabs->tabToolTip(compare)));
    chooseStage(*window, 2);
    QVERIFY(tabs->isTabEnabled(compare));
    QVERIFY(tabs->tabToolTip(compare).isEmpty());
}

// Sentence B is another source: 谁 是 谁. Its encoder: 谁#1 meets 谁#2 with the same score 0.5, so
// M[谁] = [0, 0.232697, 1.767303, 0] (weights 0.383651, 0.232697, 0.383651); <s>'s query [0, 0, 4, 0]
// scores 2·(1.767303, 0.548137, 1.767303) = (3.534607, 1.096274, 3.534607): each 谁 gets
// 1/(2 + e^−2.438333) = 0.479086 (numpy from the lesson file agrees).
void EncoderDecoderEditWindowTest::compareRunsSentenceBsCrossAttention() {
    chooseStage(*window, 2);
    auto* view = window->findChild<CompareView*>("compareView");
    child<QTabWidget>(*window, "tabs")->setCurrentWidget(view);
    QLineEdit* box = view->sentenceBox();
    box->setText(QStringLiteral("谁 是 谁"));  // keyClicks types ASCII only
    QTest::keyClick(box, Qt::Key_Return);
    QTRY_VERIFY_WITH_TIMEOUT(view->builders()[1]->drawn().size() > 0, 20000);
    const Mat b = view->builders()[1]->drawn();  // T_t×T_s: the decoder's rows, B's source columns
    QCOMPARE(b.rows(), 4);
    QCOMPARE(b.cols(), 3);
    QCOMPARE_NEAR(b(0, 0), 0.479086);
    QCOMPARE_NEAR(b(0, 2), 0.479086);
}

// Heads ▸ Evaluate ranks heads by where a pronoun looks within its own sentence: on the encoder it
// is offered, on the decoder's masked self-attention and cross-attention it is off, its tooltip
// saying why (in Chinese under the Chinese interface), and back on the encoder it is on again.
void EncoderDecoderEditWindowTest::corefEvaluationIsOffOnTheDecoderStages() {
    QPushButton* evaluate = child<QPushButton>(*window, "evaluateHeads");
    const QString offered = evaluate->toolTip();
    QVERIFY(evaluate->isEnabled());
    for (const int stage : {1, 2}) {
        chooseStage(*window, stage);
        QVERIFY(!evaluate->isEnabled());
        QVERIFY2(evaluate->toolTip().contains("within its own sentence"), qPrintable(evaluate->toolTip()));
        QVERIFY(child<HeadsPanel>(*window, "headsPanel")->ranking()->isHidden());  // nothing it could rank
    }
    window->setLanguage("zh_CN");  // rebuilds the window's widgets
    evaluate = child<QPushButton>(*window, "evaluateHeads");
    QVERIFY(!evaluate->isEnabled());
    QVERIFY2(evaluate->toolTip().contains(QStringLiteral("编码器")) && !evaluate->toolTip().contains("sentence"),
             qPrintable(evaluate->toolTip()));
    window->setLanguage("en");
    evaluate = child<QPushButton>(*window, "evaluateHeads");
    chooseStage(*window, 0);
    QVERIFY(evaluate->isEnabled());
    QCOMPARE(evaluate->toolTip(), offered);
    QVERIFY(!child<HeadsPanel>(*window, "headsPanel")->ranking()->isHidden());
}

QTEST_MAIN(EncoderDecoderEditWindowTest)
#include "test_encoder_decoder_edit_window.moc"
