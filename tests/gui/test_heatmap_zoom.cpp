// The attention heatmap at any size (issue 13 §1), offscreen, on synthetic traces: wheel, rubber
// band, pan and reset change the window as computed here from the pixels; axis labels never
// overlap (checked from the ticks QCustomPlot draws and the axis font's own metrics, not from the
// builder's record) at 8, 128 and 512 tokens, several zooms and a larger font; find outlines the
// right rows; per-row and log colours match hand-computed viridis colours, in the map and in
// the painted pixels.
//
// Set ATTNSCOPE_SCREENSHOT_DIR to write heatmap-128.png, heatmap-128-zoomed.png, heatmap-512.png
// and heatmap-512-zoomed-find.png there (a sentence of real words, 1600×1000).
#include <sys/mman.h>

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QComboBox>
#include <QFontMetricsF>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QSpinBox>
#include <QTest>
#include <QToolButton>
#include <QWheelEvent>
#include <cmath>

#include "core/trace/explain.hpp"
#include "ui/attention/heatmap_labels.hpp"
#include "ui/attention/heatmap_tools.hpp"
#include "ui/attention/heatmap_view.hpp"

#include "tests/matrix_literal.hpp"

using namespace attnscope;

namespace {

// T tokens "w0" … (every 7th a long word, so label widths differ), one head: each row gives
// half its weight to itself and spreads the rest evenly.
Trace wordTrace(int T) {
    Trace t;
    for (int i = 0; i < T; ++i)
        t.tokens.push_back({i % 7 == 3 ? "internationalisation" + std::to_string(i) : "w" + std::to_string(i)});
    Mat w = Mat::Constant(T, T, T > 1 ? 0.5 / (T - 1) : 0);
    for (int i = 0; i < T; ++i) w(i, i) = T > 1 ? 0.5 : 1;
    t.layers.push_back(testing::layerOf({w}));
    return t;
}

const HeatmapBuilder& builderOf(const HeatmapView& view) { return *view.builders().at(0); }
QCustomPlot* plotOf(const HeatmapView& view) { return builderOf(view).plot(); }

QPointF pixelOf(const QCustomPlot& plot, double key, double query) {
    return {plot.xAxis->coordToPixel(key), plot.yAxis->coordToPixel(query)};
}

void mouse(QWidget* w, QEvent::Type type, QPointF at, Qt::MouseButton button, Qt::KeyboardModifiers mods = {}) {
    const Qt::MouseButtons held = type == QEvent::MouseButtonRelease ? Qt::NoButton : Qt::MouseButtons(button);
    QMouseEvent event(type, at, w->mapToGlobal(at), type == QEvent::MouseMove ? Qt::NoButton : button, held, mods);
    QApplication::sendEvent(w, &event);
}

void wheel(QWidget* w, QPointF at, int notches) {
    QWheelEvent event(at, w->mapToGlobal(at), QPoint(), QPoint(0, 120 * notches), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &event);
}

bool near(double a, double b, double tolerance) { return std::abs(a - b) <= tolerance; }

// The window's two ranges, for failure messages.
QByteArray text(const HeatmapWindow& w) {
    return QString("keys %1…%2, queries %3…%4").arg(w.keys.lower).arg(w.keys.upper).arg(w.queries.lower).arg(w.queries.upper).toUtf8();
}

// No two neighbouring tick labels of `axis` overlap: the ticks QCustomPlot draws, sized with the
// axis' tick label font. Upright bottom labels need half their widths each side; slanted ones
// (−45°) are parallel strips one line high, so their distance across is dx·sin 45°; left labels
// are one line high. Returns how many labels there were.
int checkNoOverlap(QCPAxis* axis) {
    auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(axis->ticker());
    if (!ticker) qFatal("not a text ticker");
    const QFontMetricsF metrics(axis->tickLabelFont());
    const QMap<double, QString>& ticks = ticker->ticks();
    double previous = 0;
    QString previousText;
    int count = 0;
    for (auto it = ticks.begin(); it != ticks.end(); ++it, ++count) {
        if (!axis->range().contains(it.key())) qFatal("a label outside the window");
        const double at = axis->coordToPixel(it.key());
        if (count > 0) {
            const double d = std::abs(at - previous);
            const double halfWidths = (metrics.horizontalAdvance(previousText) + metrics.horizontalAdvance(it.value())) / 2;
            const bool ok = axis->orientation() == Qt::Vertical ? d >= metrics.height()
                            : axis->tickLabelRotation() != 0     ? d * std::sin(M_PI / 4) >= metrics.height()
                                                                 : d >= halfWidths;
            if (!ok) qWarning() << "overlap:" << previousText << it.value() << "apart" << d;
            if (!ok) return -1;
        }
        previous = at;
        previousText = it.value();
    }
    return count;
}

}  // namespace

