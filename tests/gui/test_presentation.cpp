// The window on a projector (issue 13 §4): View ▸ Zoom, presentation mode, ←/→ and
// PageUp/PageDown from any widget but text fields, the worked example's space, numbers as the
// lesson writes them, one title a step, and the loading sheet while a model opens.
#include <QAction>
#include <QApplication>
#include <QListWidget>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTest>
#include <QWheelEvent>
#include <cmath>
#include <memory>

#include <qcustomplot.h>

#include "app/presentation.hpp"
#include "ui/attention/heatmap_view.hpp"
#include "ui/editor/lesson_editor.hpp"
#include "ui/step/matrix_panel.hpp"
#include "ui/step/matrix_table.hpp"
#include "ui/step/step_navigator.hpp"
#include "ui/step/token_strip.hpp"
#include "window_access.hpp"

using namespace attnscope;

namespace {

const QString kBert = QStringLiteral(ATTNSCOPE_SOURCE_DIR) + "/tests/reference/models/bert-tiny";

int indexOfStep(const StepNavigator& nav, Step step) {
    const auto& steps = nav.steps();
    return static_cast<int>(std::find(steps.begin(), steps.end(), step) - steps.begin());
}

// What scales with the zoom, measured on screen.
struct Sizes {
    double tableFont = 0, heatmapLabelFont = 0, stepFont = 0, chipFont = 0;
    int tableRow = 0, stepRow = 0;
};

}  // namespace

class PresentationTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);  // the remembered zoom goes to a test folder
        Presentation::rememberZoom(true);           // as the app does (main.cpp)
    }
    void init();
    void cleanup() { window.reset(); }

    void zoomStepsThroughTheListAndIsRemembered();
    void zoom200DoublesFontsAndRowHeights();
    void arrowsAndPageKeysStepFromAnyWidgetButTextFields();
    void atLaunchTheArrowStepsTheLesson();
    void presentationModeHidesWhatAClassDoesNotNeed();
    void scoresStepNeedsNoHorizontalScrollBarAt150And200();
    void explanationPaneFitsItsText();
    void integersPrintWithoutDecimals();
    void eachStepTitleAppearsOnce();
    void openingAModelCoversThePreviousViews();

private:
    Presentation& presentation() { return *window->findChild<Presentation*>(); }
    StepNavigator& navigator() { return *child<StepNavigator>(*window, "navigator"); }
    void goToStep(Step step) { navigator().setCurrentIndex(indexOfStep(navigator(), step)); }
    Sizes measure();
    std::unique_ptr<MainWindow> window;
};

void PresentationTest::init() {
    window = std::make_unique<MainWindow>();
    window->findChild<Presentation*>()->setZoom(100);
    QVERIFY(window->openBuiltInLesson("first-hand-exercise"));
    window->resize(1600, 1000);
    window->show();
    window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(window.get()));
}

