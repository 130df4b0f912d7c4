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
    // Shading is relative to the largest finite magnitude, so −∞ cells do not flatten the rest.
    max_ = 0;
    matrix().visit([this](const auto& m) {  // a model's weights are float
        for (Eigen::Index i = 0; i < m.size(); ++i)
            if (std::isfinite(m.data()[i])) max_ = std::max(max_, std::abs(static_cast<double>(m.data()[i])));
    });
    endResetModel();
}

void TraceMatrixModel::clear() {
    beginResetModel();
    trace_ = nullptr;
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

// In fixed-point notation a longer number is a larger one, or a more negative one: a column's
// widest text is that of its largest or of its smallest finite value, or NaN, −∞, +∞.
QStringList TraceMatrixModel::widestTexts(int column) const {
    return matrix().visit([&](const auto& m) {
        constexpr double inf = std::numeric_limits<double>::infinity();
        double low = inf, high = -inf;
        bool nan = false, negativeInfinity = false, positiveInfinity = false;  // each a text of its own
        for (Eigen::Index r = 0; r < m.rows(); ++r) {
            const auto value = static_cast<double>(m(r, column));
            if (std::isfinite(value)) low = std::min(low, value), high = std::max(high, value);
            else if (std::isnan(value)) nan = true;
            else (value < 0 ? negativeInfinity : positiveInfinity) = true;
        }
        QStringList texts;
        const auto add = [&](double value) { texts << QString::fromStdString(formatNumber(value, decimals_)); };
        if (low <= high) add(low), add(high);
        if (nan) add(std::numeric_limits<double>::quiet_NaN());
        if (negativeInfinity) add(-inf);
        if (positiveInfinity) add(inf);
        return texts;
    });
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
