// GUI tests: the real MainWindow on the offscreen platform, checked through what each view
// reports it drew (cells, labels, highlighted sources), never through pixels.
#include <QLabel>
#include <QAbstractItemView>
#include <QApplication>
#include <QComboBox>
#include <QInputMethodEvent>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <memory>
#include <set>

#include <qcustomplot.h>

#include "app/main_window.hpp"
#include "scripts/driver/screenshots/screenshot_tour.hpp"
#include "window_access.hpp"
#include "core/trace/explain.hpp"
#include "ui/attention/heatmap_view.hpp"
#include "ui/editor/lesson_editor.hpp"
#include "ui/step/matrix_panel.hpp"
#include "ui/step/matrix_table.hpp"
#include "ui/step/step_navigator.hpp"
#include "ui/step/token_strip.hpp"

using namespace attnscope;

namespace {

// Two heads, projections, W_O, a one-row positional table (so a notice appears) and hand rounding.
const char* kTwoHeadLesson = R"({
  "format": "attnscope-lesson", "version": 1,
  "title": "Test: two heads", "description": "A lesson written by the GUI tests.",
  "sentence": "a b c", "d_model": 3, "heads": 2, "d_k": 2, "d_v": 2,
  "embeddings": {"a": [1, 0, 0], "b": [0, 1, 0], "c": [0, 0, 1]},
  "heads_weights": [
    {"W_Q": [[1, 0], [0, 1], [0.5, 0.5]], "W_K": [[1, 0], [0, 1], [0, 0]], "W_V": [[1, 0], [0, 1], [1, 1]]},
    {"W_Q": [[0, 1], [1, 0], [1, 1]], "W_K": [[2, 0], [0, 2], [1, 0]], "W_V": [[1, 1], [0, 1], [1, 0]]}
  ],
  "W_O": [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]],
  "positional_encoding": {"table": [[0, 0, 0]]},
  "display": {"decimals": 3, "hand_rounding": 2}
})";

QStringList tokenTexts(const Trace& trace) {
    QStringList out;
    for (const Token& t : trace.tokens) out << QString::fromStdString(t.text);
    return out;
}

int indexOfStep(const StepNavigator& nav, Step step) {
    const auto& steps = nav.steps();
    for (std::size_t i = 0; i < steps.size(); ++i)
        if (steps[i] == step) return static_cast<int>(i);
    return -1;
}

std::set<std::pair<int, int>> cellsOf(const TraceMatrixModel& model) {
    std::set<std::pair<int, int>> out;
    for (const MatrixCell& c : model.highlightedCells()) out.insert({c.row, c.col});
    return out;
}

const TraceMatrixModel* operandFor(const MatrixPanel& panel, Step step) {
    for (const TraceMatrixModel* m : panel.operandModels())
        if (m->step() == step) return m;
    return nullptr;
}

// Checks that a heatmap builder drew exactly the weights of `head`, labelled with the tokens.
void verifyHeatmap(const HeatmapBuilder& b, const Trace& trace, int head) {
    const Mat w = trace.layers[0].heads[head].weights.toMat();
    const int T = trace.tokenCount();
    QCOMPARE(static_cast<int>(b.drawnCells().size()), T * T);
    for (const DrawnCell& c : b.drawnCells()) QCOMPARE(c.value, w(c.row, c.col));
    QCOMPARE(b.keyLabels(), tokenTexts(trace));
    QCOMPARE(b.queryLabels(), tokenTexts(trace));
    QCOMPARE(b.head(), head);
}

}  // namespace

class MainWindowTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { initResources(); }
    void init();
    void cleanup() { window.reset(); }

    void opensTheBuiltInLesson();
    void lessonsMenuListsBuiltInLessons();
    void typingASentenceUpdatesTokensAndHeatmap();
    void heatmapHoverShowsTheExactWeight();
    void stepsMoveWithButtonsAndArrowKeys();
    void arrowKeysInTheSentenceBoxDoNotChangeTheStep();
    void selectingACellExplainsItAndHighlightsItsSources();
    void everyColumnFitsItsWidestCell();
    void softmaxCellHighlightsItsRow();
    void nonNumbersAreRefusedAndTheOldValueStays();
    void validEditsRecomputeEverything();
    void weightEditsNameTheCell();
    void chineseSentenceGivesOneTokenPerCharacter();
    void malformedLessonKeepsThePreviousOne();
    void invalidLessonKeepsThePreviousOne();
    void twoHeadsShowSideBySide();
    void handRoundingAndNoticesAreShown();
    void savedLessonReadsBack();
    void largerTextScalesEveryView();
    void twoLayerLessonShowsEveryLayer();
    void layerTwoWeightsEditable();
    void screenshotsAreWritten();

