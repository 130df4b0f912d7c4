// GUI tests of Lab ▸ Multi-head (issue 5 §4): the panel offers exactly the divisors of d, draws
// core's matrices for every H, its per-H table shows core's numbers, and a seed gives the same
// weights every time.
#include <QAbstractItemModel>
#include <QApplication>
#include <QComboBox>
#include <qcustomplot.h>
#include <QFile>
#include <QFont>
#include <QTemporaryDir>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <cmath>
#include <memory>

#include "app/lab_window.hpp"
#include "app/main_window.hpp"
#include "window_access.hpp"
#include "core/source/session.hpp"
#include "core/lab/multi_head_lab.hpp"
#include "core/lab/worksheet.hpp"
#include "ui/lab/lab_plots.hpp"
#include "ui/lab/grouped_query_box.hpp"
#include "ui/lab/multi_head_panel.hpp"

using namespace attnscope;

namespace {

double largestDifference(const Mat& a, const Mat& b) {
    if (a.rows() != b.rows() || a.cols() != b.cols()) return INFINITY;
    return a.size() == 0 ? 0.0 : (a - b).cwiseAbs().maxCoeff();
}

QList<int> offeredHeads(const QComboBox* box) {
    QList<int> heads;
    for (int i = 0; i < box->count(); ++i) heads << box->itemData(i).toInt();
    return heads;
}

void selectData(QComboBox* box, int data) {
    const int index = box->findData(data);
    QVERIFY2(index >= 0, qPrintable(QString("no item %1").arg(data)));
    box->setCurrentIndex(index);
}

}  // namespace

class LabMultiHeadTest : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> window;
    MultiHeadPanel* panel = nullptr;

private slots:
    void initTestCase() { initResources(); }
    void init();
    void cleanup() { window.reset(); }

    void headChoicesAreTheDivisorsOfD();
    void drawsCoresMatricesForEveryH();
    void summaryTableShowsCoresNumbers();
    void seedGivesTheSameWeightsEveryTime();
    void wideSentenceIsNotOffered();
    void headNumbersNeverOverlap();
    void groupedQueryShowsSharingCostsAndEachHead();
    void groupedQueryWorksheetIsCoresForTheShownChoice();
};

void LabMultiHeadTest::init() {
    window = std::make_unique<MainWindow>();
    QVERIFY(window->openBuiltInLesson("first-hand-exercise"));
    window->show();
    LabWindow* lab = openLab(window.get(), sessionOf(*window), LabWindow::MultiHead);
    QCOMPARE(lab->tabs()->currentIndex(), static_cast<int>(LabWindow::MultiHead));
    QCOMPARE(lab->tabs()->tabText(lab->tabs()->currentIndex()), QString("Multi-head"));
    panel = lab->multiHeadPanel();
}

void LabMultiHeadTest::headChoicesAreTheDivisorsOfD() {
    // "cats chase mice" with five features: X is 3×5, and 5 splits only into 1 or 5 heads.
    QCOMPARE(largestDifference(panel->input(), sessionOf(*window).trace().layers[0].input), 0.0);
    QCOMPARE(panel->input().cols(), Eigen::Index{5});
    QCOMPARE(offeredHeads(panel->headsBox()), QList<int>({1, 5}));
    QCOMPARE(panel->headsBox()->currentData().toInt(), 5);  // the first split into several heads
    selectData(panel->inputBox(), 12);
    QCOMPARE(offeredHeads(panel->headsBox()), QList<int>({1, 2, 3, 4, 6, 12}));
    QCOMPARE(largestDifference(panel->input(), randomLabInput(3, 12, MultiHeadPanel::kInputSeed)), 0.0);
    selectData(panel->headsBox(), 4);
    selectData(panel->inputBox(), 8);  // 4 divides 8 too: kept
    QCOMPARE(offeredHeads(panel->headsBox()), QList<int>({1, 2, 4, 8}));
    QCOMPARE(panel->headsBox()->currentData().toInt(), 4);
}

