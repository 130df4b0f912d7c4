#include "ui/step/matrix_delegate.hpp"

#include <QPainter>
#include <algorithm>
#include <cmath>

#include "ui/step/trace_matrix_model.hpp"
#include "ui/common/theme_colors.hpp"

namespace attnscope {

namespace {

// Tints stay faint (alpha ≤ 0.45) so the digits remain legible on a projector; the dark theme's
// tints are dark shades of the same hues, under light digits.
QColor tintFor(const QVariant& shade) {
    if (!shade.isValid()) return theme::color(theme::Role::MaskedCell);  // −∞: a masked cell
    const double s = shade.toDouble();
    QColor c = theme::color(s >= 0 ? theme::Role::PositiveTint : theme::Role::NegativeTint);
    c.setAlphaF(std::min(0.45, std::abs(s) * 0.45));
    return c;
}

}  // namespace

constexpr double kDimmedInk = 0.3;  // of the text's colour over the paper

// Painted by hand rather than through QStyledItemDelegate::paint: the style path queries a dozen
// roles and draws a styled panel per cell, which made a keystroke's repaint miss the frame budget.
void MatrixDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                           const QModelIndex& index) const {
    const bool selected = option.state & QStyle::State_Selected;
    const bool highlighted = index.data(TraceMatrixModel::HighlightRole).toBool();
    const bool dimmed = !selected && index.data(TraceMatrixModel::DimRole).toBool();
    if (dimmed) {  // another row than the one the class looks at: faint digits on plain paper
        painter->setFont(option.font);
        QColor ink = option.palette.color(QPalette::Text);
        ink.setAlphaF(kDimmedInk);
        painter->setPen(ink);
        painter->drawText(option.rect.adjusted(kTextPadding, 0, -kTextPadding, 0), Qt::AlignRight | Qt::AlignVCenter,
                          index.data(Qt::DisplayRole).toString());
        return;
    }
    if (selected) painter->fillRect(option.rect, option.palette.highlight());
    else if (highlighted) painter->fillRect(option.rect, theme::color(theme::Role::CellHighlight));
    else if (shading_) painter->fillRect(option.rect, tintFor(index.data(TraceMatrixModel::ShadeRole)));
    painter->setFont(option.font);
    painter->setPen(option.palette.color(selected ? QPalette::HighlightedText : QPalette::Text));
    // Fit mode's narrow columns (MatrixTable::setCompact) leave less than the padding beside the digits.
    const QString text = index.data(Qt::DisplayRole).toString();
    const int padding = std::clamp((option.rect.width() - option.fontMetrics.horizontalAdvance(text)) / 2, 0, kTextPadding);
    painter->drawText(option.rect.adjusted(padding, 0, -padding, 0), Qt::AlignRight | Qt::AlignVCenter, text);
    if (highlighted) {
        painter->save();
        painter->setPen(QPen(theme::color(theme::Role::Alert), 3));
        painter->drawRect(option.rect.adjusted(1, 1, -2, -2));
        painter->restore();
    }
}

}  // namespace attnscope
