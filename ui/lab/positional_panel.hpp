#pragma once
// Lab ▸ Positional encoding (issue 5 §1): the sinusoidal table as a heatmap and as curves, the
// rotation R_k with its numeric check, and the permutation demo on the lesson's sentence. Every
// number comes from core/pipeline (sinusoidalEncoding) and core/lab/positional_lab.
#include <QWidget>
#include <memory>
#include <string>

#include "core/lesson.hpp"
#include "core/matrix.hpp"

class QCheckBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace attnscope {

class CurvePlotBuilder;
class MatrixPlotBuilder;

class PositionalPanel : public QWidget {
    Q_OBJECT
public:
    explicit PositionalPanel(QWidget* parent = nullptr);
    ~PositionalPanel() override;
    // The lesson and sentence the permutation demo runs on.
    void setLesson(const Lesson& lesson, const std::string& sentence);

    // For tests and screenshots.
    QSpinBox* positionsBox() const { return positions_; }
    QSpinBox* widthBox() const { return width_; }
    QSpinBox* offsetBox() const { return offset_; }
    QSpinBox* seedBox() const { return seed_; }
    QLineEdit* dimensionsEdit() const { return dimensions_; }
    QCheckBox* keepPositionalBox() const { return keep_; }
    const MatrixPlotBuilder& encodingPlot() const { return *encoding_; }
    const CurvePlotBuilder& curvesPlot() const { return *curves_; }
    const MatrixPlotBuilder& rotationPlot() const { return *rotation_; }
    const MatrixPlotBuilder& originalPlot() const { return *original_; }
    const MatrixPlotBuilder& shuffledPlot() const { return *shuffled_; }
    QString checkText() const;
    QString orderText() const;
    QString permutationCheckText() const;

private:
    QWidget* buildEncodingControls();
    QWidget* buildPermutationControls();
    QWidget* plotCard(QCustomPlot* plot, const QString& name, const MatrixPlotBuilder* matrix);
    void refreshEncoding();
    void refreshRotation();
    void refreshPermutation();

    Lesson lesson_;
    std::string sentence_;
    bool hasLesson_ = false;
    QSpinBox* positions_ = nullptr;
    QSpinBox* width_ = nullptr;
    QSpinBox* offset_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QLineEdit* dimensions_ = nullptr;
    QCheckBox* keep_ = nullptr;
    QLabel* check_ = nullptr;
    QLabel* order_ = nullptr;
    QLabel* permutationCheck_ = nullptr;
    std::unique_ptr<MatrixPlotBuilder> encoding_;
    std::unique_ptr<CurvePlotBuilder> curves_;
    std::unique_ptr<MatrixPlotBuilder> rotation_;
    std::unique_ptr<MatrixPlotBuilder> original_;
    std::unique_ptr<MatrixPlotBuilder> shuffled_;
};

}  // namespace attnscope
