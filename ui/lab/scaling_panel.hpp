#pragma once
// Lab ▸ Why scale by √d_k (issue 5 §2): the classic experiment swept over d (core/lab/scaling),
// the distribution of q·k at one d, and the lesson sentence's row entropies with and without the
// division. The panel only draws what core computed.
#include <QWidget>
#include <memory>
#include <vector>

#include "core/lab/scaling.hpp"
#include "core/trace/trace.hpp"
#include "ui/lab/lab_panel.hpp"

class QComboBox;
class QCustomPlot;
class QLabel;
class QSpinBox;

namespace attnscope {

class CurvePlotBuilder;

// A lab panel: a QWidget taking the LabPanel contract (declared like its siblings).
class ScalingPanel : public QWidget, public LabPanel {
    Q_OBJECT
public:
    explicit ScalingPanel(QWidget* parent = nullptr);
    ~ScalingPanel() override;
    void setTrace(const Trace& trace);  // the sentence whose rows are compared
    void setInput(const LabInput& input) override { setTrace(input.trace); }

    // For tests and screenshots.
    QSpinBox* seedBox() const { return seed_; }
    QComboBox* dimensionBox() const { return dimension_; }
    QSpinBox* headBox() const { return head_; }
    const std::vector<ScalingSetting>& sweep() const { return sweep_; }
    const CurvePlotBuilder& sweepPlot() const { return *sweepPlot_; }
    const CurvePlotBuilder& histogramPlot() const { return *histogramPlot_; }
    const CurvePlotBuilder& entropyPlot() const { return *entropyPlot_; }
    QString summaryText() const;
    // The sweep (~0.2 s on a busy machine) runs in a worker thread; true until its result is shown.
    bool isSweepRunning() const { return sweepRunning_; }

private:
    QWidget* buildControls();
    void refreshSweep();
    void showSweep(std::vector<ScalingSetting> sweep, std::uint64_t seed);
    void refreshHistogram();
    void refreshEntropies();

    Trace trace_;
    std::vector<ScalingSetting> sweep_;
    int sweepGeneration_ = 0;  // a result from an older seed is dropped
    bool sweepRunning_ = false;
    QSpinBox* seed_ = nullptr;
    QComboBox* dimension_ = nullptr;
    QSpinBox* head_ = nullptr;
    QLabel* summary_ = nullptr;
    std::unique_ptr<CurvePlotBuilder> sweepPlot_, histogramPlot_, entropyPlot_;
};

}  // namespace attnscope