void LabMultiHeadTest::drawsCoresMatricesForEveryH() {
    selectData(panel->inputBox(), 12);
    const Mat X = randomLabInput(3, 12, MultiHeadPanel::kInputSeed);
    const auto seed = static_cast<std::uint64_t>(panel->seedBox()->value());
    const std::vector<Token>& tokens = sessionOf(*window).trace().tokens;
    for (const int H : {1, 2, 3, 4, 6, 12}) {
        selectData(panel->headsBox(), H);
        const auto expected = runMultiHead(X, H, drawMultiHeadWeights(12, seed), tokens);
        QVERIFY(expected.ok());
        const LayerTrace& layer = expected.value().trace.layers[0];
        QCOMPARE(panel->headPlotCount(), H);
        for (int h = 0; h < H; ++h) {
            QCOMPARE(largestDifference(panel->headPlot(h).drawn(), layer.heads[h].weights.toMat()), 0.0);
            QCOMPARE(panel->headPlot(h).rowLabels(), QStringList({"cats", "chase", "mice"}));
            QCOMPARE(panel->headPlot(h).columnLabels(), QStringList({"cats", "chase", "mice"}));
            QCOMPARE(panel->headPlot(h).cellTexts().size(), qsizetype{9});  // every weight printed in its cell
        }
        QCOMPARE(largestDifference(panel->concatPlot().drawn(), layer.concat), 0.0);
        QCOMPARE(largestDifference(panel->outputPlot().drawn(), layer.output), 0.0);
        QCOMPARE(panel->concatPlot().cellTexts().size(), qsizetype{0});  // 12 columns: too narrow for numbers
        QCOMPARE(panel->inspectBox()->maximum(), H);
        panel->inspectBox()->setValue(H);  // the last head
        QCOMPARE(largestDifference(panel->queryPlot().drawn(), layer.heads[H - 1].q), 0.0);
        QCOMPARE(largestDifference(panel->keyPlot().drawn(), layer.heads[H - 1].k), 0.0);
        QCOMPARE(largestDifference(panel->valuePlot().drawn(), layer.heads[H - 1].v), 0.0);
        QCOMPARE(panel->queryPlot().drawn().cols(), Eigen::Index{12 / H});
        QVERIFY2(panel->shapesText().contains(QString::fromStdString(multiHeadShapes(3, 12, H)).toHtmlEscaped()),
                 qPrintable(panel->shapesText()));
        QVERIFY2(panel->factsText().contains("4·12² = 576"), qPrintable(panel->factsText()));
        QVERIFY(expected.value().identityDifference < 1e-12);
        QVERIFY(panel->factsText().contains(QString::number(expected.value().identityDifference, 'e', 1)));
    }
}

void LabMultiHeadTest::summaryTableShowsCoresNumbers() {
    selectData(panel->inputBox(), 12);
    selectData(panel->headsBox(), 3);
    const auto expected = headCountTable(randomLabInput(3, 12, MultiHeadPanel::kInputSeed),
                                         drawMultiHeadWeights(12, static_cast<std::uint64_t>(panel->seedBox()->value())));
    QVERIFY(expected.ok());
    const QAbstractItemModel* model = panel->summaryView()->model();
    QCOMPARE(model->rowCount(), 6);
    for (int row = 0; row < 6; ++row) {
        const HeadCountSummary& s = expected.value()[static_cast<std::size_t>(row)];
        const auto cell = [&](int column, int role = Qt::UserRole) { return model->data(model->index(row, column), role); };
        QCOMPARE(cell(0).toInt(), s.heads);
        QCOMPARE(cell(1).toInt(), 12 / s.heads);
        QCOMPARE(cell(2).toDouble(), 1 / std::sqrt(12.0 / s.heads));
        QCOMPARE(cell(3, Qt::DisplayRole).toString(), QString("3×%1").arg(12 / s.heads));
        QCOMPARE(cell(4, Qt::DisplayRole).toString(), QString("3×3"));
        QCOMPARE(cell(5, Qt::DisplayRole).toString(), QString("3×12"));
        QCOMPARE(cell(6).toInt(), 576);
        QCOMPARE(cell(7).toDouble(), s.rawScoreStd);
        QCOMPARE(cell(8).toDouble(), s.scaledScoreStd);
        QCOMPARE(cell(9).toDouble(), s.meanEntropy);
        QCOMPARE(cell(7, Qt::DisplayRole).toString(), QString::number(s.rawScoreStd, 'f', 4));
        QCOMPARE(cell(9, Qt::DisplayRole).toString(), QString::number(s.meanEntropy, 'f', 4));
        const bool bold = cell(0, Qt::FontRole).value<QFont>().bold();
        QCOMPARE(bold, s.heads == 3);  // the chosen H stands out
    }
    // The facts the table is there to show on this X: raw spread shrinks with d_k, scaling evens it out.
    QVERIFY(expected.value().front().rawScoreStd > expected.value().back().rawScoreStd);
}

