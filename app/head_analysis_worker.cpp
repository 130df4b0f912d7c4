#include "app/head_analysis_worker.hpp"

#include <QMetaObject>

namespace attnscope {

namespace {

QObject* startThread(QThread& thread, const char* name) {
    auto* context = new QObject;
    context->moveToThread(&thread);
    QObject::connect(&thread, &QThread::finished, context, &QObject::deleteLater);
    thread.setObjectName(name);
    thread.start();
    return context;
}

// The evaluation's shape must match the trace's for the "coreference" label to apply.
bool sameShape(const CorefEvaluation& e, const Trace& t) {
    return e.layers == static_cast<int>(t.layers.size()) && e.headsPerLayer == t.headCount();
}

}  // namespace

HeadAnalysisWorker::HeadAnalysisWorker(QObject* parent) : QObject(parent) {
    evaluationContext_ = startThread(evaluationThread_, "attnscope-coref-evaluation");
    statsContext_ = startThread(statsThread_, "attnscope-head-statistics");
}

HeadAnalysisWorker::~HeadAnalysisWorker() {
    ++evaluationGeneration_;  // queued jobs see they are stale and return at once
    ++statsGeneration_;
    if (cancel_) cancel_->store(true);
    for (QThread* thread : {&evaluationThread_, &statsThread_}) {
        thread->quit();
        thread->wait();
    }
}

void HeadAnalysisWorker::postTo(QObject* context, std::function<void()> job) {
    QMetaObject::invokeMethod(context, std::move(job), Qt::QueuedConnection);
}

// Queued on `this`: dropped by Qt if the worker is destroyed before it arrives.
void HeadAnalysisWorker::postToGui(std::function<void()> job) { postTo(this, std::move(job)); }

struct HeadAnalysisWorker::Delivery {
    std::shared_ptr<const CorefEvaluation> evaluation;  // null on failure
    std::shared_ptr<const CorefSet> set;
    QString description;
    QString error;
    bool cancelled = false;
};

void HeadAnalysisWorker::evaluate(std::shared_ptr<const CorefSet> set, SentenceRunner run, const QString& description) {
    if (cancel_) cancel_->store(true);
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    const int generation = ++evaluationGeneration_;
    evaluating_ = true;
    emit evaluationStarted();
    auto control = std::make_shared<EvaluationControl>();
    control->cancel = cancel_.get();
    control->progress = [this, generation, hook = progressHook_](int done, int total) {
        if (hook) hook(done);
        postToGui([this, generation, done, total] {
            if (generation == evaluationGeneration_) emit evaluationProgress(done, total);
        });
    };
    // The flag must outlive the run even when a newer request replaces cancel_.
    postTo(evaluationContext_, [this, generation, set, run = std::move(run), control, flag = cancel_, description] {
        if (generation != evaluationGeneration_) return;
        auto result = evaluateCorefSet(*set, run, *control);
        Delivery delivery{nullptr, set, description, QString(), false};
        if (result) delivery.evaluation = std::make_shared<const CorefEvaluation>(std::move(result).value());
        else delivery.error = QString::fromStdString(result.error().text());
        delivery.cancelled = !result && flag->load();
        postToGui([this, generation, delivery] { deliverEvaluation(generation, delivery); });
    });
}

void HeadAnalysisWorker::deliverEvaluation(int generation, const Delivery& delivery) {
    if (generation != evaluationGeneration_) return;  // superseded or cleared
    evaluating_ = false;
    if (!delivery.evaluation) return emit evaluationFailed(delivery.error, delivery.cancelled);
    evaluation_ = delivery.evaluation;
    set_ = delivery.set;
    description_ = delivery.description;
    emit evaluationFinished();
    if (requestedTrace_) computeStatistics(requestedTrace_);  // the "coreference" labels may change
}

void HeadAnalysisWorker::cancelEvaluation() {
    if (cancel_) cancel_->store(true);
}

void HeadAnalysisWorker::clearEvaluation() {
    ++evaluationGeneration_;
    if (cancel_) cancel_->store(true);
    if (evaluating_) {
        evaluating_ = false;
        emit evaluationFailed(tr("Evaluation stopped: the model or lesson changed."), true);
    }
    evaluation_.reset();
    set_.reset();
    description_.clear();
}

void HeadAnalysisWorker::computeStatistics(std::shared_ptr<const Trace> trace) {
    if (!trace) return;
    requestedTrace_ = trace;
    const int generation = ++statsGeneration_;
    statsInFlight_ = true;
    auto evaluation = evaluation_ && sameShape(*evaluation_, *trace) ? evaluation_ : nullptr;
    postTo(statsContext_, [this, generation, trace, evaluation] {
        if (generation != statsGeneration_) return;
        auto result = headStatistics(*trace, evaluation.get());
        // A trace without weights (nothing to show) gives no statistics rather than an error.
        auto stats = std::make_shared<const std::vector<HeadStatistics>>(
            result ? std::move(result).value() : std::vector<HeadStatistics>{});
        postToGui([this, generation, trace, stats] {
            if (generation != statsGeneration_) return;
            statsInFlight_ = false;
            statsTrace_ = trace;
            stats_ = stats;
            emit statisticsReady();
        });
    });
}

}  // namespace attnscope
