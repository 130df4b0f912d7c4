#pragma once
// Thin table adapter over one matrix of a Trace: labels from rowLabels/columnLabels, numbers
// from formatNumber. It never computes; it only remembers which cells to highlight.
#include <QAbstractTableModel>
#include <QPoint>
#include <optional>
#include <vector>

#include "core/trace/explain.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

struct MatrixCell {
    int row = 0;
    int col = 0;
    bool operator==(const MatrixCell&) const = default;
};

class TraceMatrixModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // Extra roles the delegate reads.
    enum Role { ValueRole = Qt::UserRole + 1, ShadeRole, HighlightRole, DimRole };

    explicit TraceMatrixModel(QObject* parent = nullptr);

    void show(const Trace* trace, Step step, int layer, int head, int decimals);
    void clear();
    Step step() const { return step_; }
    int layer() const { return layer_; }
    int head() const { return head_; }
    bool hasMatrix() const { return trace_ != nullptr; }

    void setHighlightedCells(std::vector<MatrixCell> cells);
    const std::vector<MatrixCell>& highlightedCells() const { return highlighted_; }
    bool isHighlighted(int row, int col) const;
    // A class looks at one row (View ▸ Focus the chosen row): the others are dimmed (DimRole).
    void setFocusedRow(std::optional<int> row);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    GridRef matrix() const;
    QStringList widestTexts(int column) const;  // for kWidestTextsRole
    double shadeOf(double value) const;  // 0..1 within the matrix's finite range

    const Trace* trace_ = nullptr;
    Step step_ = Step::Embedding;
    int layer_ = 0;
    int head_ = 0;
    int decimals_ = 3;
    double max_ = 0;  // the largest finite magnitude
    std::vector<ColumnRange> columnRanges_;
    std::vector<std::string> rowLabels_;
    std::vector<std::string> colLabels_;
    std::vector<MatrixCell> highlighted_;
    std::optional<int> focusedRow_;
};

}  // namespace attnscope
