#include "ui/step/trace_matrix_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/trace/explain.hpp"
#include "ui/common/qt_text.hpp"
#include "ui/step/matrix_table.hpp"

namespace attnscope {

TraceMatrixModel::TraceMatrixModel(QObject* parent) : QAbstractTableModel(parent) {}

void TraceMatrixModel::show(const Trace* trace, Step step, int layer, int head, int decimals) {
    beginResetModel();
    trace_ = trace;
    step_ = step;
    layer_ = layer;
    head_ = isPerHead(step) ? head : 0;
    decimals_ = decimalsFor(stepMatrix(*trace, step, layer, head_), decimals);  // "1", not "1.0000"
    highlighted_.clear();
    rowLabels_ = rowLabels(*trace, step, layer, head_, displayLanguage());
    colLabels_ = columnLabels(*trace, step, layer, head_, displayLanguage());
    columnRanges_ = columnRanges(matrix());
    // Shading is relative to the largest finite magnitude, so −∞ cells do not flatten the rest.
    max_ = 0;
    for (const ColumnRange& range : columnRanges_)
        if (range.low <= range.high) max_ = std::max({max_, std::abs(range.low), std::abs(range.high)});
    endResetModel();
}

void TraceMatrixModel::clear() {
    beginResetModel();
    trace_ = nullptr;
    columnRanges_.clear();
    highlighted_.clear();
    rowLabels_.clear();
    colLabels_.clear();
    endResetModel();
}

void TraceMatrixModel::setHighlightedCells(std::vector<MatrixCell> cells) {
    highlighted_ = std::move(cells);
    if (rowCount() > 0 && columnCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1), {HighlightRole});
}

void TraceMatrixModel::setFocusedRow(std::optional<int> row) {
    if (row == focusedRow_) return;
    focusedRow_ = row;
    if (rowCount() > 0 && columnCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1), {DimRole});
}

bool TraceMatrixModel::isHighlighted(int row, int col) const {
    return std::find(highlighted_.begin(), highlighted_.end(), MatrixCell{row, col}) != highlighted_.end();
}

GridRef TraceMatrixModel::matrix() const { return stepMatrix(*trace_, step_, layer_, head_); }

int TraceMatrixModel::rowCount(const QModelIndex& parent) const {
    return (parent.isValid() || !trace_) ? 0 : static_cast<int>(matrix().rows());
}

int TraceMatrixModel::columnCount(const QModelIndex& parent) const {
    return (parent.isValid() || !trace_) ? 0 : static_cast<int>(matrix().cols());
}

double TraceMatrixModel::shadeOf(double value) const {
    if (!std::isfinite(value) || max_ == 0) return 0;
    return value / max_;
}

QVariant TraceMatrixModel::data(const QModelIndex& index, int role) const {
    if (!trace_ || !index.isValid()) return {};
    const double value = matrix()(index.row(), index.column());
    switch (role) {
        case Qt::DisplayRole:
            return QString::fromStdString(formatNumber(value, decimals_));
        case Qt::ToolTipRole:
            return QString::fromStdString(formatNumber(value, 12));
        case Qt::TextAlignmentRole:
            return int(Qt::AlignRight | Qt::AlignVCenter);
        case ValueRole: return value;
        case ShadeRole: return std::isinf(value) ? QVariant() : QVariant(shadeOf(value));
        case HighlightRole: return isHighlighted(index.row(), index.column());
        case DimRole: return focusedRow_.has_value() && index.row() != *focusedRow_;
        default: return {};
    }
}

QStringList TraceMatrixModel::widestTexts(int column) const {
    const ColumnRange& range = columnRanges_[static_cast<std::size_t>(column)];
    QStringList texts;
    const auto add = [&](double value) { texts << QString::fromStdString(formatNumber(value, decimals_)); };
    if (range.low <= range.high) add(range.low), add(range.high);
    if (range.nan) add(std::numeric_limits<double>::quiet_NaN());
    if (range.negativeInfinity) add(-std::numeric_limits<double>::infinity());
    if (range.positiveInfinity) add(std::numeric_limits<double>::infinity());
    return texts;
}

QVariant TraceMatrixModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role == kWidestTextsRole && orientation == Qt::Horizontal && trace_ && section >= 0 && section < columnCount())
        return widestTexts(section);
    if (role != Qt::DisplayRole || section < 0) return {};
    const auto& labels = orientation == Qt::Horizontal ? colLabels_ : rowLabels_;
    if (section >= static_cast<int>(labels.size())) return {};
    return QString::fromStdString(labels[section]);
}

}  // namespace attnscope
