#include "ui/step/matrix_delegate.hpp"

#include <QPainter>
#include <cmath>

#include "ui/step/trace_matrix_model.hpp"

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

// Painted by hand rather than through QStyledItemDelegate::paint: the style path queries a dozen
// roles and draws a styled panel per cell, which made a keystroke's repaint miss the frame budget.
void MatrixDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                           const QModelIndex& index) const {
    const bool selected = option.state & QStyle::State_Selected;
    const bool highlighted = index.data(TraceMatrixModel::HighlightRole).toBool();
    if (selected) painter->fillRect(option.rect, option.palette.highlight());
    else if (highlighted) painter->fillRect(option.rect, QColor(255, 235, 59, 200));
    else if (shading_) painter->fillRect(option.rect, tintFor(index.data(TraceMatrixModel::ShadeRole)));
    painter->setFont(option.font);
    painter->setPen(option.palette.color(selected ? QPalette::HighlightedText : QPalette::Text));
    painter->drawText(option.rect.adjusted(kTextPadding, 0, -kTextPadding, 0), Qt::AlignRight | Qt::AlignVCenter,
                      index.data(Qt::DisplayRole).toString());
    if (highlighted) {
        painter->save();
        painter->setPen(QPen(QColor(200, 30, 30), 3));
        painter->drawRect(option.rect.adjusted(1, 1, -2, -2));
        painter->restore();
    }
}

}  // namespace attnscope
