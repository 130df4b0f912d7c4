// GUI tests of the model view at real sizes (issue 13 §3), offscreen: thumbnails that grow with
// the window, column headers and layer labels that never collide, the layer / head filters, heads
// ordered by a statistic of the Heads tab, and clicks that still open the right head. Checked
// through what the view reports it drew (rects, header texts), never through screen pixels.
//
// Synthetic trace, L layers × H heads over 6 tokens: head (l, h) puts p = (1 + (5l + 7h) mod H)
// / (H + 1) on the previous token (row 0: on itself) and spreads the rest, 1 − p, evenly over
// all 6 tokens. Its previous-token share is p + (1 − p)/6, so within a layer the heads are
// ordered by (5l + 7h) mod H, all different (7 is prime to 4, 12 and 16).
#include <QApplication>
#include <QComboBox>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <algorithm>
#include <map>
#include <memory>

#include "core/analysis/head_order.hpp"
#include "core/analysis/head_stats.hpp"
#include "ui/attention/model_view.hpp"
#include "ui/attention/model_view_bar.hpp"

using namespace attnscope;

namespace {

constexpr int kTokens = 6;

Trace gridTrace(int layers, int heads, int tokens = kTokens) {
    Trace t;
    for (int i = 0; i < tokens; ++i) t.tokens.push_back({"w" + std::to_string(i)});
    for (int l = 0; l < layers; ++l) {
        LayerTrace layer;
        layer.heads.resize(static_cast<std::size_t>(heads));
        for (int h = 0; h < heads; ++h) {
            const double p = (1 + (5 * l + 7 * h) % heads) / (heads + 1.0);
            Mat w = Mat::Constant(tokens, tokens, (1 - p) / tokens);
            for (int r = 0; r < tokens; ++r) w(r, std::max(r - 1, 0)) += p;
            layer.heads[static_cast<std::size_t>(h)].weights = std::move(w);
        }
        t.layers.push_back(std::move(layer));
    }
    return t;
}

int thumbSide(const ModelView& view) { return view.drawnThumbnails().front().rect.width(); }

bool scrolls(const ModelView& view) {
    const auto* scroll = view.findChild<QScrollArea*>();
    return scroll->horizontalScrollBar()->isVisible() || scroll->verticalScrollBar()->isVisible();
}

// Per shown layer, its heads left to right as drawn (the aggregate column left out).
std::map<int, std::vector<int>> drawnOrder(const ModelView& view) {
    std::vector<DrawnThumbnail> thumbs = view.drawnThumbnails();
    std::sort(thumbs.begin(), thumbs.end(), [](const auto& a, const auto& b) { return a.rect.left() < b.rect.left(); });
    std::map<int, std::vector<int>> order;
    for (const DrawnThumbnail& t : thumbs)
        if (t.head != ModelView::kAggregateHead) order[t.layer].push_back(t.head);
    return order;
}

QString overlapIn(const std::vector<DrawnHeader>& headers) {
    for (std::size_t i = 0; i < headers.size(); ++i)
        for (std::size_t j = i + 1; j < headers.size(); ++j)
            if (headers[i].rect.intersects(headers[j].rect)) return headers[i].text + " / " + headers[j].text;
    return {};
}

void settle(ModelView& view, QSize size) {
    view.resize(size);
    QApplication::processEvents();
    QApplication::processEvents();
}

}  // namespace

class ModelViewSizesTest : public QObject {
    Q_OBJECT
private slots:
    void thumbnailsGrowWithTheWindow();
    void headersNeverCollide_data();
    void headersNeverCollide();
    void headersShortenWhenNarrow();
    void filtersShowChosenLayersAndHeads();
    void invalidFilterKeepsTheLastValidOne();
    void headsAreOrderedByAStatistic();
    void clickOpensTheRightHeadAfterFilterAndSort();
    void relayoutAfterTheTraceIsGoneReadsNoTrace();
    void screenshotAt1600x1000();
};

