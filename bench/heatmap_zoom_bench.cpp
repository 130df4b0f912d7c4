// Benchmark: frame times of the 512×512 attention heatmap while zooming and panning (issue 13).
// A synthetic 512-token trace (bert-base shaped rows), the HeatmapView offscreen at 1600×1000;
// N wheel events (in and out, at varying cells) and N pan steps (middle-button drag), each
// timed from the event to the plot painted (its replot, the relabelling replot a resize may
// queue, and the widget's repaint).
//
//   QT_QPA_PLATFORM=offscreen build/bench/attnscope_heatmap_bench [events] [--heads H]
//
// --heads H shows H heads side by side (all zoomed together). Prints median / p95 / max in ms
// against the 16 ms frame budget, wall time and this thread's CPU time.
#include <QApplication>
#include <QElapsedTimer>
#include <QMouseEvent>
#include <QWheelEvent>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <random>

#include "bench/frame_times.hpp"
#include "ui/attention/heatmap_view.hpp"

using namespace attnscope;

namespace {

// Rows like bert-base's at 512 tokens: [CLS] and [SEP] take half, a few neighbours a little,
// the rest spread thinly (with noise, so the colour map is not flat).
Trace syntheticTrace(int T, int heads) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> noise(0.5, 1.5);
    Trace t;
    for (int i = 0; i < T; ++i) t.tokens.push_back({i == 0 ? "[CLS]" : i == T - 1 ? "[SEP]" : "word" + std::to_string(i)});
    LayerTrace layer;
    for (int h = 0; h < heads; ++h) {
        Mat w(T, T);
        for (int r = 0; r < T; ++r) {
            for (int c = 0; c < T; ++c) w(r, c) = noise(rng) * (c == 0 || c == T - 1 ? 60 : std::abs(r - c) <= 1 + h % 3 ? 8 : 0.2);
            w.row(r) /= w.row(r).sum();
        }
        HeadTrace head;
        head.weights = std::move(w);
        layer.heads.push_back(std::move(head));
    }
    t.layers.push_back(std::move(layer));
    return t;
}

using bench::Stats;
using bench::summarise;
using bench::threadCpuMs;

struct Times {
    std::vector<double> wall, cpu;
};

void report(const char* what, const Times& t) {
    const Stats w = summarise(t.wall), c = summarise(t.cpu);
    std::printf("%-34s wall median %7.2f  p95 %7.2f  max %7.2f ms | thread CPU median %6.2f  max %6.2f ms  (%zu events)\n",
                what, w.median, w.p95, w.max, c.median, c.max, t.wall.size());
}

// One event sent to the plot, then everything it caused drawn.
void timed(QWidget* plot, QEvent& event, Times& into) {
    QElapsedTimer clock;
    clock.start();
    const double cpu = threadCpuMs();
    QApplication::sendEvent(plot, &event);
    QApplication::processEvents();  // queued replots and the repaint they asked for
    into.cpu.push_back(threadCpuMs() - cpu);
    into.wall.push_back(clock.nsecsElapsed() / 1e6);
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int events = args.size() > 1 && args[1].toInt() > 0 ? args[1].toInt() : 200;
    const int heads = args.contains("--heads") ? std::max(1, args.value(args.indexOf("--heads") + 1).toInt()) : 1;
    const int T = args.contains("--tokens") ? std::max(16, args.value(args.indexOf("--tokens") + 1).toInt()) : 512;
    const Trace trace = syntheticTrace(T, heads);
    HeatmapView view;
    view.resize(1600, 1000);
    view.show();
    view.setAllHeads(heads > 1);
    QElapsedTimer first;
    first.start();
    view.showTrace(trace, 0, 4);
    for (int i = 0; i < 5; ++i) QApplication::processEvents();
    std::printf("%d tokens, %d head(s) side by side, 1600×1000 offscreen; first build + layout %.1f ms\n", T, heads,
                first.nsecsElapsed() / 1e6);
    QWidget* plot = view.firstPlot();
    std::mt19937 rng(5);
    std::uniform_int_distribution<int> xs(plot->width() / 4, plot->width() * 3 / 4), ys(plot->height() / 4, plot->height() * 3 / 4);
    Times wheel, pan;
    for (int i = 0; i < events; ++i) {  // in four notches, out four, at random points
        const QPointF at(xs(rng), ys(rng));
        QWheelEvent e(at, plot->mapToGlobal(at), QPoint(), QPoint(0, (i / 4) % 2 ? -120 : 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
        timed(plot, e, wheel);
    }
    view.zoomTo({QCPRange(99.5, 227.5), QCPRange(99.5, 227.5)});  // 128 of T cells, then pan around
    QPointF at(plot->width() / 2.0, plot->height() / 2.0);
    QMouseEvent press(QEvent::MouseButtonPress, at, plot->mapToGlobal(at), Qt::MiddleButton, Qt::MiddleButton, Qt::NoModifier);
    QApplication::sendEvent(plot, &press);
    for (int i = 0; i < events; ++i) {
        at += QPointF((i / 20) % 2 ? -6 : 6, (i / 30) % 2 ? -4 : 4);
        QMouseEvent move(QEvent::MouseMove, at, plot->mapToGlobal(at), Qt::NoButton, Qt::MiddleButton, Qt::NoModifier);
        timed(plot, move, pan);
    }
    report(QString("wheel zoom (in/out, %1×%1)").arg(T).toUtf8().constData(), wheel);
    report("pan (middle drag, 128×128 window)", pan);
    return 0;
}