class HeatmapZoomTest : public QObject {
    Q_OBJECT

private slots:
    void wheelZoomsAroundTheCursor();
    void rubberBandZoomsIntoTheDraggedCells();
    void panAndResetMoveTheWindow();
    void rangeBoxesShowAndSetTheWindow();
    void labelsNeverOverlap_data();
    void labelsNeverOverlap();
    void aSlightlySmallerFontLabelsEveryToken();
    void hoverNamesTokensAndPositionsWhenZoomed();
    void findOutlinesMatchingRowsAndColumns();
    void perRowAndLogColoursMatchHandComputedCells();
    void screenshotsAt128And512Tokens();
    void aHiddenViewsImageLabelsEveryTokenThatFits();
    void anotherLayerRedrawsTheSamePlot();
    void weightColoursAreTheMapsOwnCells();
    void aLayerWithoutWeightsKeepsTheCellsTheNextLayerFills();
    void aCausalMapsHiddenHalfTakesNoMemory();
    void crossAttentionMapsTargetRowsOnSourceColumns();

private:
    void show(HeatmapView& view, const Trace& trace);
};

void HeatmapZoomTest::show(HeatmapView& view, const Trace& trace) {
    view.resize(900, 760);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.showTrace(trace, 0, 4);
    // The new plot is laid out by a posted event, then drawn with labels for its real size.
    QTRY_VERIFY(plotOf(view)->axisRect()->width() > 250 && plotOf(view)->axisRect()->height() > 250);
    QTRY_VERIFY(builderOf(view).labelsUpToDate());
}

void HeatmapZoomTest::wheelZoomsAroundTheCursor() {
    const Trace trace = wordTrace(128);
    HeatmapView view;
    show(view, trace);
    QCustomPlot* plot = plotOf(view);
    QVERIFY(builderOf(view).window() == builderOf(view).fullWindow());
    // One notch in over cell (64, 32): 80% of 128 cells, the point under the cursor kept.
    wheel(plot, pixelOf(*plot, 64, 32), 1);
    HeatmapWindow w = builderOf(view).window();
    QVERIFY2(near(w.keys.lower, 64 - 64.5 * 0.8, 0.05) && near(w.keys.upper, 64 + 63.5 * 0.8, 0.05), text(w));
    QVERIFY2(near(w.queries.lower, 32 - 32.5 * 0.8, 0.05) && near(w.queries.upper, 32 + 95.5 * 0.8, 0.05), text(w));
    // One notch out: every token again. Far in: two cells, the smallest window.
    wheel(plot, pixelOf(*plot, 64, 32), -1);
    w = builderOf(view).window();
    QVERIFY2(near(w.keys.lower, -0.5, 1e-6) && near(w.keys.upper, 127.5, 1e-6), text(w));
    wheel(plot, pixelOf(*plot, 64, 32), 40);
    w = builderOf(view).window();
    QVERIFY2(near(w.keys.size(), 2, 1e-9) && near(w.queries.size(), 2, 1e-9) && w.keys.contains(64), text(w));
    wheel(plot, pixelOf(*plot, 64, 32), -60);  // zooming out stops at the whole map
    QVERIFY(builderOf(view).window() == builderOf(view).fullWindow());
}

void HeatmapZoomTest::rubberBandZoomsIntoTheDraggedCells() {
    const Trace trace = wordTrace(128);
    HeatmapView view;
    show(view, trace);
    QCustomPlot* plot = plotOf(view);
    // Drag over columns 10…29 and rows 40…49: the larger side (20 cells) on both axes.
    const QPointF from = pixelOf(*plot, 9.5, 39.5), to = pixelOf(*plot, 29.5, 49.5);
    mouse(plot, QEvent::MouseButtonPress, from, Qt::LeftButton);
    mouse(plot, QEvent::MouseMove, (from + to) / 2, Qt::LeftButton);
    mouse(plot, QEvent::MouseMove, to, Qt::LeftButton);
    mouse(plot, QEvent::MouseButtonRelease, to, Qt::LeftButton);
    const HeatmapWindow w = builderOf(view).window();
    const double cell = 128.0 / plot->axisRect()->width();  // one pixel in cells: the rounding allowed
    QVERIFY2(near(w.keys.lower, 9.5, 2 * cell) && near(w.keys.upper, 29.5, 2 * cell), text(w));
    QVERIFY2(near(w.queries.center(), 44.5, 2 * cell) && near(w.queries.size(), 20, 2 * cell), text(w));
    // A click is not a band: the window stays.
    mouse(plot, QEvent::MouseButtonPress, pixelOf(*plot, 15, 45), Qt::LeftButton);
    mouse(plot, QEvent::MouseButtonRelease, pixelOf(*plot, 15, 45), Qt::LeftButton);
    QVERIFY(builderOf(view).window() == w);
}