private:
    void openTestLesson();
    std::unique_ptr<MainWindow> window;
    QTemporaryDir tmp;
};

void MainWindowTest::init() {
    window = std::make_unique<MainWindow>();
    QVERIFY(window->openBuiltInLesson("first-hand-exercise"));
    window->show();
    window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(window.get()));
}

void MainWindowTest::openTestLesson() {
    const QString path = tmp.filePath("two-heads-test.json");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(kTwoHeadLesson);
    f.close();
    QVERIFY2(window->openLessonFile(path), qPrintable(window->lastError()));
}

void MainWindowTest::opensTheBuiltInLesson() {
    QVERIFY(child<QLabel>(*window, "lessonTitle")->text().contains("first hand exercise"));
    QCOMPARE(child<QLineEdit>(*window, "sentence")->text(), QString("cats chase mice"));
    QCOMPARE(child<TokenStrip>(*window, "tokens")->chipTexts(), (QStringList{"cats", "chase", "mice"}));
    QCOMPARE(child<StepNavigator>(*window, "navigator")->steps(), stepsOf(sessionOf(*window).trace()));
    QCOMPARE(child<StepNavigator>(*window, "navigator")->list()->count(), static_cast<int>(stepsOf(sessionOf(*window).trace()).size()));
}

void MainWindowTest::lessonsMenuListsBuiltInLessons() {
    QStringList titles;
    for (QAction* menu : window->menuBar()->actions())
        if (menu->text().remove('&') == "Lessons")
            for (QAction* a : menu->menu()->actions()) titles << a->text();
    QVERIFY(titles.contains("1. The first hand exercise: Q = K = V = X"));
}

void MainWindowTest::typingASentenceUpdatesTokensAndHeatmap() {
    QLineEdit* edit = child<QLineEdit>(*window, "sentence");
    edit->clear();
    QTest::keyClicks(edit, "Mice chase cats and dogs");
    QTRY_COMPARE(child<TokenStrip>(*window, "tokens")->chipTexts(), (QStringList{"mice", "chase", "cats", "and", "dogs"}));
    const Trace& trace = sessionOf(*window).trace();
    QCOMPARE(trace.tokenCount(), 5);
    QCOMPARE(child<TokenStrip>(*window, "tokens")->chipsInTable(), (std::vector<bool>{true, true, true, false, false}));
    QVERIFY(child<TokenStrip>(*window, "tokens")->chipToolTips()[4].contains("hash rule"));

    const auto builders = child<HeatmapView>(*window, "heatmap")->builders();
    QCOMPARE(static_cast<int>(builders.size()), 1);
    verifyHeatmap(*builders[0], trace, 0);
    QCOMPARE(builders[0]->valueLabelCount(), 25);  // every weight printed in its cell

    // By hand, for "mice chase cats": cats·[cats, chase, mice] = [2, 1, 1], so
    // A[cats, cats] = e² / (e² + e + e) = e / (e + 2).
    edit->clear();
    QTest::keyClicks(edit, "mice chase cats");
    QTRY_COMPARE(sessionOf(*window).trace().tokenCount(), 3);
    const auto again = child<HeatmapView>(*window, "heatmap")->builders();
    verifyHeatmap(*again[0], sessionOf(*window).trace(), 0);
    const DrawnCell catsCats = again[0]->drawnCells()[2 * 3 + 2];
    QCOMPARE(catsCats.row, 2);
    QCOMPARE(catsCats.col, 2);
    QVERIFY(std::abs(catsCats.value - std::exp(1.0) / (std::exp(1.0) + 2)) < 1e-12);
}

