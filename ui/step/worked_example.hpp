#pragma once
// The controller of the Worked example tab: the step navigator on the left picks a step and a
// head, the MatrixPanel shows that step of the worked trace, a clicked cell is explained (the
// selection survives recomputes of the same step). The window hands it the source's worked
// trace and layer; nothing here knows what kind of source produced it.
#include <QObject>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/trace/explain.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

class MatrixPanel;
class StepNavigator;
struct CellRef;

class WorkedExample : public QObject {
    Q_OBJECT
public:
    WorkedExample(StepNavigator* navigator, MatrixPanel* panel, QObject* parent = nullptr);

    // A new worked trace (or layer): lists its steps, keeping the current one when it has it,
    // and the selected cell when `keepSelection` (the same layer recomputed).
    void show(std::shared_ptr<const Trace> trace, int layer, int decimals, bool keepSelection);
    void forgetSelection();  // a new lesson or model starts without a selected cell
    // The Compare tab's sentence B (nullptr: none): a clicked cell is explained for A, then for
    // the aligned cell of B underneath (core's alignedCellInB), numbers from B's own run.
    void setSecond(std::shared_ptr<const Trace> b);
    void showCurrentStep();
    // View ▸ Focus the chosen row: the selected cell's row stands out (the others dimmed) and its
    // explanation starts at the rule; the clicker then adds one product at a time to the sum.
    void setFocusing(bool on);
    bool focusing() const { return focusing_; }
    // The clicker's → (by > 0) or ← while focusing: one product more (or fewer) with the running
    // sum. False when there is none left to add or take back: the clicker moves to another step.
    bool stepProducts(int by);

    std::shared_ptr<const Trace> trace() const { return trace_; }
    int layer() const { return layer_; }
    int decimals() const { return decimals_; }

private:
    void explain(const CellRef& cell);
    void showProductsSoFar();
    std::vector<std::string> explainInB(const CellRef& cell) const;

    StepNavigator* navigator_;
    MatrixPanel* panel_;
    std::shared_ptr<const Trace> trace_, b_;
    int layer_ = 0;
    int decimals_ = 3;
    std::optional<std::pair<int, int>> selectedCell_;  // kept across recomputes of the same step
    std::optional<Step> shownStep_;
    bool focusing_ = false;
    std::optional<Explanation> followed_;  // the selected cell's, while focusing: stepped product by product
    std::vector<std::string> runningSums_;  // core's sum after each of its products
    std::size_t productsShown_ = 0;
};

}  // namespace attnscope
