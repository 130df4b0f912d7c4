// GUI tests of Lab ▸ Masks & cross-attention: the panel draws exactly core's matrices (the causal
// run, the padded batch, cross-attention), the mask shows −∞ above the diagonal, [PAD] columns are
// 0, the cross-attention heatmap is T_q×T_k with the right labels, a click explains a cell, and
// bad input keeps the previous state.
#include <QApplication>
#include <QLineEdit>
#include <QSpinBox>
#include <QTabWidget>
#include <QTest>
#include <cmath>
#include <limits>
#include <memory>

#include <qcustomplot.h>

#include "app/lab_window.hpp"
#include "app/main_window.hpp"
#include "window_access.hpp"
#include "core/source/session.hpp"
#include "core/lab/masks_lab.hpp"
#include "core/lesson/run_lesson.hpp"
#include "ui/lab/lab_plots.hpp"
#include "ui/lab/masks_panel.hpp"

using namespace attnscope;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Exact comparison that treats equal infinities as equal (a mask's −∞ cells).
bool sameMatrix(const Mat& a, const Mat& b) {
    if (a.rows() != b.rows() || a.cols() != b.cols()) return false;
    for (Eigen::Index i = 0; i < a.size(); ++i)
        if (a.data()[i] != b.data()[i]) return false;
    return true;
}

void typeAndEnter(QLineEdit* edit, const QString& text) {
    edit->setText(text);
    QTest::keyClick(edit, Qt::Key_Return);
}

}  // namespace

class LabMasksTest : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> window;

    MasksPanel* open(const char* lesson) {
        if (!window->openBuiltInLesson(lesson)) return nullptr;
        LabWindow* lab = openLab(window.get(), sessionOf(*window), LabWindow::Masks);
        return lab->tabs()->currentWidget()->isAncestorOf(lab->masksPanel()) ? lab->masksPanel() : nullptr;
    }
    const Lesson& lesson() const { return sessionOf(*window).lesson(); }

private slots:
    void initTestCase() { initResources(); }
    void init() {
        window = std::make_unique<MainWindow>();
        window->show();
    }
    void cleanup() { window.reset(); }

    void causalPageDrawsCoresMaskedRun();
    void paddingPageDrawsTheBatch();
    void crossAttentionIsRectangularAndExplainsAClick();
    void badInputKeepsThePreviousState();
};

void LabMasksTest::causalPageDrawsCoresMaskedRun() {
    MasksPanel* p = open("first-hand-exercise");  // not causal itself: the panel switches the mask on
    QVERIFY(p);
    Lesson causal = lesson();
    causal.causalMask = true;
    const auto run = runLesson(causal, "cats chase mice");
    QVERIFY(run.ok());
    const HeadTrace& h = run.value().layers[0].heads[0];
    QVERIFY(sameMatrix(p->causalScoresPlot().drawn(), h.scores));  // lesson 1 does not scale
    QVERIFY(sameMatrix(p->causalMaskPlot().drawn(), h.mask));
    QVERIFY(sameMatrix(p->causalMaskedPlot().drawn(), h.maskedScores));
    QVERIFY(sameMatrix(p->causalWeightsPlot().drawn(), h.weights.toMat()));
    // The mask by hand: −∞ strictly above the diagonal, 0 elsewhere; printed as "−∞" and "0".
    const Mat& m = p->causalMaskPlot().drawn();
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) QCOMPARE(m(i, j), j > i ? -kInf : 0.0);
    QCOMPARE(p->causalMaskPlot().cellTexts(), QStringList({"0", "−∞", "−∞", "0", "0", "−∞", "0", "0", "0"}));
    QCOMPARE(p->causalMaskPlot().rowLabels(), QStringList({"cats", "chase", "mice"}));
    QCOMPARE(p->causalMaskPlot().columnLabels(), QStringList({"cats", "chase", "mice"}));
    // Weights: first row [1, 0, 0]; "chase" sees cats·chase = 1 and chase·chase = 2 → 1/(1+e), e/(1+e).
    const Mat& w = p->causalWeightsPlot().drawn();
    QCOMPARE(w(0, 0), 1.0);
    QCOMPARE(w(0, 2), 0.0);
    QCOMPARE(w(1, 2), 0.0);
    QVERIFY(std::abs(w(1, 0) - 1 / (1 + std::exp(1.0))) < 1e-15);
    QVERIFY2(p->causalCheckText().contains("largest weight above the diagonal = 0 (exactly"),
             qPrintable(p->causalCheckText()));
}

