// Exported heatmap figures name the model, layer and head in a title band (window and command
// line, English and Chinese), and "All heads side by side" wraps twelve or sixteen heads into rows
// that fit a 1280×720 window with every title whole (issue 30 §3), offscreen, on synthetic traces.
#include <QApplication>
#include <QCheckBox>
#include <QTemporaryDir>
#include <QVBoxLayout>
#include <QtTest>
#include <set>
#include <qcustomplot.h>

#include "app/heatmap_export.hpp"
#include "app/language.hpp"
#include "ui/attention/heatmap_view.hpp"

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
};

QTEST_MAIN(FiguresTest)
#include "test_figures.moc"
