#pragma once
// The worked example of one step: its operand matrices beside the result, and an explanation
// panel. Selecting a result cell emits cellSelected; the window answers with showExplanation,
// whose source cells are then highlighted wherever they are on screen.
#include <QWidget>
#include <array>
#include <optional>
#include <vector>

#include "core/trace/explain.hpp"
#include "core/trace/trace.hpp"
#include "ui/step/trace_matrix_model.hpp"

class QLabel;
class QPlainTextEdit;
class QScrollArea;
class QVBoxLayout;
class QSplitter;

namespace attnscope {

class MatrixDelegate;
class MatrixTable;

class MatrixPanel : public QWidget {
    Q_OBJECT
public:
    explicit MatrixPanel(QWidget* parent = nullptr);

    void showStep(const Trace& trace, Step step, int layer, int head, int decimals);
    void showExplanation(const Explanation& explanation);
    void showExplanationError(const QString& message);
    void clearExplanation();
    void selectCell(int row, int col);  // selects a result cell (emits cellSelected)
    void setShading(bool on);
    // Dims every row but `row` in the result and in the operands whose rows are the result's
    // (the left factor; both addends of a sum); nullopt shows all rows alike.
    void setFocusedRow(std::optional<int> row);
    void setExplanationFont(const QFont& font);
    // Fit mode (View ▸ Fit the step to the window, and presentation mode): the equation's
    // tables, captions and operators scale to fill the visible area, down to a readable size
    // (below it the canvas scrolls); the explanation keeps the height of all its lines.
    void setFitToArea(bool on);
    bool fitsToArea() const { return fit_; }
    double equationPointSize() const;  // the tables' font: the panel's, or the fit's

    // What is drawn, for tests and screenshots.
    TraceMatrixModel* resultModel() const { return result_.model; }
    std::vector<TraceMatrixModel*> operandModels() const;  // only the visible ones
    MatrixTable* resultView() const { return result_.table; }
    QString explanationText() const;

signals:
    void cellSelected(const attnscope::CellRef& cell);

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void applyFonts();
    void giveRestToExplanation();
    void fitExplanation();
    int explanationHeight(double points, int width) const;
    QFont explanationFont() const;  // the zoom's mono font (setExplanationFont), before any fit
    void wrapRow(int scrollWidth = -1);  // the scroll area's width: its own unless fitting tries another
    void fitEquation();
    void shrinkToArea();
    void showNaturalSizes();
    QSize equationArea() const;  // the scroll area's inside, 0×0 before it is laid out
    std::optional<double> largestEquationFont(QSize area, double most);
    // Where fit mode puts the explanation: its splitter size and font, and the equation's font then.
    struct ExplanationPlace {
        Qt::Orientation orientation;
        int size;
        double points;
        double equationPoints;
    };
    ExplanationPlace placeBeside();
    ExplanationPlace placeBelow();
    void setEquationPointSize(double points, QSize maxTable, int scrollWidth);
    QSize equationSize();
    void sizeTables(QSize maxSize);
    void showSelectedCell();
    struct Slot {
        QWidget* box = nullptr;
        QLabel* caption = nullptr;
        MatrixTable* table = nullptr;
        TraceMatrixModel* model = nullptr;
    };
    Slot makeSlot(QWidget* parent);
    void fillSlot(Slot& slot, const Trace& trace, Step step, int layer, int head, int decimals);
    void highlightSources(const std::vector<CellRef>& sources);
    void onCurrentChanged(const QModelIndex& current);

    QSplitter* splitter_ = nullptr;
    QScrollArea* scroll_ = nullptr;
    QWidget* canvas_ = nullptr;
    QVBoxLayout* lines_ = nullptr;  // the rows of operands, operators and result (wrapRow)
    QLabel* title_ = nullptr;
    std::array<Slot, 2> operands_;
    std::array<QLabel*, 2> operators_{};  // [between operands, before the result]
    Slot result_;
    QPlainTextEdit* explanation_ = nullptr;
    MatrixDelegate* delegate_ = nullptr;
    std::optional<QFont> explanationFont_;
    bool fit_ = false;
    bool fitting_ = false;  // fitEquation's own layout changes do not start another fit
    double resultOperatorScale_ = 2.0;  // "=" large, "softmax of each row →" smaller
    bool elementwise_ = false;          // the step adds its operands (X = E + P, masked = scaled + M)
};

}  // namespace attnscope