void MainWindowTest::heatmapHoverShowsTheExactWeight() {
    child<QTabWidget>(*window, "tabs")->setCurrentWidget(child<HeatmapView>(*window, "heatmap"));
    QApplication::processEvents();
    const HeatmapBuilder& b = *child<HeatmapView>(*window, "heatmap")->builders()[0];
    QCustomPlot* plot = b.plot();
    const QPointF pixel(plot->xAxis->coordToPixel(2), plot->yAxis->coordToPixel(0));  // row cats, column mice
    const double w = sessionOf(*window).trace().layers[0].heads[0].weights(0, 2);
    QCOMPARE(b.hoverText(pixel), QString("cats (#1) → mice (#3): %1").arg(QString::fromStdString(formatNumber(w, 4))));
    QVERIFY(b.hoverText(QPointF(-100, -100)).isEmpty());
}

void MainWindowTest::stepsMoveWithButtonsAndArrowKeys() {
    StepNavigator* nav = child<StepNavigator>(*window, "navigator");
    QCOMPARE(nav->currentIndex(), 0);
    QCOMPARE(child<MatrixPanel>(*window, "matrixPanel")->resultModel()->step(), Step::Embedding);
    QTest::mouseClick(nav->nextButton(), Qt::LeftButton);
    QCOMPARE(nav->currentIndex(), 1);
    QCOMPARE(child<MatrixPanel>(*window, "matrixPanel")->resultModel()->step(), nav->steps()[1]);

    nav->list()->setFocus();
    QTest::keyClick(nav->list(), Qt::Key_Right);
    QCOMPARE(nav->currentIndex(), 2);
    QCOMPARE(child<MatrixPanel>(*window, "matrixPanel")->resultModel()->step(), nav->steps()[2]);
    QTest::keyClick(nav->list(), Qt::Key_Right);
    QCOMPARE(nav->currentIndex(), 3);
    QTest::keyClick(nav->list(), Qt::Key_Left);
    QCOMPARE(nav->currentIndex(), 2);
    QTest::mouseClick(nav->previousButton(), Qt::LeftButton);
    QCOMPARE(nav->currentIndex(), 1);
    QCOMPARE(child<MatrixPanel>(*window, "matrixPanel")->resultModel()->step(), nav->steps()[1]);
    QVERIFY(!nav->previousButton()->isEnabled() || nav->currentIndex() > 0);
}

void MainWindowTest::arrowKeysInTheSentenceBoxDoNotChangeTheStep() {
    child<QLineEdit>(*window, "sentence")->setFocus();
    child<QLineEdit>(*window, "sentence")->setCursorPosition(3);
    QTest::keyClick(child<QLineEdit>(*window, "sentence"), Qt::Key_Right);
    QCOMPARE(child<StepNavigator>(*window, "navigator")->currentIndex(), 0);
    QCOMPARE(child<QLineEdit>(*window, "sentence")->cursorPosition(), 4);
}

// The result table measures each column's widest texts as the model names them (largest, most
// negative, NaN/±∞), not every cell: checked against every cell, step by step.
void MainWindowTest::everyColumnFitsItsWidestCell() {
    window->openBuiltInLesson("causal-mask");  // negative scores and the mask's −∞
    StepNavigator* nav = child<StepNavigator>(*window, "navigator");
    MatrixPanel* panel = child<MatrixPanel>(*window, "matrixPanel");
    MatrixTable* view = panel->resultView();
    int negatives = 0, infinities = 0;
    for (int i = 0; i < static_cast<int>(nav->steps().size()); ++i) {
        nav->setCurrentIndex(i);
        const QFontMetrics metrics(view->font());  // a step too large for the window takes a smaller one
        const TraceMatrixModel* model = panel->resultModel();
        for (int c = 0; c < model->columnCount(); ++c) {
            const QStringList named = model->headerData(c, Qt::Horizontal, kWidestTextsRole).toStringList();
            int longest = 0, widest = 0;
            for (int r = 0; r < model->rowCount(); ++r) {
                const QString text = model->data(model->index(r, c), Qt::DisplayRole).toString();
                longest = std::max(longest, static_cast<int>(text.size()));
                widest = std::max(widest, metrics.horizontalAdvance(text));
                negatives += text.startsWith('-') ? 1 : 0;
                infinities += text.contains(QStringLiteral("∞")) ? 1 : 0;
            }
            int namedLongest = 0;
            for (const QString& text : named) namedLongest = std::max(namedLongest, static_cast<int>(text.size()));
            QVERIFY2(namedLongest == longest, qPrintable(QString("step %1 column %2: %3 named, a cell of %4 characters")
                                                             .arg(i).arg(c).arg(named.join(", ")).arg(longest)));
            QVERIFY2(view->columnWidth(c) >= widest + 6, qPrintable(QString("step %1 column %2").arg(i).arg(c)));
        }
    }
    QVERIFY(negatives > 0);   // columns whose widest text can be their most negative number
    QVERIFY(infinities > 0);  // and texts that are no number
}

