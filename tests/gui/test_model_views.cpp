// GUI tests of the model view (layers × heads thumbnails) and the head view (bertviz lines),
// offscreen, on a Trace written by hand. Checked through what the views report they drew
// (thumbnails, pixels of the one-pixel-per-weight images, lines), never through screen pixels.
//
// Hand trace: tokens [CLS] a b [SEP] (0 and 3 special), 2 layers × 2 heads:
//   L0 h0              L0 h1              L1 h0              L1 h1
//   .4  .3  .2  .1     .1  .1  .1  .7     .7  .1  .1  .1     .25 .25 .25 .25
//   .1  .5  .2  .2     .3  .1  .3  .3     .2  .2  .6  0      .005 .9 .09 .005
//   .2  .2  .4  .2     0   .6  .2  .2     .1  .8  .05 .05    .5  .5  0   0
//   .25 .25 .25 .25    .4  .2  .2  .2     .3  .3  .3  .1     0   0   0   1
//
// Set ATTNSCOPE_SCREENSHOT_DIR to write model-view.png and head-view.png (tiny BERT) there.
//
// Large traces are built by the views' worker threads: tests wait for the results by running
// the event loop until they have arrived (never by sleeping).
#include <QAbstractEventDispatcher>
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QTimer>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <ctime>
#include <functional>

#include "core/model/transformer.hpp"
#include "core/analysis/head_summary.hpp"
#include "ui/attention/head_view.hpp"
#include "ui/attention/head_view_lines.hpp"
#include "ui/attention/model_view.hpp"
#include "ui/step/trace_matrix_model.hpp"

#include "tests/matrix_literal.hpp"

using namespace attnscope;

namespace {

using testing::layerOf;
using testing::rows;


Trace handTrace() {
    Trace t;
    for (const char* text : {"[CLS]", "a", "b", "[SEP]"}) t.tokens.push_back({text});
    t.tokens.front().special = t.tokens.back().special = true;
    t.layers.push_back(layerOf({rows({{.4, .3, .2, .1}, {.1, .5, .2, .2}, {.2, .2, .4, .2}, {.25, .25, .25, .25}}),
                                rows({{.1, .1, .1, .7}, {.3, .1, .3, .3}, {0, .6, .2, .2}, {.4, .2, .2, .2}})}));
    t.layers.push_back(layerOf({rows({{.7, .1, .1, .1}, {.2, .2, .6, 0}, {.1, .8, .05, .05}, {.3, .3, .3, .1}}),
                                rows({{.25, .25, .25, .25}, {.005, .9, .09, .005}, {.5, .5, 0, 0}, {0, 0, 0, 1}})}));
    return t;
}

// Synthetic long input, bert-base sized: [CLS] and [SEP] take half of every row, the
// neighbours 0.15 each, the rest spread thinly (below the head view's 0.01 threshold).
Trace bigTrace(int tokens, int layers, int heads) {
    Trace t;
    for (int i = 0; i < tokens; ++i) t.tokens.push_back({"w" + std::to_string(i)});
    t.tokens.front().special = t.tokens.back().special = true;
    const double thin = 0.2 / (tokens - 4);
    for (int l = 0; l < layers; ++l) {
        LayerTrace layer;
        layer.heads.resize(static_cast<std::size_t>(heads));
        for (int h = 0; h < heads; ++h) {
            Mat w = Mat::Constant(tokens, tokens, thin);
            const int step = 1 + (l + h) % 3;  // heads differ by how far the neighbours are
            for (int r = 0; r < tokens; ++r) {
                w(r, 0) = 0.3;
                w(r, tokens - 1) = 0.2;
                w(r, std::clamp(r - step, 1, tokens - 2)) = 0.15;
                w(r, std::clamp(r + step, 1, tokens - 2)) = 0.15;
            }
            layer.heads[static_cast<std::size_t>(h)].weights = std::move(w);
        }
        t.layers.push_back(std::move(layer));
    }
    return t;
}

const DrawnThumbnail* thumbnail(const ModelView& view, int layer, int head) {
    for (const DrawnThumbnail& t : view.drawnThumbnails())
        if (t.layer == layer && t.head == head) return &t;
    return nullptr;
}

int countAtLeast(const Mat& m, double threshold) {
    return static_cast<int>((m.array() >= threshold).count());
}

AttentionViewOptions withScale(AttentionViewOptions::Scale scale) {
    AttentionViewOptions o;
    o.scale = scale;
    return o;
}

// Every computed thumbnail's image has arrived from the worker.
bool thumbnailsReady(const ModelView& view) {
    for (const DrawnThumbnail& t : view.drawnThumbnails())
        if (t.computed && view.thumbnailImage(t.layer, t.head).isNull()) return false;
    return true;
}

// ---- GUI-thread cost: wall time and this thread's CPU time (the machine may be busy).
double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

struct Cost {
    double wall = 0, cpu = 0;  // ms
    Cost& max(const Cost& other) {
        wall = std::max(wall, other.wall);
        cpu = std::max(cpu, other.cpu);
        return *this;
    }
};

template <class F>
Cost costOf(F&& f) {
    QElapsedTimer timer;
    timer.start();
    const double cpu = threadCpuMs();
    f();
    return {timer.nsecsElapsed() / 1e6, threadCpuMs() - cpu};
}

// Runs the event loop until `done()` (woken by the workers' posted results; a 100 ms timer only
// guards against a result that never comes). Reports how long that took and the longest stretch
// the GUI thread was busy between two waits (one round of event handlers: swapping results in,
// repainting), in wall and thread CPU time.
struct Waited {
    bool ok = false;
    double ms = 0;
    Cost longestHandler;
};

Waited waitFor(const std::function<bool()>& done, int timeoutMs = 120000) {
    Waited w;
    QElapsedTimer total, busy;
    total.start();
    double busyCpu = 0;
    QAbstractEventDispatcher* dispatcher = QAbstractEventDispatcher::instance();
    const auto c1 = QObject::connect(dispatcher, &QAbstractEventDispatcher::awake, [&] {
        busy.start();
        busyCpu = threadCpuMs();
    });
    const auto c2 = QObject::connect(dispatcher, &QAbstractEventDispatcher::aboutToBlock, [&] {
        if (busy.isValid()) w.longestHandler.max({busy.nsecsElapsed() / 1e6, threadCpuMs() - busyCpu});
    });
    QTimer guard;
    guard.start(100);
    while (!(w.ok = done()) && total.elapsed() < timeoutMs) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    QObject::disconnect(c1);
    QObject::disconnect(c2);
    w.ms = total.nsecsElapsed() / 1e6;
    return w;
}

QString fmt(const Cost& c) { return QString("%1 ms (cpu %2)").arg(c.wall, 0, 'f', 1).arg(c.cpu, 0, 'f', 1); }

}  // namespace