void ModelViewSizesTest::thumbnailsGrowWithTheWindow() {
    const Trace trace = gridTrace(12, 12);
    AttentionViewOptions o;
    o.aggregate = AttentionViewOptions::Average;
    ModelView view;
    view.showTrace(trace, o);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    settle(view, QSize(800, 600));
    const int small = thumbSide(view);
    QCOMPARE(small, 48);     // 12 rows do not fit in 600 px at 48 px: the readable minimum, scrolling
    QVERIFY(scrolls(view));
    settle(view, QSize(1600, 1000));
    const int large = thumbSide(view);
    QVERIFY2(large > small, qPrintable(QString("%1 px at 1600×1000, %2 px at 800×600").arg(large).arg(small)));
    QVERIFY(large >= 60);    // (1000 − caption, filters, headers) / 12 rows, minus the gaps
    QVERIFY(!scrolls(view)); // the whole 12 × 13 grid is on screen
    const QSize viewport = view.findChild<QScrollArea*>()->viewport()->size();
    QVERIFY(view.canvas()->width() <= viewport.width() && view.canvas()->height() <= viewport.height());
    // Every thumbnail is square, the same size, and on the canvas.
    for (const DrawnThumbnail& t : view.drawnThumbnails()) {
        QCOMPARE(t.rect.size(), QSize(large, large));
        QVERIFY(view.canvas()->rect().contains(t.rect));
    }
    // A tiny model does not blow up into huge blocks.
    const Trace tiny = gridTrace(1, 2);
    view.showTrace(tiny, o);
    QCOMPARE(thumbSide(view), 220);
}

void ModelViewSizesTest::headersNeverCollide_data() {
    QTest::addColumn<int>("layers");
    QTest::addColumn<int>("heads");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<double>("fontScale");
    QTest::addColumn<bool>("aggregate");
    for (const auto& [l, h] : {std::pair{4, 4}, {12, 12}, {12, 16}})
        for (const QSize size : {QSize(500, 350), QSize(1600, 1000)})
            for (const double scale : {1.0, 2.0, 3.0})
                for (const bool aggregate : {false, true})
                    QTest::addRow("%dx%d %dx%d font×%.0f%s", l, h, size.width(), size.height(), scale, aggregate ? " mean" : "")
                        << l << h << size << scale << aggregate;
}

void ModelViewSizesTest::headersNeverCollide() {
    QFETCH(int, layers);
    QFETCH(int, heads);
    QFETCH(QSize, size);
    QFETCH(double, fontScale);
    QFETCH(bool, aggregate);
    const Trace trace = gridTrace(layers, heads);
    AttentionViewOptions o;
    if (aggregate) o.aggregate = AttentionViewOptions::Average;
    ModelView view;
    QFont font = view.font();
    font.setPointSizeF(font.pointSizeF() * fontScale);
    view.setFont(font);  // as View ▸ Zoom would: the layout follows the font actually in use
    view.showTrace(trace, o);
    view.show();
    settle(view, size);
    const auto& headers = view.headers();
    const QString overlap = overlapIn(headers);
    QVERIFY2(overlap.isEmpty(), qPrintable("overlapping headers: " + overlap));
    const QFontMetrics fm(font);
    int columns = 0, rows = 0;
    for (const DrawnHeader& h : headers) {
        QVERIFY(!h.text.isEmpty());
        QVERIFY2(h.rect.width() >= fm.horizontalAdvance(h.text), qPrintable(h.text));  // room for the whole text
        QVERIFY2(h.rect.left() >= 0 && h.rect.right() < view.canvas()->width(), qPrintable(h.text));  // not cut off
        (h.rect.top() == 0 ? columns : rows) += 1;
    }
    // Thinned out at worst, never gone: the first column and the first layer keep their label.
    QVERIFY(columns >= 2);
    QVERIFY(rows >= 2);
    QVERIFY(std::any_of(headers.begin(), headers.end(), [](const DrawnHeader& h) { return h.text == "layer 1"; }));
    if (aggregate) QVERIFY(std::any_of(headers.begin(), headers.end(), [](const DrawnHeader& h) { return h.text == "mean"; }));
}

