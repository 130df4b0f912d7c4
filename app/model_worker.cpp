#include "app/model_worker.hpp"

#include <QMetaObject>

namespace attnscope {

struct ModelWorker::RunResult {
    std::optional<Error> error;
    bool cancelled = false;
    std::shared_ptr<const ModelRun> run;
    std::shared_ptr<const Trace> detail;
};

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

ModelWorker::ModelWorker(QObject* parent) : QObject(parent) {
    context_ = new QObject;
    context_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, context_, &QObject::deleteLater);
    thread_.setObjectName("attnscope-model-worker");
    thread_.start();
}

ModelWorker::~ModelWorker() {
    ++generation_;  // queued jobs see they are stale and return at once
    if (cancel_) cancel_->store(true);
    thread_.quit();
    thread_.wait();
}

void ModelWorker::postToWorker(std::function<void()> job) {
    QMetaObject::invokeMethod(context_, std::move(job), Qt::QueuedConnection);
}

// Queued on `this`: dropped by Qt if the worker is destroyed before it arrives.
void ModelWorker::postToGui(std::function<void()> job) {
    QMetaObject::invokeMethod(this, std::move(job), Qt::QueuedConnection);
}

int ModelWorker::startRequest() {
    if (cancel_) cancel_->store(true);
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    runInFlight_ = true;
    return ++generation_;
}

void ModelWorker::finishRequest(int generation) {
    if (isCurrent(generation)) runInFlight_ = false;
}

// Opening has its own generation: typing while a model loads must not drop the load.
void ModelWorker::openModel(const QString& pathOrId) {
    const int openGeneration = ++openGeneration_;
    opening_ = true;
    const std::string path = pathOrId.toStdString();
    postToWorker([this, openGeneration, path] {
        auto opened = attnscope::openModel(path);
        std::shared_ptr<const OpenedModel> model;
        QString message;
        if (opened) model = std::make_shared<const OpenedModel>(std::move(opened).value());
        else message = qs(opened.error().text());
        postToGui([this, openGeneration, model, message] {
            if (openGeneration != openGeneration_) return;  // a newer open came first
            opening_ = false;
            if (!model) return emit openFailed(message);
            ++generation_;  // results of the old model's runs no longer apply
            if (cancel_) cancel_->store(true);
            runInFlight_ = false;
            model_ = model;  // a new model: the old results no longer apply
            run_.reset();
            detail_.reset();
            detailLayer_ = 0;
            emit modelOpened();
        });
    });
}

void ModelWorker::run(const QString& sentence, int detailLayer) {
    if (opening_) return;  // modelOpened follows; the window runs the sentence box then
    if (!model_) return emit runFailed(tr("No model is open."), false);
    const int generation = startRequest();
    sentence_ = sentence;
    detailLayer_ = detailLayer;
    RunControl control;
    control.cancel = cancel_.get();
    control.fullDetailMaxTokens = 0;  // the views read weights; detailTraceOf rebuilds the shown layer
    auto keepAlive = cancel_;  // the flag must outlive the run even if a newer request replaces it
    control.progress = [this, generation, hook = progressHook_](int done, int count) {
        if (hook) hook(done);
        postToGui([this, generation, done, count] {
            if (isCurrent(generation)) emit progress(done, count);
        });
    };
    const std::string text = sentence.toStdString();
    postToWorker([this, generation, model = model_, control, keepAlive, text, detailLayer] {
        if (!isCurrent(generation)) return;
        auto result = std::make_shared<RunResult>();
        auto run = runSentence(*model, text, control);
        if (run) {
            result->run = std::make_shared<const ModelRun>(std::move(run).value());
            auto detail = detailTraceOf(*model, *result->run, detailLayer);
            if (detail) result->detail = std::make_shared<const Trace>(std::move(detail).value());
        } else {
            result->error = run.error();
            result->cancelled = keepAlive->load();
        }
        postToGui([this, generation, result] { deliverRun(generation, result); });
    });
    emit runStarted();
}

void ModelWorker::deliverRun(int generation, const std::shared_ptr<RunResult>& result) {
    if (!isCurrent(generation)) return;  // a newer request superseded this one
    finishRequest(generation);
    if (!result->run) return emit runFailed(qs(result->error->text()), result->cancelled);
    run_ = result->run;
    if (result->detail) detail_ = result->detail;
    emit runFinished();
}

void ModelWorker::showLayerInDetail(int layer) {
    detailLayer_ = layer;
    if (!model_ || !run_) return;
    postToWorker([this, model = model_, run = run_, layer] {
        auto detail = detailTraceOf(*model, *run, layer);
        if (!detail) return;
        auto shared = std::make_shared<const Trace>(std::move(detail).value());
        postToGui([this, run, layer, shared] {
            if (run != run_ || layer != detailLayer_) return;  // a newer run or layer came first
            detail_ = shared;
            emit detailReady();
        });
    });
}

void ModelWorker::cancel() {
    if (cancel_) cancel_->store(true);
}

void ModelWorker::clear() {
    ++generation_;
    ++openGeneration_;
    if (cancel_) cancel_->store(true);
    runInFlight_ = false;
    opening_ = false;
    model_.reset();
    run_.reset();
    detail_.reset();
}

}  // namespace attnscope