void HeatmapZoomTest::panAndResetMoveTheWindow() {
    const Trace trace = wordTrace(128);
    HeatmapView view;
    show(view, trace);
    view.zoomTo({QCPRange(19.5, 39.5), QCPRange(59.5, 79.5)});
    QCustomPlot* plot = plotOf(view);
    // Middle drag 5 cells right and 3 up: the map follows the hand, showing 5 columns further left…
    const QPointF start = pixelOf(*plot, 30, 70);
    mouse(plot, QEvent::MouseButtonPress, start, Qt::MiddleButton);
    mouse(plot, QEvent::MouseMove, pixelOf(*plot, 35, 67), Qt::MiddleButton);
    mouse(plot, QEvent::MouseButtonRelease, pixelOf(*plot, 35, 67), Qt::MiddleButton);
    HeatmapWindow w = builderOf(view).window();
    QVERIFY2(near(w.keys.lower, 14.5, 0.01) && near(w.queries.lower, 62.5, 0.01), text(w));
    // … Shift + left drag pans too, and stops at the map's edge.
    mouse(plot, QEvent::MouseButtonPress, pixelOf(*plot, 20, 70), Qt::LeftButton, Qt::ShiftModifier);
    mouse(plot, QEvent::MouseMove, pixelOf(*plot, 40, 70), Qt::LeftButton, Qt::ShiftModifier);
    mouse(plot, QEvent::MouseButtonRelease, pixelOf(*plot, 40, 70), Qt::LeftButton, Qt::ShiftModifier);
    w = builderOf(view).window();
    QVERIFY2(near(w.keys.lower, -0.5, 0.01) && near(w.keys.size(), 20, 0.01) && near(w.queries.lower, 62.5, 0.01), text(w));
    // Double-click: every token again.
    mouse(plot, QEvent::MouseButtonDblClick, pixelOf(*plot, 5, 70), Qt::LeftButton);
    QVERIFY(builderOf(view).window() == builderOf(view).fullWindow());
}

void HeatmapZoomTest::rangeBoxesShowAndSetTheWindow() {
    const Trace trace = wordTrace(512);
    HeatmapView view;
    show(view, trace);
    auto* from = view.tools()->findChild<QSpinBox*>("rangeFrom");
    auto* to = view.tools()->findChild<QSpinBox*>("rangeTo");
    QCOMPARE(from->value(), 1);
    QCOMPARE(to->value(), 512);
    to->setValue(120);
    from->setValue(100);  // tokens 100…120 (1-based): cells 99…119, rows and columns
    HeatmapWindow w = builderOf(view).window();
    QVERIFY2(near(w.keys.lower, 98.5, 1e-9) && near(w.keys.upper, 119.5, 1e-9), text(w));
    QVERIFY2(near(w.queries.lower, 98.5, 1e-9) && near(w.queries.upper, 119.5, 1e-9), text(w));
    // The boxes follow a pan: 10 cells right.
    view.zoomTo({QCPRange(108.5, 129.5), QCPRange(98.5, 119.5)});
    QCOMPARE(from->value(), 110);
    QCOMPARE(to->value(), 130);
    // Another layer keeps the window; a shorter sentence starts from the whole map.
    view.showTrace(trace, 0, 4);
    QVERIFY(builderOf(view).window() == (HeatmapWindow{QCPRange(108.5, 129.5), QCPRange(98.5, 119.5)}));
    const Trace shorter = wordTrace(64);
    view.showTrace(shorter, 0, 4);
    QVERIFY(builderOf(view).window() == builderOf(view).fullWindow());
    QCOMPARE(to->value(), 64);
}

void HeatmapZoomTest::labelsNeverOverlap_data() {
    QTest::addColumn<int>("tokens");
    QTest::addColumn<double>("fontFactor");
    for (const int T : {8, 128, 512})
        for (const double f : {1.0, 2.0}) QTest::addRow("%d tokens, font ×%g", T, f) << T << f;
}

void HeatmapZoomTest::labelsNeverOverlap() {
    QFETCH(int, tokens);
    QFETCH(double, fontFactor);
    const Trace trace = wordTrace(tokens);
    HeatmapView view;
    QFont font = view.font();
    font.setPointSizeF(font.pointSizeF() * fontFactor);
    view.setFont(font);
    show(view, trace);
    const double full = tokens;
    for (const double span : {full, full / 4, full / 16, 6.0}) {
        if (span > full || span < 2) continue;
        const double lower = std::min(tokens / 3.0, tokens - span) - 0.5;
        view.zoomTo({QCPRange(lower, lower + span), QCPRange(lower, lower + span)});
        QTRY_VERIFY(builderOf(view).labelsUpToDate());
        QVERIFY(plotOf(view)->axisRect()->width() > 250 && plotOf(view)->axisRect()->height() > 250);
        const HeatmapBuilder& b = builderOf(view);
        QCustomPlot* plot = b.plot();
        const int keys = checkNoOverlap(plot->xAxis), queries = checkNoOverlap(plot->yAxis);
        QVERIFY2(keys > 0 && queries > 0, qPrintable(QString("span %1: overlapping or no labels").arg(span)));
        // The plot's font, or a smaller one that labels every token in view.
        const int inSpan = static_cast<int>(std::floor(lower + span) - std::ceil(lower)) + 1;
        for (const auto& [axis, count] : {std::pair{plot->xAxis, keys}, std::pair{plot->yAxis, queries}}) {
            const double points = axis->tickLabelFont().pointSizeF();
            QVERIFY2(points <= font.pointSizeF() && points >= font.pointSizeF() * kSmallestLabelShare, qPrintable(QString::number(points)));
            if (points < font.pointSizeF()) QCOMPARE(count, inSpan);
        }
        // The record says the same as the ticks.
        QCOMPARE(static_cast<int>(b.drawnKeyLabels().size()), keys);
        QCOMPARE(static_cast<int>(b.drawnQueryLabels().size()), queries);
        for (const auto* drawn : {&b.drawnKeyLabels(), &b.drawnQueryLabels()})
            for (std::size_t i = 1; i < drawn->size(); ++i) {
                const DrawnLabel &p = (*drawn)[i - 1], &q = (*drawn)[i];
                QVERIFY(p.to <= q.from || q.to <= p.from);  // rows run downwards: pixels decrease
            }
        // Zoomed in to 6 cells (and 8 tokens unzoomed), every token in view has its label.
        // The check does catch overlaps: every token labelled at full size overlaps from 128 tokens.
        if (span == full && tokens >= 128) {
            QSharedPointer<QCPAxisTickerText> all(new QCPAxisTickerText);
            for (int i = 0; i < tokens; ++i) all->addTick(i, b.keyLabels()[i]);
            plot->xAxis->setTicker(all);
            QCOMPARE(checkNoOverlap(plot->xAxis), -1);
            plot->replot();  // thinned again
        }
        if (span <= 8) {
            QCOMPARE(keys, inSpan);
            QCOMPARE(queries, inSpan);
        }
    }
}