class ModelViewsTest : public QObject {
    Q_OBJECT

private slots:
    void modelViewDrawsEveryLayerAndHead();
    void clickingAThumbnailActivatesThatHead();
    void averageColumnIsTheHandMean();
    void maxColumnIsTheHandMaximum();
    void hidingSpecialTokensShrinksThumbnailsAndSaysSo();
    void scalesFollowTheOptions();
    void layersWithoutWeightsSayNotComputed();
    void aLongRunsLayersShowTheirThumbnails();
    void headViewAlphaIsTheWeight();
    void headViewSharedScaleDividesByTheLayerMax();
    void hoveringALeftTokenIsolatesItsLines();
    void hoveringARightTokenShowsLinesIntoIt();
    void aTokensLinesAndTheMostAnyTokenHas();
    void headViewHidesSpecialTokens();
    void severalHeadsGetSeveralColours();
    void headViewAverageIsTheHandMean();
    void largeTracesAreBuiltOnAWorker();
    void linesAreDrawnAt512TokensWithStrongestPerToken();
    void bertBaseSizedTraceBuildsQuickly();
    void screenshotsOfTheTinyBert();
    void stepTableShowsAModelsFloatWeights();

private:
    Trace trace = handTrace();
};

void ModelViewsTest::modelViewDrawsEveryLayerAndHead() {
    ModelView view;
    view.resize(600, 400);
    view.showTrace(trace, {});
    view.show();
    QCOMPARE(static_cast<int>(view.drawnThumbnails().size()), 2 * 2);
    for (const DrawnThumbnail& t : view.drawnThumbnails()) {
        QCOMPARE(t.rows, 4);
        QCOMPARE(t.cols, 4);
        QCOMPARE(t.scaleMax, 1.0);
        QVERIFY(t.computed);
        // One pixel per weight, coloured on the fixed [0, 1] scale.
        const QImage img = view.thumbnailImage(t.layer, t.head);
        const Mat w = trace.layers[t.layer].heads[t.head].weights.toMat();
        QCOMPARE(img.size(), QSize(4, 4));
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 4; ++c) QCOMPARE(img.pixel(c, r), ModelView::colourFor(w(r, c), 1.0));
    }
    // Rows are layers, columns heads.
    QVERIFY(thumbnail(view, 1, 0)->rect.top() > thumbnail(view, 0, 0)->rect.bottom());
    QVERIFY(thumbnail(view, 0, 1)->rect.left() > thumbnail(view, 0, 0)->rect.right());
    QVERIFY(view.caption().contains("0 (dark) to 1"));
    // Different weights, different colours: the bright end is viridis yellow.
    QCOMPARE(QColor(ModelView::colourFor(1.0, 1.0)).name(), QString("#fde725"));
    QCOMPARE(QColor(ModelView::colourFor(0.0, 1.0)).name(), QString("#440154"));
}

void ModelViewsTest::clickingAThumbnailActivatesThatHead() {
    ModelView view;
    view.resize(600, 400);
    view.showTrace(trace, {});
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QSignalSpy spy(&view, &ModelView::headActivated);
    const QPoint centre = thumbnail(view, 1, 0)->rect.center();
    QCOMPARE(view.thumbnailAt(centre), std::make_optional(std::make_pair(1, 0)));
    QTest::mouseClick(view.canvas(), Qt::LeftButton, {}, centre);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toInt(), 1);
    QCOMPARE(spy.at(0).at(1).toInt(), 0);
    // The gap between thumbnails and the label margin hit nothing.
    const QRect a = thumbnail(view, 0, 0)->rect, b = thumbnail(view, 0, 1)->rect;
    QVERIFY(!view.thumbnailAt(QPoint((a.right() + b.left()) / 2, a.center().y())));
    QVERIFY(!view.thumbnailAt(QPoint(1, 1)));
    QTest::mouseClick(view.canvas(), Qt::LeftButton, {}, QPoint(1, 1));
    QCOMPARE(spy.count(), 1);
}

