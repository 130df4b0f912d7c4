#pragma once
// Lab ▸ Synthesizer (issue 5 §5): the lesson sentence's attention weights under dot product and
// the Synthesizer variants of core/lab/synthesizer, side by side, with the mixture's α on sliders.
#include <QWidget>
#include <array>
#include <memory>
#include <vector>

#include "core/lab/synthesizer.hpp"
#include "core/trace/trace.hpp"
#include "ui/lab/lab_panel.hpp"

class QLabel;
class QSlider;
class QSpinBox;

namespace attnscope {

class MatrixPlotBuilder;

// A lab panel: a QWidget taking the LabPanel contract (declared like its siblings).
class SynthesizerPanel : public QWidget, public LabPanel {
    Q_OBJECT
public:
    static constexpr int kVariants = 6;  // dot product, Dense, Random, two factorized, mixture

    explicit SynthesizerPanel(QWidget* parent = nullptr);
    ~SynthesizerPanel() override;
    void setTrace(const Trace& trace);
    void setInput(const LabInput& input) override { setTrace(input.trace); }

    // For tests and screenshots.
    QSpinBox* seedBox() const { return seed_; }
    QSpinBox* headBox() const { return head_; }
    QSlider* alphaSlider(int i) const { return sliders_.at(i); }
    const std::vector<double>& alphas() const { return alphas_; }
    const std::vector<SynthesizerVariant>& variants() const { return variants_; }
    const MatrixPlotBuilder& variantPlot(int i) const { return *plots_.at(i); }
    QString alphaText() const;
    QString errorText() const;
    QString pointText() const;

private:
    QWidget* buildControls();
    QWidget* buildSliders();
    void refresh();
    void showAlphas();

    Trace trace_;
    std::vector<double> alphas_;
    std::vector<SynthesizerVariant> variants_;
    QSpinBox* seed_ = nullptr;
    QSpinBox* head_ = nullptr;
    std::array<QSlider*, 5> sliders_{};
    QLabel* alphaText_ = nullptr;
    QLabel* error_ = nullptr;
    QLabel* point_ = nullptr;
    std::array<std::unique_ptr<MatrixPlotBuilder>, kVariants> plots_;
};

}  // namespace attnscope