void LabMultiHeadTest::seedGivesTheSameWeightsEveryTime() {
    selectData(panel->inputBox(), 8);
    panel->seedBox()->setValue(11);
    const MultiHeadWeights eleven = panel->weights();
    const Mat concat = panel->concatPlot().drawn();
    QCOMPARE(panel->concatPlot().cellTexts().size(), qsizetype{3 * 8});  // 8 columns: every value printed
    QCOMPARE(largestDifference(eleven.wq, drawMultiHeadWeights(8, 11).wq), 0.0);
    QCOMPARE(largestDifference(eleven.wo, drawMultiHeadWeights(8, 11).wo), 0.0);
    panel->seedBox()->setValue(12);
    QVERIFY(largestDifference(panel->weights().wq, eleven.wq) > 0.1);
    QVERIFY(largestDifference(panel->concatPlot().drawn(), concat) > 1e-6);
    panel->seedBox()->setValue(11);
    QCOMPARE(largestDifference(panel->weights().wq, eleven.wq), 0.0);
    QCOMPARE(largestDifference(panel->concatPlot().drawn(), concat), 0.0);
}


void LabMultiHeadTest::wideSentenceIsNotOffered() {
    // A 4096-wide lesson: its X would need four 4096×4096 weight draws and 13 head counts
    // (tens of seconds, 2.5 GB, at every activation of the Lab); the random inputs are offered.
    QTemporaryDir dir;
    const QString path = dir.filePath("wide.json");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": "attnscope-lesson", "version": 1, "d_model": 4096, "projections": false,
                  "sentence": "a b c", "embeddings": {}})");
    file.close();
    QVERIFY(window->openLessonFile(path));
    LabWindow* lab = openLab(window.get(), sessionOf(*window), LabWindow::MultiHead);
    panel = lab->multiHeadPanel();
    QCOMPARE(panel->inputBox()->findData(0), -1);
    QCOMPARE(panel->inputBox()->currentData().toInt(), 8);
    QCOMPARE(largestDifference(panel->input(), randomLabInput(3, 8, MultiHeadPanel::kInputSeed)), 0.0);
    QVERIFY(panel->inputBox()->toolTip().contains("4096"));
}

// Each printed weight inside its cell (so never over its neighbour), in any window size: the
// numbers shrink to the cells, down to 7 points, and hide below. One head's map in a large lab
// shows them; five heads' maps at a projector's 30-point font would print them over each other.
void LabMultiHeadTest::headNumbersNeverOverlap() {
    auto* lab = window->findChild<LabWindow*>();
    const auto numbersShown = [&](int heads, QSize size) {
        lab->resize(size);
        selectData(panel->headsBox(), heads);
        QApplication::processEvents();
        int shown = 0;
        for (int h = 0; h < panel->headPlotCount(); ++h) {
            const MatrixPlotBuilder& plot = panel->headPlot(h);
            plot.plot()->replot();
            const QPointF a = plot.cellCentre(0, 0), b = plot.cellCentre(1, 1);
            const QSizeF cell(std::abs(b.x() - a.x()), std::abs(b.y() - a.y()));
            for (int i = 0; i < plot.plot()->itemCount(); ++i) {
                auto* text = qobject_cast<QCPItemText*>(plot.plot()->item(i));
                if (!text || !text->visible()) continue;
                ++shown;
                const QRectF ink(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition());
                if (ink.width() > cell.width() + 1 || ink.height() > cell.height() + 1)
                    return QString("head %1: \"%2\" takes %3×%4 px in a %5×%6 px cell").arg(h + 1).arg(text->text())
                        .arg(ink.width()).arg(ink.height()).arg(cell.width()).arg(cell.height());
            }
        }
        return QString::number(shown);
    };
    QCOMPARE(numbersShown(1, {1400, 900}), QString("9"));
    QFont projector = lab->font();
    projector.setPointSize(30);
    lab->setFont(projector);
    const QString large = numbersShown(5, {1280, 720});
    QVERIFY2(!large.contains(' '), qPrintable(large));  // a count of numbers shown, not a clash
}

