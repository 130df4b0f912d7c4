#pragma once
// Lab ▸ Positional encoding (issue 5 §1): the sinusoidal table as a heatmap and as curves, the
// rotation R_k with its numeric check, and the permutation demo on the lesson's sentence. With a
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
    QComboBox* sourceBox() const { return source_; }  // item data: Source
    QSpinBox* positionsBox() const { return positions_; }
    QSpinBox* widthBox() const { return width_; }
    QSpinBox* offsetBox() const { return offset_; }
    QLineEdit* dimensionsEdit() const { return dimensions_; }
    const MatrixPlotBuilder& encodingPlot() const { return *encoding_; }  // the table drawn (N×D)
    const CurvePlotBuilder& curvesPlot() const { return *curves_; }
    const MatrixPlotBuilder& rotationPlot() const { return *rotation_; }
    QString checkText() const;
    PermutationDemoBox* permutation() const { return permutation_; }

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
    // The child widgets it reads or updates after building them (such lists look alike in every
    // panel by shape; each holds its own widgets: nothing to share).
    QComboBox* source_ = nullptr;
    PermutationDemoBox* permutation_ = nullptr;  // its own controls, plots and texts
    QSpinBox* positions_ = nullptr;
    QSpinBox* width_ = nullptr;
    QSpinBox* offset_ = nullptr;
    QLineEdit* dimensions_ = nullptr;
    QLabel* check_ = nullptr;
    std::unique_ptr<MatrixPlotBuilder> encoding_;
    std::unique_ptr<CurvePlotBuilder> curves_;
    std::unique_ptr<MatrixPlotBuilder> rotation_;
};

}  // namespace attnscope
