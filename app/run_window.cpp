#include "app/run_window.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEvent>
#include <QTimer>
#include <cstdio>
#include <qcustomplot.h>  // firstPlot() is compared as the QObject it is

#include "app/lesson_source.hpp"
#include "app/main_window.hpp"
#include "app/screenshot_tour.hpp"
#include "app/source/model_trace_source.hpp"
#include "ui/attention/heatmap_view.hpp"

namespace attnscope {

namespace {

// Opens --lesson (built-in name or file) if given, else the first built-in lesson.
bool openRequestedLesson(MainWindow& window, const QCommandLineParser& parser) {
    if (!parser.isSet("lesson")) return window.openBuiltInLesson("first-hand-exercise");
    const QString lesson = parser.value("lesson");
    return builtInLessonNames().contains(lesson) ? window.openBuiltInLesson(lesson) : window.openLessonFile(lesson);
}

// --screenshots: exit 1 with the first file that could not be written and the OS's reason, or when
// nothing was written at all (then the window's last error, e.g. a model that did not open).
int screenshotsExitCode(const MainWindow& window, const ScreenshotTour& tour, int written, const QString& dir) {
    QString error = tour.screenshotError();
    if (error.isEmpty() && written == 0)
        error = window.lastError().isEmpty() ? dir + ": no screenshot was taken" : window.lastError();
    if (error.isEmpty()) return 0;
    std::fprintf(stderr, "attnscope: %s\n", error.toStdString().c_str());
    return 1;
}

// --exit-after-first-heatmap: the time-to-first-heatmap benchmark (bench/run_forward_bench.sh)
// measures the whole process; this quits it right after the first paint of the model run's
// heatmap and prints the time since `started` (just before the model is requested) to stdout.
class QuitAfterFirstHeatmap : public QObject {
public:
    QuitAfterFirstHeatmap(const MainWindow& window, const QElapsedTimer& started)
        : window_(window), started_(started) {}

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        const auto* model = window_.findChild<ModelTraceSource*>("modelSource");
        const auto* heatmap = window_.findChild<HeatmapView*>("heatmap");
        if (event->type() == QEvent::Paint && !done_ && model && model->lastRun() && heatmap &&
            watched == static_cast<QObject*>(heatmap->firstPlot())) {
            done_ = true;  // quit after this paint has been delivered
            QTimer::singleShot(0, qApp, [this] {
                std::printf("first heatmap painted %lld ms after the model was requested\n", static_cast<long long>(started_.elapsed()));
                QApplication::quit();
            });
        }
        return false;
    }

private:
    const MainWindow& window_;
    const QElapsedTimer& started_;
    bool done_ = false;
};

// --model: the window opens in model mode (the model loads in the background); with
// --screenshots it saves the model-mode screenshots instead of the lesson ones.
int runModelWindow(MainWindow& window, const QCommandLineParser& parser) {
    const QString sentence = parser.value("sentence");
    if (parser.isSet("screenshots")) {
        window.show();
        const QString dir = parser.value("screenshots");
        ScreenshotTour tour(window);
        return screenshotsExitCode(window, tour, tour.saveModelScreenshots(dir, parser.value("model"), sentence), dir);
    }
    // A lesson underneath: if the model cannot be opened, the window still shows something valid.
    window.openBuiltInLesson("first-hand-exercise");
    if (!sentence.isEmpty()) window.setSentence(sentence);  // the model reads the box once loaded
    QElapsedTimer started;
    started.start();
    QuitAfterFirstHeatmap watch(window, started);
    if (parser.isSet("exit-after-first-heatmap")) qApp->installEventFilter(&watch);
    window.openModel(parser.value("model"));
    window.show();
    return QApplication::exec();
}

}  // namespace

int runWindow(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.addOptions({{"lesson", "", "lesson"}, {"model", "", "model"}, {"sentence", "", "text"}, {"screenshots", "", "dir"},
                       {"exit-after-first-heatmap", ""}});
    parser.parse(arguments);  // the full option set was already checked by the command line
    MainWindow window;
    if (parser.isSet("model")) return runModelWindow(window, parser);
    if (!openRequestedLesson(window, parser))
        std::fprintf(stderr, "attnscope: %s\n", window.lastError().toStdString().c_str());
    if (parser.isSet("sentence")) window.setSentence(parser.value("sentence"));
    window.show();
    if (parser.isSet("screenshots")) {
        const QString dir = parser.value("screenshots");
        ScreenshotTour tour(window);
        return screenshotsExitCode(window, tour, tour.saveLessonScreenshots(dir), dir);
    }
    ScreenshotTour::takeAtStartIfAsked(window);
    return QApplication::exec();
}

}  // namespace attnscope
