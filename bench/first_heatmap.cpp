// Time to the first heatmap of a model in the window, over the whole process: starts the window
// as `attnscope --model M --sentence S` does (the kernels, the saved language, zoom and theme),
// quits right after the first paint of the model run's heatmap and prints the milliseconds since
// the model was requested. bench/run_forward_bench.sh and run_export_bench.sh time it; the
// hostile rows of tests/hostile/cases-theme.tsv use it as a window that starts and quits alone.
//   build/bench/attnscope_first_heatmap --model FOLDER|ID [--sentence TEXT] [--lang zh_CN|en]
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEvent>
#include <QTimer>
#include <cstdio>
#include <qcustomplot.h>  // firstPlot() is compared as the QObject it is

#include "app/app_identity.hpp"
#include "app/cli_support.hpp"
#include "app/language.hpp"
#include "app/main_window.hpp"
#include "app/presentation.hpp"
#include "app/theme_switcher.hpp"
#include "scripts/driver/window_driver.hpp"
#include "ui/attention/heatmap_view.hpp"

using namespace attnscope;

namespace {

// Quits after the first paint of the model run's heatmap has been delivered.
class QuitAfterFirstHeatmap : public QObject {
public:
    QuitAfterFirstHeatmap(const MainWindow& window, const QElapsedTimer& started)
        : model_(child<ModelTraceSource>(window, "modelSource")), heatmap_(child<HeatmapView>(window, "heatmap")),
          started_(started) {}

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Paint && !done_ && model_->lastRun() &&
            watched == static_cast<QObject*>(heatmap_->firstPlot())) {
            done_ = true;
            QTimer::singleShot(0, qApp, [this] {
                std::printf("first heatmap painted %lld ms after the model was requested\n", static_cast<long long>(started_.elapsed()));
                QApplication::quit();
            });
        }
        return false;
    }

private:
    const ModelTraceSource* model_;
    const HeatmapView* heatmap_;
    const QElapsedTimer& started_;
    bool done_ = false;
};

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    applyApplicationIdentity();
    initResources();
    QCommandLineParser parser;
    parser.addOptions({{"model", "a model folder or cached id", "model"}, {"sentence", "the sentence", "text"},
                       {"lang", "zh_CN or en", "language"}, {"kernels", "as attnscope's --kernels", "name"}});
    parser.process(app);
    if (!parser.isSet("model")) parser.showHelp(2);
    std::string languageError;
    const auto language = languageOption(QApplication::arguments(), languageError);
    if (!language) return fail(languageError);
    applyLanguage(language->isEmpty() ? savedLanguage() : *language);
    Presentation::rememberZoom(true);
    ThemeSwitcher::rememberTheme(true);
    MainWindow window;
    window.openBuiltInLesson("first-hand-exercise");  // underneath, as in attnscope
    if (parser.isSet("sentence")) window.setSentence(parser.value("sentence"));  // read once the model loads
    QElapsedTimer started;
    started.start();
    QuitAfterFirstHeatmap watch(window, started);
    app.installEventFilter(&watch);
    window.openModel(parser.value("model"));
    window.show();
    return QApplication::exec();
}