// Sentences of 8 to 40 tokens in one view: where the plot's font would label only every other
// query, a font down to kSmallestLabelShare of it labels every one (an 11-token sentence at
// 1280×720 showed 6 of its 11 queries); only where even that would overlap are labels thinned.
void HeatmapZoomTest::aSlightlySmallerFontLabelsEveryToken() {
    HeatmapView view;
    int smaller = 0, thinned = 0;
    for (int T = 8; T <= 40; ++T) {
        const Trace trace = wordTrace(T);
        show(view, trace);
        QTRY_VERIFY(builderOf(view).labelsUpToDate());
        QCPAxis* rows = plotOf(view)->yAxis;
        const QFont full = plotOf(view)->font();
        const int queries = checkNoOverlap(rows);
        QVERIFY(queries > 0);
        if (rows->tickLabelFont().pointSizeF() < full.pointSizeF()) {
            ++smaller;
            QCOMPARE(queries, T);
        }
        if (queries == T) continue;
        ++thinned;  // even the smallest font's lines, with the gap between labels, are taller than a row
        QFont floor = full;
        floor.setPointSizeF(full.pointSizeF() * kSmallestLabelShare);
        const QFontMetricsF metrics(floor);
        const double row = std::abs(rows->coordToPixel(1) - rows->coordToPixel(0));
        QVERIFY2(row < metrics.height() + metrics.averageCharWidth() / 3, qPrintable(QString("%1 tokens: rows %2 px").arg(T).arg(row)));
        QCOMPARE(rows->tickLabelFont(), full);
    }
    QVERIFY2(smaller > 0 && thinned > 0, qPrintable(QString("%1 smaller, %2 thinned").arg(smaller).arg(thinned)));
}

void HeatmapZoomTest::hoverNamesTokensAndPositionsWhenZoomed() {
    const Trace trace = wordTrace(512);
    HeatmapView view;
    show(view, trace);
    view.zoomTo({QCPRange(299.5, 309.5), QCPRange(399.5, 409.5)});
    const HeatmapBuilder& b = builderOf(view);
    const QPointF at = pixelOf(*b.plot(), 302.2, 405.1);  // row 405 (w405), column 302 (w302)
    QCOMPARE(b.hoverText(at), QString("w405 (#406) → w302 (#303): %1").arg(QString::fromStdString(formatNumber(0.5 / 511, 4))));
    // Cells outside the window are not under the mouse, even where the coordinates would exist.
    QVERIFY(b.hoverText(pixelOf(*b.plot(), 290, 405)).isEmpty());
}

void HeatmapZoomTest::findOutlinesMatchingRowsAndColumns() {
    Trace trace = wordTrace(128);
    trace.tokens[5].text = "cat";
    trace.tokens[40].text = "Cat";
    trace.tokens[77].text = "concatenate";
    HeatmapView view;
    show(view, trace);
    view.zoomTo({QCPRange(-0.5, 19.5), QCPRange(-0.5, 19.5)});
    view.tools()->findChild<QLineEdit*>("findToken")->setText("cat");
    QCOMPARE(view.matches(), (std::vector<int>{5, 40, 77}));
    QCOMPARE(builderOf(view).highlighted(), (std::vector<int>{5, 40, 77}));
    QCOMPARE(view.tools()->findChild<QLabel*>("findCount")->text(), QString("3 matches (1 of 3)"));
    QCOMPARE(plotOf(view)->itemCount(), 6);  // a row and a column outline each
    // Next: "Cat", the window moves to show row and column 40, keeping its size.
    QTest::mouseClick(view.tools()->findChild<QToolButton*>("findNext"), Qt::LeftButton);
    QCOMPARE(view.currentMatch(), 1);
    HeatmapWindow w = builderOf(view).window();
    QVERIFY2(w.keys.contains(40) && w.queries.contains(40) && near(w.keys.size(), 20, 1e-9), text(w));
    QCOMPARE(view.tools()->findChild<QLabel*>("findCount")->text(), QString("3 matches (2 of 3)"));
    // Previous twice wraps round to "concatenate".
    QTest::mouseClick(view.tools()->findChild<QToolButton*>("findPrevious"), Qt::LeftButton);
    QTest::mouseClick(view.tools()->findChild<QToolButton*>("findPrevious"), Qt::LeftButton);
    QCOMPARE(view.currentMatch(), 2);
    QVERIFY(builderOf(view).window().keys.contains(77));
    view.tools()->findChild<QLineEdit*>("findToken")->setText("dog");
    QVERIFY(view.matches().empty());
    QCOMPARE(view.tools()->findChild<QLabel*>("findCount")->text(), QString("no match"));
    QCOMPARE(plotOf(view)->itemCount(), 0);
}