void ModelViewsTest::averageColumnIsTheHandMean() {
    AttentionViewOptions o;
    o.aggregate = AttentionViewOptions::Average;
    ModelView view;
    view.resize(700, 400);
    view.showTrace(trace, o);
    QCOMPARE(static_cast<int>(view.drawnThumbnails().size()), 2 * 3);
    // Layer 0 mean, by hand: row 0 = (.4+.1)/2, (.3+.1)/2, (.2+.1)/2, (.1+.7)/2 = .25 .2 .15 .4 …
    const Mat mean0 = rows({{.25, .2, .15, .4}, {.2, .3, .25, .25}, {.1, .4, .3, .2}, {.325, .225, .225, .225}});
    // Layer 1: (.7+.25)/2 = .475, (.1+.25)/2 = .175, …
    const Mat mean1 = rows({{.475, .175, .175, .175}, {.1025, .55, .345, .0025}, {.3, .65, .025, .025}, {.15, .15, .15, .55}});
    const QImage img0 = view.thumbnailImage(0, ModelView::kAggregateHead);
    const QImage img1 = view.thumbnailImage(1, ModelView::kAggregateHead);
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) {
            QCOMPARE(img0.pixel(c, r), ModelView::colourFor(mean0(r, c), 1.0));
            QCOMPARE(img1.pixel(c, r), ModelView::colourFor(mean1(r, c), 1.0));
        }
    // The mean column sits right of the heads and is not a head to open.
    const DrawnThumbnail* agg = thumbnail(view, 0, ModelView::kAggregateHead);
    QVERIFY(agg->rect.left() > thumbnail(view, 0, 1)->rect.right());
    QVERIFY(!view.thumbnailAt(agg->rect.center()));
    QVERIFY(view.caption().contains("mean"));
}

void ModelViewsTest::maxColumnIsTheHandMaximum() {
    AttentionViewOptions o;
    o.aggregate = AttentionViewOptions::Max;
    ModelView view;
    view.showTrace(trace, o);
    const Mat max0 = rows({{.4, .3, .2, .7}, {.3, .5, .3, .3}, {.2, .6, .4, .2}, {.4, .25, .25, .25}});
    const QImage img = view.thumbnailImage(0, ModelView::kAggregateHead);
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) QCOMPARE(img.pixel(c, r), ModelView::colourFor(max0(r, c), 1.0));
}

void ModelViewsTest::hidingSpecialTokensShrinksThumbnailsAndSaysSo() {
    AttentionViewOptions o;
    o.hideSpecial = true;
    ModelView view;
    view.showTrace(trace, o);
    for (const DrawnThumbnail& t : view.drawnThumbnails()) {
        QCOMPARE(t.rows, 2);
        QCOMPARE(t.cols, 2);
    }
    // L0 h0 rows/cols {a, b}: [.5 .2; .2 .4] — not renormalised.
    QCOMPARE(view.thumbnailImage(0, 0).pixel(0, 0), ModelView::colourFor(.5, 1.0));
    QCOMPARE(view.thumbnailImage(0, 0).pixel(1, 1), ModelView::colourFor(.4, 1.0));
    QVERIFY(view.caption().contains("no longer sum to 1"));
    o.renormalize = true;
    view.setOptions(o);
    // [.5 .2] / .7 → 5/7;  [.2 .4] / .6 → 2/3
    QCOMPARE(view.thumbnailImage(0, 0).pixel(0, 0), ModelView::colourFor(5.0 / 7, 1.0));
    QCOMPARE(view.thumbnailImage(0, 0).pixel(1, 1), ModelView::colourFor(2.0 / 3, 1.0));
    QVERIFY(view.caption().contains("renormalised"));
}

void ModelViewsTest::scalesFollowTheOptions() {
    ModelView view;
    view.showTrace(trace, withScale(AttentionViewOptions::SharedMax));
    for (const DrawnThumbnail& t : view.drawnThumbnails()) QCOMPARE(t.scaleMax, 1.0);  // L1 h1 has a 1
    AttentionViewOptions o = withScale(AttentionViewOptions::SharedMax);
    o.hideSpecial = true;  // shown: L0 {.5,.2,.2,.4} {.1,.3,.6,.2}, L1 {.2,.6,.8,.05} {.9,.09,.5,0} → .9
    view.setOptions(o);
    for (const DrawnThumbnail& t : view.drawnThumbnails()) QCOMPARE(t.scaleMax, .9);
    QCOMPARE(view.thumbnailImage(1, 1).pixel(0, 0), ModelView::colourFor(1.0, 1.0));  // a → a, .9: the brightest
    view.setOptions(withScale(AttentionViewOptions::PerHeadMax));
    QCOMPARE(thumbnail(view, 0, 0)->scaleMax, .5);
    QCOMPARE(thumbnail(view, 0, 1)->scaleMax, .7);
    QCOMPARE(thumbnail(view, 1, 0)->scaleMax, .8);
    QCOMPARE(view.thumbnailImage(0, 0).pixel(1, 1), ModelView::colourFor(1.0, 1.0));  // .5 / .5
}

