// Time to the first heatmap of a model in the window, over the whole process: starts the window
// as `attnscope --model M --sentence S` does (the kernels, the saved language, zoom and theme),
// prints the milliseconds from the model's request to the first paint of its run's heatmap (the
// shown layer, drawn while the later layers still run: TraceSource::earlyTrace) and to the whole
// run shown, then quits. bench/run_forward_bench.sh and run_export_bench.sh time it; the
// hostile rows of tests/hostile/cases-theme.tsv use it as a window that starts and quits alone.
// --switch-layer N: then shows layer N (1-based) as the layer box does and prints the milliseconds
// from that request to the heatmap's next paint with the layer rebuilt (bench/run_decoder_bench.sh);
// a long run first to the paint of the heatmap's head, rebuilt before the rest of the layer.
// N,M,…: the layers in turn, each timed (the first switch of a long run faults in its layer's pages,
// later ones reuse the layer let go, core/model/recycled_weights.hpp). --look MS: each switch is
// asked for MS milliseconds after the layer before is shown, as a person reads it first; without
// it, the first switch shares the cores with what the window still does after a run.
//   build/bench/attnscope_first_heatmap --model FOLDER|ID [--sentence TEXT] [--lang zh_CN|en]
//                                       [--switch-layer N[,M…]] [--look MS]
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEvent>
#include <QTimer>
#include <cstdint>
#include <cstdio>
#include <vector>
#include <qcustomplot.h>  // firstPlot() is compared as the QObject it is

#include "app/app_identity.hpp"
#include "app/cli_support.hpp"
#include "app/language.hpp"
#include "app/main_window.hpp"
#include "app/model_worker.hpp"
#include "app/presentation.hpp"
#include "app/theme_switcher.hpp"
#include "core/analysis/head_summary.hpp"
#include "scripts/driver/window_driver.hpp"
#include "ui/attention/attention_controls.hpp"
#include "ui/attention/heatmap_view.hpp"

using namespace attnscope;

namespace {

// Quits after the first paint of the model run's heatmap has been delivered (or, asked to switch
// the layer, once the switched layer's Trace is shown).
class QuitAfterFirstHeatmap : public QObject {
public:
    QuitAfterFirstHeatmap(const MainWindow& window, const QElapsedTimer& started, std::vector<int> switches, int lookMs)
        : model_(child<ModelTraceSource>(window, "modelSource")), heatmap_(child<HeatmapView>(window, "heatmap")),
          controls_(child<AttentionControls>(window, "modelControls")), started_(started), switches_(std::move(switches)),
          lookMs_(lookMs) {
        // The switched layer's Trace is in: its views are drawn (the events it queued), then the time taken.
        connect(model_, &ModelTraceSource::traceChanged, this, [this] {
            if (!model_->lastRun() || ran_) return;
            ran_ = true;
            std::printf("the whole run shown %lld ms after the model was requested\n", static_cast<long long>(started_.elapsed()));
            std::fflush(stdout);
            if (painted_) afterFirstHeatmap();
        });
        connect(model_, &ModelTraceSource::workedTraceChanged, this, [this] {
            if (!switched_.isValid() || done_ || !rebuilt(switches_[next_])) return;  // not the layer let go
            QCoreApplication::processEvents();
            std::printf("layer %d shown %lld ms after it was asked for\n", switches_[next_] + 1,
                        static_cast<long long>(switched_.elapsed()));
            std::fflush(stdout);
            if (++next_ == switches_.size()) return static_cast<void>(quit());
            QTimer::singleShot(lookMs_, this, [this] { switchLayer(); });
        });
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() != QEvent::Paint || done_ || watched != static_cast<QObject*>(heatmap_->firstPlot())) return false;
        if (painted_) return switchedHeadPainted();
        if (!(model_->lastRun() || model_->earlyTrace())) return false;
        painted_ = true;
        std::printf("first heatmap painted %lld ms after the model was requested\n", static_cast<long long>(started_.elapsed()));
        std::fflush(stdout);
        if (ran_) afterFirstHeatmap();
        return false;
    }

private:
    // A long run's switch draws the heatmap's head before the rest of the layer is rebuilt.
    bool switchedHeadPainted() {
        if (!switched_.isValid() || headPainted_ == next_ || !model_->earlyTrace() ||
            model_->worker()->detailLayer() != switches_[next_])
            return false;
        headPainted_ = next_;
        std::printf("layer %d's heatmap (its head) painted %lld ms after it was asked for\n", switches_[next_] + 1,
                    static_cast<long long>(switched_.elapsed()));
        std::fflush(stdout);
        return false;
    }

    void afterFirstHeatmap() {
        if (switches_.empty()) return static_cast<void>(quit());
        QTimer::singleShot(lookMs_, this, [this] { switchLayer(); });
    }

    void switchLayer() {
        switched_.start();
        controls_->setLayer(switches_[next_]);
    }

    bool rebuilt(int layer) const {  // the worked Trace holds that one layer (a long run: every layer)
        const auto trace = model_->workedTrace();
        return trace && model_->worker()->detailTraceLayer() == layer &&
               weightsComputed(trace->layers.at(static_cast<std::size_t>(model_->workedLayer(layer))));
    }

    bool quit() {
        done_ = true;
        QTimer::singleShot(0, qApp, [] { QApplication::quit(); });
        return false;
    }

    const ModelTraceSource* model_;
    const HeatmapView* heatmap_;
    AttentionControls* controls_;
    const QElapsedTimer& started_;
    std::vector<int> switches_;  // 0-based; none: quit after the first heatmap
    int lookMs_ = 0;             // before each switch
    std::size_t next_ = 0;
    std::size_t headPainted_ = SIZE_MAX;  // the switch whose early head was painted
    QElapsedTimer switched_;
    bool painted_ = false;  // the first heatmap
    bool ran_ = false;      // the whole run is shown
    bool done_ = false;
};

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    applyApplicationIdentity();
    initResources();
    QCommandLineParser parser;
    parser.addOptions({{"model", "a model folder or cached id", "model"}, {"sentence", "the sentence", "text"},
                       {"lang", "zh_CN or en", "language"}, {"kernels", "as attnscope's --kernels", "name"},
                       {"products", "as attnscope's --products", "name"},
                       {"switch-layer", "then show these layers (1-based, N,M,…) in turn and time each", "layers"},
                       {"look", "ask for each switch this many milliseconds after the layer before is shown", "ms"}});
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
    std::vector<int> switches;
    for (const QString& layer : parser.value("switch-layer").split(',', Qt::SkipEmptyParts)) switches.push_back(layer.toInt() - 1);
    QuitAfterFirstHeatmap watch(window, started, switches, parser.value("look").toInt());
    app.installEventFilter(&watch);
    window.openModel(parser.value("model"));
    window.show();
    return QApplication::exec();
}