void HeatmapZoomTest::perRowAndLogColoursMatchHandComputedCells() {
    Trace trace;
    for (const char* t : {"a", "b", "c", "d"}) trace.tokens.push_back({t});
    trace.layers.push_back(testing::layerOf({testing::rows(
        {{.1, .2, .3, .4}, {.01, .001, 0, .989}, {.25, .25, .25, .25}, {0, 0, .5, .5}})}));
    HeatmapView view;
    show(view, trace);
    // Viridis by hand: 0 = #440154, 1 = #fde725; 0.5 halfway between stops 4/9 (#26828e) and
    // 5/9 (#1f9e89); 0.25 a quarter of the way from 2/9 (#3e4989) to 3/9 (#31688e).
    const QColor purple(68, 1, 84), yellow(253, 231, 37), mid(34.5, 144, 139.5), quarter(58.75, 80.75, 138.25);
    struct Cell { int row, col; QColor colour; };
    const auto check = [&](const std::vector<Cell>& cells) {
        QTRY_VERIFY(plotOf(view)->axisRect()->width() > 250);  // a new scale draws new plots
        const HeatmapBuilder& b = builderOf(view);
        const QImage painted = b.plot()->toPixmap().toImage();
        for (const Cell& c : cells) {
            const QColor drawn = b.cellColour(c.row, c.col);
            // Off the cell's centre, where its printed number is not.
            const QColor pixel = painted.pixelColor(pixelOf(*b.plot(), c.col - 0.35, c.row - 0.35).toPoint());
            for (const QColor& got : {drawn, pixel})
                QVERIFY2(near(got.red(), c.colour.red(), 4) && near(got.green(), c.colour.green(), 4) &&
                             near(got.blue(), c.colour.blue(), 4),
                         qPrintable(QString("cell %1,%2: %3, expected %4").arg(c.row).arg(c.col).arg(got.name(), c.colour.name())));
        }
    };
    auto* colours = view.tools()->findChild<QComboBox*>("heatmapColours");
    colours->setCurrentIndex(static_cast<int>(HeatmapColours::PerRow));
    // .2 / .4 = .5;  .4 / .4 = 1;  row 2: .25 / .25 = 1;  row 3: 0 / .5 = 0.
    check({{0, 1, mid}, {0, 3, yellow}, {2, 0, yellow}, {3, 0, purple}});
    QCOMPARE(builderOf(view).drawnCells()[1].value, .2);  // the cells keep the weights
    colours->setCurrentIndex(static_cast<int>(HeatmapColours::Log));
    // log10 from 1e-4 (0) to 1 (1): .01 → 2/4;  .001 → 1/4;  0 → the floor;  .25 … (log .25 + 4) / 4.
    const double t = (std::log10(.25) + 4) / 4;  // 0.8495: between stops 7/9 (#6ece58) and 8/9 (#b5de2b)
    const double f = (t - 7.0 / 9) * 9;
    const QColor quarterPast(0x6e + (0xb5 - 0x6e) * f, 0xce + (0xde - 0xce) * f, 0x58 + (0x2b - 0x58) * f);
    check({{1, 0, mid}, {1, 1, quarter}, {1, 2, purple}, {2, 2, quarterPast}});
    QVERIFY(builderOf(view).colourScale()->label().contains("0.0001"));
    QVERIFY(builderOf(view).colourScale()->axis()->scaleType() == QCPAxis::stLogarithmic);
    // Zoomed to rows 2–3 × columns 1–2 (a window off the map's middle): the same cells, painted
    // where their rows and columns now are (the map's image is stored upright: color_map_plot.cpp).
    colours->setCurrentIndex(static_cast<int>(HeatmapColours::PerRow));
    view.zoomTo({QCPRange(0.5, 2.5), QCPRange(1.5, 3.5)});
    // Per row: row 2 is .25 everywhere (1); row 3: 0 / .5 = 0 at column 1, .5 / .5 = 1 at column 2.
    check({{2, 1, yellow}, {3, 1, purple}, {3, 2, yellow}, {2, 2, yellow}});
}

