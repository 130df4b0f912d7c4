#include "app/tabs/compare_tab_controller.hpp"

#include <QTabWidget>
#include <utility>

#include "app/source/latest_request_worker.hpp"
#include "core/analysis/compare_export.hpp"
#include "core/trace/ablation.hpp"
#include "ui/common/qt_text.hpp"
#include "ui/compare/compare_view.hpp"

namespace attnscope {

CompareTabController::CompareTabController(QTabWidget* tabs, QObject* parent)
    : QObject(parent), view_(new CompareView), worker_(new LatestRequestWorker("attnscope-compare", this)) {
    tabs->addTab(view_, tr("Compare"));
    onScreen_ = std::make_unique<OnScreenRefresh>(tabs, view_, this, [this] { refresh(); });
    connect(view_, &CompareView::sentenceEntered, this, &CompareTabController::runB);
}

bool CompareTabController::busy() const { return worker_->busy(); }

void CompareTabController::show(std::shared_ptr<const Trace> a, SentenceRunner runner, int layer, int head,
                                int decimals, CompareNorms norms) {
    a_ = std::move(a);
    runner_ = std::move(runner);
    norms_ = std::move(norms);
    layer_ = layer, head_ = head, decimals_ = decimals;
    // B runs again for another source, when A's heads switched off changed ("Switch heads off:"), or
    // for its norms once "Weight × ‖value‖" is switched on.
    const bool ablationChanged = a_ && b_ && ablatedHeads(*a_) != ablatedHeads(*b_);
    if ((std::exchange(rerunB_, false) || ablationChanged || bNormsMissing()) && !sentenceB_.isEmpty()) return runB(sentenceB_);
    refresh();
}

bool CompareTabController::bNormsMissing() const {
    return norms_.on && norms_.runB && b_ && !bNormsAsked_;
}

void CompareTabController::sourceChanged() {
    worker_->drop();  // B of the previous source no longer applies
    b_.reset();
    bNorms_.reset();
    rerunB_ = true;
    emit secondChanged(nullptr);
}

void CompareTabController::setHead(int head) {
    head_ = head;
    refresh();
}

void CompareTabController::runB(const QString& sentence) {
    sentenceB_ = sentence;
    emit sentenceBChanged(sentence);
    if (!runner_ || sentence.trimmed().isEmpty()) return;
    view_->showMessage(tr("Running B…"));
    const NormSentenceRunner normRunner = norms_.on ? norms_.runB : NormSentenceRunner{};
    bNormsAsked_ = static_cast<bool>(normRunner);
    worker_->submit([this, runner = runner_, normRunner, text = sentence.toStdString()](const LatestRequestWorker::Request& request) {
        auto trace = std::make_shared<Result<Trace>>(runner(text));
        std::shared_ptr<Result<Trace>> norms;
        if (trace->ok() && normRunner) {
            RunControl control;
            control.cancel = request.cancelFlag();
            norms = std::make_shared<Result<Trace>>(normRunner(text, control));
        }
        return [this, trace, norms] {
            if (!trace->ok()) {
                b_.reset();
                emit secondChanged(nullptr);
                return view_->showMessage(tr("B could not be run: %1").arg(qs(trace->error().text())));
            }
            b_ = std::make_shared<const Trace>(std::move(*trace).value());
            bNorms_ = norms && norms->ok() ? std::make_shared<const Trace>(std::move(*norms).value()) : nullptr;
            bNormsError_ = norms && !norms->ok() ? qs(norms->error().text()) : QString();
            emit secondChanged(b_);
            refresh();
        };
    });
}

void CompareTabController::refresh() {
    if (!a_ || !b_ || worker_->busy() || !onScreen_->onScreen()) return;
    const bool byNorms = norms_.on && norms_.a && bNorms_;
    auto comparison = byNorms ? compareHeads(*norms_.a, *bNorms_, {HeadRef{layer_, head_}})
                              : compareHeads(*a_, *b_, {HeadRef{layer_, head_}});
    if (!comparison) return view_->showMessage(qs(comparison.error().text()));
    QString waiting;  // "Weight × ‖value‖" on, yet the weights shown: why
    if (norms_.on && !byNorms)
        waiting = !bNormsError_.isEmpty() ? tr("Weight × ‖value‖ of B could not be computed (%1): the maps show the weights.").arg(bNormsError_)
                                          : tr("The maps show the weights until weight × ‖value‖ of both sentences is computed.");
    comparison.value().normWeighted = byNorms;
    view_->showComparison(comparison.value(), decimals_, waiting);
}

}  // namespace attnscope