void ModelViewsTest::layersWithoutWeightsSayNotComputed() {
    Trace t = handTrace();
    for (HeadTrace& h : t.layers[1].heads) h.weights = Mat();
    ModelView view;
    view.resize(600, 400);
    view.showTrace(t, {});
    QCOMPARE(static_cast<int>(view.drawnThumbnails().size()), 4);
    QVERIFY(thumbnail(view, 0, 0)->computed);
    QVERIFY(!thumbnail(view, 1, 0)->computed);
    QVERIFY(view.thumbnailImage(1, 0).isNull());
    QVERIFY(!view.thumbnailAt(thumbnail(view, 1, 0)->rect.center()));
    view.grab();  // paints "not computed" without crashing
}

// A long run's layers hold no weights; the run's digests (ModelRun::digests) give their thumbnails.
void ModelViewsTest::aLongRunsLayersShowTheirThumbnails() {
    Trace t = handTrace();
    auto digests = std::make_shared<RunDigests>(2);
    for (const HeadTrace& h : t.layers[1].heads) (*digests)[1].push_back(digestOf(h.weights, false, 2));  // 2×2 blocks
    for (HeadTrace& h : t.layers[1].heads) h.weights = Mat();
    ModelView view;
    view.resize(600, 400);
    view.setThumbnails(digests);
    view.showTrace(t, withScale(AttentionViewOptions::Fixed01));
    QVERIFY(waitFor([&] { return thumbnailsReady(view); }).ok);
    QVERIFY(!thumbnail(view, 0, 0)->pooled);
    const DrawnThumbnail* pooled = thumbnail(view, 1, 0);
    QVERIFY(pooled->computed && pooled->pooled);
    QCOMPARE(pooled->rows, 2);
    // Layer 1 head 0, rows {0, 1} × columns {0, 1}: (.7 + .1 + .2 + .2) / 4 = .3; rows {2, 3} ×
    // columns {0, 1}: (.1 + .8 + .3 + .3) / 4 = .375; rows {2, 3} × columns {2, 3}: (.05 + .05 + .3 + .1) / 4 = .125.
    const QImage image = view.thumbnailImage(1, 0);
    QCOMPARE(image.size(), QSize(2, 2));
    QCOMPARE(image.pixel(0, 0), ModelView::colourFor(.3, 1.0));
    QCOMPARE(image.pixel(0, 1), ModelView::colourFor(.375, 1.0));
    QCOMPARE(image.pixel(1, 1), ModelView::colourFor(.125, 1.0));
    view.setThumbnails(nullptr);  // without them: not computed, as any layer without weights
    view.showTrace(t, withScale(AttentionViewOptions::Fixed01));
    QVERIFY(!thumbnail(view, 1, 0)->computed);
}

void ModelViewsTest::headViewAlphaIsTheWeight() {
    HeadView view;
    view.resize(500, 300);
    view.showTrace(trace, 0, {0}, {});
    const Mat w = trace.layers[0].heads[0].weights.toMat();
    QCOMPARE(static_cast<int>(view.drawnLines().size()), countAtLeast(w, HeadView::kMinWeight));  // 16
    for (const DrawnLine& line : view.drawnLines()) {
        QCOMPARE(line.head, 0);
        QCOMPARE(line.weight, w(line.from, line.to));
        QCOMPARE(line.alpha, line.weight);  // Fixed01: opacity is the weight
    }
    // Layer 1 head 1: .005 entries and zeros are skipped — 16 - 2 - 5 = 9 lines.
    view.showTrace(trace, 1, {1}, {});
    QCOMPARE(static_cast<int>(view.drawnLines().size()), 9);
    QCOMPARE(view.tokenRect(HoveredToken::Left, 0).height(), HeadView::kRowHeight);
}

void ModelViewsTest::headViewSharedScaleDividesByTheLayerMax() {
    HeadView view;
    view.showTrace(trace, 0, {0, 1}, withScale(AttentionViewOptions::SharedMax));
    for (const DrawnLine& line : view.drawnLines()) QCOMPARE(line.alpha, line.weight / .7);  // layer 0 max: .7
    view.setOptions(withScale(AttentionViewOptions::PerHeadMax));
    for (const DrawnLine& line : view.drawnLines())
        QCOMPARE(line.alpha, line.weight / (line.head == 0 ? .5 : .7));
}

void ModelViewsTest::hoveringALeftTokenIsolatesItsLines() {
    HeadView view;
    view.resize(500, 300);
    view.showTrace(trace, 0, {0, 1}, {});
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QCOMPARE(static_cast<int>(view.drawnLines().size()), 16 + 15);  // head 1 has one 0
    QTest::mouseMove(view.canvas(), view.tokenRect(HoveredToken::Left, 2).center());
    QCOMPARE(view.hoveredToken(), std::make_optional(HoveredToken{HoveredToken::Left, 2}));
    // Row 2 of head 0: 4 weights; of head 1: .6 .2 .2 (the 0 is skipped).
    QCOMPARE(static_cast<int>(view.drawnLines().size()), 4 + 3);
    for (const DrawnLine& line : view.drawnLines()) QCOMPARE(line.from, 2);
    view.grab();  // paints the hover boxes
    view.setHoveredToken(std::nullopt);
    QCOMPARE(static_cast<int>(view.drawnLines().size()), 31);
}

