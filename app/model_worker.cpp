#include "app/model_worker.hpp"
#include "ui/common/qt_text.hpp"
#include "ui/common/core_error_text.hpp"

namespace attnscope {

struct ModelWorker::RunResult {
    Error error;  // why run is empty
    bool cancelled = false;
    std::shared_ptr<const ModelRun> run;
    std::shared_ptr<const Trace> detail;
    std::shared_ptr<const std::vector<Prediction>> plain;
};

namespace {

using Predictions = std::shared_ptr<const std::vector<Prediction>>;

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

}  // namespace

ModelWorker::ModelWorker(QObject* parent, RunFunction runSentence)
    : QObject(parent),
      opener_(new LatestRequestWorker("attnscope-model-open", this)),
      runner_(new LatestRequestWorker("attnscope-model-worker", this)),
      detailer_(new LatestRequestWorker("attnscope-model-detail", this)),
      runs_(new JobSignals(this)),
      runSentence_(std::move(runSentence)) {
    connect(runner_, &LatestRequestWorker::progress, runs_, &JobSignals::progress);
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
            plain_.reset();
            detailLayer_ = 0;
            emit modelOpened();
        };
    });
}

void ModelWorker::run(const QString& sentence, int detailLayer, const std::vector<HeadRef>& ablate) {
    if (opener_->busy()) return;  // modelOpened follows; the window runs the sentence box then
    if (!model_) return emit runs_->failed(tr("No model is open."), false);
    Predictions kept = sentence == sentence_ && run_ ? plain_ : nullptr;
    sentence_ = sentence;
    detailLayer_ = detailLayer;
    auto work = [this, model = model_, text = sentence.toStdString(), detailLayer, ablate, kept,
                 runSentence = runSentence_](const LatestRequestWorker::Request& request) {
        RunControl control;
        control.ablate = ablate;
        control.cancel = request.cancelFlag();
        control.fullDetailMaxTokens = 0;  // the views read weights; the shown layer alone is Full,
        control.detailLayer = detailLayer;  // then moved into the detail Trace
        control.progress = request.progress;
        auto result = std::make_shared<RunResult>();
        auto run = runSentence(*model, text, control);
        if (run) {
            auto detail = takeDetailTrace(*model, run.value(), detailLayer);
            result->run = std::make_shared<const ModelRun>(std::move(run).value());
            if (detail) result->detail = std::make_shared<const Trace>(std::move(detail).value());
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
    if (!result->run) return emit runs_->failed(coreErrorText(result->error), result->cancelled);
    detailer_->drop();  // a layer of the previous run
    run_ = result->run;
    plain_ = result->plain;
    if (result->detail) detail_ = result->detail;
    emit runs_->finished();
}

void ModelWorker::showLayerInDetail(int layer) {
    detailLayer_ = layer;
    if (!model_ || !run_) return;
    detailer_->submit([this, model = model_, run = run_, layer](const LatestRequestWorker::Request&) {
        auto detail = detailTraceOf(*model, *run, layer);
        if (!detail) return LatestRequestWorker::Delivery{};
        auto shared = std::make_shared<const Trace>(std::move(detail).value());
        return LatestRequestWorker::Delivery{[this, run, shared] {
            if (run != run_) return;  // a newer run came first
            detail_ = shared;
            emit detailReady();
        }};
    });
}

void ModelWorker::cancel() { runner_->cancel(); }

void ModelWorker::clear() {
    for (LatestRequestWorker* worker : {opener_, runner_, detailer_}) worker->drop();
    model_.reset();
    run_.reset();
    detail_.reset();
    plain_.reset();
}

}  // namespace attnscope
