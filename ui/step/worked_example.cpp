#include "ui/step/worked_example.hpp"

#include <QStringList>

#include "core/analysis/compare.hpp"
#include "core/trace/explain.hpp"
#include "core/trace/explain_steps.hpp"
#include "ui/step/matrix_panel.hpp"
#include "ui/step/step_navigator.hpp"
#include "ui/common/core_language.hpp"
#include "ui/common/core_error_text.hpp"

namespace attnscope {

namespace {

QString sentenceOf(const Trace& trace) {
    QStringList tokens;
    for (const Token& t : trace.tokens) tokens << QString::fromStdString(t.text);
    return tokens.join(' ');
}

}  // namespace

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
    followed_.reset();
    panel_->setFocusedRow(std::nullopt);
    if (selectedCell_) panel_->selectCell(selectedCell_->first, selectedCell_->second);
}

void WorkedExample::setSecond(std::shared_ptr<const Trace> b) {
    b_ = std::move(b);
    if (trace_ && selectedCell_) showCurrentStep();  // re-explains the selected cell
}

void WorkedExample::explain(const CellRef& cell) {
    selectedCell_ = std::make_pair(cell.row, cell.col);
    auto explanation = explainCell(*trace_, cell, decimals_, coreLanguage());
    if (!explanation) return panel_->showExplanationError(coreErrorText(explanation.error()));
    panel_->setFocusedRow(focusing_ ? std::optional<int>(cell.row) : std::nullopt);
    followed_.reset();
    if (focusing_ && !b_) runningSums_ = runningSums(*trace_, explanation.value(), decimals_);
    if (focusing_ && !b_ && !runningSums_.empty()) {
        followed_ = std::move(explanation).value();
        productsShown_ = 0;
        return showProductsSoFar();
    }
    if (!b_) return panel_->showExplanation(explanation.value());
    Explanation both = std::move(explanation).value();
    both.lines.insert(both.lines.begin(), tr("A: %1").arg(sentenceOf(*trace_)).toStdString());
    both.lines.emplace_back();
    for (std::string& line : explainInB(cell)) both.lines.push_back(std::move(line));
    panel_->showExplanation(both);
}

void WorkedExample::setFocusing(bool on) {
    focusing_ = on;
    if (trace_ && selectedCell_) panel_->selectCell(selectedCell_->first, selectedCell_->second);  // explained anew
    else panel_->setFocusedRow(std::nullopt);
}

bool WorkedExample::stepProducts(int by) {
    if (!focusing_ || !followed_ || !panel_->isVisible()) return false;
    const std::size_t count = runningSums_.size();
    if (by > 0 ? productsShown_ >= count : productsShown_ == 0) return false;
    by > 0 ? ++productsShown_ : --productsShown_;
    showProductsSoFar();
    return true;
}

// Core's lines: the rule and the products added so far, then core's sum of them; all of it at the end.
void WorkedExample::showProductsSoFar() {
    Explanation shown = *followed_;
    const std::size_t count = runningSums_.size();
    if (productsShown_ < count) {
        shown.lines = linesUpToTerm(*followed_, productsShown_);
        if (productsShown_ > 0)
            shown.lines.push_back(tr("running sum of the first %1 of %2 = %3")
                                      .arg(productsShown_).arg(count)
                                      .arg(QString::fromStdString(runningSums_[productsShown_ - 1])).toStdString());
    }
    panel_->showExplanation(shown);
}

// B's lines: its sentence, then the aligned cell explained from B's run (or why there is none).
std::vector<std::string> WorkedExample::explainInB(const CellRef& cell) const {
    std::vector<std::string> lines{tr("B: %1").arg(sentenceOf(*b_)).toStdString()};
    const auto cellB = alignedCellInB(alignTokens(trace_->tokens, b_->tokens),
                                      alignTokens(trace_->columnTokens(), b_->columnTokens()), cell);  // a cross stage's columns apart
    if (!cellB) return lines.push_back(tr("This token has no partner in B (left out by the alignment).").toStdString()), lines;
    auto explanation = explainCell(*b_, *cellB, decimals_, coreLanguage());
    if (!explanation) return lines.push_back(coreErrorString(explanation.error())), lines;
    for (const std::string& line : explanation.value().lines) lines.push_back(line);
    return lines;
}

}  // namespace attnscope
