#pragma once
// The RoPE section of Lab ▸ Positional encoding (issue 29 §2): q·k at (m + s, n + s) for every
// shift s with RoPE (flat) and with added sinusoids (moving), the frequency bands θ_i as
// wavelengths, and Llama 3's scaling of the long ones. Every number comes from core/lab/rope_lab;
// q and k are LabRandom(seed) normal vectors, so a seed on screen reproduces them.
#include <QWidget>
#include <memory>

#include "core/base/matrix.hpp"
#include "core/lab/worksheet.hpp"

class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace attnscope {

class CurvePlotBuilder;

class RopeDemoBox : public QWidget {
    Q_OBJECT
public:
    explicit RopeDemoBox(QWidget* parent = nullptr);
    ~RopeDemoBox() override;

    // For tests and screenshots.
    QSpinBox* widthBox() const { return width_; }
    QSpinBox* queryPositionBox() const { return m_; }
    QSpinBox* keyPositionBox() const { return n_; }
    QSpinBox* shiftsBox() const { return shifts_; }
    QSpinBox* seedBox() const { return seed_; }
    QDoubleSpinBox* baseBox() const { return base_; }
    const CurvePlotBuilder& shiftPlot() const { return *shiftPlot_; }
    const CurvePlotBuilder& bandPlot() const { return *bandPlot_; }
    const Mat& shiftTable() const { return shiftTable_; }  // core's ropeShiftTable, as exported
    const Mat& bandTable() const { return bandTable_; }    // core's ropeBandsTable
    QString checkText() const;
    // The worksheet of what the page shows (core's ropeWorksheet: q at m, k at n, the score and the
    // score moved by the largest shift), in the window's language; the Worksheet… button asks for the file.
    RopeSheetInput sheetInput() const;
    RopeSheetPhrases sheetPhrases() const;
    Result<void> exportWorksheetTo(const QString& path) const;

private:
    QWidget* buildControls();
    void refresh();
    void drawShifts();
    void drawBands();
    QWidget* buildCheckRow();
    void exportDialog();

    QSpinBox *width_ = nullptr, *m_ = nullptr, *n_ = nullptr, *shifts_ = nullptr, *seed_ = nullptr;
    QDoubleSpinBox* base_ = nullptr;
    QLabel *check_ = nullptr, *written_ = nullptr;
    Mat shiftTable_, bandTable_;
    std::unique_ptr<CurvePlotBuilder> shiftPlot_, bandPlot_;
};

}  // namespace attnscope