void MainWindowTest::selectingACellExplainsItAndHighlightsItsSources() {
    StepNavigator* nav = child<StepNavigator>(*window, "navigator");
    nav->setCurrentIndex(indexOfStep(*nav, Step::Scores));
    MatrixPanel* panel = child<MatrixPanel>(*window, "matrixPanel");
    QCOMPARE(panel->resultModel()->step(), Step::Scores);

    // Click S[cats, mice]: cats = [1,0,1,0,0], mice = [1,1,0,1,0], so the score is 1·1 = 1.
    MatrixTable* view = panel->resultView();
    const QModelIndex cell = panel->resultModel()->index(0, 2);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(cell).center());
    const Trace& trace = sessionOf(*window).trace();
    QCOMPARE(trace.layers[0].heads[0].scores(0, 2), 1.0);
    const auto expected = explainCell(trace, CellRef{Step::Scores, 0, 0, 0, 2}, 4);
    QVERIFY(expected.ok());
    QCOMPARE(static_cast<int>(expected.value().terms.size()), 5);
    const QString text = panel->explanationText();
    QVERIFY(!text.isEmpty());
    for (const Term& term : expected.value().terms)
        QVERIFY2(text.contains(QString::fromStdString(term.label)), qPrintable(text));
    QVERIFY2(text.contains("= 1 × 1 = 1") && !text.contains("1.0000"), qPrintable(text));  // integers as written

    const TraceMatrixModel* q = operandFor(*panel, Step::Query);
    const TraceMatrixModel* k = operandFor(*panel, Step::Key);
    QVERIFY(q && k);
    const std::set<std::pair<int, int>> catsRow{{0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}};
    const std::set<std::pair<int, int>> miceRow{{2, 0}, {2, 1}, {2, 2}, {2, 3}, {2, 4}};
    QCOMPARE(cellsOf(*q), catsRow);
    QCOMPARE(cellsOf(*k), miceRow);
    QVERIFY(q->data(q->index(0, 0), TraceMatrixModel::HighlightRole).toBool());
    QVERIFY(!q->data(q->index(1, 0), TraceMatrixModel::HighlightRole).toBool());

    // Moving on clears the explanation and the highlights.
    QTest::mouseClick(nav->nextButton(), Qt::LeftButton);
    QVERIFY(panel->explanationText().isEmpty());
    for (const TraceMatrixModel* m : panel->operandModels()) QVERIFY(m->highlightedCells().empty());
}

void MainWindowTest::softmaxCellHighlightsItsRow() {
    StepNavigator* nav = child<StepNavigator>(*window, "navigator");
    nav->setCurrentIndex(indexOfStep(*nav, Step::Weights));
    MatrixPanel* panel = child<MatrixPanel>(*window, "matrixPanel");
    panel->selectCell(1, 0);
    const auto expected = explainCell(sessionOf(*window).trace(), CellRef{Step::Weights, 0, 0, 1, 0}, 4);
    QVERIFY(expected.ok());
    QCOMPARE(expected.value().kind, ExplanationKind::Softmax);
    QCOMPARE(static_cast<int>(panel->explanationText().count('\n')) + 1,
             static_cast<int>(expected.value().lines.size()));
    const TraceMatrixModel* scores = operandFor(*panel, Step::Scores);
    QVERIFY(scores);
    QVERIFY(cellsOf(*scores).count({1, 0}));
    for (const auto& [row, col] : cellsOf(*scores)) QCOMPARE(row, 1);  // the row normalised together
}

