// Exported heatmap figures name the model, layer and head in a title band (window and command
// line, English and Chinese), and "All heads side by side" wraps twelve or sixteen heads into rows
// that fit a 1280×720 window with every title whole (issue 30 §3), offscreen, on synthetic traces
// and in the real window on a lesson of as many heads.
#include <QApplication>
#include <QCheckBox>
#include <QFile>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QVBoxLayout>
#include <QtTest>
#include <set>
#include <qcustomplot.h>

#include "app/heatmap_export.hpp"
#include "app/language.hpp"
#include "ui/attention/heatmap_view.hpp"
#include "window_access.hpp"

#include "tests/matrix_literal.hpp"

using namespace attnscope;

namespace {

// `heads` heads over T tokens "w0" …: head h puts half of each row on token h mod T, the rest
// evenly (the weights only need to be a valid attention map).
Trace headsTrace(int heads, int T) {
    Trace t;
    for (int i = 0; i < T; ++i) t.tokens.push_back({"w" + std::to_string(i)});
    std::vector<Mat> maps;
    for (int h = 0; h < heads; ++h) {
        Mat w = Mat::Constant(T, T, 0.5 / T);
        w.col(h % T).array() += 0.5;
        maps.push_back(w);
    }
    t.layers.push_back(testing::layerOf(maps));
    return t;
}

// How many rows of the image hold a pixel darker than mid-grey (text), between rows first and last.
int darkRows(const QImage& image, int first, int last) {
    int rows = 0;
    for (int y = first; y < last; ++y)
        for (int x = 0; x < image.width(); ++x)
            if (qGray(image.pixel(x, y)) < 128) {
                ++rows;
                break;
            }
    return rows;
}

}  // namespace

class FiguresTest : public QObject {
    Q_OBJECT

private slots:
    void cleanup() { applyLanguage("en"); }

    // The title composed from the model, the layer counted from 1 and what the view draws.
    void theTitleNamesModelLayerAndHead() {
        const Trace trace = headsTrace(4, 5);
        HeatmapView view;
        view.resize(900, 600);
        view.showTrace(trace, 0, 2);
        view.setHead(2);
        QCOMPARE(view.figureTitle("bert-tiny", 3), QStringLiteral("bert-tiny — layer 3, head 3"));
        view.setAllHeads(true);
        QCOMPARE(view.figureTitle("bert-tiny", 3), QStringLiteral("bert-tiny — layer 3, all 4 heads"));
        QVERIFY(applyLanguage("zh_CN"));
        QCOMPARE(view.figureTitle("bert-tiny", 3), QStringLiteral("bert-tiny — 第 3 层，全部 4 个头"));
        view.setAllHeads(false);
        QCOMPARE(view.figureTitle("bert-tiny", 3), QStringLiteral("bert-tiny — 第 3 层，第 3 头"));
    }

    // The figure is the plots under a band of text: as wide, taller by the band, the band's top
    // margin blank and its middle holding dark text rows; below it, the plots' own pixels.
    void theFigureIsThePlotsUnderATitleBand() {
        for (const char* language : {"en", "zh_CN"}) {
            QVERIFY(applyLanguage(language));
            const Trace trace = headsTrace(2, 4);
            HeatmapView view;
            view.resize(1000, 500);
            view.showTrace(trace, 0, 2);
            view.setAllHeads(true);
            const QImage plots = view.renderImage();
            const QImage figure = view.renderFigure("example-bert", 4);
            QCOMPARE(figure.width(), plots.width());
            const int band = figure.height() - plots.height();
            QVERIFY2(band >= QFontMetrics(view.font()).height() * 2, qPrintable(QString::number(band)));
            QCOMPARE(darkRows(figure, 0, 3), 0);
            QVERIFY2(darkRows(figure, 0, band) >= QFontMetrics(view.font()).height() / 2, language);
            QCOMPARE(figure.copy(0, band, plots.width(), plots.height()).convertToFormat(QImage::Format_RGB32),
                     plots.convertToFormat(QImage::Format_RGB32));
        }
    }

    // The command line's --export-png writes the same kind of figure: a title band over the plots.
    void theCommandLineExportHasTheTitleBand() {
        QTemporaryDir dir;
        const QString path = dir.filePath("heads.png");
        const Trace trace = headsTrace(2, 4);
        QVERIFY(exportHeatmapPng(trace, path, 0, modelFigure("/models/example-bert", 3)).ok());
        QCOMPARE(modelFigure("/models/example-bert", 3).source, QStringLiteral("example-bert"));
        QCOMPARE(modelFigure("/models/example-bert", 3).layerNumber, 4);
        const QImage image(path);
        QVERIFY(!image.isNull());
        const int textHeight = QFontMetrics(QApplication::font()).height();
        QCOMPARE(darkRows(image, 0, 3), 0);
        QVERIFY(darkRows(image, 0, 3 * textHeight) >= textHeight / 2);
    }

