#include "app/norm_scale.hpp"

#include "app/source/latest_request_worker.hpp"
#include "core/analysis/word_attention.hpp"
#include "ui/attention/attention_controls.hpp"
#include "ui/common/job_progress.hpp"
#include "ui/common/core_error_text.hpp"

namespace attnscope {

NormScale::NormScale(QObject* parent) : QObject(parent), worker_(new LatestRequestWorker("attnscope-norms", this)) {
    setObjectName(QStringLiteral("normScale"));
    connect(worker_, &LatestRequestWorker::progress, this, &NormScale::progress);
}

void NormScale::attach(AttentionControls* controls) {
    using Options = AttentionViewOptions;
    JobProgress* progress = controls->weightingProgress();
    controls->setWeighting(on_ ? Options::Norms : Options::Weights);
    connect(controls, &AttentionControls::optionsChanged, this,
            [this, controls] { setOn(controls->options().weighting == Options::Norms); });
    connect(this, &NormScale::started, progress, [progress] { progress->setRunning(true); });
    connect(this, &NormScale::progress, progress, &JobProgress::setProgress);
    connect(this, &NormScale::changed, progress, [progress] { progress->setRunning(false); });
    connect(progress, &JobProgress::cancelRequested, this, &NormScale::cancel);
    connect(this, &NormScale::failed, controls, [controls, progress] {
        progress->setRunning(false);
        controls->setWeighting(Options::Weights);
    });
}

void NormScale::setOn(bool on) {
    if (on == on_) return;
    on_ = on;
    if (!on_) worker_->drop();
    compute();
    emit changed();
}

void NormScale::setTrace(std::shared_ptr<const Trace> weights, Job job) {
    if (weights == weights_) return;
    weights_ = std::move(weights);
    job_ = std::move(job);
    norms_.reset();
    words_.reset();
    worker_->drop();  // an older run's norms must not arrive for this one
    compute();
}

void NormScale::compute() {
    if (!on_ || !weights_ || !job_ || norms_) return;
    emit started();
    worker_->submit([this, weights = weights_, job = job_](const LatestRequestWorker::Request& request) {
        RunControl control;
        control.cancel = request.cancelFlag();
        control.progress = request.progress;
        auto norms = job(control);
        std::shared_ptr<const Trace> shown, words;
        QString message;
        if (norms) {
            shown = std::make_shared<const Trace>(std::move(norms).value());
            if (hasMultiPieceWords(*shown)) words = std::make_shared<const Trace>(wordLevelTrace(*shown));
        } else {
            message = coreErrorText(norms.error());
        }
        return [this, weights, shown, words, message, cancelled = request.cancelled()] {
            if (weights != weights_) return;
            if (!shown) return emit failed(message, cancelled);
            norms_ = shown;
            words_ = words;
            emit changed();
        };
    });
}

std::shared_ptr<const Trace> NormScale::shown(const std::shared_ptr<const Trace>& weights, bool words) const {
    if (!on_ || !norms_ || weights != weights_) return nullptr;
    return words && words_ ? words_ : norms_;
}

void NormScale::cancel() { worker_->cancel(); }

bool NormScale::busy() const { return worker_->busy(); }

}  // namespace attnscope