void LabMasksTest::paddingPageDrawsTheBatch() {
    MasksPanel* p = open("causal-mask");  // "the cat saw the dog"; default second sentence "the cat saw"
    QVERIFY(p);
    QCOMPARE(p->secondSentenceEdit()->text(), QString("the cat saw"));
    const auto batch = runLessonBatch(lesson(), {"the cat saw the dog", "the cat saw"});
    QVERIFY(batch.ok());
    QVERIFY(sameMatrix(p->paddedWeightsPlot(0).drawn(), batch.value()[0].layers[0].heads[0].weights.toMat()));
    QVERIFY(sameMatrix(p->paddedWeightsPlot(1).drawn(), batch.value()[1].layers[0].heads[0].weights.toMat()));
    QVERIFY(sameMatrix(p->paddingMaskPlot().drawn(), batch.value()[1].layers[0].heads[0].mask));
    QCOMPARE(p->paddedWeightsPlot(1).columnLabels(), QStringList({"the", "cat", "saw", "[PAD]", "[PAD]"}));
    const Mat& w = p->paddedWeightsPlot(1).drawn();
    for (int i = 0; i < 5; ++i)
        for (int j = 3; j < 5; ++j) QCOMPARE(w(i, j), 0.0);  // [PAD] columns are exactly 0
    // The padded sentence's real 3×3 block is its run alone, up to the last bit: the softmax sums
    // five terms (two of them e^−∞ = 0) instead of three, in another order (measured: 2.2e-16).
    const auto alone = runLesson(lesson(), "the cat saw");
    QVERIFY(alone.ok());
    const Mat real = w.topLeftCorner(3, 3);
    QVERIFY((real - alone.value().layers[0].heads[0].weights.toMat()).cwiseAbs().maxCoeff() < 1e-15);
    const auto demo = paddingDemo(lesson(), "the cat saw the dog", "the cat saw");
    QVERIFY(demo.ok());
    QVERIFY(demo.value().largestDifferenceAlone < 1e-15);
    const QString check = p->paddingCheckText();
    QVERIFY2(check.contains("largest weight in a [PAD] column = 0;"), qPrintable(check));
    const double difference = demo.value().largestDifferenceAlone;
    QVERIFY2(check.contains(QString("run alone, without [PAD]: largest difference %1")
                                .arg(difference == 0 ? QString("0") : QString::number(difference, 'e', 1))),
             qPrintable(check));

    typeAndEnter(p->secondSentenceEdit(), "a dog");
    QCOMPARE(p->paddedWeightsPlot(1).rowLabels(), QStringList({"a", "dog", "[PAD]", "[PAD]", "[PAD]"}));

    // Two sentences of five tokens in this causal lesson: nothing padded, and the mask is sentence 1's
    // (it once read "sentence 0").
    typeAndEnter(p->secondSentenceEdit(), "a dog saw the cat");
    QCOMPARE(p->paddingMaskPlot().title(), QString("Mask of sentence 1: causal, nothing to pad"));
}

void LabMasksTest::crossAttentionIsRectangularAndExplainsAClick() {
    MasksPanel* p = open("two-heads");  // target "cats chase mice", default source "mice chase"
    QVERIFY(p);
    p->showSubPage(MasksPanel::CrossPage);
    typeAndEnter(p->sourceEdit(), "mice cats");
    const auto cross = runCrossAttention(lesson(), "cats chase mice", "mice cats");
    QVERIFY(cross.ok());
    const MatrixPlotBuilder& plot = p->crossWeightsPlot();
    QCOMPARE(plot.drawn().rows(), Eigen::Index{3});
    QCOMPARE(plot.drawn().cols(), Eigen::Index{2});
    QVERIFY(sameMatrix(plot.drawn(), cross.value().layers[0].heads[0].weights.toMat()));
    QCOMPARE(plot.rowLabels(), QStringList({"cats", "chase", "mice"}));
    QCOMPARE(plot.columnLabels(), QStringList({"mice", "cats"}));
    QCOMPARE(plot.cellTexts().size(), qsizetype{6});

    // A click on (row chase, column cats) explains its score and its weight.
    QCustomPlot* widget = plot.plot();
    QApplication::processEvents();
    widget->replot();  // pixel ↔ cell mapping at the widget's final size
    QTest::mouseClick(widget, Qt::LeftButton, Qt::NoModifier, plot.cellCentre(1, 1).toPoint());
    const QString text = p->explanationText();
    QVERIFY2(text.contains("S[chase, cats]"), qPrintable(text));
    QVERIFY2(text.contains("A[chase, cats]"), qPrintable(text));
    QVERIFY2(text.contains("k[cats,1]"), qPrintable(text));
    QVERIFY2(text.contains("for mice"), qPrintable(text));  // the softmax runs over the source tokens

    // Head 2 of the lesson: its own weights, and the click explains head 2's cell.
    QCOMPARE(p->headBox()->maximum(), 2);
    p->headBox()->setValue(2);
    QVERIFY(sameMatrix(plot.drawn(), cross.value().layers[0].heads[1].weights.toMat()));
    QVERIFY(plot.title().contains("head 2 of 2"));
    p->selectCrossCell(1, 1);
    QVERIFY2(p->explanationText().contains("S[chase, cats], head 2"), qPrintable(p->explanationText()));
    const auto batch = runLessonBatch(lesson(), {"cats chase mice", "cats chase"});
    QVERIFY(batch.ok());
    QVERIFY(sameMatrix(p->paddedWeightsPlot(1).drawn(), batch.value()[1].layers[0].heads[1].weights.toMat()));
}

void LabMasksTest::badInputKeepsThePreviousState() {
    MasksPanel* p = open("first-hand-exercise");
    QVERIFY(p);
    typeAndEnter(p->sourceEdit(), "mice");
    const Mat before = p->crossWeightsPlot().drawn();
    QCOMPARE(before.cols(), Eigen::Index{1});
    typeAndEnter(p->sourceEdit(), "   ");
    QVERIFY2(p->crossMessage().contains("source sentence: is empty"), qPrintable(p->crossMessage()));
    QVERIFY(sameMatrix(p->crossWeightsPlot().drawn(), before));
    QCOMPARE(p->crossTrace().keyCount(), 1);
    typeAndEnter(p->sourceEdit(), "cats mice");  // a valid sentence clears the message
    QVERIFY(p->crossMessage().isEmpty());
    QCOMPARE(p->crossWeightsPlot().drawn().cols(), Eigen::Index{2});

    const Mat padded = p->paddedWeightsPlot(1).drawn();
    typeAndEnter(p->secondSentenceEdit(), QString("mice ").repeated(kMaxMaskLabTokens + 1));
    QVERIFY2(p->paddingMessage().contains("has 17 tokens"), qPrintable(p->paddingMessage()));
    QVERIFY(sameMatrix(p->paddedWeightsPlot(1).drawn(), padded));
}

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    LabMasksTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_lab_masks.moc"
