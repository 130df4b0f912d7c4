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
                                int decimals) {
    a_ = std::move(a);
    runner_ = std::move(runner);
    layer_ = layer, head_ = head, decimals_ = decimals;
    // B runs again for another source, or when A's heads switched off changed ("Switch heads off:").
    const bool ablationChanged = a_ && b_ && ablatedHeads(*a_) != ablatedHeads(*b_);
    if ((std::exchange(rerunB_, false) || ablationChanged) && !sentenceB_.isEmpty()) return runB(sentenceB_);
    refresh();
}

void CompareTabController::sourceChanged() {
    worker_->drop();  // B of the previous source no longer applies
    b_.reset();
    rerunB_ = true;
    emit secondChanged(nullptr);
}

void CompareTabController::setHead(int head) {
    head_ = head;
    refresh();
}

void CompareTabController::runB(const QString& sentence) {
    sentenceB_ = sentence;
    if (!runner_ || sentence.trimmed().isEmpty()) return;
    view_->showMessage(tr("Running B…"));
    worker_->submit([this, runner = runner_, text = sentence.toStdString()](const LatestRequestWorker::Request&) {
        auto trace = std::make_shared<Result<Trace>>(runner(text));
        return [this, trace] {
            if (!trace->ok()) {
                b_.reset();
                emit secondChanged(nullptr);
                return view_->showMessage(tr("B could not be run: %1").arg(qs(trace->error().text())));
            }
            b_ = std::make_shared<const Trace>(std::move(*trace).value());
            emit secondChanged(b_);
            refresh();
        };
    });
}

void CompareTabController::refresh() {
    if (!a_ || !b_ || worker_->busy() || !onScreen_->onScreen()) return;
    auto comparison = compareHeads(*a_, *b_, {HeadRef{layer_, head_}});
    if (!comparison) return view_->showMessage(qs(comparison.error().text()));
    view_->showComparison(comparison.value(), decimals_);
}

}  // namespace attnscope
