#include "app/head_analysis_worker.hpp"
#include "ui/common/core_error_text.hpp"

namespace attnscope {

namespace {

// The control's evaluation: the same set and settings on the runner `control` makes.
Result<ControlComparison> evaluateControl(const CorefSet& set, const EvaluationControl& settings,
                                          const CorefEvaluation& trained, const ControlRunnerFactory& control) {
    auto run = control();
    if (!run) return run.error();
    auto evaluated = evaluateCorefSet(set, run.value(), settings);
    if (!evaluated) return evaluated.error();
    return compareWithControl(trained, evaluated.value(), settings.bootstrap.seed);
}

// The evaluation's shape must match the trace's for the "coreference" label to apply.
bool sameShape(const CorefEvaluation& e, const Trace& t) {
    return e.layers == static_cast<int>(t.layers.size()) && e.headsPerLayer == t.headCount();
}

}  // namespace

HeadAnalysisWorker::HeadAnalysisWorker(QObject* parent)
    : QObject(parent),
      evaluator_(new LatestRequestWorker("attnscope-coref-evaluation", this)),
      statistician_(new LatestRequestWorker("attnscope-head-statistics", this)),
      evaluations_(new JobSignals(this)) {
    connect(evaluator_, &LatestRequestWorker::progress, evaluations_, &JobSignals::progress);
}

struct HeadAnalysisWorker::Delivery {
    std::shared_ptr<const CorefEvaluation> evaluation;  // null on failure
    std::shared_ptr<const CorefSet> set;
    std::optional<ControlComparison> control;
    QString description;
    QString error;
    bool cancelled = false;
};

void HeadAnalysisWorker::evaluate(std::shared_ptr<const CorefSet> set, SentenceRunner run, const QString& description,
                                  ControlRunnerFactory control, BootstrapSettings bootstrap) {
    auto work = [this, set, run = std::move(run), description, control = std::move(control),
                 bootstrap](const LatestRequestWorker::Request& request) {
        EvaluationControl settings;
        settings.bootstrap = bootstrap;
        settings.cancel = request.cancelFlag();
        settings.progress = request.progress;
        auto result = evaluateCorefSet(*set, run, settings);
        Delivery delivery{nullptr, set, std::nullopt, description, QString(), false};
        if (result && control) {
            auto compared = evaluateControl(*set, settings, result.value(), control);
            if (compared) delivery.control = compared.value();
            else result = compared.error();
        }
        if (result) delivery.evaluation = std::make_shared<const CorefEvaluation>(std::move(result).value());
        else delivery.error = coreErrorText(result.error());
        delivery.cancelled = !result && request.cancelled();
        return [this, delivery] { deliverEvaluation(delivery); };
    };
    evaluator_->submit(std::move(work));
    emit evaluations_->started();
}

void HeadAnalysisWorker::deliverEvaluation(const Delivery& delivery) {
    if (!delivery.evaluation) return emit evaluations_->failed(delivery.error, delivery.cancelled);
    evaluation_ = delivery.evaluation;
    set_ = delivery.set;
    control_ = delivery.control;
    description_ = delivery.description;
    emit evaluations_->finished();
    if (requestedTrace_) computeStatistics(requestedTrace_, requestedDigests_, requestedNorms_);  // the "coreference" labels may change
}

void HeadAnalysisWorker::cancelEvaluation() { evaluator_->cancel(); }

void HeadAnalysisWorker::clearEvaluation() {
    const bool wasEvaluating = evaluator_->busy();
    evaluator_->drop();
    if (wasEvaluating) emit evaluations_->failed(tr("Evaluation stopped: the model or lesson changed."), true);
    evaluation_.reset();
    set_.reset();
    control_.reset();
    description_.clear();
}

void HeadAnalysisWorker::computeStatistics(std::shared_ptr<const Trace> trace, std::shared_ptr<const RunDigests> digests,
                                           std::shared_ptr<const Trace> norms) {
    if (!trace) return;
    requestedTrace_ = trace;
    requestedDigests_ = digests;
    requestedNorms_ = norms;
    auto evaluation = evaluation_ && sameShape(*evaluation_, *trace) ? evaluation_ : nullptr;
    statistician_->submit([this, trace, digests, norms, evaluation](const LatestRequestWorker::Request&) {
        auto result = headStatistics(*trace, digests ? *digests : RunDigests{}, evaluation.get());
        if (result && norms) addNormFirstShares(result.value(), *norms);
        // A trace without weights (nothing to show) gives no statistics rather than an error.
        auto stats = std::make_shared<const std::vector<HeadStatistics>>(
            result ? std::move(result).value() : std::vector<HeadStatistics>{});
        auto subject = std::make_shared<Subject>();
        subject->tokenCount = trace->tokenCount();
        subject->crossAttention = trace->isCrossAttention();
        if (subject->crossAttention) {
            subject->tokens = trace->tokens;
            subject->keyTokens = trace->keyTokens;
        }
        return [this, subject = std::shared_ptr<const Subject>(std::move(subject)), stats] {
            statsSubject_ = subject;
            stats_ = stats;
            emit statisticsReady();
        };
    });
}

}  // namespace attnscope
