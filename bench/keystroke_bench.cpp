// Benchmark: what one keystroke costs. A 20-token sentence in a 4-head lesson; each iteration
// changes the sentence, recomputes the Trace and lets Qt paint what changed (offscreen); a second
// loop repaints the whole window as an upper bound. Also times the engine alone (runLesson).
//
//   build/bench/attnscope_bench [iterations] [--write-lesson FILE] [--zoom PERCENT]
//
// --zoom runs the window at View ▸ Zoom PERCENT (50–300; issue 13: under 16 ms at 300 %).
// --write-lesson also saves the benchmark lesson and sentence so another implementation (the
// Python reference, see bench/compare_reference.sh) can be timed on exactly the same input.
// Prints median / 95th percentile / max in milliseconds against the 16 ms frame budget.
#include <QApplication>
#include <QFile>
#include <QTemporaryDir>
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <random>

#include "bench/frame_times.hpp"
#include "app/main_window.hpp"
#include "app/presentation.hpp"
#include "app/source/trace_source.hpp"
#include "core/lesson/run_lesson.hpp"
#include "scripts/driver/window_driver.hpp"  // shownSource

using namespace attnscope;

namespace {

// A 4-head lesson with d_model 8 and d_k = d_v = 2, small random integers as a teacher would type.
Lesson benchLesson() {
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> small(-2, 2);
    auto randomMat = [&](int r, int c) { return Mat(Mat::NullaryExpr(r, c, [&] { return double(small(rng)); })); };
    Lesson lesson;
    lesson.title = "Benchmark: 4 heads";
    lesson.dModel = 8;
    lesson.numHeads = 4;
    lesson.dK = lesson.dV = 2;
    lesson.positional = PositionalKind::Sinusoidal;
    LessonLayer& layer = lesson.layers.at(0);
    for (int h = 0; h < 4; ++h) layer.heads.push_back({randomMat(8, 2), randomMat(8, 2), randomMat(8, 2), {}, {}, {}});
    layer.wo = randomMat(8, 8);
    for (const char* w : {"the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog"})
        lesson.embeddings.emplace_back(w, randomMat(1, 8));
    return lesson;
}

// 20 tokens: 19 words and a full stop.
const std::string kSentence =
    "the quick brown fox jumps over the lazy dog and the lazy dog sleeps while the fox runs on .";

using bench::Stats;
using bench::summarise;
using bench::threadCpuMs;

struct Timings {
    std::vector<double> wall, cpu;
};

template <class F>
Timings timeEach(int iterations, F&& body) {
    Timings t;
    for (int i = 0; i < iterations; ++i) {
        const auto start = std::chrono::steady_clock::now();
        const double cpuStart = threadCpuMs();
        body(i);
        t.cpu.push_back(threadCpuMs() - cpuStart);
        t.wall.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    return t;
}

void report(const char* what, const Timings& t) {
    const Stats wall = summarise(t.wall), cpu = summarise(t.cpu);
    std::printf("%-27s wall median %.3f ms  p95 %.3f ms  max %.3f ms | thread CPU median %.3f ms  p95 %.3f ms\n",
                what, wall.median, wall.p95, wall.max, cpu.median, cpu.p95);
}

// The value after `flag` on the command line, or `fallback`.
int intOption(int argc, char** argv, const std::string& flag, int fallback) {
    for (int i = 1; i + 1 < argc; ++i)
        if (argv[i] == flag) return std::atoi(argv[i + 1]);
    return fallback;
}

// The sentence with its first word altered, as if the user had just typed a key.
std::string keystroke(int i) { return (i % 2 ? "a" : "an") + kSentence.substr(3); }

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    // The window remembers its zoom and recent files: a settings folder of its own keeps the
    // user's (~/.config/AttnScope) untouched and the figures free of the user's zoom.
    QTemporaryDir settings;
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(settings.path()));
    QApplication app(argc, argv);
    initResources();
    const int zoom = intOption(argc, argv, "--zoom", 100);
    const int iterations = argc > 1 ? std::max(10, std::atoi(argv[1])) : 200;
    Lesson lesson = benchLesson();
    lesson.sentence = kSentence;
    if (argc > 3 && std::string(argv[2]) == "--write-lesson") {
        QFile out(argv[3]);
        out.open(QIODevice::WriteOnly);
        out.write(QByteArray::fromStdString(serializeLesson(lesson)));
    }

    const Timings engine = timeEach(iterations, [&](int i) { (void)runLesson(lesson, keystroke(i)); });

    QTemporaryDir dir;
    const QString path = dir.filePath("bench.json");
    QFile file(path);
    file.open(QIODevice::WriteOnly);
    file.write(QByteArray::fromStdString(serializeLesson(lesson)));
    file.close();
    MainWindow window;
    window.resize(1600, 1000);
    window.show();
    window.findChild<Presentation*>()->setZoom(zoom);
    if (!window.openLessonFile(path)) return std::fprintf(stderr, "cannot open the bench lesson\n"), 1;
    QApplication::processEvents();
    // What a keystroke really costs: recompute, then Qt paints the regions that changed.
    const Timings keystrokes = timeEach(iterations, [&](int i) {
        window.setSentence(QString::fromStdString(keystroke(i)));
        QApplication::processEvents();
    });
    // An upper bound: the whole window repainted synchronously after each recompute.
    const Timings whole = timeEach(iterations, [&](int i) {
        window.setSentence(QString::fromStdString(keystroke(i)));
        window.repaint();
    });
    const int tokens = shownSource(window).trace()->tokenCount();
    std::printf("keystroke benchmark: %d tokens, %d heads, %d iterations, zoom %d %%\n", tokens, lesson.numHeads,
                iterations, window.findChild<Presentation*>()->zoom());
    report("engine only (runLesson)", engine);
    report("keystroke (recompute+paint)", keystrokes);
    report("recompute + whole repaint", whole);
    std::printf("frame budget 16 ms: the median keystroke uses %.0f%% of it (wall), %.0f%% (thread CPU)\n",
                100.0 * summarise(keystrokes.wall).median / 16.0, 100.0 * summarise(keystrokes.cpu).median / 16.0);
    return 0;
}
