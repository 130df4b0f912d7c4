// The Coreference tab of the main window, in lesson and model mode alike: it resolves the Trace
// on screen (the lesson's, or the model run's: every layer holds every head's weights, which is
// all coreference needs) whenever the tab is shown and something changed.
#include <QTabWidget>

#include "app/coref_tab.hpp"
#include "app/main_window.hpp"
#include "app/model_worker.hpp"
#include "ui/step_navigator.hpp"

namespace attnscope {

void MainWindow::buildCorefTab() {
    coref_ = new CorefTab(tabs_);
    tabs_->addTab(coref_, tr("Coreference"));
    connect(coref_, &CorefTab::changed, this, &MainWindow::refreshCoref);
    connect(tabs_, &QTabWidget::currentChanged, this, [this] {
        if (tabs_->currentWidget() == coref_ && corefStale_) refreshCoref();
    });
}

const Trace* MainWindow::corefTrace() const {
    if (modelMode_) return shownRun_ ? &shownRun_->trace : nullptr;
    return session_.hasLesson() ? &session_.trace() : nullptr;
}

// Only the tab on screen is recomputed: rollout at 512 tokens multiplies T×T matrices per layer.
void MainWindow::refreshCoref() {
    if (tabs_->currentWidget() != coref_) {
        corefStale_ = true;
        return;
    }
    const Trace* trace = corefTrace();
    if (!trace) return;
    coref_->resolve(*trace, modelMode_ ? currentModelLayer() : 0, navigator_->currentHead());
    corefStale_ = false;
}

void MainWindow::setCoreferenceHeads(const std::vector<HeadRef>& heads) {
    const QSignalBlocker blocker(coref_);  // one refresh below, on the tab
    coref_->setHeads(heads);
    corefStale_ = true;
    tabs_->setCurrentWidget(coref_);
    if (corefStale_) refreshCoref();
}

}  // namespace attnscope