// A layer switch fills the plot already there (a new plot's map, image and paint buffers were
// most of a switch at 4,096 tokens): the same QCustomPlot, the zoom kept, the new layer's cells
// in the map and in the painted pixels (the image mirrored in place, row 0 on top, every time).
void HeatmapZoomTest::anotherLayerRedrawsTheSamePlot() {
    Trace trace;
    for (const char* t : {"a", "b", "c"}) trace.tokens.push_back({t});
    trace.layers.push_back(testing::layerOf({testing::rows({{1, 0, 0}, {0, 1, 0}, {0, 0, 1}})}));
    trace.layers.push_back(testing::layerOf({testing::rows({{0, 0, 1}, {0, 1, 0}, {1, 0, 0}})}));
    HeatmapView view;
    show(view, trace);
    view.tools()->findChild<QComboBox*>("heatmapColours")->setCurrentIndex(static_cast<int>(HeatmapColours::PerRow));
    view.zoomTo({QCPRange(-0.5, 1.5), QCPRange(-0.5, 1.5)});
    QCustomPlot* const before = plotOf(view);
    const QColor purple(68, 1, 84), yellow(253, 231, 37);  // viridis at 0 and 1 (each row's share of its maximum)
    for (const int layer : {1, 0, 1}) {
        view.showTrace(trace, layer, 4);
        QCOMPARE(plotOf(view), before);
        QCOMPARE(builderOf(view).window().keys.upper, 1.5);
        const QImage painted = plotOf(view)->toPixmap().toImage();
        // Row 0 puts its 1 on column 2 (layer 1) or 0 (layer 0): cell (0, 0) is yellow in layer 0 only.
        for (const auto& [row, col] : {std::pair{0, 0}, std::pair{1, 1}, std::pair{1, 0}}) {
            const double weight = trace.layers[static_cast<std::size_t>(layer)].heads[0].weights(row, col);
            const QColor expected = weight == 1 ? yellow : purple;
            const QColor pixel = painted.pixelColor(pixelOf(*plotOf(view), col - 0.35, row - 0.35).toPoint());
            for (const QColor& got : {builderOf(view).cellColour(row, col), pixel})
                QVERIFY2(near(got.red(), expected.red(), 4) && near(got.green(), expected.green(), 4) &&
                             near(got.blue(), expected.blue(), 4),
                         qPrintable(QString("layer %1, cell %2,%3: %4, expected %5")
                                        .arg(layer).arg(row).arg(col).arg(got.name(), expected.name())));
        }
    }
}

// With weight colours the map's cells are the weights themselves (no second T×T beside them):
// every cell equals the head's weight, hover reads it, and another layer refills the same cells.
void HeatmapZoomTest::weightColoursAreTheMapsOwnCells() {
    Trace trace;
    for (const char* t : {"a", "b", "c"}) trace.tokens.push_back({t});
    trace.layers.push_back(testing::layerOf({testing::rows({{1, 0, 0}, {.5, .5, 0}, {.2, .3, .5}})}));
    trace.layers.push_back(testing::layerOf({testing::rows({{1, 0, 0}, {.25, .75, 0}, {.125, .125, .75}})}));
    HeatmapView view;
    show(view, trace);
    auto* map = qobject_cast<QCPColorMap*>(plotOf(view)->plottable(0));
    QVERIFY(map);
    QCPColorMapData* cells = map->data();
    for (const int layer : {1, 0}) {
        view.showTrace(trace, layer, 4);
        QCOMPARE(map->data(), cells);
        QCOMPARE(cells->keySize(), 3);
        QCOMPARE(cells->valueSize(), 3);
        const HeadTrace& head = trace.layers[static_cast<std::size_t>(layer)].heads[0];
        for (int row = 0; row < 3; ++row)
            for (int col = 0; col < 3; ++col) QCOMPARE(cells->cell(col, row), head.weights(row, col));
        const std::vector<DrawnCell> drawn = builderOf(view).drawnCells();
        QCOMPARE(drawn.size(), std::size_t{9});
        QCOMPARE(drawn[7].value, head.weights(2, 1));  // row 2, column 1: 0.3 or 0.125
        const QString value = QString::fromStdString(formatNumber(head.weights(2, 1), 4));
        QCOMPARE(builderOf(view).hoverText(pixelOf(*plotOf(view), 1, 2)), QString("c (#3) → b (#2): %1").arg(value));
    }
}

// A long run's layer between switches has no weights: the map shows no cells and says why, but
// keeps their storage, so the rebuilt layer's weights go into the same cells (QCustomPlot
// allocates and zero-fills anew for any other size: 128 MB of fresh pages at 4,096 tokens).
void HeatmapZoomTest::aLayerWithoutWeightsKeepsTheCellsTheNextLayerFills() {
    Trace trace;
    for (const char* t : {"a", "b", "c"}) trace.tokens.push_back({t});
    trace.layers.push_back(testing::layerOf({testing::rows({{1, 0, 0}, {.5, .5, 0}, {.2, .3, .5}})}));
    trace.layers.push_back(LayerTrace{});
    trace.layers.back().heads.resize(1);  // one head, its weights not computed
    HeatmapView view;
    show(view, trace);
    auto* map = qobject_cast<QCPColorMap*>(plotOf(view)->plottable(0));
    QVERIFY(map);
    QCPColorMapData* cells = map->data();
    view.showTrace(trace, 1, 4);
    QVERIFY(!map->visible());
    QVERIFY(builderOf(view).drawnCells().empty());
    QVERIFY(builderOf(view).hoverText(pixelOf(*plotOf(view), 1, 2)).isEmpty());
    QCOMPARE(builderOf(view).title(), QString("Layer 2: attention weights not computed"));
    QCOMPARE(map->data(), cells);
    QCOMPARE(cells->keySize(), 3);  // kept
    QCOMPARE(cells->valueSize(), 3);
    view.showTrace(trace, 0, 4);
    QVERIFY(map->visible());
    QCOMPARE(cells->cell(1, 2), 0.3);  // column 1, row 2
    QCOMPARE(builderOf(view).drawnCells().size(), std::size_t{9});
}

