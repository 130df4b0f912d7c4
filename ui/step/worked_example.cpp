#include "ui/step/worked_example.hpp"

#include "core/trace/explain.hpp"
#include "ui/step/matrix_panel.hpp"
#include "ui/step/step_navigator.hpp"
#include "ui/common/core_language.hpp"
#include "ui/common/core_error_text.hpp"

namespace attnscope {

WorkedExample::WorkedExample(StepNavigator* navigator, MatrixPanel* panel, QObject* parent)
    : QObject(parent), navigator_(navigator), panel_(panel) {
    connect(navigator_, &StepNavigator::stepChanged, this, [this] { showCurrentStep(); });
    connect(panel_, &MatrixPanel::cellSelected, this, &WorkedExample::explain);
}

void WorkedExample::show(std::shared_ptr<const Trace> trace, int layer, int decimals, bool keepSelection) {
    if (!trace) return;
    const auto previous = std::exchange(trace_, std::move(trace));  // alive until the panel moved on
    layer_ = layer;
    decimals_ = decimals;
    if (!keepSelection) selectedCell_.reset();
    const std::vector<Step> steps = stepsOf(*trace_, layer_);
    std::vector<std::string> titles;
    for (const Step step : steps) titles.push_back(stepTitleIn(*trace_, step, layer_, coreLanguage()));
    {
        const QSignalBlocker blocker(navigator_);  // one showCurrentStep below is enough
        navigator_->setSteps(steps, titles);
        if (navigator_->currentIndex() < 0) navigator_->setCurrentIndex(0);
    }
    showCurrentStep();
}

void WorkedExample::forgetSelection() {
    selectedCell_.reset();
    shownStep_.reset();
}

void WorkedExample::showCurrentStep() {
    if (!trace_ || navigator_->currentIndex() < 0) return;
    const Step step = navigator_->currentStep();
    if (shownStep_ != step) selectedCell_.reset();
    shownStep_ = step;
    navigator_->setHeadEnabled(isPerHead(step));
    panel_->showStep(*trace_, step, layer_, navigator_->currentHead(), decimals_);
    if (selectedCell_) panel_->selectCell(selectedCell_->first, selectedCell_->second);
}

void WorkedExample::explain(const CellRef& cell) {
    selectedCell_ = std::make_pair(cell.row, cell.col);
    auto explanation = explainCell(*trace_, cell, decimals_, coreLanguage());
    if (explanation) panel_->showExplanation(explanation.value());
    else panel_->showExplanationError(coreErrorText(explanation.error()));
}

}  // namespace attnscope