    // Twelve and sixteen heads side by side in a 1280×720 window: the window stays 1280 px wide,
    // every plot lies inside it, the heads wrap into rows, and no title is wider than its plot.
    void allHeadsFitA1280By720Window_data() {
        QTest::addColumn<int>("heads");
        QTest::addColumn<QString>("language");
        for (const int heads : {12, 16})
            for (const char* language : {"en", "zh_CN"})
                QTest::addRow("%d heads, %s", heads, language) << heads << QString(language);
    }
    void allHeadsFitA1280By720Window() {
        QFETCH(int, heads);
        QFETCH(QString, language);
        QVERIFY(applyLanguage(language));
        const Trace trace = headsTrace(heads, 10);
        QWidget window;
        auto* view = new HeatmapView(&window);
        (new QVBoxLayout(&window))->addWidget(view);
        window.resize(1280, 720);
        view->showTrace(trace, 0, 2);
        view->allHeadsBox()->setChecked(true);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_COMPARE(window.width(), 1280);
        QVERIFY2(window.minimumSizeHint().width() <= 1280, qPrintable(QString::number(window.minimumSizeHint().width())));
        const auto builders = view->builders();
        QCOMPARE(static_cast<int>(builders.size()), heads);
        std::set<int> rows;
        for (const HeatmapBuilder* b : builders) {
            const QRect inWindow(b->plot()->mapTo(&window, QPoint(0, 0)), b->plot()->size());
            QVERIFY2(inWindow.left() >= 0 && inWindow.right() < 1280,
                     qPrintable(QString("head %1 at x %2…%3").arg(b->head() + 1).arg(inWindow.left()).arg(inWindow.right())));
            QVERIFY2(b->titleWidth() < b->plot()->width(),
                     qPrintable(QString("%1: %2 px in %3 px").arg(b->title()).arg(b->titleWidth()).arg(b->plot()->width())));
            QVERIFY(b->title().contains(QString::number(b->head() + 1)));
            rows.insert(inWindow.top());
        }
        QVERIFY2(rows.size() >= 2, "the heads did not wrap");
    }

    // The same in the real window at 1280×720, "All heads side by side" ticked on a lesson of 12 or
    // 16 heads (no projections: each head reads its own slice of hashed embeddings), measured on
    // the widgets as laid out: the window keeps its width, every head's plot lies inside it, and
    // each title's text (every line, in its font) fits the title element's rectangle, which lies
    // inside its plot: nothing is cut.
    void allHeadsFitTheWindow_data() {
        QTest::addColumn<int>("heads");
        for (const int heads : {12, 16}) QTest::addRow("%d heads", heads) << heads;
    }
    void allHeadsFitTheWindow() {
        QFETCH(int, heads);
        QVERIFY(applyLanguage("en"));
        QTemporaryDir dir;
        QFile lesson(dir.filePath("heads.json"));
        QVERIFY(lesson.open(QIODevice::WriteOnly));
        lesson.write(QString(R"({"format": "attnscope-lesson", "version": 1, "d_model": %1, "heads": %1, "projections": false,
                              "sentence": "w0 w1 w2 w3 w4 w5 w6 w7 w8 w9", "embeddings": {}})").arg(heads).toUtf8());
        lesson.close();
        MainWindow window;
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openLessonFile(lesson.fileName()));
        auto* view = child<HeatmapView>(window, "heatmap");
        child<QTabWidget>(window, "tabs")->setCurrentWidget(view);
        view->allHeadsBox()->setChecked(true);
        QTRY_COMPARE(static_cast<int>(view->builders().size()), heads);
        QTest::qWait(50);  // the layout settles
        QCOMPARE(window.width(), 1280);
        std::set<int> rows;
        for (const HeatmapBuilder* b : view->builders()) {
            QCustomPlot* plot = b->plot();
            const QRect inWindow(plot->mapTo(&window, QPoint(0, 0)), plot->size());
            QVERIFY2(plot->isVisible() && inWindow.left() >= 0 && inWindow.right() < window.width(),
                     qPrintable(QString("head %1 at x %2…%3").arg(b->head() + 1).arg(inWindow.left()).arg(inWindow.right())));
            const QCPTextElement* title = nullptr;
            for (QCPLayoutElement* e : plot->plotLayout()->elements(true))
                if (auto* text = qobject_cast<QCPTextElement*>(e); text && text->text() == b->title()) title = text;
            QVERIFY2(title != nullptr, qPrintable(b->title()));
            const QRect box = title->outerRect();
            QVERIFY(plot->rect().contains(box));
            const QFontMetrics metrics(title->font());
            for (const QString& line : title->text().split('\n'))
                QVERIFY2(metrics.horizontalAdvance(line) <= box.width(),
                         qPrintable(QString("\"%1\": %2 px in a %3-px title").arg(line).arg(metrics.horizontalAdvance(line)).arg(box.width())));
            rows.insert(inWindow.top());
        }
        QVERIFY2(rows.size() >= 2, "the heads did not wrap");
    }
};

QTEST_MAIN(FiguresTest)
#include "test_figures.moc"