void MainWindowTest::nonNumbersAreRefusedAndTheOldValueStays() {
    child<QTabWidget>(*window, "tabs")->setCurrentWidget(child<LessonEditor>(*window, "lessonEditor"));
    LessonEditor* editor = child<LessonEditor>(*window, "lessonEditor");
    QVERIFY(editor->selectMatrix(LessonMatrixKind::Embeddings));
    LessonMatrixModel* model = editor->model();
    const int cats = 0;  // rows follow the lesson's table: cats, chase, mice
    QCOMPARE(model->headerData(cats, Qt::Vertical, Qt::DisplayRole).toString(), QString("cats"));
    QCOMPARE(model->valueAt(cats, 0), 1.0);
    const Mat scoresBefore = sessionOf(*window).trace().layers[0].heads[0].scores;

    for (const char* bad : {"abc", "nan", "inf", "-inf", "1e999", ""}) {
        MatrixTable* table = editor->table();
        const QModelIndex index = model->index(cats, 0);
        table->setCurrentIndex(index);
        table->edit(index);
        auto* line = table->findChild<QLineEdit*>();
        QVERIFY2(line, bad);
        line->clear();
        QTest::keyClicks(line, bad);
        editor->showMessage(QString(), false);
        QTest::keyClick(line, Qt::Key_Return);  // the delegate commits on the next event loop pass
        QTRY_VERIFY2(editor->message().contains(QString("“%1”").arg(bad)), qPrintable(QString(bad) + " / " + editor->message()));
        QCOMPARE(model->valueAt(cats, 0), 1.0);
        QVERIFY2(editor->message().contains("embedding[cats, animal] keeps 1"), qPrintable(editor->message()));
        QVERIFY(window->statusBar()->currentMessage().contains("keeps 1"));
    }
    QVERIFY(editor->message().contains("is not a number"));
    QVERIFY(!model->setData(model->index(cats, 0), "NaN"));
    QVERIFY(editor->message().contains("is not a finite number"));
    QCOMPARE(sessionOf(*window).trace().layers[0].heads[0].scores, scoresBefore);
    QCOMPARE(sessionOf(*window).lesson().embeddings[cats].second(0, 0), 1.0);
}

void MainWindowTest::validEditsRecomputeEverything() {
    LessonEditor* editor = child<LessonEditor>(*window, "lessonEditor");
    QVERIFY(editor->selectMatrix(LessonMatrixKind::Embeddings));
    // cats = [2,0,1,0,0] makes S[cats, cats] = 4 + 1 = 5 and S[cats, mice] = 2.
    QVERIFY(editor->model()->setData(editor->model()->index(0, 0), " 2 "));
    const Trace& trace = sessionOf(*window).trace();
    QCOMPARE(trace.layers[0].heads[0].scores(0, 0), 5.0);
    QCOMPARE(trace.layers[0].heads[0].scores(0, 2), 2.0);
    QVERIFY(editor->message().isEmpty());
    verifyHeatmap(*child<HeatmapView>(*window, "heatmap")->builders()[0], trace, 0);
    // The view shows the new numbers too.
    StepNavigator* nav = child<StepNavigator>(*window, "navigator");
    nav->setCurrentIndex(indexOfStep(*nav, Step::Scores));
    const TraceMatrixModel* result = child<MatrixPanel>(*window, "matrixPanel")->resultModel();
    QCOMPARE(result->data(result->index(0, 0), Qt::DisplayRole).toString(), QString("5"));  // integers as written
}

void MainWindowTest::weightEditsNameTheCell() {
    openTestLesson();
    LessonEditor* editor = child<LessonEditor>(*window, "lessonEditor");
    QVERIFY(editor->selectMatrix(LessonMatrixKind::WQ, 0));
    LessonMatrixModel* model = editor->model();
    QCOMPARE(model->rowCount(), 3);
    QCOMPARE(model->columnCount(), 2);
    QCOMPARE(model->valueAt(2, 1), 0.5);
    QVERIFY(!model->setData(model->index(2, 1), "abc"));
    QCOMPARE(model->valueAt(2, 1), 0.5);
    QCOMPARE(editor->message(), QString("“abc” is not a number; W_Q (head 1)[2, 1] keeps 0.5"));
    QVERIFY(model->setData(model->index(2, 1), "1.25"));
    QCOMPARE(sessionOf(*window).lesson().layers[0].heads[0].wq(2, 1), 1.25);
    QCOMPARE(sessionOf(*window).trace().layers[0].heads[0].params.wq(2, 1), 1.25);
}

