#pragma once
// Lab ▸ Positional encoding (issue 5 §1): the sinusoidal table as a heatmap and as curves, the
// rotation R_k with its numeric check, the permutation demo on the lesson's sentence, and RoPE
// (ui/lab/rope_demo_box). With a
// real model open in the main window, its learned position table is offered the same way, with
// the least-squares R_k and its residual. Every number comes from core/pipeline
// (sinusoidalEncoding) and core/lab/positional_lab.
#include <QWidget>
#include <memory>
#include <optional>
#include <string>

#include "core/lesson/lesson.hpp"
#include "core/base/matrix.hpp"
#include "core/model/transformer.hpp"
#include "ui/lab/lab_panel.hpp"

class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace attnscope {

class CurvePlotBuilder;
class MatrixPlotBuilder;
class PermutationDemoBox;
class RopeDemoBox;

class PositionalPanel : public QWidget, public LabPanel {
    Q_OBJECT
public:
    explicit PositionalPanel(QWidget* parent = nullptr);
    ~PositionalPanel() override;
    // The lesson and sentence the permutation demo runs on.
    void setLesson(const Lesson& lesson, const std::string& sentence);
    void setInput(const LabInput& input) override { setLesson(input.lesson, input.sentence); }
    // The real model whose learned table the source choice offers (nullopt: sinusoidal only).
    void setModel(const QString& name, std::optional<LoadedModel> model);
    enum Source { Sinusoidal, Learned };

    // For tests and screenshots (each lab panel lists its own controls and plots alike).
    QComboBox* sourceBox() const { return controls_.source; }  // item data: Source
    QSpinBox* positionsBox() const { return controls_.positions; }
    QSpinBox* widthBox() const { return controls_.width; }
    QSpinBox* offsetBox() const { return controls_.offset; }
    QLineEdit* dimensionsEdit() const { return controls_.dimensions; }
    const MatrixPlotBuilder& encodingPlot() const { return *encoding_; }  // the table drawn (N×D)
    const CurvePlotBuilder& curvesPlot() const { return *curves_; }
    const MatrixPlotBuilder& rotationPlot() const { return *rotation_; }
    QString checkText() const;
    PermutationDemoBox* permutation() const { return permutation_; }
    RopeDemoBox* rope() const { return rope_; }

private:
    QWidget* buildEncodingControls();
    bool showsLearned() const;
    void chooseSource();   // the source's limits on positions and width, then refreshEncoding
    Mat shownTable() const;  // T×d sinusoidal, or the learned table's first T rows and d columns
    void refreshEncoding();
    void refreshRotation();
    void refreshLearnedFit();  // the least-squares R_k of the learned table

    QString modelName_;
    std::optional<LoadedModel> model_;
    // What the encoding plots show: which table, its first T positions and d dimensions, the
    // dimensions drawn as curves, and the offset k of the rotation check.
    struct EncodingControls {
        QComboBox* source = nullptr;  // item data: Source
        QSpinBox* positions = nullptr;
        QSpinBox* width = nullptr;
        QLineEdit* dimensions = nullptr;
        QSpinBox* offset = nullptr;
    };
    EncodingControls controls_;
    PermutationDemoBox* permutation_ = nullptr;  // its own controls, plots and texts
    RopeDemoBox* rope_ = nullptr;                // the RoPE section: its own controls, plots and texts
    QLabel* check_ = nullptr;
    std::unique_ptr<MatrixPlotBuilder> encoding_;
    std::unique_ptr<CurvePlotBuilder> curves_;
    std::unique_ptr<MatrixPlotBuilder> rotation_;
};

}  // namespace attnscope
