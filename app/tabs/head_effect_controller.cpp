#include "app/tabs/head_effect_controller.hpp"

#include "app/source/latest_request_worker.hpp"
#include "app/source/model_trace_source.hpp"
#include "ui/attention/head_effect_box.hpp"
#include "ui/attention/predictions_view.hpp"
#include "ui/common/qt_text.hpp"

namespace attnscope {

HeadEffectController::HeadEffectController(HeadEffectBox* box, const ModelTraceSource* model,
                                           const PredictionsView* predictions, HeadSwitching switching,
                                           QObject* parent)
    : QObject(parent), box_(box), model_(model), predictions_(predictions), switching_(std::move(switching)),
      worker_(new LatestRequestWorker("attnscope-head-effects", this)) {
    connect(box_, &HeadEffectBox::rankRequested, this, &HeadEffectController::rank);
    connect(box_, &HeadEffectBox::cancelRequested, worker_, &LatestRequestWorker::cancel);
    connect(worker_, &LatestRequestWorker::progress, box_, &HeadEffectBox::showProgress);
    connect(box_, &HeadEffectBox::switchOffRequested, this, [this](HeadRef head) {
        if (const auto trace = switching_.trace()) switchHeadOff(head, *trace, switching_);
    });
}

void HeadEffectController::showRun() {
    worker_->drop();  // a ranking of the previous run no longer applies
    QStringList headings;
    for (const PredictionsView::Group& g : predictions_->groups()) headings << g.heading;
    box_->setPredictions(headings);
}

bool HeadEffectController::busy() const { return worker_->busy(); }

void HeadEffectController::rank(int prediction) {
    const auto opened = model_->model();
    const auto run = model_->lastRun();
    if (!opened || !run) return;
    box_->showProgress(0, opened->layerCount() * opened->headCount());
    worker_->submit([this, opened, run, prediction](const LatestRequestWorker::Request& request) {
        RunControl control;
        control.cancel = request.cancelFlag();
        control.progress = request.progress;
        auto effects = rankHeadsByEffect(opened->model, *run, prediction, control);
        const bool cancelled = request.cancelled();
        return [this, opened, effects = std::move(effects), cancelled] {
            if (effects) return box_->showEffects(effects.value(), [opened](int id) { return opened->tokenizer.label(id); });
            box_->showMessage(cancelled ? tr("Cancelled.") : qs(effects.error().text()));
        };
    });
}

}  // namespace attnscope
