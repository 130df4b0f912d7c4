#pragma once
// The worked example of one step: its operand matrices beside the result, and an explanation
// panel. Selecting a result cell emits cellSelected; the window answers with showExplanation,
// whose source cells are then highlighted wherever they are on screen.
#include <QWidget>
#include <array>
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
    void setExplanationFont(const QFont& font);

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

private:
    void applyFonts();
    void giveRestToExplanation();
    void wrapRow();
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
};

}  // namespace attnscope
