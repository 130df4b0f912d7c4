// The Coreference tab for every source alike: it resolves the Trace on screen whenever the tab
// is shown and something changed.
#include "app/tabs/coref_tab_controller.hpp"

#include <QTabWidget>

#include "app/source/latest_request_worker.hpp"
#include "ui/coref/coref_tab.hpp"
#include "ui/common/fitting_tabs.hpp"

namespace attnscope {

CorefTabController::CorefTabController(QTabWidget* tabs, QObject* parent)
    : QObject(parent), tabs_(tabs), worker_(new LatestRequestWorker("attnscope-coreference", this)) {
    setObjectName("corefController");
    tab_ = new CorefTab(tabs_);
    tabs_->addTab(tab_, tr("Coreference"));
    setShortTabLabel(tabs_, tab_, tr("Coref.", "short tab label"));
    connect(tab_, &CorefTab::changed, this, &CorefTabController::refresh);
    onScreen_ = std::make_unique<OnScreenRefresh>(tabs_, tab_, this, [this] { refresh(); });
}

void CorefTabController::show(std::shared_ptr<const Trace> trace, int layer, int head) {
    trace_ = std::move(trace);
    layer_ = layer;
    head_ = head;
    refresh();
}

// Only the tab on screen is recomputed: rollout at 512 tokens multiplies T×T matrices per layer.
void CorefTabController::refresh() {
    if (!onScreen_->onScreen() || !trace_) return;
    const auto options = tab_->request(*trace_, layer_, head_);
    if (!options) return worker_->drop();  // nothing newer may draw over the reason shown
    // B: every pronoun (a word clicked in A names a word of A), the rest as A.
    const ResolveOptions optionsB{options->scoring, options->cataphora, std::nullopt};
    const auto resolveB = [](const std::shared_ptr<const Trace>& b, const ResolveOptions& o) {
        return b ? std::make_shared<const Result<SentenceResolution>>(resolveSentence(*b, o)) : nullptr;
    };
    const auto show = [this](const Result<SentenceResolution>& a, const std::shared_ptr<const Result<SentenceResolution>>& b) {
        tab_->showResolution(a);
        tab_->showSecondResolution(b.get());
    };
    if (trace_->tokenCount() <= inlineTokenLimit_) {
        worker_->drop();  // an older, longer sentence still resolving must not draw over this one
        return show(resolveSentence(*trace_, *options), resolveB(b_, optionsB));
    }
    worker_->submit([show, resolveB, trace = trace_, b = b_, options = *options, optionsB](const LatestRequestWorker::Request&) {
        auto resolved = std::make_shared<const Result<SentenceResolution>>(resolveSentence(*trace, options));
        auto resolvedB = resolveB(b, optionsB);
        return [show, resolved, resolvedB] { show(*resolved, resolvedB); };
    });
}

void CorefTabController::setSecond(std::shared_ptr<const Trace> b) {
    b_ = std::move(b);
    onScreen_->markStale();
    if (onScreen_->onScreen()) refresh();
}

bool CorefTabController::busy() const { return worker_->busy(); }

void CorefTabController::setHeads(const std::vector<HeadRef>& heads) {
    {
        const QSignalBlocker blocker(tab_);  // one refresh below, on the tab
        tab_->setHeads(heads);
    }
    onScreen_->markStale();
    tabs_->setCurrentWidget(tab_);
    if (onScreen_->stale()) refresh();
}

}  // namespace attnscope