// A causal head's weights are 0 past each token: the map's cells start as zeros given back as
// pages and a 0 is never written over a 0, so about half of them never take memory (at 4,096
// tokens 64 of the map's 128 MB). Measured as the process's anonymous memory (a read maps the
// kernel's zero page, which counts in none; mincore would count it), two heads in turn, painted.
void HeatmapZoomTest::aCausalMapsHiddenHalfTakesNoMemory() {
    constexpr int T = 2048;  // cells 32 MiB, the image 16 MiB
    Trace trace;
    for (int i = 0; i < T; ++i) trace.tokens.push_back({"w" + std::to_string(i)});
    std::vector<Mat> heads;
    for (const double share : {0.5, 0.25}) {
        Mat w = Mat::Zero(T, T);
        for (int i = 0; i < T; ++i) {
            w.row(i).head(i + 1).setConstant(i > 0 ? (1 - share) / i : 1);
            if (i > 0) w(i, i) = share;
        }
        heads.push_back(w);
    }
    trace.layers.push_back(testing::layerOf(heads));
    Trace small = wordTrace(8);
    HeatmapView view;
    show(view, small);
    const auto anonymousMiB = [] {
        QFile status("/proc/self/status");
        if (!status.open(QIODevice::ReadOnly)) return -1.0;
        for (const QByteArray& line : status.readAll().split('\n'))
            if (line.startsWith("RssAnon:")) return line.mid(8).trimmed().split(' ').front().toDouble() / 1024;
        return -1.0;
    };
    const double before = anonymousMiB();
    if (before < 0) QSKIP("no /proc/self/status here");
    // The measure needs a kernel that maps its zero page where untouched memory is read: some
    // (a 6.18 Firecracker guest here) give each page read its own, and every cell counts.
    constexpr std::size_t kProbe = 16u << 20;
    void* fresh = mmap(nullptr, kProbe, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);  // never touched
    QVERIFY(fresh != MAP_FAILED);
    const double unread = anonymousMiB();
    for (std::size_t i = 0; i < kProbe; i += 4096) static_cast<void>(static_cast<const volatile char*>(fresh)[i]);
    const double probeRead = anonymousMiB() - unread;
    munmap(fresh, kProbe);
    if (probeRead > 8) QSKIP("this kernel backs every page read with memory of its own: what is written cannot be told apart");
    auto* map = qobject_cast<QCPColorMap*>(plotOf(view)->plottable(0));
    QVERIFY(map);
    for (const int head : {0, 1}) {
        view.showTrace(trace, 0, 4);
        view.findChild<QComboBox*>("heatmapHead")->setCurrentIndex(head);
        view.grab();  // painted: QCustomPlot reads every cell into its image
        QCOMPARE(map->data()->cell(3, 700), heads[static_cast<std::size_t>(head)](700, 3));
        QCOMPARE(map->data()->cell(1900, 700), 0.0);
        const double grown = anonymousMiB() - before;
        // Written whole, the cells and the image were 48 MiB; their visible half and the image 32.
        QVERIFY2(grown < 40, qPrintable(QString("head %1: %2 MiB more anonymous memory").arg(head).arg(grown)));
    }
}