void MainWindowTest::chineseSentenceGivesOneTokenPerCharacter() {
    QLineEdit* edit = child<QLineEdit>(*window, "sentence");
    edit->clear();
    edit->setFocus();
    // QTest::keyClicks aborts on non-ASCII text: commit it as an input method would.
    QInputMethodEvent event;
    event.setCommitString(QStringLiteral("猫追老鼠"));
    QApplication::sendEvent(edit, &event);
    QCOMPARE(edit->text(), QStringLiteral("猫追老鼠"));
    const QStringList expected{"猫", "追", "老", "鼠"};
    QTRY_COMPARE(child<TokenStrip>(*window, "tokens")->chipTexts(), expected);
    QCOMPARE(tokenTexts(sessionOf(*window).trace()), expected);
    QCOMPARE(child<TokenStrip>(*window, "tokens")->chipsInTable(), std::vector<bool>(4, false));
    verifyHeatmap(*child<HeatmapView>(*window, "heatmap")->builders()[0], sessionOf(*window).trace(), 0);
}

void MainWindowTest::malformedLessonKeepsThePreviousOne() {
    const QString path = tmp.filePath("broken.json");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{ \"format\": \"attnscope-lesson\", ");
    f.close();
    const QString title = child<QLabel>(*window, "lessonTitle")->text();
    const Mat weights = sessionOf(*window).trace().layers[0].heads[0].weights.toMat();
    QVERIFY(!window->openLessonFile(path));
    QVERIFY2(window->lastError().contains("not valid JSON"), qPrintable(window->lastError()));
    QCOMPARE(child<QLabel>(*window, "lessonTitle")->text(), title);
    QCOMPARE(sessionOf(*window).trace().layers[0].heads[0].weights.toMat(), weights);
    QCOMPARE(child<TokenStrip>(*window, "tokens")->chipTexts(), (QStringList{"cats", "chase", "mice"}));
    auto* box = window->findChild<QMessageBox*>();
    QVERIFY(box);
    QVERIFY(box->isVisible());
    QVERIFY(box->text().contains("previous lesson stays open"));
    box->close();
}

void MainWindowTest::invalidLessonKeepsThePreviousOne() {
    const QString title = child<QLabel>(*window, "lessonTitle")->text();
    QVERIFY(!window->openLessonFile(tmp.filePath("does-not-exist.json")));
    QVERIFY(!window->openBuiltInLesson("no-such-lesson"));
    const QString path = tmp.filePath("wrong-shape.json");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"format": "attnscope-lesson", "version": 1, "d_model": 2, "embeddings": {"a": [1, 2, 3]}})");
    f.close();
    QVERIFY(!window->openLessonFile(path));
    QVERIFY2(window->lastError().contains("embeddings.a"), qPrintable(window->lastError()));
    QCOMPARE(child<QLabel>(*window, "lessonTitle")->text(), title);
    QCOMPARE(sessionOf(*window).lesson().dModel, 5);
}

void MainWindowTest::twoHeadsShowSideBySide() {
    openTestLesson();
    const Trace& trace = sessionOf(*window).trace();
    QCOMPARE(trace.headCount(), 2);
    HeatmapView* heatmap = child<HeatmapView>(*window, "heatmap");
    child<StepNavigator>(*window, "navigator")->setCurrentHead(1);
    QCOMPARE(heatmap->head(), 1);
    verifyHeatmap(*heatmap->builders()[0], trace, 1);
    QCOMPARE(child<MatrixPanel>(*window, "matrixPanel")->resultModel()->head(), 0);  // Embedding is not per head
    heatmap->setAllHeads(true);
    const auto builders = heatmap->builders();
    QCOMPARE(static_cast<int>(builders.size()), 2);
    verifyHeatmap(*builders[0], trace, 0);
    verifyHeatmap(*builders[1], trace, 1);

    StepNavigator* nav = child<StepNavigator>(*window, "navigator");
    nav->setCurrentIndex(indexOfStep(*nav, Step::Query));
    QCOMPARE(child<MatrixPanel>(*window, "matrixPanel")->resultModel()->head(), 1);
    QVERIFY(operandFor(*child<MatrixPanel>(*window, "matrixPanel"), Step::WQ));
    QVERIFY(indexOfStep(*nav, Step::Concat) >= 0);
    QVERIFY(indexOfStep(*nav, Step::Output) >= 0);
}

