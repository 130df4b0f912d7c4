#pragma once
// The X → Y tab (issue 29 §5, "what attention did to each word"): for the shown run (a lesson's or
// a model's), every token's vector x entering a layer (or the whole stack) and y leaving it, how far
// it moved (‖y − x‖, cos(x, y)) and, for one layer, the source words of its new content, largest
// first; beside the table a bar per word of ‖y − x‖ or the same word in two contexts (SameWordPanel). It shows
// core's TokenMovement; the controller (app/tabs/movement_tab_controller.hpp) computes and exports.
#include <QWidget>
#include <memory>
#include <optional>

#include "core/analysis/token_movement_run.hpp"
#include "core/analysis/token_movement_worksheet.hpp"

class QComboBox;
class QLabel;
class QSpinBox;
class QSplitter;
class QTabWidget;
class QTableWidget;
class QToolButton;

namespace attnscope {

class CurvePlotBuilder;
class JobProgress;
class SameWordPanel;

// Worksheet: core's movementWorksheet of the chosen word (.md, .tex or .pdf, as the Lab's worksheets).
enum class MovementExport { BarsPng, BarsSvg, MovementCsv, MovementJson, CurvePng, CurveSvg, CurveCsv, CurveJson, Worksheet };

class MovementView : public QWidget {
    Q_OBJECT
public:
    explicit MovementView(QWidget* parent = nullptr);
    ~MovementView() override;

    void showEmpty(const QString& why);      // the table and the bars cleared
    void setLayerCount(int layers);          // "Whole stack", "Layer 1", …; the choice kept when it exists
    void showProgress(int done, int total);  // (0, 0): busy
    void showMessage(const QString& message);  // cancelled or failed: what was shown stays
    // One layer's (m.layer) or the whole stack's movement of `trace`'s tokens, numbers at `decimals`;
    // `output`: what y is at one layer, as core words it (layerOutputText).
    void showMovement(const TokenMovement& m, const Trace& trace, LayerOutput output, int decimals);

    void showSameWordPage();  // a new sentence B: its curve in front of the bars

    std::optional<int> chosenLayer() const;  // 0-based; none: the whole stack
    int sourcesShown() const;
    int chosenWord() const;  // 0-based: the table's current row's word (the first when none)
    // The worksheet's words in the interface language, for the shown layer or the whole stack.
    MovementSheetPhrases sheetPhrases() const;
    QString caption() const;
    QTableWidget* table() const { return table_; }
    const CurvePlotBuilder& bars() const { return *bars_; }
    SameWordPanel* sameWord() const { return sameWord_; }

signals:
    void layerChosen();
    void cancelRequested();
    void exportRequested(attnscope::MovementExport kind, const QString& path);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    QWidget* buildControls();
    QToolButton* buildExportButton();
    void exportDialog(MovementExport kind);
    void fillRows();
    void fitPanes();
    int oneLineTableWidth() const;

    QLabel* caption_ = nullptr;
    QComboBox* layer_ = nullptr;
    QSpinBox* sources_ = nullptr;
    JobProgress* progress_ = nullptr;
    QTableWidget* table_ = nullptr;
    QTabWidget* plots_ = nullptr;  // the bars or the two-context curve
    QSplitter* panes_ = nullptr;   // the table | the plots
    bool panesMoved_ = false;      // by the reader: their split is kept
    std::unique_ptr<CurvePlotBuilder> bars_;
    SameWordPanel* sameWord_ = nullptr;
    std::optional<TokenMovement> shown_;  // redrawn when the number of sources shown changes
    QStringList words_;                   // the shown run's tokens
    QStringList sourceWords_;             // where content came from: its keys (a cross-attention's source)
    int decimals_ = 3;
};

}  // namespace attnscope