// Cross-attention (the translation lesson's third stage): T_q = 4 decoder rows over T_k = 3 source
// columns, not an empty square map. Hover names the decoder token and the source token with their
// own positions; find outlines rows only (the columns are other tokens).
void HeatmapZoomTest::crossAttentionMapsTargetRowsOnSourceColumns() {
    Trace trace;
    for (const char* t : {"<s>", "who", "am", "i"}) trace.tokens.push_back({t});
    for (const char* t : {"我", "是", "谁"}) trace.keyTokens.push_back({t});
    trace.layers.push_back(testing::layerOf({testing::rows({{.5, .25, .25}, {.125, .125, .75}, {.25, .5, .25}, {.7, .2, .1}})}));
    HeatmapView view;
    show(view, trace);
    const HeatmapBuilder& b = builderOf(view);
    QCOMPARE(b.tokenCount(), 4);
    QCOMPARE(b.keyCount(), 3);
    QCOMPARE(b.keyLabels(), QStringList({"我", "是", "谁"}));
    QVERIFY2(!b.title().contains("not computed"), qPrintable(b.title()));  // a rectangle of weights is computed
    QCOMPARE(b.queryLabels(), QStringList({"<s>", "who", "am", "i"}));
    QCOMPARE(b.fullWindow().keys.upper, 2.5);
    QCOMPARE(b.fullWindow().queries.upper, 3.5);
    const std::vector<DrawnCell> cells = b.drawnCells();
    QCOMPARE(cells.size(), std::size_t{12});
    QCOMPARE(cells[5].value, .75);  // row 1 ("who"), column 2 (谁)
    QCOMPARE(b.hoverText(pixelOf(*b.plot(), 2, 1)), QString("who (#2) → 谁 (#3): 0.7500"));
    QCOMPARE(b.hoverText(pixelOf(*b.plot(), 0, 3)), QString("i (#4) → 我 (#1): 0.7000"));
    // Per row, each row's largest weight is 1 (viridis yellow), wherever its column is.
    view.tools()->findChild<QComboBox*>("heatmapColours")->setCurrentIndex(static_cast<int>(HeatmapColours::PerRow));
    const QColor yellow(253, 231, 37);
    for (const auto& [row, col] : {std::pair{0, 0}, std::pair{1, 2}, std::pair{2, 1}, std::pair{3, 0}}) {
        const QColor got = builderOf(view).cellColour(row, col);
        QVERIFY2(near(got.red(), yellow.red(), 4) && near(got.green(), yellow.green(), 4) && near(got.blue(), yellow.blue(), 4),
                 qPrintable(QString("cell %1,%2: %3").arg(row).arg(col).arg(got.name())));
    }
    view.tools()->findChild<QLineEdit*>("findToken")->setText("am");
    QCOMPARE(builderOf(view).highlighted(), std::vector<int>{2});
}

// A text of real words, `T` tokens with [CLS] and [SEP], weights peaked on the token itself,
// its neighbours and [CLS] (as bert-base's often are).
Trace sentenceTrace(int T) {
    const QStringList words = QStringLiteral(
        "the animal did not cross the street because it was too tired and the teacher said that "
        "every student who reads the book will find its last chapter surprising while the rain kept falling")
                                  .split(' ');
    Trace t;
    t.tokens.push_back({"[CLS]"});
    for (int i = 1; i < T - 1; ++i) t.tokens.push_back({words[(i - 1) % words.size()].toStdString()});
    t.tokens.push_back({"[SEP]"});
    t.tokens.front().special = t.tokens.back().special = true;
    Mat w(T, T);
    for (int r = 0; r < T; ++r) {
        for (int c = 0; c < T; ++c) w(r, c) = c == 0 ? 20 : c == r ? 6 : std::abs(r - c) == 1 ? 3 : 0.05 + 0.05 * ((r * 7 + c * 3) % 5);
        w.row(r) /= w.row(r).sum();
    }
    t.layers.push_back(testing::layerOf({w}));
    return t;
}

void HeatmapZoomTest::screenshotsAt128And512Tokens() {
    const QString dir = qEnvironmentVariable("ATTNSCOPE_SCREENSHOT_DIR");
    for (const int T : {128, 512}) {
        const Trace trace = sentenceTrace(T);
        HeatmapView view;
        view.resize(1600, 1000);
        show(view, trace);
        view.resize(1600, 1000);
        const auto save = [&](const QString& name) {
            for (int pass = 0; pass < 5; ++pass) QApplication::processEvents();  // layouts settle level by level
            QTRY_VERIFY(plotOf(view)->axisRect()->width() > 250);
            QTRY_VERIFY(builderOf(view).labelsUpToDate());
            const QImage image = view.grab().toImage();
            QVERIFY(image.width() == 1600 && image.height() == 1000);
            if (!dir.isEmpty()) QVERIFY(image.save(QDir(dir).filePath(name)));
        };
        save(QString("heatmap-%1.png").arg(T));
        if (T == 128) view.zoomTo({QCPRange(20.5, 44.5), QCPRange(20.5, 44.5)});
        else {
            view.tools()->findChild<QLineEdit*>("findToken")->setText("tired");
            view.zoomTo({QCPRange(99.5, 163.5), QCPRange(99.5, 163.5)});
            view.tools()->findChild<QComboBox*>("heatmapColours")->setCurrentIndex(static_cast<int>(HeatmapColours::Log));
        }
        save(QString("heatmap-%1-%2.png").arg(T).arg(T == 128 ? "zoomed" : "zoomed-find-log"));
    }
}

// The command line's export draws a view that was never shown: its labels are thinned for the
// size it is drawn at (before, for the plot's unlaid-out size: every 3rd or 5th token of 26).
void HeatmapZoomTest::aHiddenViewsImageLabelsEveryTokenThatFits() {
    const Trace trace = wordTrace(26);
    HeatmapView view;
    view.resize(1400, 1100);
    view.showTrace(trace, 0, 2);
    const QImage image = view.renderImage();
    QVERIFY(image.width() > 1000);
    const HeatmapBuilder& b = builderOf(view);
    QVERIFY(b.labelsUpToDate());
    QCOMPARE(checkNoOverlap(b.plot()->xAxis), 26);
    QCOMPARE(checkNoOverlap(b.plot()->yAxis), 26);
}

QTEST_MAIN(HeatmapZoomTest)
#include "test_heatmap_zoom.moc"