void MainWindowTest::handRoundingAndNoticesAreShown() {
    QVERIFY(child<QLabel>(*window, "rounding")->text().isEmpty());
    QVERIFY(child<QLabel>(*window, "notices")->text().isEmpty());
    openTestLesson();
    QVERIFY2(child<QLabel>(*window, "rounding")->text().contains("2 decimals"), qPrintable(child<QLabel>(*window, "rounding")->text()));
    QVERIFY2(child<QLabel>(*window, "notices")->text().contains("positional table"), qPrintable(child<QLabel>(*window, "notices")->text()));
}

void MainWindowTest::savedLessonReadsBack() {
    openTestLesson();
    QVERIFY(child<LessonEditor>(*window, "lessonEditor")->model()->setData(child<LessonEditor>(*window, "lessonEditor")->model()->index(0, 0), "3"));
    const QString path = tmp.filePath("saved.json");
    QVERIFY(window->saveLessonTo(path));
    auto window2 = std::make_unique<MainWindow>();
    QVERIFY(window2->openLessonFile(path));
    QCOMPARE(sessionOf(*window2).lesson().embeddings[0].second(0, 0), 3.0);
    QCOMPARE(sessionOf(*window2).trace().layers[0].heads[1].weights.toMat(), sessionOf(*window).trace().layers[0].heads[1].weights.toMat());
}

void MainWindowTest::largerTextScalesEveryView() {
    const double before = child<MatrixPanel>(*window, "matrixPanel")->resultView()->font().pointSizeF();
    presentationOf(*window)->setZoom(150);
    QVERIFY(child<MatrixPanel>(*window, "matrixPanel")->resultView()->font().pointSizeF() > before);
    QVERIFY(child<HeatmapView>(*window, "heatmap")->firstPlot()->font().pointSizeF() > before);
    verifyHeatmap(*child<HeatmapView>(*window, "heatmap")->builders()[0], sessionOf(*window).trace(), 0);
    presentationOf(*window)->setZoom(100);
    QCOMPARE(child<MatrixPanel>(*window, "matrixPanel")->resultView()->font().pointSizeF(), before);
}

void MainWindowTest::twoLayerLessonShowsEveryLayer() {
    QVERIFY2(window->openBuiltInLesson("two-layers"), qPrintable(window->lastError()));
    QComboBox* layers = child<QComboBox>(*window, "layer");
    QVERIFY(layers->isVisibleTo(window.get()));  // the model mode's layer selector, reused
    QCOMPARE(layers->count(), 2);
    QCOMPARE(layers->currentIndex(), 0);
    StepNavigator* nav = child<StepNavigator>(*window, "navigator");
    QCOMPARE(nav->steps(), stepsOf(sessionOf(*window).trace(), 0));
    QCOMPARE(nav->steps().front(), Step::Embedding);

    layers->setCurrentIndex(1);
    QCOMPARE(nav->steps(), stepsOf(sessionOf(*window).trace(), 1));
    QCOMPARE(nav->steps().front(), Step::Input);
    QVERIFY2(nav->list()->item(0)->text().contains("Input of layer 2"), qPrintable(nav->list()->item(0)->text()));

    // Layer 2's weights. By hand (tests/core/test_reference_traces.cpp): "it" gathered
    // tired = e⁶/(e⁶ + 10) = 0.9758 in layer 1, so its layer-2 score for "animal" is
    // 2·(2·0.9758) = 3.9032 and every other score of its row is 0:
    // A₂[it, animal] = e^3.9032/(e^3.9032 + 10) = 0.8321, A₂[it, street] = 1/(e^3.9032 + 10) = 0.0168.
    nav->setCurrentIndex(indexOfStep(*nav, Step::Weights));
    const TraceMatrixModel* result = child<MatrixPanel>(*window, "matrixPanel")->resultModel();
    QCOMPARE(result->step(), Step::Weights);
    QCOMPARE(result->layer(), 1);
    const int it = 7, animal = 1, street = 5;
    QCOMPARE(result->headerData(it, Qt::Vertical, Qt::DisplayRole).toString(), QString("it"));
    QCOMPARE(result->headerData(animal, Qt::Horizontal, Qt::DisplayRole).toString(), QString("animal"));
    QCOMPARE(result->data(result->index(it, animal), Qt::DisplayRole).toString(), QString("0.832"));
    QCOMPARE(result->data(result->index(it, street), Qt::DisplayRole).toString(), QString("0.017"));
    QVERIFY(std::abs(result->data(result->index(it, animal), TraceMatrixModel::ValueRole).toDouble() - 0.8321110363) <
            1e-9);
    child<MatrixPanel>(*window, "matrixPanel")->selectCell(it, animal);
    QVERIFY2(child<MatrixPanel>(*window, "matrixPanel")->explanationText().contains("layer 2"),
             qPrintable(child<MatrixPanel>(*window, "matrixPanel")->explanationText()));
    // The heatmap follows the layer box.
    const HeatmapBuilder& heat = *child<HeatmapView>(*window, "heatmap")->builders()[0];
    QCOMPARE(heat.drawnCells()[it * 11 + animal].value, sessionOf(*window).trace().layers[1].heads[0].weights(it, animal));

    // The input of layer 2 is computed from layer 1: X + output.
    nav->setCurrentIndex(0);
    const TraceMatrixModel* x1 = operandFor(*child<MatrixPanel>(*window, "matrixPanel"), Step::Input);
    const TraceMatrixModel* out1 = operandFor(*child<MatrixPanel>(*window, "matrixPanel"), Step::Output);
    QVERIFY(x1 && out1);
    QCOMPARE(x1->layer(), 0);
    QCOMPARE(out1->layer(), 0);
    // Every step of layer 2 can be reached with Next.
    for (int i = 1; i < static_cast<int>(nav->steps().size()); ++i) {
        QTest::mouseClick(nav->nextButton(), Qt::LeftButton);
        QCOMPARE(child<MatrixPanel>(*window, "matrixPanel")->resultModel()->step(), nav->steps()[i]);
        QCOMPARE(child<MatrixPanel>(*window, "matrixPanel")->resultModel()->layer(), 1);
    }

    // "wide" for "tired": the layer stays, and "it" now looks at "street".
    window->setSentence("The animal didn't cross the street because it was too wide");
    QCOMPARE(layers->currentIndex(), 1);
    nav->setCurrentIndex(indexOfStep(*nav, Step::Weights));
    QCOMPARE(result->data(result->index(it, street), Qt::DisplayRole).toString(), QString("0.832"));
    QCOMPARE(result->data(result->index(it, animal), Qt::DisplayRole).toString(), QString("0.017"));

    // A one-layer lesson hides the selector again.
    QVERIFY(window->openBuiltInLesson("coreference"));
    QVERIFY(!layers->isVisibleTo(window.get()));
    QCOMPARE(nav->steps(), stepsOf(sessionOf(*window).trace(), 0));
}