void PresentationTest::zoomStepsThroughTheListAndIsRemembered() {
    Presentation& p = presentation();
    QCOMPARE(p.zoom(), 100);
    QTest::keyClick(window.get(), Qt::Key_Plus, Qt::ControlModifier);
    QCOMPARE(p.zoom(), 110);
    QTest::keyClick(window.get(), Qt::Key_Equal, Qt::ControlModifier);  // Ctrl+= without Shift
    QCOMPARE(p.zoom(), 125);
    QTest::keyClick(window.get(), Qt::Key_Minus, Qt::ControlModifier);
    QCOMPARE(p.zoom(), 110);
    QTest::keyClick(window.get(), Qt::Key_0, Qt::ControlModifier);
    QCOMPARE(p.zoom(), 100);
    for (int i = 0; i < 20; ++i) p.zoomOut();
    QCOMPARE(p.zoom(), 50);
    for (int i = 0; i < 20; ++i) p.zoomIn();
    QCOMPARE(p.zoom(), 300);
    p.setZoom(175);
    QCOMPARE(window->font().pointSizeF(), 12 * 1.75);
    auto second = std::make_unique<MainWindow>();  // the next session starts where this one ended
    QCOMPARE(second->findChild<Presentation*>()->zoom(), 175);
    QCOMPARE(second->font().pointSizeF(), 12 * 1.75);
    p.setZoom(100);
    QCOMPARE(p.zoom(), 100);
    // Ctrl+wheel zooms over the worked example, not over a heatmap (it zooms itself there).
    const auto ctrlWheel = [](QWidget* w, int delta) {
        const QPointF at(w->width() / 2.0, w->height() / 2.0);
        QWheelEvent event(at, w->mapToGlobal(at), QPoint(), QPoint(0, delta), Qt::NoButton, Qt::ControlModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(w, &event);
    };
    ctrlWheel(child<MatrixPanel>(*window, "matrixPanel")->resultView()->viewport(), 120);
    QCOMPARE(p.zoom(), 110);
    ctrlWheel(child<MatrixPanel>(*window, "matrixPanel")->resultView()->viewport(), -120);
    QCOMPARE(p.zoom(), 100);
    ctrlWheel(child<HeatmapView>(*window, "heatmap")->firstPlot(), 120);
    QCOMPARE(p.zoom(), 100);
}

Sizes PresentationTest::measure() {
    Sizes s;
    MatrixTable* table = child<MatrixPanel>(*window, "matrixPanel")->resultView();
    s.tableFont = table->font().pointSizeF();
    s.tableRow = table->rowHeight(0);
    s.heatmapLabelFont = child<HeatmapView>(*window, "heatmap")->firstPlot()->xAxis->tickLabelFont().pointSizeF();
    QListWidget* steps = navigator().list();
    s.stepFont = steps->font().pointSizeF();
    s.stepRow = steps->visualItemRect(steps->item(0)).height();
    s.chipFont = child<TokenStrip>(*window, "tokens")->findChild<QLabel*>()->font().pointSizeF();
    return s;
}

void PresentationTest::zoom200DoublesFontsAndRowHeights() {
    // A wide step list, so no title wraps at either zoom: its rows then are one line each.
    auto* splitter = qobject_cast<QSplitter*>(navigator().parentWidget());
    QVERIFY(splitter);
    window->resize(4000, 1000);
    splitter->setSizes({1100, 2600, 300});
    goToStep(Step::Scores);
    child<QTabWidget>(*window, "tabs")->setCurrentWidget(child<HeatmapView>(*window, "heatmap"));
    QApplication::processEvents();
    const Sizes at100 = measure();
    presentation().setZoom(200);
    splitter->setSizes({1100, 2600, 300});  // the zoom widened the list to 500 px: wide again
    QApplication::processEvents();
    const Sizes at200 = measure();
    QCOMPARE(at200.tableFont, 2 * at100.tableFont);
    QCOMPARE(at200.heatmapLabelFont, 2 * at100.heatmapLabelFont);
    QCOMPARE(at200.stepFont, 2 * at100.stepFont);
    QCOMPARE(at200.chipFont, 2 * at100.chipFont);
    QVERIFY2(std::abs(at200.tableRow - 2 * at100.tableRow) <= 2,
             qPrintable(QString("table rows %1 → %2").arg(at100.tableRow).arg(at200.tableRow)));
    QVERIFY2(std::abs(at200.stepRow - 2 * at100.stepRow) <= 4,
             qPrintable(QString("step rows %1 → %2").arg(at100.stepRow).arg(at200.stepRow)));
}

void PresentationTest::arrowsAndPageKeysStepFromAnyWidgetButTextFields() {
    StepNavigator& nav = navigator();
    MatrixPanel* panel = child<MatrixPanel>(*window, "matrixPanel");
    QWidget* stepping[] = {nav.list(), panel->resultView(), panel->findChild<QPlainTextEdit*>("explanation"),
                           child<QTabWidget>(*window, "tabs")->tabBar(), nav.nextButton()};
    int expected = 0;
    for (QWidget* w : stepping) {
        QTest::keyClick(w, Qt::Key_Right);
        QCOMPARE(nav.currentIndex(), ++expected);
    }
    QTest::keyClick(panel->resultView(), Qt::Key_PageDown);  // a clicker's "next"
    QCOMPARE(nav.currentIndex(), ++expected);
    QTest::keyClick(nav.list(), Qt::Key_PageUp);
    QCOMPARE(nav.currentIndex(), --expected);
    QTest::keyClick(panel->resultView(), Qt::Key_Left);
    QCOMPARE(nav.currentIndex(), --expected);

    // Where the user types, the arrows move the text cursor.
    auto* sentence = child<QLineEdit>(*window, "sentence");
    sentence->setCursorPosition(2);
    QTest::keyClick(sentence, Qt::Key_Right);
    QCOMPARE(sentence->cursorPosition(), 3);
    QCOMPARE(nav.currentIndex(), expected);
    auto* spin = new QSpinBox(window->centralWidget());
    spin->setValue(5);
    QTest::keyClick(spin, Qt::Key_Left);
    QTest::keyClick(spin, Qt::Key_PageUp);  // a spin box's own step
    QCOMPARE(nav.currentIndex(), expected);
    QCOMPARE(spin->value(), 15);
    QTest::keyClick(child<QLineEdit>(*window, "ablateEdit"), Qt::Key_Right);
    QCOMPARE(nav.currentIndex(), expected);
    // A cell being edited in the lesson editor keeps its arrows too.
    auto* tabs = child<QTabWidget>(*window, "tabs");
    auto* editor = child<LessonEditor>(*window, "lessonEditor");
    tabs->setCurrentWidget(editor);
    auto* table = child<QAbstractItemView>(*window, "editTable");
    QVERIFY(table);
    table->setFocus();
    table->setCurrentIndex(table->model()->index(0, 0));
    table->edit(table->currentIndex());
    auto* cellEditor = qobject_cast<QLineEdit*>(QApplication::focusWidget());
    QVERIFY(cellEditor);
    QTest::keyClick(cellEditor, Qt::Key_Left);
    QCOMPARE(nav.currentIndex(), expected);
}

void PresentationTest::atLaunchTheArrowStepsTheLesson() {
    auto* sentence = child<QLineEdit>(*window, "sentence");
    QVERIFY(QApplication::focusWidget() != sentence);
    const int cursor = sentence->cursorPosition();
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Right);
    QCOMPARE(navigator().currentIndex(), 1);
    QCOMPARE(sentence->cursorPosition(), cursor);
}

