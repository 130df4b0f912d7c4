#pragma once
// Loads and runs pretrained models off the GUI thread, through LatestRequestWorkers: opening,
// running and rebuilding the worked example's layer each keep only their latest request (a
// newer run cancels the older one; typing while a model loads does not drop the load). Results
// are re-emitted as signals on the GUI thread; the last good result stays available until a
// newer one is ready.
#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <vector>

#include "app/source/latest_request_worker.hpp"
#include "core/source/model_session.hpp"

namespace attnscope {

class ModelWorker : public QObject {
    Q_OBJECT
public:
    // How a sentence is run on the worker thread (progress and cancel through `control`).
    using RunFunction = std::function<Result<ModelRun>(const OpenedModel&, std::string_view, const RunControl&)>;
    explicit ModelWorker(QObject* parent = nullptr, RunFunction runSentence = attnscope::runSentence);

    void openModel(const QString& pathOrId);            // → modelOpened / openFailed
    // → runs()' finished / failed (needs a model); `ablate`: heads switched off (RunControl::ablate);
    // earlyTraceReady before them, with every head of the shown layer or, a long run, `earlyHeads`.
    void run(const QString& sentence, int detailLayer, const std::vector<HeadRef>& ablate = {},
             std::vector<int> earlyHeads = {});
    // → detailReady (for lastRun()). A long run's layer is rebuilt as a run: runs() tell started,
    // progress and failed (cancelled by cancel() or a newer layer), then detailReady; before it
    // earlyTraceReady with `earlyHeads` alone (the heatmap's), when they are some of the heads.
    void showLayerInDetail(int layer, std::vector<int> earlyHeads = {});
    // A long run: lets go of the rebuilt layer before `layer` is asked for, so that once the views
    // let go too its buffers go to the next rebuild (detailTrace() is null until then).
    void letGoOfDetail(int layer);
    void cancel();                                       // the running requests; results stay
    void clear();                                        // forgets the model and results

    bool running() const { return opener_->busy() || runner_->busy(); }
    const JobSignals* runs() const { return runs_; }  // started, progress (layers done), finished, failed
    std::shared_ptr<const OpenedModel> model() const { return model_; }
    std::shared_ptr<const ModelRun> lastRun() const { return run_; }
    // The worked example's Trace: the one layer rebuilt, or for a long run (ModelRun::isLong) every
    // layer's digests with detailTraceLayer() rebuilt (shownTraceOf).
    std::shared_ptr<const Trace> detailTrace() const { return detail_; }
    int detailTraceLayer() const { return detailTraceLayer_; }
    int detailLayer() const { return detailLayer_; }
    // The run still going, as far as its shown layer (earlyTraceOf), or a long run's layer being
    // rebuilt with the early heads alone (ShownHeadsFirst): → earlyTraceReady once they are computed;
    // null again once the run or the layer is delivered, fails, or another layer is asked for.
    std::shared_ptr<const Trace> earlyTrace() const { return early_; }
    QString lastSentence() const { return sentence_; }
    // The predictions of lastRun()'s sentence with every head on: what an ablated run's
    // predictions are compared with (before → after). Null before the first run.
    std::shared_ptr<const std::vector<Prediction>> plainPredictions() const { return plain_; }

signals:
    void modelOpened();
    void openFailed(const QString& message);
    void detailReady();
    void earlyTraceReady(int layer);

private:
    struct RunResult;
    void deliverRun(const std::shared_ptr<RunResult>& result);
    ShownHeadsFirst headsFirst(const std::shared_ptr<const ModelRun>& run, int layer, std::vector<bool> heads,
                               const LatestRequestWorker::Request& request);

    // Children: destroyed with this, each cancels what it runs and waits for its thread.
    LatestRequestWorker* opener_ = nullptr;
    LatestRequestWorker* runner_ = nullptr;
    LatestRequestWorker* detailer_ = nullptr;
    JobSignals* runs_ = nullptr;
    RunFunction runSentence_;

    std::shared_ptr<const OpenedModel> model_;
    std::shared_ptr<const ModelRun> run_;
    std::shared_ptr<const Trace> detail_;
    std::shared_ptr<const Trace> early_;
    std::shared_ptr<const std::vector<Prediction>> plain_;
    int detailLayer_ = 0;
    int detailTraceLayer_ = 0;  // the layer detail_ holds
    QString sentence_;
};

}  // namespace attnscope
