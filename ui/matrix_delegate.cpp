#include "ui/matrix_delegate.hpp"

#include <QPainter>
#include <cmath>

#include "ui/trace_matrix_model.hpp"

namespace attnscope {

namespace {

// Tints stay light (alpha ≤ 0.45) so black digits remain legible on a projector.
QColor tintFor(const QVariant& shade) {
    if (!shade.isValid()) return QColor(200, 200, 200);  // −∞: a masked cell
    const double s = shade.toDouble();
    QColor c = s >= 0 ? QColor(230, 120, 20) : QColor(40, 110, 220);
    c.setAlphaF(std::min(0.45, std::abs(s) * 0.45));
    return c;
}

}  // namespace

void MatrixDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                           const QModelIndex& index) const {
    if (shading_) painter->fillRect(option.rect, tintFor(index.data(TraceMatrixModel::ShadeRole)));
    if (index.data(TraceMatrixModel::HighlightRole).toBool())
        painter->fillRect(option.rect, QColor(255, 235, 59, 200));
    QStyledItemDelegate::paint(painter, option, index);
    if (index.data(TraceMatrixModel::HighlightRole).toBool()) {
        painter->save();
        painter->setPen(QPen(QColor(200, 30, 30), 3));
        painter->drawRect(option.rect.adjusted(1, 1, -2, -2));
        painter->restore();
    }
}

}  // namespace attnscope