void PresentationTest::presentationModeHidesWhatAClassDoesNotNeed() {
    auto* tabs = child<QTabWidget>(*window, "tabs");
    auto* editor = child<LessonEditor>(*window, "lessonEditor");
    tabs->setCurrentWidget(editor);
    QTest::keyClick(window.get(), Qt::Key_F11);
    QVERIFY(presentation().presenting());
    QVERIFY(window->windowState() & Qt::WindowFullScreen);
    QVERIFY(!window->menuBar()->isVisible());
    QVERIFY(!window->statusBar()->isVisible());
    QVERIFY(!tabs->isTabVisible(tabs->indexOf(editor)));
    QVERIFY(tabs->currentWidget() != editor);
    QVERIFY(!child<QLineEdit>(*window, "ablateEdit")->isVisible());
    QVERIFY(!child<QLabel>(*window, "description")->isVisible());
    QVERIFY(child<QLabel>(*window, "lessonTitle")->isVisible());
    QVERIFY(navigator().isVisible());
    QVERIFY(child<MatrixPanel>(*window, "matrixPanel")->isVisible());
    QTest::keyClick(window.get(), Qt::Key_Right);  // stepping still works
    QCOMPARE(navigator().currentIndex(), 1);
    QTest::keyClick(window.get(), Qt::Key_Escape);
    QVERIFY(!presentation().presenting());
    QVERIFY(!(window->windowState() & Qt::WindowFullScreen));
    QVERIFY(window->menuBar()->isVisible());
    QVERIFY(tabs->isTabVisible(tabs->indexOf(editor)));
    QVERIFY(child<QLineEdit>(*window, "ablateEdit")->isVisible());
    QTest::keyClick(window.get(), Qt::Key_F11);  // F11 also toggles back out
    QTest::keyClick(window.get(), Qt::Key_F11);
    QVERIFY(!presentation().presenting());
}

// Lesson 1 with four tokens at 150 % and 200 % in a 1600×1000 window: Q, K and S side by side.
void PresentationTest::scoresStepNeedsNoHorizontalScrollBarAt150And200() {
    window->setSentence("cats chase mice cats");
    QCOMPARE(sessionOf(*window).trace().tokenCount(), 4);
    MatrixPanel* panel = child<MatrixPanel>(*window, "matrixPanel");
    auto* scroll = panel->findChild<QScrollArea*>();
    const int listWidth = navigator().width();
    for (const int zoom : {150, 200}) {
        presentation().setZoom(zoom);
        goToStep(Step::Scores);
        QApplication::processEvents();
        QCOMPARE(panel->resultModel()->step(), Step::Scores);
        QVERIFY2(!scroll->horizontalScrollBar()->isVisible(),
                 qPrintable(QString("zoom %1: canvas %2 px in %3 px").arg(zoom)
                                .arg(scroll->widget()->minimumSizeHint().width()).arg(scroll->viewport()->width())));
        for (const MatrixTable* table : panel->findChildren<MatrixTable*>())
            if (table->isVisible()) QVERIFY(!table->horizontalScrollBar()->isVisible());
    }
    QVERIFY2(navigator().width() >= listWidth * 3 / 2,  // step titles get room too (1600 / 4 = 400 px)
             qPrintable(QString("step list %1 px at 200 %, %2 px at 100 %, window %3 px")
                            .arg(navigator().width()).arg(listWidth).arg(window->width())));
}