void ModelViewsTest::hoveringARightTokenShowsLinesIntoIt() {
    HeadView view;
    view.resize(500, 300);
    view.showTrace(trace, 1, {1}, {});
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTest::mouseMove(view.canvas(), view.tokenRect(HoveredToken::Right, 3).center());
    QCOMPARE(view.hoveredToken(), std::make_optional(HoveredToken{HoveredToken::Right, 3}));
    // Column 3 of L1 h1: .25 .005 0 1 → two lines.
    QCOMPARE(static_cast<int>(view.drawnLines().size()), 2);
    for (const DrawnLine& line : view.drawnLines()) QCOMPARE(line.to, 3);
}

// What a hover shows and what its list is made ready for, on five lines by hand.
void ModelViewsTest::aTokensLinesAndTheMostAnyTokenHas() {
    const std::vector<DrawnLine> lines{{0, 1, 0, 0.5, 0.5}, {1, 1, 0, 0.2, 0.2}, {2, 1, 1, 0.9, 0.9}, {1, 0, 1, 0.8, 0.8}, {2, 2, 0, 0.1, 0.1}};
    std::vector<DrawnLine> into{lines[4]};  // cleared first
    const auto ends = [&] {
        std::vector<std::pair<int, int>> e;
        for (const DrawnLine& l : into) e.emplace_back(l.from, l.to);
        return e;
    };
    linesTouching(lines, {HoveredToken::Left, 1}, into);  // out of token 1
    QCOMPARE(ends(), (std::vector<std::pair<int, int>>{{1, 1}, {1, 0}}));
    linesTouching(lines, {HoveredToken::Right, 1}, into);  // into token 1
    QCOMPARE(ends(), (std::vector<std::pair<int, int>>{{0, 1}, {1, 1}, {2, 1}}));
    linesTouching(lines, {HoveredToken::Both, 1}, into);  // the focus: both ways, 1→1 once
    QCOMPARE(ends(), (std::vector<std::pair<int, int>>{{0, 1}, {1, 1}, {2, 1}, {1, 0}}));
    // Token 1: those 4; token 0: 0→1, 1→0; token 2: 2→1, 2→2 (once); token 3: none.
    QCOMPARE(mostLinesOfOneToken(lines, 4), std::size_t{4});
    QCOMPARE(mostLinesOfOneToken({}, 0), std::size_t{0});
    QCOMPARE(mostLinesOfOneToken(lines, 2), std::size_t{4});  // token 2 counted past the two given
}

void ModelViewsTest::headViewHidesSpecialTokens() {
    AttentionViewOptions o;
    o.hideSpecial = true;
    HeadView view;
    view.showTrace(trace, 0, {0}, o);
    QCOMPARE(view.shownTokens(), std::vector<int>({1, 2}));
    QCOMPARE(static_cast<int>(view.drawnLines().size()), 4);
    for (const DrawnLine& line : view.drawnLines()) {
        QVERIFY(line.from != 0 && line.from != 3 && line.to != 0 && line.to != 3);
        QCOMPARE(line.weight, trace.layers[0].heads[0].weights(line.from, line.to));
    }
    QVERIFY(view.tokenRect(HoveredToken::Left, 0).isNull());
    QVERIFY(view.caption().contains("no longer sum to 1"));
    o.renormalize = true;
    view.setOptions(o);
    QVERIFY(view.caption().contains("renormalised"));
    double rowSum = 0;
    for (const DrawnLine& line : view.drawnLines())
        if (line.from == 1) rowSum += line.weight;
    QCOMPARE(rowSum, 1.0);  // 5/7 + 2/7
}

void ModelViewsTest::severalHeadsGetSeveralColours() {
    HeadView view;
    view.showTrace(trace, 0, {0, 1}, {});
    bool seen[2] = {false, false};
    for (const DrawnLine& line : view.drawnLines()) seen[line.head] = true;
    QVERIFY(seen[0] && seen[1]);
    QVERIFY(HeadView::headColour(0) != HeadView::headColour(1));
    view.setHeads({1});
    for (const DrawnLine& line : view.drawnLines()) QCOMPARE(line.head, 1);
}

void ModelViewsTest::headViewAverageIsTheHandMean() {
    AttentionViewOptions o;
    o.aggregate = AttentionViewOptions::Average;
    HeadView view;
    view.showTrace(trace, 1, {0, 1}, o);
    const Mat mean1 = rows({{.475, .175, .175, .175}, {.1025, .55, .345, .0025}, {.3, .65, .025, .025}, {.15, .15, .15, .55}});
    QCOMPARE(static_cast<int>(view.drawnLines().size()), 15);  // .0025 is below 0.01
    for (const DrawnLine& line : view.drawnLines()) {
        QCOMPARE(line.head, HeadView::kAggregateHead);
        QVERIFY(std::abs(line.weight - mean1(line.from, line.to)) < 1e-12);
    }
}