void ModelViewSizesTest::headersShortenWhenNarrow() {
    const Trace trace = gridTrace(4, 4);
    ModelView view;
    view.showTrace(trace, {});
    view.show();
    settle(view, QSize(1600, 1000));
    const auto texts = [&] {
        QStringList t;
        for (const DrawnHeader& h : view.headers())
            if (h.rect.top() == 0) t << h.text;
        return t;
    };
    QCOMPARE(texts(), (QStringList{"head 1", "head 2", "head 3", "head 4"}));  // wide columns: in full
    const Trace wide = gridTrace(12, 16);
    view.showTrace(wide, {});
    QFont font = view.font();
    font.setPointSizeF(font.pointSizeF() * 3);
    view.setFont(font);
    settle(view, QSize(500, 350));
    for (const QString& t : texts()) QVERIFY2(!t.startsWith("head") && !t.startsWith("h"), qPrintable(t));
}

void ModelViewSizesTest::filtersShowChosenLayersAndHeads() {
    const Trace trace = gridTrace(12, 12);
    ModelView view;
    view.showTrace(trace, {});
    view.show();
    settle(view, QSize(1000, 700));
    // Typed into the bar, as the user would.
    view.bar()->layerEdit()->setText("1-3,7");
    QTest::keyClick(view.bar()->layerEdit(), Qt::Key_Return);
    QVERIFY(view.setHeadFilter(" 12, 2 "));
    QCOMPARE(static_cast<int>(view.drawnThumbnails().size()), 4 * 2);
    std::vector<int> layersDrawn;
    for (const DrawnThumbnail& t : view.drawnThumbnails()) {
        QVERIFY(t.head == 1 || t.head == 11);
        if (t.head == 1) layersDrawn.push_back(t.layer);
    }
    QCOMPARE(layersDrawn, (std::vector<int>{0, 1, 2, 6}));
    // Rows top to bottom in layer order, with no gap where layers 4–6 were; head 2 left of 12.
    const auto order = drawnOrder(view);
    QCOMPARE(order.at(6), (std::vector<int>{1, 11}));
    std::vector<DrawnThumbnail> thumbs = view.drawnThumbnails();
    std::sort(thumbs.begin(), thumbs.end(), [](const auto& a, const auto& b) { return a.rect.top() < b.rect.top(); });
    QCOMPARE(thumbs.back().layer, 6);
    QCOMPARE(thumbs.back().rect.top() - thumbs.front().rect.top(), 3 * (thumbs.front().rect.height() + 6));
    QStringList texts;
    for (const DrawnHeader& h : view.headers()) texts << h.text;
    QVERIFY2(texts.contains("head 12") && texts.contains("layer 7") && !texts.contains("layer 4"), qPrintable(texts.join(',')));
    QVERIFY(view.caption().contains("Showing 4 of 12 layers and 2 of 12 heads."));
    QVERIFY(view.bar()->message().isEmpty());
    // Empty: everything again.
    QVERIFY(view.setLayerFilter(""));
    QVERIFY(view.setHeadFilter(""));
    QCOMPARE(static_cast<int>(view.drawnThumbnails().size()), 144);
}

