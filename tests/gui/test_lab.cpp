// GUI tests of the teaching lab (Lab menu): each panel opens on the built-in lesson and draws
// exactly core's numbers; the exports write files that parse back to the same numbers.
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QMenuBar>
#include <QSlider>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>
#include <cmath>
#include <memory>

#include <qcustomplot.h>

#include "app/lab_window.hpp"
#include "app/main_window.hpp"
#include "window_access.hpp"
#include "core/lab/positional_lab.hpp"
#include "core/lab/random.hpp"
#include "core/lab/rope_lab.hpp"
#include "core/lab/scaling.hpp"
#include "core/io/npy.hpp"
#include "core/pipeline/steps.hpp"
#include "ui/common/file_write.hpp"
#include "ui/lab/figure_export.hpp"
#include "ui/lab/lab_plots.hpp"
#include "ui/lab/permutation_demo_box.hpp"
#include "ui/lab/positional_panel.hpp"
#include "ui/lab/rope_demo_box.hpp"
#include "ui/lab/scaling_panel.hpp"
#include "ui/lab/synthesizer_panel.hpp"

using namespace attnscope;

namespace {

double largestDifference(const Mat& a, const Mat& b) {
    if (a.rows() != b.rows() || a.cols() != b.cols()) return INFINITY;
    return a.size() == 0 ? 0.0 : (a - b).cwiseAbs().maxCoeff();
}

QAction* labAction(QMainWindow& window, const QString& text) {
    for (QAction* menu : window.menuBar()->actions())
        if (menu->text() == "L&ab" && menu->menu())
            for (QAction* a : menu->menu()->actions())
                if (a->text().remove('&') == text) return a;
    return nullptr;
}

}  // namespace

class LabTest : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> window;
    QTemporaryDir tmp;

    LabWindow* open(LabWindow::Page page) {
        return openLab(window.get(), sessionOf(*window), page);
    }

private slots:
    void initTestCase() { initResources(); }
    void init();
    void cleanup() { window.reset(); }

    void menuOpensEachPanel();
    void positionalDrawsTheEncodingAndTheCheck();
    void ropeSectionShowsShiftInvarianceAndBands();
    void ropeWorksheetIsCoresForThePage();
    void permutationDemoShowsOrderAndBreaksWithPositions();
    void scalingPlotsTheSweepMedians();
    void scalingHistogramAndEntropiesAreCores();
    void synthesizerRandomIgnoresTheSentence();
    void synthesizerSlidersSetTheMixture();
    void synthesizerSaysWhenALessonIsTooWide();
    void synthesizerAppliesTheLessonsCausalMask();
    void exportsWriteFilesThatParse();
};

void LabTest::init() {
    window = std::make_unique<MainWindow>();
    QVERIFY(window->openBuiltInLesson("first-hand-exercise"));
    window->show();
}

void LabTest::menuOpensEachPanel() {
    const QString titles[] = {"Positional encoding", "Why scale by √d_k", "Synthesizer"};
    for (int page = 0; page < 3; ++page) {
        QAction* action = labAction(*window, titles[page]);
        QVERIFY2(action, qPrintable(titles[page]));
        action->trigger();
        auto* lab = window->findChild<LabWindow*>();
        QVERIFY(lab && lab->isVisible());
        QCOMPARE(lab->tabs()->currentIndex(), page);
    }
    auto* lab = window->findChild<LabWindow*>();
    // On the built-in lesson "cats chase mice": every panel has drawn something.
    QCOMPARE(lab->positionalPanel()->permutation()->originalPlot().rowLabels(), QStringList({"cats", "chase", "mice"}));
    QCOMPARE(lab->scalingPanel()->entropyPlot().series().at(0).y.size(), std::size_t{3});
    QCOMPARE(lab->synthesizerPanel()->variants().size(), std::size_t{6});
    QCOMPARE(lab->synthesizerPanel()->variantPlot(2).title(), QString("Random"));
}