// Above the inline threshold: the same pictures and lines, delivered later by the worker;
// superseded builds are dropped; a view going away mid-build waits for its worker.
void ModelViewsTest::largeTracesAreBuiltOnAWorker() {
    const Trace big = bigTrace(160, 2, 3);
    ModelView model;
    model.resize(700, 400);
    model.showTrace(big, withScale(AttentionViewOptions::PerHeadMax));
    // The grid is laid out at once; the pixels are not there before the event loop runs.
    QCOMPARE(static_cast<int>(model.drawnThumbnails().size()), 2 * 3);
    QCOMPARE(model.drawnThumbnails().front().rows, 160);
    QVERIFY(model.thumbnailImage(0, 0).isNull());
    // Superseded twice before anything arrived: only the last options' pictures may show.
    AttentionViewOptions hidden;
    hidden.hideSpecial = true;
    model.setOptions(hidden);
    model.setOptions({});
    QVERIFY(waitFor([&] { return thumbnailsReady(model); }).ok);
    for (const DrawnThumbnail& t : model.drawnThumbnails()) {
        QCOMPARE(t.rows, 160);
        QCOMPARE(t.scaleMax, 1.0);
        const QImage img = model.thumbnailImage(t.layer, t.head);
        const Mat w = big.layers[t.layer].heads[t.head].weights.toMat();
        QCOMPARE(img.size(), QSize(160, 160));
        for (int r = 0; r < 160; r += 7)
            for (int c = 0; c < 160; ++c) QCOMPARE(img.pixel(c, r), ModelView::colourFor(w(r, c), 1.0));
    }
    model.setOptions(withScale(AttentionViewOptions::PerHeadMax));
    QVERIFY(waitFor([&] { return thumbnailsReady(model); }).ok);
    for (const DrawnThumbnail& t : model.drawnThumbnails()) QCOMPARE(t.scaleMax, 0.3);  // every row's [CLS] weight
    model.show();
    model.grab();

    HeadView head;
    head.resize(500, 600);
    head.showTrace(big, 1, {}, {});
    QVERIFY(head.drawnLines().empty());  // being extracted
    QVERIFY(waitFor([&] { return !head.drawnLines().empty(); }).ok);
    int expected = 0;
    for (const HeadTrace& h : big.layers[1].heads) expected += countAtLeast(h.weights.toMat(), HeadView::kMinWeight);
    QCOMPARE(static_cast<int>(head.drawnLines().size()), expected);
    head.show();
    QVERIFY(QTest::qWaitForWindowExposed(&head));
    QVERIFY(waitFor([&] { return head.paintedLineCount() > 0; }).ok);  // the cached picture arrived and was painted
    head.setHoveredToken(HoveredToken{HoveredToken::Left, 80});
    QCOMPARE(static_cast<int>(head.drawnLines().size()), 3 * 4);  // [CLS], [SEP], two neighbours per head
    head.grab();

    {  // Destroyed mid-build: the destructor stops and waits for the worker.
        ModelView doomed;
        doomed.showTrace(big, {});
        HeadView doomedHead;
        doomedHead.showTrace(big, 0, {}, {});
    }
}