void LabMultiHeadTest::groupedQueryShowsSharingCostsAndEachHead() {
    // X 3×8, H = 4 (d_k = 2): H_kv offered 4, 2, 1; with 2, query heads 1, 2 read K/V head 1 and
    // 3, 4 read K/V head 2. Parameters 2·8² + 2·8·H_kv·2: 256, 192, 160; K/V per token 2·H_kv·2: 16, 8, 4.
    selectData(panel->inputBox(), 8);
    selectData(panel->headsBox(), 4);
    GroupedQueryBox* box = panel->groupedQuery();
    QCOMPARE(offeredHeads(box->kvHeadsBox()), QList<int>({4, 2, 1}));
    selectData(box->kvHeadsBox(), 2);
    const auto expected = runGroupedQuery(randomLabInput(3, 8, MultiHeadPanel::kInputSeed), 4, 2,
                                          drawMultiHeadWeights(8, static_cast<std::uint64_t>(panel->seedBox()->value())),
                                          sessionOf(*window).trace().tokens);
    QVERIFY(expected.ok());
    QCOMPARE(box->headPlotCount(), 4);
    for (int h = 0; h < 4; ++h)
        QCOMPARE(largestDifference(box->headPlot(h).drawn(), expected.value().trace.layers[0].heads[h].weights.toMat()), 0.0);
    QVERIFY2(box->sharingText().contains("K/V head 1 ← query heads 1, 2; K/V head 2 ← query heads 3, 4"),
             qPrintable(box->sharingText()));
    Mat costs(3, 3);
    costs << 4, 256, 16,  //
        2, 192, 8,        //
        1, 160, 4;
    QCOMPARE(largestDifference(box->costTable(), costs), 0.0);
    QVERIFY2(box->costText().contains("H_kv = 1: 160 parameters, 4 K/V numbers per token and layer"), qPrintable(box->costText()));
}

void LabMultiHeadTest::groupedQueryWorksheetIsCoresForTheShownChoice() {
    // The numbers are core's (test_lab_grouped_query.cpp works one by hand); here: the section writes
    // the worksheet of the run it shows, with the answer key beside it, and refuses an unknown suffix.
    selectData(panel->inputBox(), 8);
    selectData(panel->headsBox(), 4);
    GroupedQueryBox* box = panel->groupedQuery();
    selectData(box->kvHeadsBox(), 1);
    QTemporaryDir dir;
    const QString path = dir.filePath("gqa.md");
    QVERIFY(box->exportWorksheetTo(path).ok());
    const auto expected = groupedQueryWorksheet(box->run(), 3, WorksheetFormat::Markdown, Language::English);
    QVERIFY(expected.ok());
    QFile questions(path), answers(dir.filePath("gqa-answers.md"));
    QVERIFY(questions.open(QIODevice::ReadOnly) && answers.open(QIODevice::ReadOnly));
    QCOMPARE(questions.readAll().toStdString(), expected.value().questions);
    QCOMPARE(answers.readAll().toStdString(), expected.value().answers);
    QVERIFY(expected.value().questions.find("H_kv = 1 (multi-query)") != std::string::npos);
    QVERIFY(expected.value().questions.find("shared by query heads 1–4") != std::string::npos);
    QVERIFY(!box->exportWorksheetTo(dir.filePath("gqa.txt")).ok());
}

QTEST_MAIN(LabMultiHeadTest)
#include "test_lab_multihead.moc"
