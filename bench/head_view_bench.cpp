// Benchmark: frame times of the head view at 512 tokens with 12 heads (issue 13 §2, "Measured").
// A synthetic trace (core/trace/synthetic_trace.hpp: softmax rows, [CLS]/[SEP] and neighbours
// strong), the HeadView offscreen at 1200×1000, every head shown; once the lines and their
// picture are made (the worker's job, timed apart), N mouse moves over random token labels
// (hover: the token's lines over the dimmed picture) and N wheel steps (scroll), each timed from
// the event to the view painted. The same again with a focus token set.
//
//   QT_QPA_PLATFORM=offscreen build/bench/attnscope_head_view_bench [events] [--top-k K]
//
// Prints min / median / p95 / max in ms against the 16 ms frame budget (wall, and this thread's
// CPU time: on a busy machine the wall time also counts other processes' turns), and how many
// frames showed every line they should (the rest showed "Drawing…" while the worker drew).
#include <QApplication>
#include <QElapsedTimer>
#include <QMouseEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QWheelEvent>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <random>

#include "bench/frame_times.hpp"
#include "core/trace/synthetic_trace.hpp"
#include "ui/attention/head_view.hpp"
#include "ui/attention/head_view_lines.hpp"

using namespace attnscope;

namespace {

using bench::threadCpuMs;

struct Frames {
    std::vector<double> wall, cpu;
    int complete = 0;
};

void report(const char* what, const Frames& f) {
    if (f.wall.empty()) return;
    const bench::Stats w = bench::summarise(f.wall), c = bench::summarise(f.cpu);
    std::printf("%-28s wall min %6.2f  median %6.2f  p95 %6.2f  max %6.2f ms | thread CPU median %6.2f  p95 %6.2f  max %6.2f ms"
                " | %d/%zu frames complete\n",
                what, w.min, w.median, w.p95, w.max, c.median, c.p95, c.max, f.complete, f.wall.size());
}

// One event, then everything it caused painted (the repaint it asked for).
void timed(HeadView& view, QWidget* to, QEvent& event, Frames& into) {
    QElapsedTimer clock;
    clock.start();
    const double cpu = threadCpuMs();
    QApplication::sendEvent(to, &event);
    QApplication::processEvents();
    into.cpu.push_back(threadCpuMs() - cpu);
    into.wall.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
    into.complete += view.paintedLineCount() > 0;  // after the clock: it walks every line
}

// Waits (running the event loop) until the view painted a complete picture; its wall ms.
double settle(HeadView& view) {
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 120000) {
        QApplication::processEvents(QEventLoop::AllEvents, 20);
        view.canvas()->repaint();
        if (view.paintedLineCount() > 0) break;
    }
    return static_cast<double>(clock.nsecsElapsed()) / 1e6;
}

void hover(HeadView& view, int tokens, int events, std::mt19937& rng, Frames& into) {
    QWidget* canvas = view.canvas();
    QScrollBar* bar = view.scrollArea()->verticalScrollBar();
    const int rows = view.scrollArea()->viewport()->height() / view.rowHeight();
    const int firstRow = (bar->value() + view.rowHeight() - 1) / view.rowHeight();
    std::uniform_int_distribution<int> row(0, rows - 3), side(0, 1);
    for (int i = 0; i < events; ++i) {
        const int token = std::clamp(firstRow + row(rng), 0, tokens - 1);
        const QPoint p = view.tokenRect(side(rng) ? HoveredToken::Left : HoveredToken::Right, token).center();
        QMouseEvent move(QEvent::MouseMove, p, canvas->mapToGlobal(p), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        timed(view, canvas, move, into);
    }
}

void scroll(HeadView& view, int events, Frames& into) {
    QWidget* viewport = view.scrollArea()->viewport();
    const QPointF c(viewport->width() / 2.0, viewport->height() / 2.0);
    for (int i = 0; i < events; ++i) {  // down 50 notches, up 50, …
        QWheelEvent e(c, viewport->mapToGlobal(c), QPoint(), QPoint(0, (i / 50) % 2 ? 120 : -120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
        timed(view, viewport, e, into);
    }
}

// The worker's two jobs again, here on this thread to time their CPU apart from the machine's
// load: every line of the layer, then one picture of a window of `windowPx` canvas px in the
// middle of the band (what a long input draws first, and again after scrolling a window away).
void workerCpu(const Trace& trace, int T, int windowPx, int rowHeight, int width) {
    std::vector<int> keep(static_cast<std::size_t>(T)), heads(12);
    for (int t = 0; t < T; ++t) keep[static_cast<std::size_t>(t)] = t;
    for (int h = 0; h < 12; ++h) heads[static_cast<std::size_t>(h)] = h;
    const auto cancel = std::make_shared<std::atomic<bool>>(false);
    double cpu = threadCpuMs();
    auto lines = std::make_shared<const std::vector<DrawnLine>>(
        *extractLines(LinesJob{&trace, 0, heads, {}, keep, cancel, {HeadView::kMinWeight, 0}}));
    const double extract = threadCpuMs() - cpu;
    const int middle = T / 2 * rowHeight;
    cpu = threadCpuMs();
    const QImage window = renderLines(RenderJob{lines, keep, width, windowPx, -(middle - windowPx / 2), 1.0, Qt::white, cancel, rowHeight},
                                      [](int) {});
    std::printf("worker CPU on this thread: lines %.0f ms; picture of %d px around the middle row %.0f ms (%dx%d)\n", extract,
                windowPx, threadCpuMs() - cpu, window.width(), window.height());
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int events = args.size() > 1 && args[1].toInt() > 0 ? args[1].toInt() : 200;
    const int topK = args.contains("--top-k") ? args.value(args.indexOf("--top-k") + 1).toInt() : 0;
    const int T = args.contains("--tokens") ? std::max(16, args.value(args.indexOf("--tokens") + 1).toInt()) : 512;
    const Trace trace = softmaxLikeTrace(T, 12);
    HeadView view;
    view.resize(1200, 1000);
    view.show();
    QElapsedTimer first;
    first.start();
    view.showTrace(trace, 0, {});
    view.setLineFilter({HeadView::kMinWeight, topK});
    const double ready = settle(view);
    std::printf("%d tokens, 12 heads, 1200x1000 offscreen, floor %.2f, top-k %d: %zu lines; lines + picture ready in %.0f ms"
                " (worker; %.1f ms before settle)\n",
                T, HeadView::kMinWeight, topK, view.drawnLines().size(), ready, first.nsecsElapsed() / 1e6 - ready);
    workerCpu(trace, T, 3 * view.scrollArea()->viewport()->height(), view.rowHeight(), view.canvas()->width() / 2);
    std::mt19937 rng(5);
    Frames hovering, scrolling, focusHover, focusScroll;
    hover(view, T, events, rng, hovering);
    view.setHoveredToken(std::nullopt);  // the wheel moves the rows under a real mouse: no hover stays
    scroll(view, events, scrolling);
    view.setHoveredToken(std::nullopt);
    view.setFocusToken(T / 2);
    settle(view);
    hover(view, T, events, rng, focusHover);
    view.setHoveredToken(std::nullopt);
    scroll(view, events, focusScroll);
    report("hover (mouse moves)", hovering);
    report("scroll (wheel steps)", scrolling);
    report("hover, focus token set", focusHover);
    report("scroll, focus token set", focusScroll);
    return 0;
}