// The requirement: at bert-base size (512 tokens, 12 × 12 heads) nothing on the GUI thread takes
// longer than a frame; the heavy work runs in the workers. Reports, for each GUI-thread step, wall
// and thread CPU time (the machine running the tests may be busy: CPU time is the fairer
// figure), the longest event-handler round while waiting for a worker, and the worker's time.
void ModelViewsTest::bertBaseSizedTraceBuildsQuickly() {
    const Trace big = bigTrace(512, 12, 12);
    Cost worst;  // over every GUI-thread step
    const auto note = [&](const char* what, const Cost& c) {
        worst.max(c);
        qInfo("  %-52s %s", what, qPrintable(fmt(c)));
    };
    const auto noteWait = [&](const char* what, const Waited& w) {
        worst.max(w.longestHandler);
        qInfo("  %-52s worker done in %.0f ms; longest GUI-thread handler %s", what, w.ms, qPrintable(fmt(w.longestHandler)));
    };
    qInfo("512 tokens, 12x12 heads, GUI-thread times (wall, thread cpu):");

    ModelView model;
    model.resize(1000, 800);
    model.show();
    QVERIFY(QTest::qWaitForWindowExposed(&model));
    const Cost modelBuild = costOf([&] { model.showTrace(big, {}); });
    note("ModelView::showTrace", modelBuild);
    QCOMPARE(static_cast<int>(model.drawnThumbnails().size()), 12 * 12);
    note("ModelView paint while building", costOf([&] { model.grab(); }));
    Waited w = waitFor([&] { return thumbnailsReady(model); });
    QVERIFY(w.ok);
    noteWait("ModelView build", w);
    note("ModelView paint (all built)", costOf([&] { model.grab(); }));
    AttentionViewOptions o;
    o.hideSpecial = true;
    o.aggregate = AttentionViewOptions::Average;
    o.scale = AttentionViewOptions::SharedMax;
    const Cost modelRebuild = costOf([&] { model.setOptions(o); });
    note("ModelView::setOptions (hidden+mean+shared)", modelRebuild);
    note("ModelView paint while rebuilding", costOf([&] { model.grab(); }));
    w = waitFor([&] { return thumbnailsReady(model); });
    QVERIFY(w.ok);
    noteWait("ModelView rebuild", w);
    QCOMPARE(static_cast<int>(model.drawnThumbnails().size()), 12 * 13);
    QCOMPARE(model.drawnThumbnails().front().rows, 510);
    QVERIFY(model.caption().contains("largest weight shown in any head"));
    // Larger thumbnails: the old pictures are stretched until the worker has rescaled them.
    note("ModelView resize + paint", costOf([&] {
        model.resize(1300, 1000);
        model.grab();
    }));

    HeadView head;
    head.resize(600, 800);
    head.show();
    QVERIFY(QTest::qWaitForWindowExposed(&head));
    const Cost headBuild = costOf([&] { head.showTrace(big, 5, {}, {}); });
    note("HeadView::showTrace", headBuild);
    note("HeadView paint while finding lines", costOf([&] { head.grab(); }));
    w = waitFor([&] { return !head.drawnLines().empty(); });
    QVERIFY(w.ok);
    noteWait("HeadView lines", w);
    note("HeadView paint while drawing the picture", costOf([&] { head.grab(); }));
    w = waitFor([&] { return head.paintedLineCount() > 0; });
    QVERIFY(w.ok);
    noteWait("HeadView picture", w);
    const Cost headPaint = costOf([&] { head.grab(); });
    note("HeadView paint at the top", headPaint);
    const int paintedAtTop = head.paintedLineCount();
    note("HeadView scroll to the middle + paint", costOf([&] {
        head.scrollArea()->verticalScrollBar()->setValue(head.scrollArea()->verticalScrollBar()->maximum() / 2);
        head.grab();
    }));
    // The picture covers a few screens around the rows seen (512 rows are 9,000 px and more):
    // the middle rows get a picture of their own from the worker.
    w = waitFor([&] { return head.paintedLineCount() > 0; });
    QVERIFY(w.ok);
    noteWait("HeadView picture of the middle rows", w);
    // 12 heads × 512 rows × 4 lines ≥ 0.01 (neighbours may coincide at the ends).
    QVERIFY(head.drawnLines().size() > 12 * 512 * 3);
    QVERIFY(head.paintedLineCount() < static_cast<int>(head.drawnLines().size()));  // the visible rows only
    const int paintedMiddle = head.paintedLineCount();
    note("HeadView hover [SEP] (right) + paint", costOf([&] {
        head.setHoveredToken(HoveredToken{HoveredToken::Right, 511});
        head.grab();
    }));
    QCOMPARE(static_cast<int>(head.drawnLines().size()), 12 * 512);  // every row gives [SEP] 0.2
    w = waitFor([&] { return head.paintedLineCount() > 0; });  // thousands of lines: the worker draws them
    QVERIFY(w.ok);
    noteWait("HeadView hover picture", w);
    note("HeadView paint hovering [SEP]", costOf([&] { head.grab(); }));
    QVERIFY(head.paintedLineCount() > 0);
    QVERIFY(head.paintedLineCount() <= 12 * 512);
    note("HeadView hover a middle token (left) + paint", costOf([&] {
        head.setHoveredToken(HoveredToken{HoveredToken::Left, 256});
        head.grab();
    }));
    note("HeadView hover off + paint", costOf([&] {
        head.setHoveredToken(std::nullopt);
        head.grab();
    }));
    note("HeadView::setOptions (hidden+mean+shared)", costOf([&] { head.setOptions(o); }));
    w = waitFor([&] { return !head.drawnLines().empty(); });
    QVERIFY(w.ok);
    noteWait("HeadView lines after setOptions", w);
    note("HeadView paint (previous picture, stretched)", costOf([&] { head.grab(); }));
    w = waitFor([&] { return head.paintedLineCount() > 0; });
    QVERIFY(w.ok);
    noteWait("HeadView picture after setOptions", w);
    note("HeadView resize + paint (stale picture)", costOf([&] {
        head.resize(800, 800);
        head.grab();
    }));
    w = waitFor([&] { return head.paintedLineCount() > 0; });
    QVERIFY(w.ok);
    noteWait("HeadView picture after resize", w);
    qInfo("  head view: %zu lines; %d painted at the top, %d in the middle", head.drawnLines().size(), paintedAtTop,
          paintedMiddle);
    qInfo("  longest GUI-thread step: %s", qPrintable(fmt(worst)));
    QVERIFY2(modelBuild.wall + modelRebuild.wall + headBuild.wall < 20000, "far too slow");  // loose: shared CI machines
}