void ModelViewSizesTest::invalidFilterKeepsTheLastValidOne() {
    const Trace trace = gridTrace(12, 12);
    ModelView view;
    view.showTrace(trace, {});
    view.show();
    QVERIFY(view.setLayerFilter("2-3"));
    QVERIFY(!view.setLayerFilter("2-x"));
    QCOMPARE(view.bar()->message(),
             QString("layers: expected numbers or ranges such as 1-3,7 separated by commas, found \"2-x\". "
                     "The previous filter (2-3) stays."));
    QCOMPARE(static_cast<int>(view.drawnThumbnails().size()), 2 * 12);
    QVERIFY(!view.setHeadFilter("13"));
    QCOMPARE(view.bar()->message(), QString("heads: 13 is not between 1 and 12. The previous filter (all) stays."));
    QCOMPARE(static_cast<int>(view.drawnThumbnails().size()), 2 * 12);
    // A valid one clears the message.
    QVERIFY(view.setHeadFilter("1"));
    QVERIFY(view.bar()->message().isEmpty());
    QCOMPARE(static_cast<int>(view.drawnThumbnails().size()), 2);
    // A smaller model: a filter it cannot satisfy is dropped (said so) and all is shown.
    const Trace small = gridTrace(1, 4);
    view.showTrace(small, {});
    QCOMPARE(view.bar()->message(), QString("layers: 2 is not between 1 and 1. Showing all."));
    QCOMPARE(static_cast<int>(view.drawnThumbnails().size()), 1);  // head filter "1" still applies
}

void ModelViewSizesTest::headsAreOrderedByAStatistic() {
    const Trace trace = gridTrace(12, 12);
    const auto stats = headStatistics(trace);
    QVERIFY(stats.ok());
    AttentionViewOptions o;
    o.aggregate = AttentionViewOptions::Max;
    ModelView view;
    view.showTrace(trace, o);
    view.show();
    settle(view, QSize(1600, 1000));
    // The app's part (HeadsTab::orderModelView): the box asks, the core orders, the view draws.
    connect(&view, &ModelView::headOrderRequested, &view, [&] {
        const auto key = view.headSortKey();
        view.setHeadOrder(key ? headOrderBy(stats.value(), *key) : std::vector<std::vector<int>>{}, "previous-token share");
    });
    view.bar()->orderBox()->setCurrentIndex(3);
    QCOMPARE(view.headSortKey(), std::make_optional(HeadSortKey::PreviousShare));
    const auto order = drawnOrder(view);
    for (int l = 0; l < 12; ++l) {
        // By hand: highest (5l + 7h) mod 12 first.
        std::vector<int> expected(12);
        for (int h = 0; h < 12; ++h) expected[static_cast<std::size_t>(11 - (5 * l + 7 * h) % 12)] = h;
        QCOMPARE(order.at(l), expected);
    }
    QCOMPARE(order.at(0).front(), 5);  // 7·5 = 35 ≡ 11 (mod 12)
    // The aggregate column stays last; headers now give ranks; the caption says what happened.
    const DrawnThumbnail* last = nullptr;
    for (const DrawnThumbnail& t : view.drawnThumbnails())
        if (t.layer == 0 && (!last || t.rect.left() > last->rect.left())) last = &t;
    QCOMPARE(last->head, ModelView::kAggregateHead);
    QVERIFY(std::any_of(view.headers().begin(), view.headers().end(), [](const DrawnHeader& h) { return h.text == "rank 1"; }));
    QVERIFY(view.caption().contains("Heads ordered by previous-token share"));
    QVERIFY(overlapIn(view.headers()).isEmpty());
    // Back to head number order.
    view.bar()->orderBox()->setCurrentIndex(0);
    QCOMPARE(drawnOrder(view).at(3), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
    // An order of another shape (a stale one) is not used.
    view.setHeadOrder({{1, 0}}, "entropy");
    QCOMPARE(drawnOrder(view).at(0).front(), 0);
}

void ModelViewSizesTest::clickOpensTheRightHeadAfterFilterAndSort() {
    const Trace trace = gridTrace(12, 12);
    const auto stats = headStatistics(trace);
    QVERIFY(stats.ok());
    ModelView view;
    view.showTrace(trace, {});
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    settle(view, QSize(1200, 800));
    QVERIFY(view.setLayerFilter("3,5"));
    QVERIFY(view.setHeadFilter("1-6"));
    view.setHeadOrder(headOrderBy(stats.value(), HeadSortKey::PreviousShare), "previous-token share");
    // Rows: layers 3 and 5 (indices 2, 4), no gap between. In layer 5 the heads 1–6 (h = 0…5)
    // have (20 + 7h) mod 12 = 8, 3, 10, 5, 0, 7: head 3 (h = 2) comes first.
    std::vector<DrawnThumbnail> thumbs = view.drawnThumbnails();
    std::sort(thumbs.begin(), thumbs.end(), [](const auto& a, const auto& b) {
        return std::make_pair(a.rect.top(), a.rect.left()) < std::make_pair(b.rect.top(), b.rect.left());
    });
    QCOMPARE(static_cast<int>(thumbs.size()), 2 * 6);
    const DrawnThumbnail& first = thumbs[6];  // second row, first column
    QCOMPARE(first.layer, 4);
    QCOMPARE(first.head, 2);
    QSignalSpy spy(&view, &ModelView::headActivated);
    QTest::mouseClick(view.canvas(), Qt::LeftButton, {}, first.rect.center());
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toInt(), 4);
    QCOMPARE(spy.at(0).at(1).toInt(), 2);
    // And the last of the first row: layer 3 (index 2), (10 + 7h) mod 12 = 10, 5, 0, 7, 2, 9 → lowest h = 2.
    QTest::mouseClick(view.canvas(), Qt::LeftButton, {}, thumbs[5].rect.center());
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy.at(1).at(0).toInt(), 2);
    QCOMPARE(spy.at(1).at(1).toInt(), 2);
}