// No half-height empty pane: the explanation takes the lines it shows; the tables the rest.
void PresentationTest::explanationPaneFitsItsText() {
    MatrixPanel* panel = child<MatrixPanel>(*window, "matrixPanel");
    auto* explanation = panel->findChild<QPlainTextEdit*>("explanation");
    goToStep(Step::Scores);
    QApplication::processEvents();
    const int lineHeight = explanation->fontMetrics().lineSpacing();
    QVERIFY2(explanation->height() <= 4 * lineHeight,
             qPrintable(QString("empty pane %1 px of %2").arg(explanation->height()).arg(panel->height())));
    panel->selectCell(0, 2);
    QApplication::processEvents();
    const int lines = explanation->document()->blockCount();
    QVERIFY(lines >= 5);
    QVERIFY(explanation->height() >= lines * lineHeight);  // every line shows, no scroll bar
    QVERIFY(!explanation->verticalScrollBar()->isVisible());
    QVERIFY(explanation->height() <= (lines + 2) * lineHeight);
    QVERIFY(explanation->height() <= panel->height() / 3);  // the worked example keeps the height
}

void PresentationTest::integersPrintWithoutDecimals() {
    MatrixPanel* panel = child<MatrixPanel>(*window, "matrixPanel");
    goToStep(Step::Scores);
    // cats·mice = [1,0,1,0,0]·[1,1,0,1,0] = 1; cats·cats = 2.
    QCOMPARE(panel->resultModel()->index(0, 2).data().toString(), QString("1"));
    QCOMPARE(panel->resultModel()->index(0, 0).data().toString(), QString("2"));
    panel->selectCell(0, 2);
    QVERIFY2(panel->explanationText().contains("= 1 × 1 = 1"), qPrintable(panel->explanationText()));
    goToStep(Step::Weights);  // softmax: the lesson's 4 decimals
    QCOMPARE(panel->resultModel()->index(0, 2).data().toString().section('.', 1).size(), 4);
}

void PresentationTest::eachStepTitleAppearsOnce() {
    MatrixPanel* panel = child<MatrixPanel>(*window, "matrixPanel");
    const QListWidget* list = navigator().list();
    for (int i = 0; i < list->count(); ++i) {
        navigator().setCurrentIndex(i);
        const QString title = QString::fromStdString(stepTitleIn(sessionOf(*window).trace(), navigator().currentStep(), 0));
        int shown = 0;
        for (const QLabel* label : panel->findChildren<QLabel*>())
            if (label->isVisible() && label->text().contains(title)) ++shown;
        QVERIFY2(shown == 1, qPrintable(QString("%1: %2 times").arg(title).arg(shown)));
    }
    // Lesson 1 has no projections: its queries are X itself.
    const QString query = list->item(indexOfStep(navigator(), Step::Query))->text();
    QVERIFY2(query.contains("Q = X") && !query.contains("W_Q"), qPrintable(query));
    QVERIFY(window->openBuiltInLesson("two-heads"));  // a lesson with projections says so
    QVERIFY(navigator().list()->item(indexOfStep(navigator(), Step::Query))->text().contains("Q = X·W_Q"));
}

void PresentationTest::openingAModelCoversThePreviousViews() {
    auto* cover = child<QLabel>(*window, "loadingCover");
    QVERIFY(!cover->isVisible());
    window->openModel(kBert);
    QVERIFY(cover->isVisible());
    QVERIFY2(cover->text().contains("Opening") && cover->text().contains("bert-tiny"), qPrintable(cover->text()));
    QCOMPARE(cover->geometry(), child<QTabWidget>(*window, "tabs")->rect());  // over every view
    QVERIFY(waitForModel(*window));
    QTRY_VERIFY(showsModel(*window));
    QTRY_VERIFY(!cover->isVisible());  // the model's trace arrived
    window->openModel(QStringLiteral(ATTNSCOPE_SOURCE_DIR) + "/no/such/model");
    QVERIFY(cover->isVisible());
    QVERIFY(waitForModel(*window));
    QTRY_VERIFY(!cover->isVisible());  // the failure leaves the model on screen, uncovered
    QVERIFY(showsModel(*window));
}

QTEST_MAIN(PresentationTest)
#include "test_presentation.moc"