void LabTest::positionalDrawsTheEncodingAndTheCheck() {
    PositionalPanel* p = open(LabWindow::Positional)->positionalPanel();
    p->positionsBox()->setValue(64);
    p->widthBox()->setValue(16);
    p->offsetBox()->setValue(7);
    const Mat pe = sinusoidalEncoding(64, 16);
    QCOMPARE(largestDifference(p->encodingPlot().drawn(), pe), 0.0);
    p->dimensionsEdit()->setText("0, 5, 99");  // 99 is not a dimension of d = 16: skipped
    emit p->dimensionsEdit()->editingFinished();
    QCOMPARE(p->curvesPlot().series().size(), std::size_t{2});
    const DrawnSeries& five = p->curvesPlot().series().at(1);
    QCOMPARE(five.y.size(), std::size_t{64});
    QCOMPARE(five.y.at(10), pe(10, 5));
    QCOMPARE(five.y.at(10), std::cos(10 / std::pow(10000.0, 4 / 16.0)));
    const auto check = checkRelativePosition(64, 16, 7);
    QVERIFY(check.ok());
    QCOMPARE(largestDifference(p->rotationPlot().drawn(), check.value().map), 0.0);
    QCOMPARE(p->rotationPlot().drawn()(0, 0), std::cos(7.0));  // ω₀ = 1
    QVERIFY(check.value().largestDifference < 1e-12);
    const QString expected = QString("PE(pos+7) = PE(pos)·R_7: largest difference %1 over 57 positions")
                                 .arg(QString::number(check.value().largestDifference, 'e', 1));
    QCOMPARE(p->checkText(), expected);
}

void LabTest::ropeSectionShowsShiftInvarianceAndBands() {
    // The RoPE section draws core's ropeShiftDemo (q, k = LabRandom(seed)'s two normal rows) and
    // ropeBands with Llama 3's scaling; the figures export the tables they drew.
    RopeDemoBox* rope = open(LabWindow::Positional)->positionalPanel()->rope();
    rope->widthBox()->setValue(8);
    rope->queryPositionBox()->setValue(5);
    rope->keyPositionBox()->setValue(2);
    rope->shiftsBox()->setValue(40);
    rope->baseBox()->setValue(500000);
    const Mat qk = LabRandom(static_cast<std::uint64_t>(rope->seedBox()->value())).normalMatrix(2, 8);
    const auto demo = ropeShiftDemo(qk.row(0), qk.row(1), 5, 2, 40, 500000);
    QVERIFY(demo.ok());
    QCOMPARE(largestDifference(rope->shiftTable(), ropeShiftTable(demo.value())), 0.0);
    const DrawnSeries* turned = rope->shiftPlot().find("RoPE");
    QVERIFY(turned);
    QCOMPARE(turned->y.size(), std::size_t{41});
    QVERIFY(demo.value().ropeSpread < 1e-9);      // flat: only m − n = 3 matters
    QVERIFY(demo.value().sinusoidSpread > 0.05);  // added sinusoids move with the positions
    QVERIFY2(rope->checkText().contains("m − n = 3"), qPrintable(rope->checkText()));
    const Mat bands = ropeBandsTable(ropeBands(8, 500000, llama3Scaling()));
    QCOMPARE(largestDifference(rope->bandTable(), bands), 0.0);
    QCOMPARE(rope->bandPlot().series().size(), std::size_t{2});
    // Pair 4's (counted from 1) wavelength 2π·500000^(6/8) ≈ 118 000 positions is beyond 8192: stretched 8 times.
    QCOMPARE(rope->bandPlot().series().at(1).y.at(3), 8 * rope->bandPlot().series().at(0).y.at(3));
}

