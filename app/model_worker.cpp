#include "app/model_worker.hpp"

#include <algorithm>
#include "ui/common/qt_text.hpp"
#include "ui/common/core_error_text.hpp"
#include "core/model/long_run.hpp"

namespace attnscope {

struct ModelWorker::RunResult {
    Error error;  // why run is empty
    bool cancelled = false;
    std::shared_ptr<const ModelRun> run;
    std::shared_ptr<const Trace> detail;
    std::shared_ptr<const std::vector<Prediction>> plain;
    int detailLayer = 0;
};

namespace {

using Predictions = std::shared_ptr<const std::vector<Prediction>>;

// The run shared, and the Trace its worked example shows: the shown layer taken out of the run
// (nullptr: recorded with its weights only, rebuilt after), or a long run's digests with that
// layer rebuilt (shownTraceOf).
std::shared_ptr<const Trace> shareRun(const OpenedModel& model, ModelRun run, int layer,
                                      std::shared_ptr<const ModelRun>& shared) {
    if (!run.isLong()) {
        const auto index = static_cast<std::size_t>(layer);
        std::shared_ptr<const Trace> detail;
        if (index < run.detail.size() && run.detail[index] == LayerDetail::Full)
            if (auto taken = takeDetailTrace(model, run, layer)) detail = std::make_shared<const Trace>(std::move(taken).value());
        shared = std::make_shared<const ModelRun>(std::move(run));
        return detail;
    }
    // A RoPE family's positional matrix is zeros no view shows (T×d doubles: 29 MB for Qwen2.5-0.5B
    // at 4,096 tokens), let go before the shown layer is rebuilt: the long run's peak.
    if (run.trace.positionalKind == PositionalKind::Rotary) run.trace.positional = Mat();
    shared = std::make_shared<const ModelRun>(std::move(run));
    auto shown = shownTraceOf(model, shared, layer);
    return shown ? std::move(shown).value() : nullptr;
}

// Another layer of a finished run: detailTraceOf's one layer, or a long run's shownTraceOf.
Result<std::shared_ptr<const Trace>> layerTraceOf(const OpenedModel& model, const std::shared_ptr<const ModelRun>& run,
                                                  int layer, const ShownHeadsFirst& first) {
    if (run->isLong()) return shownTraceOf(model, run, layer, first);
    auto one = detailTraceOf(model, *run, layer);
    if (!one) return one.error();
    return std::make_shared<const Trace>(std::move(one).value());
}

// The sentence's predictions with every head on: the ablation-free run itself, the one kept from
// an earlier run of the same sentence, or one more forward (predictions only) when heads are off.
Predictions plainPredictionsOf(const OpenedModel& model, const std::string& text, const ModelRun& run,
                               const RunControl& control, Predictions kept) {
    if (control.ablate.empty()) return std::make_shared<const std::vector<Prediction>>(run.predictions);
    if (kept) return kept;
    RunControl plain;
    plain.cancel = control.cancel;
    plain.fullDetailMaxTokens = 0;
    plain.topK = control.topK;
    auto again = runSentence(model, text, plain);
    return again ? std::make_shared<const std::vector<Prediction>>(std::move(again.value().predictions)) : nullptr;
}

// Hands the run's shown layer to the GUI thread as soon as it is computed (earlyTraceOf): a long
// run's `heads` alone.
void sendEarly(RunControl& control, const LatestRequestWorker::Request& request, const OpenedModel& model,
               std::vector<int> heads, std::function<void(std::shared_ptr<const Trace>, int)> deliver) {
    control.sendsHead = [heads = std::move(heads)](int, int head) {
        return std::find(heads.begin(), heads.end(), head) != heads.end();
    };
    control.onDetailLayer = [&request, layers = model.layerCount(), keepsBuffer = switchesHeadsFirst(model.model.config),
                             ablate = control.ablate, deliver](const Trace& soFar, int layer, LayerTrace computed) {
        auto early = sharedEarlyTrace(earlyTraceOf(soFar, layer, std::move(computed), layers, ablate), layer, keepsBuffer);
        request.deliverEarly([deliver, early, layer] { deliver(early, layer); });
    };
}

// H flags, the heads listed set; empty when they are none or every head (nothing to send first).
std::vector<bool> headFlags(const std::vector<int>& heads, int count) {
    std::vector<bool> flags(static_cast<std::size_t>(count), false);
    for (int h : heads)
        if (h >= 0 && h < count) flags[static_cast<std::size_t>(h)] = true;
    const auto set = std::count(flags.begin(), flags.end(), true);
    return set == 0 || set == count ? std::vector<bool>{} : flags;
}

}  // namespace

ModelWorker::ModelWorker(QObject* parent, RunFunction runSentence)
    : QObject(parent),
      opener_(new LatestRequestWorker("attnscope-model-open", this)),
      runner_(new LatestRequestWorker("attnscope-model-worker", this)),
      detailer_(new LatestRequestWorker("attnscope-model-detail", this)),
      runs_(new JobSignals(this)),
      runSentence_(std::move(runSentence)) {
    connect(runner_, &LatestRequestWorker::progress, runs_, &JobSignals::progress);
    connect(detailer_, &LatestRequestWorker::progress, runs_, &JobSignals::progress);
}

// Opening has its own worker: typing while a model loads must not drop the load.
void ModelWorker::openModel(const QString& pathOrId) {
    opener_->submit([this, path = pathOrId.toStdString()](const LatestRequestWorker::Request&) {
        auto opened = attnscope::openModel(path);
        std::shared_ptr<const OpenedModel> model;
        QString message;
        if (opened) model = std::make_shared<const OpenedModel>(std::move(opened).value());
        else message = coreErrorText(opened.error());
        return [this, model, message] {
            if (!model) return emit openFailed(message);
            runner_->drop();  // results of the old model's runs no longer apply
            detailer_->drop();
            model_ = model;
            run_.reset();
            detail_.reset();
            early_.reset();
            plain_.reset();
            detailLayer_ = 0;
            emit modelOpened();
        };
    });
}

void ModelWorker::run(const QString& sentence, int detailLayer, const std::vector<HeadRef>& ablate,
                      std::vector<int> earlyHeads) {
    if (opener_->busy()) return;  // modelOpened follows; the window runs the sentence box then
    if (!model_) return emit runs_->failed(tr("No model is open."), false);
    Predictions kept = sentence == sentence_ && run_ ? plain_ : nullptr;
    sentence_ = sentence;
    detailLayer_ = detailLayer;
    early_.reset();  // the run before's
    auto work = [this, model = model_, text = sentence.toStdString(), detailLayer, ablate, kept, earlyHeads,
                 runSentence = runSentence_](const LatestRequestWorker::Request& request) {
        RunControl control;
        control.ablate = ablate;
        control.cancel = request.cancelFlag();
        control.fullDetailMaxTokens = 0;  // the views read weights; the shown layer alone is Full,
        control.detailLayer = detailLayer;  // then moved into the detail Trace
        control.detailLayerMaxTokens = kShownLayerInRunUpTo;  // beyond, rebuilt in deliverRun
        control.progress = request.progress;
        sendEarly(control, request, *model, earlyHeads, [this](std::shared_ptr<const Trace> early, int layer) {
            early_ = std::move(early);
            emit earlyTraceReady(layer);
        });
        auto result = std::make_shared<RunResult>();
        auto run = runSentence(*model, text, control);
        if (run) {
            result->detail = shareRun(*model, std::move(run).value(), detailLayer, result->run);
            result->detailLayer = detailLayer;
            result->plain = plainPredictionsOf(*model, text, *result->run, control, kept);
        } else {
            result->error = run.error();
            result->cancelled = request.cancelled();
        }
        return [this, result] { deliverRun(result); };
    };
    runner_->submit(std::move(work));
    emit runs_->started();
}

void ModelWorker::deliverRun(const std::shared_ptr<RunResult>& result) {
    early_.reset();
    if (!result->run) return emit runs_->failed(coreErrorText(result->error), result->cancelled);
    detailer_->drop();  // a layer of the previous run
    run_ = result->run;
    plain_ = result->plain;
    const bool rebuild = !result->detail && !run_->isLong();  // the shown layer's weights only
    if (result->detail || rebuild) {
        detail_ = result->detail;  // none till the rebuilt one is ready: not the previous sentence's
        detailTraceLayer_ = result->detailLayer;
    }
    emit runs_->finished();
    if (rebuild) showLayerInDetail(result->detailLayer);
}

void ModelWorker::showLayerInDetail(int layer, std::vector<int> earlyHeads) {
    detailLayer_ = layer;
    early_.reset();  // another layer's
    if (!model_ || !run_) return;
    const bool longRun = run_->isLong();  // seconds at thousands of tokens: shown as a run
    const TransformerConfig& config = model_->model.config;
    const bool manyHeads = longRun && switchesHeadsFirst(config);
    std::vector<bool> first = manyHeads ? headFlags(earlyHeads, config.heads) : std::vector<bool>{};
    detailer_->submit([this, model = model_, run = run_, layer, longRun, manyHeads, first](const LatestRequestWorker::Request& request) {
        if (longRun) request.progress(0, 1);
        keepThreadLayerBuffersAfterRebuilds(manyHeads);  // this thread rebuilds one layer after another
        auto detail = layerTraceOf(*model, run, layer, headsFirst(run, layer, first, request));
        if (!detail) {
            if (!longRun) return LatestRequestWorker::Delivery{};
            return LatestRequestWorker::Delivery{[this, message = coreErrorText(detail.error()), cancelled = request.cancelled()] {
                early_.reset();
                emit runs_->failed(message, cancelled);
            }};
        }
        if (longRun && request.cancelled()) return LatestRequestWorker::Delivery{[this] {
            early_.reset();
            emit runs_->failed({}, true);
        }};
        return LatestRequestWorker::Delivery{[this, run, layer, shared = std::move(detail).value()] {
            if (run != run_) return;  // a newer run came first
            early_.reset();
            detail_ = shared;
            detailTraceLayer_ = layer;
            emit detailReady();
        }};
    });
    if (longRun) emit runs_->started();
}

// A long run's switch (switchesHeadsFirst): the heads the heatmap draws alone are handed over as
// soon as they are computed (earlyTraceReady), the whole layer after. Llama-3.2-1B at 4,096 tokens
// shows its whole layer 0.74-1.19 s after a switch on this project's AMD machine, the first too.
ShownHeadsFirst ModelWorker::headsFirst(const std::shared_ptr<const ModelRun>& run, int layer, std::vector<bool> heads,
                                        const LatestRequestWorker::Request& request) {
    return {std::move(heads), [this, run, layer, &request](std::shared_ptr<const Trace> early) {
                request.deliverEarly([this, run, layer, early = std::move(early)] {
                    if (run != run_ || detailLayer_ != layer) return;
                    early_ = early;
                    emit earlyTraceReady(layer);
                });
            }};
}

void ModelWorker::letGoOfDetail(int layer) {
    detail_.reset();
    detailTraceLayer_ = layer;
}

void ModelWorker::cancel() {
    runner_->cancel();
    detailer_->cancel();
}

void ModelWorker::clear() {
    for (LatestRequestWorker* worker : {opener_, runner_, detailer_}) worker->drop();
    model_.reset();
    run_.reset();
    detail_.reset();
    early_.reset();
    plain_.reset();
}

}  // namespace attnscope
