#include "app/model_worker.hpp"
#include "ui/common/qt_text.hpp"
#include "ui/common/core_error_text.hpp"

namespace attnscope {

struct ModelWorker::RunResult {
    Error error;  // why run is empty
    bool cancelled = false;
    std::shared_ptr<const ModelRun> run;
    std::shared_ptr<const Trace> detail;
};

ModelWorker::ModelWorker(QObject* parent)
    : QObject(parent),
      opener_(new LatestRequestWorker("attnscope-model-open", this)),
      runner_(new LatestRequestWorker("attnscope-model-worker", this)),
      detailer_(new LatestRequestWorker("attnscope-model-detail", this)) {
    connect(runner_, &LatestRequestWorker::progress, this, &ModelWorker::progress);
}

ModelWorker::~ModelWorker() = default;

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
            detailLayer_ = 0;
            emit modelOpened();
        };
    });
}

void ModelWorker::run(const QString& sentence, int detailLayer, const std::vector<HeadRef>& ablate) {
    if (opener_->busy()) return;  // modelOpened follows; the window runs the sentence box then
    if (!model_) return emit runFailed(tr("No model is open."), false);
    sentence_ = sentence;
    detailLayer_ = detailLayer;
    auto work = [this, model = model_, hook = progressHook_, text = sentence.toStdString(),
                 detailLayer, ablate](const LatestRequestWorker::Request& request) {
        RunControl control;
        control.ablate = ablate;
        control.cancel = request.cancelFlag();
        control.fullDetailMaxTokens = 0;  // the views read weights; detailTraceOf rebuilds the shown layer
        control.progress = [&request, &hook](int done, int count) {
            if (hook) hook(done);
            request.progress(done, count);
        };
        auto result = std::make_shared<RunResult>();
        auto run = runSentence(*model, text, control);
        if (run) {
            result->run = std::make_shared<const ModelRun>(std::move(run).value());
            auto detail = detailTraceOf(*model, *result->run, detailLayer);
            if (detail) result->detail = std::make_shared<const Trace>(std::move(detail).value());
        } else {
            result->error = run.error();
            result->cancelled = request.cancelled();
        }
        return [this, result] { deliverRun(result); };
    };
    runner_->submit(std::move(work));
    emit runStarted();
}

void ModelWorker::deliverRun(const std::shared_ptr<RunResult>& result) {
    if (!result->run) return emit runFailed(coreErrorText(result->error), result->cancelled);
    detailer_->drop();  // a layer of the previous run
    run_ = result->run;
    if (result->detail) detail_ = result->detail;
    emit runFinished();
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
}

}  // namespace attnscope