void LabTest::ropeWorksheetIsCoresForThePage() {
    // The numbers are core's (test_lab_rope.cpp works a sheet by hand); here: the page's q, k, m, n,
    // largest shift and base reach it, and both files are written.
    RopeDemoBox* rope = open(LabWindow::Positional)->positionalPanel()->rope();
    rope->widthBox()->setValue(4);
    rope->queryPositionBox()->setValue(7);
    rope->keyPositionBox()->setValue(3);
    rope->shiftsBox()->setValue(5);
    const RopeSheetInput input = rope->sheetInput();
    QCOMPARE(input.q.size(), Eigen::Index{4});
    QCOMPARE(input.m, 7);
    QCOMPARE(input.n, 3);
    QCOMPARE(input.shift, 5);
    QCOMPARE(input.base, rope->baseBox()->value());
    const QString path = tmp.filePath("rope.md");
    QVERIFY(rope->exportWorksheetTo(path).ok());
    const auto expected = ropeWorksheet(input, WorksheetFormat::Markdown, rope->sheetPhrases());
    QVERIFY(expected.ok());
    QFile questions(path), answers(tmp.filePath("rope-answers.md"));
    QVERIFY(questions.open(QIODevice::ReadOnly) && answers.open(QIODevice::ReadOnly));
    QCOMPARE(questions.readAll().toStdString(), expected.value().questions);
    QCOMPARE(answers.readAll().toStdString(), expected.value().answers);
    QVERIFY(expected.value().questions.find("q turned at position m = 7") != std::string::npos);
}

void LabTest::permutationDemoShowsOrderAndBreaksWithPositions() {
    QVERIFY(window->openBuiltInLesson("causal-mask"));
    PositionalPanel* p = open(LabWindow::Positional)->positionalPanel();
    p->permutation()->seedBox()->setValue(2024);
    const Lesson& lesson = sessionOf(*window).lesson();
    const auto demo = permutationDemo(lesson, lesson.sentence, 2024);
    QVERIFY(demo.ok());
    QCOMPARE(p->permutation()->originalPlot().drawn(), demo.value().original.layers[0].heads[0].weights.toMat());
    QCOMPARE(p->permutation()->shuffledPlot().drawn(), demo.value().shuffled.layers[0].heads[0].weights.toMat());
    QStringList order;
    for (const int i : demo.value().order) order << QString::number(i);
    QVERIFY2(p->permutation()->orderText().contains("[" + order.join(", ") + "]"), qPrintable(p->permutation()->orderText()));
    QVERIFY(p->permutation()->checkText().startsWith("Without positional encoding"));
    QVERIFY(p->permutation()->checkText().contains(QString::number(demo.value().largestDifference, 'e', 1)));

    p->permutation()->keepPositionalBox()->setChecked(true);
    const auto kept = permutationDemo(lesson, lesson.sentence, 2024, true);
    QVERIFY(kept.value().largestDifference > 0.01);
    QCOMPARE(p->permutation()->shuffledPlot().drawn(), kept.value().shuffled.layers[0].heads[0].weights.toMat());
    QVERIFY2(p->permutation()->checkText().contains("breaks: largest difference " +
                                                QString::number(kept.value().largestDifference, 'e', 1)),
             qPrintable(p->permutation()->checkText()));
}