// The window frees a trace before it shows the next one (tabs redraw when they come on screen);
// a font change or resize in between lays the grid out again from what the view kept.
void ModelViewSizesTest::relayoutAfterTheTraceIsGoneReadsNoTrace() {
    auto trace = std::make_unique<Trace>(gridTrace(12, 12));
    ModelView view;
    view.showTrace(*trace, {});
    view.show();
    settle(view, QSize(900, 700));
    view.setHeadOrder(headOrderBy(headStatistics(*trace).value(), HeadSortKey::Entropy), "entropy");
    const int before = thumbSide(view);
    trace.reset();
    // Poison the freed memory's neighbourhood: a new trace of another shape where the old one was.
    auto other = std::make_unique<Trace>(gridTrace(1, 1));
    QFont font = view.font();
    font.setPointSizeF(font.pointSizeF() * 2);
    view.setFont(font);
    settle(view, QSize(1600, 1000));
    QVERIFY(thumbSide(view) > before);
    QCOMPARE(static_cast<int>(view.drawnThumbnails().size()), 144);
    QVERIFY(overlapIn(view.headers()).isEmpty());
}

// Set ATTNSCOPE_SCREENSHOT_DIR to write model-view-12x12.png: 12 × 12 heads over 40 tokens at
// 1600 × 1000, ordered by previous-token share, with the mean column.
void ModelViewSizesTest::screenshotAt1600x1000() {
    const QString dir = qEnvironmentVariable("ATTNSCOPE_SCREENSHOT_DIR");
    if (dir.isEmpty()) QSKIP("ATTNSCOPE_SCREENSHOT_DIR not set");
    const Trace trace = gridTrace(12, 12, 40);
    const auto stats = headStatistics(trace);
    QVERIFY(stats.ok());
    AttentionViewOptions o;
    o.aggregate = AttentionViewOptions::Average;
    ModelView view;
    view.showTrace(trace, o);
    view.show();
    settle(view, QSize(1600, 1000));
    view.bar()->orderBox()->setCurrentIndex(3);
    view.setHeadOrder(headOrderBy(stats.value(), HeadSortKey::PreviousShare), view.bar()->orderBox()->currentText());
    QTRY_VERIFY_WITH_TIMEOUT(std::all_of(view.drawnThumbnails().begin(), view.drawnThumbnails().end(),
                                         [&](const DrawnThumbnail& t) { return !view.thumbnailImage(t.layer, t.head).isNull(); }),
                             60000);
    QApplication::processEvents();
    QVERIFY(!scrolls(view));
    QVERIFY(view.grab().save(dir + "/model-view-12x12.png"));
}

QTEST_MAIN(ModelViewSizesTest)
#include "test_model_view_sizes.moc"
