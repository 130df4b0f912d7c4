#include "ui/attention/thumbnail_grid.hpp"
#include "ui/common/theme_colors.hpp"

#include <QEvent>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>

namespace attnscope {


int ThumbnailGrid::indexAt(QPoint pos) const {
    const auto& thumbs = view_->thumbs_;
    for (std::size_t i = 0; i < thumbs.size(); ++i)
        if (thumbs[i].rect.contains(pos)) return static_cast<int>(i);
    return -1;
}

// O(visible thumbnails): one blit each of an image the worker already scaled.
void ThumbnailGrid::paintEvent(QPaintEvent* event) {
    QPainter p(this);
    const QRect exposed = event->rect();
    p.fillRect(exposed, palette().window());
    paintLabels(p, exposed);
    for (std::size_t i = 0; i < view_->thumbs_.size(); ++i)
        if (view_->thumbs_[i].rect.adjusted(-3, -3, 3, 3).intersects(exposed)) paintThumbnail(p, i);
}

void ThumbnailGrid::paintLabels(QPainter& p, const QRect& exposed) {
    p.setPen(palette().color(QPalette::WindowText));
    for (const DrawnHeader& h : view_->headers_)
        if (h.rect.intersects(exposed)) p.drawText(h.rect, Qt::AlignCenter | Qt::TextDontClip, h.text);
}

void ThumbnailGrid::paintThumbnail(QPainter& p, std::size_t i) {
    const DrawnThumbnail& t = view_->thumbs_[i];
    const QImage& scaled = view_->scaled_[i];
    if (!t.computed) {
        p.fillRect(t.rect, palette().color(QPalette::Mid));
        p.setPen(theme::textOn(palette().color(QPalette::Mid)));  // Light on Mid read badly in both themes
        QFont small = font();
        small.setPointSizeF(small.pointSizeF() * 0.8);
        p.setFont(small);
        p.drawText(t.rect.adjusted(2, 2, -2, -2), Qt::AlignCenter | Qt::TextWordWrap, ModelView::tr("not computed"));
        p.setFont(font());
    } else if (scaled.isNull()) {
        p.fillRect(t.rect, palette().color(QPalette::Midlight));  // still being built
    } else {
        p.drawImage(t.rect, scaled);  // a blit when the worker's size is current; else nearest, no smoothing
        if (view_->images_[i].isNull()) {  // the previous options' picture, until this one is built
            QColor veil = palette().color(QPalette::Window);
            veil.setAlpha(150);
            p.fillRect(t.rect, veil);
        }
    }
    if (const ThumbnailBadge* badge = view_->badgeFor(t.layer, t.head)) paintBadge(p, t.rect, badge->text);
    if (t.head != ModelView::kAggregateHead && view_->sorted()) paintHeadTag(p, t.rect, t.head);
    if (static_cast<int>(i) == hovered_) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(t.rect.adjusted(-2, -2, 1, 1));
    }
}

// A dark strip along the bottom edge with the badge in white: readable on any viridis colour.
void ThumbnailGrid::paintBadge(QPainter& p, const QRect& thumb, const QString& text) {
    if (text.isEmpty()) return;
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * (thumb.width() < 80 ? 0.65 : 0.8));
    const QFontMetrics fm(small);
    const QRect strip(thumb.left(), thumb.bottom() + 1 - fm.height() - 2, thumb.width(), fm.height() + 2);
    p.fillRect(strip, QColor(0, 0, 0, 170));
    p.setFont(small);
    p.setPen(Qt::white);
    p.drawText(strip.adjusted(2, 0, -2, 0), Qt::AlignCenter, fm.elidedText(text, Qt::ElideRight, strip.width() - 4));
    p.setFont(font());
}

// Sorted columns mix heads: the head's number in the top-left corner says which one this is.
void ThumbnailGrid::paintHeadTag(QPainter& p, const QRect& thumb, int head) {
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.75);
    const QFontMetrics fm(small);
    const QString text = QString::number(head + 1);
    const QRect tag(thumb.left(), thumb.top(), fm.horizontalAdvance(text) + 4, fm.height());
    p.fillRect(tag, QColor(0, 0, 0, 170));
    p.setFont(small);
    p.setPen(Qt::white);
    p.drawText(tag, Qt::AlignCenter, text);
    p.setFont(font());
}

void ThumbnailGrid::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
    if (const auto hit = view_->thumbnailAt(event->position().toPoint()))
        emit view_->headActivated(hit->first, hit->second);
}

void ThumbnailGrid::mouseMoveEvent(QMouseEvent* event) {
    const int index = indexAt(event->position().toPoint());
    setHovered(index);
    const bool clickable = index >= 0 && view_->thumbnailAt(event->position().toPoint()).has_value();
    setCursor(clickable ? Qt::PointingHandCursor : Qt::ArrowCursor);
}

bool ThumbnailGrid::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip) return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const QString text = view_->tooltipAt(help->pos());
    if (text.isEmpty()) QToolTip::hideText();
    else QToolTip::showText(help->globalPos(), text, this);
    return true;
}

}  // namespace attnscope