void LabTest::scalingPlotsTheSweepMedians() {
    ScalingPanel* p = open(LabWindow::Scaling)->scalingPanel();
    QCOMPARE(p->seedBox()->value(), 2017);  // the seed of the reference experiment, shown
    for (const int seed : {7, 2017}) {
        p->seedBox()->setValue(seed);
        QTRY_VERIFY_WITH_TIMEOUT(!p->isSweepRunning(), 20000);
        const auto sweep = scalingSweep(powersOfTwoDimensions(), 5, 50, static_cast<std::uint64_t>(seed));
        QCOMPARE(p->sweepPlot().title(), QString("Largest softmax gradient vs d (seed %1)").arg(seed));
        const DrawnSeries* scaled = p->sweepPlot().find("median, scaled by 1/√d");
        const DrawnSeries* unscaled = p->sweepPlot().find("median, unscaled");
        QVERIFY(scaled && unscaled);
        QCOMPARE(scaled->x.size(), std::size_t{12});  // 2 … 4096
        std::size_t si = 0, ui = 0;
        for (const ScalingSetting& s : sweep) {
            if (s.scaled) {
                QCOMPARE(scaled->x.at(si), double(s.dimension));
                QCOMPARE(scaled->y.at(si++), s.median);
                QVERIFY(s.median > 0.05 && s.median < 0.3);  // stays trainable at every d
            } else if (s.median > 0) {  // 0 (underflow) cannot sit on a log axis
                QCOMPARE(unscaled->x.at(ui), double(s.dimension));
                QCOMPARE(unscaled->y.at(ui++), s.median);
            }
        }
        QCOMPARE(ui, unscaled->x.size());
        QCOMPARE(p->sweepPlot().find("each run, scaled by 1/√d")->y.size(), std::size_t{60});
    }
    for (const ScalingSetting& s : scalingSweep(powersOfTwoDimensions(), 5, 50, 2017))
        if (s.dimension >= 1024 && !s.scaled) QVERIFY(s.median < 1e-4);  // saturated
    QVERIFY(p->summaryText().startsWith("At d = 1024"));
    QCOMPARE(p->sweepPlot().plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
}

void LabTest::scalingHistogramAndEntropiesAreCores() {
    QVERIFY(window->openBuiltInLesson("two-heads"));
    ScalingPanel* p = open(LabWindow::Scaling)->scalingPanel();
    QTRY_VERIFY_WITH_TIMEOUT(!p->isSweepRunning(), 20000);
    p->dimensionBox()->setCurrentText("256");
    const Histogram unscaled = histogram(sweepScores(256, false, 5, 50, static_cast<std::uint64_t>(p->seedBox()->value())), 20);
    const DrawnSeries* bars = p->histogramPlot().find("unscaled");
    QVERIFY(bars);
    QCOMPARE(bars->y.size(), std::size_t{20});
    double total = 0;
    for (int b = 0; b < 20; ++b) {
        QCOMPARE(bars->x.at(b), unscaled.centre(b));
        QCOMPARE(bars->y.at(b), double(unscaled.counts.at(b)));
        total += bars->y.at(b);
    }
    QCOMPARE(total, 250.0);
    p->headBox()->setValue(2);
    const ScalingComparison c = compareScaling(sessionOf(*window).trace().layers[0].heads[1]);
    const DrawnSeries* without = p->entropyPlot().find("without scaling");
    QVERIFY(without);
    for (int i = 0; i < 3; ++i) QCOMPARE(without->y.at(i), c.unscaledEntropies(i, 0));
    QCOMPARE(p->entropyPlot().series().at(1).y.at(2), c.scaledEntropies(2, 0));
    // The legend has its own row under the axes: it never covers a point.
    QCustomPlot* plot = p->entropyPlot().plot();
    plot->replot();
    QVERIFY(!plot->legend->outerRect().intersects(plot->axisRect()->outerRect()));
    QVERIFY(plot->rect().contains(plot->legend->outerRect()));
}

void LabTest::synthesizerRandomIgnoresTheSentence() {
    QVERIFY(window->openBuiltInLesson("coreference"));
    SynthesizerPanel* p = open(LabWindow::Synthesizer)->synthesizerPanel();
    QVERIFY(p->errorText().isEmpty());
    QVERIFY(p->pointText().contains("only the dot product compares tokens"));
    const Mat random = p->variantPlot(2).drawn();
    const Mat dense = p->variantPlot(1).drawn();
    QCOMPARE(p->variantPlot(1).title(), QString("Dense"));
    QCOMPARE(random, p->variants().at(2).weights);
    window->setSentence("The street didn't cross the animal because it was too wide");
    LabWindow* lab = open(LabWindow::Synthesizer);
    QCOMPARE(lab->synthesizerPanel()->variantPlot(0).rowLabels().at(1), QString("street"));
    QCOMPARE(largestDifference(p->variantPlot(2).drawn(), random), 0.0);  // Random: the same matrix
    QVERIFY(largestDifference(p->variantPlot(1).drawn(), dense) > 1e-3);  // Dense: reads the tokens
    const int seed = p->seedBox()->value();
    p->seedBox()->setValue(seed + 1);
    QVERIFY(largestDifference(p->variantPlot(2).drawn(), random) > 1e-3);  // new seed, new R
}

void LabTest::synthesizerSaysWhenALessonIsTooWide() {
    // d_model 4096: the dense variant's W₁ alone is 16.8 M random numbers at every activation.
    QTemporaryDir dir;
    QFile file(dir.filePath("wide.json"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": "attnscope-lesson", "version": 1, "d_model": 4096, "projections": false,
                  "sentence": "a b c", "embeddings": {}})");
    file.close();
    QVERIFY(window->openLessonFile(file.fileName()));
    SynthesizerPanel* p = open(LabWindow::Synthesizer)->synthesizerPanel();
    QVERIFY2(p->errorText().contains("d_model is 4096") && p->errorText().contains("up to d_model 512"),
             qPrintable(p->errorText()));
    QVERIFY(p->variants().empty());
    QVERIFY(!p->variantPlot(0).plot()->isVisible());
    QVERIFY(window->openBuiltInLesson("coreference"));  // a hand-sized lesson: the plots again
    p = open(LabWindow::Synthesizer)->synthesizerPanel();
    QVERIFY(p->errorText().isEmpty());
    QCOMPARE(p->variants().size(), std::size_t{6});
    QVERIFY(p->variantPlot(0).plot()->isVisible());
}

void LabTest::synthesizerAppliesTheLessonsCausalMask() {
    // causal-mask ("the cat saw the dog"): the panel's dot-product panel draws the lesson's own weights,
    // the first row 1 on the diagonal (it sees only itself) and every weight above the diagonal exactly 0;
    // the Dense and Random panels, which never compare tokens, are masked the same way.
    QVERIFY(window->openBuiltInLesson("causal-mask"));
    SynthesizerPanel* p = open(LabWindow::Synthesizer)->synthesizerPanel();
    QVERIFY(p->errorText().isEmpty());
    const Trace& trace = sessionOf(*window).trace();
    QVERIFY(trace.causal);
    QCOMPARE(largestDifference(p->variantPlot(0).drawn(), trace.layers[0].heads[0].weights.toMat()), 0.0);
    for (const int variant : {0, 1, 2}) {
        const Mat drawn = p->variantPlot(variant).drawn();
        QCOMPARE(drawn(0, 0), 1.0);
        for (Eigen::Index i = 0; i < drawn.rows(); ++i)
            for (Eigen::Index j = i + 1; j < drawn.cols(); ++j) QCOMPARE(drawn(i, j), 0.0);
    }
}

void LabTest::synthesizerSlidersSetTheMixture() {
    QVERIFY(window->openBuiltInLesson("coreference"));
    SynthesizerPanel* p = open(LabWindow::Synthesizer)->synthesizerPanel();
    for (int i = 0; i < 5; ++i) p->alphaSlider(i)->setValue(0);
    p->alphaSlider(0)->setValue(10);
    p->alphaSlider(2)->setValue(30);
    QCOMPARE(p->alphas(), (std::vector<double>{0.25, 0, 0.75, 0, 0}));
    QCOMPARE(p->alphaText(), QString("α = (0.25, 0.00, 0.75, 0.00, 0.00)"));
    const auto& v = p->variants();
    const Mat mix = softmaxRows(0.25 * v.at(0).scores + 0.75 * v.at(2).scores, nullptr);
    QVERIFY(largestDifference(p->variantPlot(5).drawn(), mix) < 1e-15);
}

void LabTest::exportsWriteFilesThatParse() {
    PositionalPanel* p = open(LabWindow::Positional)->positionalPanel();
    p->widthBox()->setValue(8);
    p->positionsBox()->setValue(10);
    QCustomPlot* plot = p->encodingPlot().plot();
    const Mat& m = p->encodingPlot().drawn();
    QCOMPARE(m.rows(), Eigen::Index{10});

    const QString png = tmp.filePath("pe.png");
    QCOMPARE(errorText(savePlotPng(plot, png, 192)), QString());
    QImage image(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.width(), 2 * plot->width());  // 192 DPI is twice the 96 of the screen
    QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), 192);

    const QString svg = tmp.filePath("pe.svg");
    QCOMPARE(errorText(savePlotSvg(plot, svg)), QString());
    QFile svgFile(svg);
    QVERIFY(svgFile.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&svgFile);
    QVERIFY(xml.readNextStartElement());
    QCOMPARE(xml.name().toString(), QString("svg"));
    while (!xml.atEnd()) xml.readNext();
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));

    const QString pdf = tmp.filePath("pe.pdf");
    QCOMPARE(errorText(savePlotPdf(plot, pdf)), QString());
    QFile pdfFile(pdf);
    QVERIFY(pdfFile.open(QIODevice::ReadOnly));
    QVERIFY(pdfFile.readAll().startsWith("%PDF"));
    QCOMPARE(QDir(tmp.path()).entryList({"*.pdf"}, QDir::Files | QDir::Hidden).size(), qsizetype{1});  // no temporary left

    const QString npy = tmp.filePath("pe.npy");
    QCOMPARE(errorText(saveMatrixNpy(m, npy)), QString());
    QFile npyFile(npy);
    QVERIFY(npyFile.open(QIODevice::ReadOnly));
    const std::string expected = npyBytes(sinusoidalEncoding(10, 8));
    QCOMPARE(npyFile.readAll(), QByteArray(expected.data(), qsizetype(expected.size())));

    const QString csv = tmp.filePath("pe.csv");
    QCOMPARE(errorText(saveMatrixCsv(m, csv)), QString());
    QFile csvFile(csv);
    QVERIFY(csvFile.open(QIODevice::ReadOnly | QIODevice::Text));
    const QList<QByteArray> lines = csvFile.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), qsizetype{10});
    const QList<QByteArray> row3 = lines.at(3).split(',');
    QCOMPARE(row3.size(), qsizetype{8});
    for (int c = 0; c < 8; ++c) QCOMPARE(row3.at(c).toDouble(), m(3, c));  // 17 digits: exact
    QCOMPARE(row3.at(0).toDouble(), std::sin(3.0));

    // JSON read back with Qt's parser (not the nlohmann writer's): every cell, exactly.
    const QString json = tmp.filePath("pe.json");
    QCOMPARE(errorText(saveMatrixJson(m, json)), QString());
    const auto readJson = [&json] {
        QFile file(json);
        return file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.readAll()).object() : QJsonObject();
    };
    const QJsonObject doc = readJson();
    QCOMPARE(doc["rows"].toInt(), 10);
    QCOMPARE(doc["cols"].toInt(), 8);
    const QJsonArray data = doc["data"].toArray();
    QCOMPARE(data.size(), qsizetype{10});
    for (int r = 0; r < 10; ++r)
        for (int c = 0; c < 8; ++c) QCOMPARE(data[r].toArray()[c].toDouble(), m(r, c));
    QCOMPARE(data[3].toArray()[1].toDouble(), std::cos(3.0));  // PE(3, 1) = cos(3 / 10000^0)
    Mat masked(1, 2);
    masked << 0.5, -INFINITY;
    QCOMPARE(errorText(saveMatrixJson(masked, json)), QString());
    QCOMPARE(readJson()["data"].toArray()[0].toArray()[1].toString(), QString("-inf"));

    QVERIFY(!savePlotPng(plot, tmp.filePath("bad.png"), 5).ok());  // DPI refused
    QVERIFY(!saveMatrixCsv(m, tmp.filePath("missing/dir.csv")).ok());
}

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    LabTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_lab.moc"