void MainWindowTest::layerTwoWeightsEditable() {
    QVERIFY(window->openBuiltInLesson("two-layers"));
    child<QComboBox>(*window, "layer")->setCurrentIndex(1);
    LessonEditor* editor = child<LessonEditor>(*window, "lessonEditor");
    QVERIFY(editor->selectMatrix(LessonMatrixKind::WQ, 0, 1));
    LessonMatrixModel* model = editor->model();
    QCOMPARE(model->choice().name, QString("W_Q (layer 2)"));
    // Row "tired" of layer 2's W_Q is [2, 0]; making it [3, 0] raises the score of it → animal
    // from 2·(2·0.9758) = 3.9032 to 2·(3·0.9758) = 5.8549.
    QCOMPARE(model->headerData(5, Qt::Vertical, Qt::DisplayRole).toString(), QString("tired"));
    QVERIFY(model->setData(model->index(5, 0), "3"));
    const Trace& trace = sessionOf(*window).trace();
    QCOMPARE(sessionOf(*window).lesson().layers[1].heads[0].wq(5, 0), 3.0);
    QVERIFY(std::abs(trace.layers[1].heads[0].scores(7, 1) - 6 * std::exp(6.0) / (std::exp(6.0) + 10)) < 1e-12);
    QCOMPARE(trace.layers[0].heads[0].params.wq, sessionOf(*window).lesson().layers[0].heads[0].wq);  // layer 1 untouched
}

void MainWindowTest::screenshotsAreWritten() {
    const QString dir = tmp.filePath("shots");
    const int written = ScreenshotTour(*window).saveLessonScreenshots(dir);
    QVERIFY(written >= 10);
    QCOMPARE(static_cast<int>(QDir(dir).entryList({"*.png"}).size()), written);
    QVERIFY(child<QLabel>(*window, "lessonTitle")->text().contains("first hand exercise"));
}

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    MainWindowTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_main_window.moc"