void ModelViewsTest::screenshotsOfTheTinyBert() {
    // Ids of the third run in tests/reference/fixtures/model-bert-tiny.json ([CLS] … [MASK] … [SEP]);
    // the tiny model has no vocabulary, so the words are made-up labels.
    const std::vector<int> ids = {2, 5, 66, 71, 8, 90, 13, 4, 27, 31, 44, 3};
    std::vector<Token> tokens;
    for (const char* text : {"[CLS]", "the", "quick", "fox", "jumps", "over", "the", "[MASK]", "dog", "and", "runs", "[SEP]"})
        tokens.push_back({text});
    tokens.front().special = tokens.back().special = true;
    auto model = loadModel(QDir(ATTNSCOPE_SOURCE_DIR).filePath("tests/reference/models/bert-tiny").toStdString());
    QVERIFY2(model.ok(), model.ok() ? "" : model.error().text().c_str());
    RunControl control;
    control.maskTokenId = 4;  // [MASK]
    auto run = runModel(model.value(), ids, tokens, control);
    QVERIFY(run.ok());
    const Trace& t = run.value().trace;

    QTemporaryDir tmp;
    const QString dir = qEnvironmentVariableIsEmpty("ATTNSCOPE_SCREENSHOT_DIR") ? tmp.path()
                                                                                 : qEnvironmentVariable("ATTNSCOPE_SCREENSHOT_DIR");
    AttentionViewOptions o;
    o.aggregate = AttentionViewOptions::Average;
    ModelView modelView;
    modelView.resize(760, 460);
    modelView.showTrace(t, o);
    modelView.show();
    QVERIFY(modelView.grab().save(QDir(dir).filePath("model-view.png")));

    HeadView headView;
    headView.resize(560, 330);
    headView.showTrace(t, 1, {0, 2}, {});
    headView.show();
    QVERIFY(headView.grab().save(QDir(dir).filePath("head-view.png")));
    headView.setHoveredToken(HoveredToken{HoveredToken::Left, 7});  // [MASK]
    QVERIFY(headView.grab().save(QDir(dir).filePath("head-view-hover.png")));
}

// 512 tokens, every weight near 1/512 ≈ 0.002 (below the 0.01 floor): no line by the floor,
// 3 per token and head with "strongest per token" = 3, and they are painted (issue 13 §2).
void ModelViewsTest::linesAreDrawnAt512TokensWithStrongestPerToken() {
    const int T = 512;
    Trace t;
    for (int i = 0; i < T; ++i) t.tokens.push_back({"w" + std::to_string(i)});
    LayerTrace layer;
    for (int h = 0; h < 2; ++h) {
        Mat w(T, T);
        for (int r = 0; r < T; ++r)
            for (int c = 0; c < T; ++c) w(r, c) = 1.0 + ((r * 31 + c * 17 + h * 7) % T) / 5000.0;  // c·17 mod 512: distinct in a row
        for (int r = 0; r < T; ++r) w.row(r) /= w.row(r).sum();
        HeadTrace head;
        head.weights = std::move(w);
        layer.heads.push_back(std::move(head));
    }
    t.layers.push_back(std::move(layer));
    QVERIFY(t.layers[0].heads[0].weights.toMat().maxCoeff() < 0.01);

    // The floor alone (what the view drew before): no line at all.
    const std::vector<int> all = visibleTokens(t, false);
    LinesJob floorOnly{&t, 0, {0, 1}, {}, all, std::make_shared<std::atomic<bool>>(false), LineFilter{}};
    QVERIFY(extractLines(floorOnly).value().empty());
    floorOnly.filter.topK = 1;
    QCOMPARE(static_cast<int>(extractLines(floorOnly).value().size()), 2 * T);

    HeadView head;
    head.resize(600, 800);
    head.show();
    QVERIFY(QTest::qWaitForWindowExposed(&head));
    head.showTrace(t, 0, {}, {});
    QCOMPARE(head.lineFilter().minWeight, HeadView::kMinWeight);
    QVERIFY(head.caption().contains("0.01"));
    head.findChild<QSpinBox*>("lineTopK")->setValue(3);
    QVERIFY(waitFor([&] { return !head.drawnLines().empty(); }).ok);
    QCOMPARE(static_cast<int>(head.drawnLines().size()), 2 * T * 3);
    // Each is among its row's 3 largest weights of its head.
    for (const DrawnLine& l : head.drawnLines()) {
        const RowVec row = t.layers[0].heads[static_cast<std::size_t>(l.head)].weights.toMat().row(l.from);
        QVERIFY((row.array() > l.weight).count() < 3);
        QCOMPARE(l.weight, row(l.to));
    }
    QVERIFY(head.caption().contains("3"));
    QVERIFY(waitFor([&] { return head.paintedLineCount() > 0; }).ok);  // and painted
}

// A model layer kept WeightsOnly holds float weights: the numbers table shows them (as double,
// exactly), not an empty matrix.
void ModelViewsTest::stepTableShowsAModelsFloatWeights() {
    Trace t;
    for (const char* text : {"a", "b", "c"}) t.tokens.push_back(Token{text});
    MatF w(3, 3);
    w << 0.1f, 0.2f, 0.7f, 0.5f, 0.25f, 0.25f, 1.f, 0.f, 0.f;
    HeadTrace head;
    head.weights = w;
    t.layers.push_back(LayerTrace{});
    t.layers[0].heads.push_back(head);
    QVERIFY(t.layers[0].heads[0].weights.isFloat());
    TraceMatrixModel model;
    model.show(&t, Step::Weights, 0, 0, 4);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), 3);
    QCOMPARE(model.data(model.index(0, 0), TraceMatrixModel::ValueRole).toDouble(), static_cast<double>(0.1f));
    QCOMPARE(model.data(model.index(0, 2), Qt::DisplayRole).toString(), QStringLiteral("0.7000"));
    QCOMPARE(model.data(model.index(2, 0), TraceMatrixModel::ShadeRole).toDouble(), 1.0);  // the largest weight
    QCOMPARE(model.data(model.index(1, 0), TraceMatrixModel::ShadeRole).toDouble(), 0.5);
}

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    ModelViewsTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_model_views.moc"
