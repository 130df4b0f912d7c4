#include "ui/attention/token_lines_canvas.hpp"

#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <algorithm>
#include <cmath>
#include <map>

#include "ui/attention/head_view_lines.hpp"

namespace attnscope {

namespace {

constexpr int kMaxTextWidth = 160; // px; longer tokens are elided
constexpr int kMinLineSpan = 140;  // px between the columns at least
constexpr double kBoxAlpha = 0.55; // hover boxes: a little lighter than the lines they echo
constexpr int kHoverDenseLines = 300;  // more hovered lines than this: plain-loop hairlines

}  // namespace

void TokenLinesCanvas::relayout() {
    const QFontMetrics fm(font());
    int widest = 0;
    if (view_->trace_)
        for (const int t : view_->keep_)
            widest = std::max(widest, fm.horizontalAdvance(QString::fromStdString(view_->trace_->tokens[t].text)));
    textWidth_ = std::min(widest, kMaxTextWidth) + 2 * kPad + 4;  // +4: elidedText wants slack
    top_ = fm.height() + 12;
    setMinimumSize(2 * (kPad + textWidth_) + kMinLineSpan,
                   top_ + static_cast<int>(view_->keep_.size()) * HeadView::kRowHeight + kPad);
    update();
}

QRect TokenLinesCanvas::cellRect(HoveredToken::Side side, int row) const {
    const int x = side == HoveredToken::Left ? kPad : width() - kPad - textWidth_;
    return QRect(x, top_ + row * HeadView::kRowHeight, textWidth_, HeadView::kRowHeight);
}

void TokenLinesCanvas::paintEvent(QPaintEvent* event) {
    QPainter p(this);
    const QRect exposed = event->rect();
    p.fillRect(exposed, palette().base());
    const int rows = static_cast<int>(view_->keep_.size());
    painted_ = {};
    if (rows > 0) {
        // Only the rows the scroll area exposes (long inputs are thousands of px tall).
        const int first = std::clamp((exposed.top() - top_) / HeadView::kRowHeight, 0, std::max(rows - 1, 0));
        const int last = std::clamp((exposed.bottom() - top_) / HeadView::kRowHeight, 0, rows - 1);
        paintHoverBoxes(p, first, last);
        paintTokens(p, first, last);
        paintLines(p, exposed);
    }
    paintHeaders(p);  // last: the cached line picture is opaque over the header band
}

void TokenLinesCanvas::paintHeaders(QPainter& p) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    const QRect band(0, 0, width(), top_ - 4);
    p.drawText(band.adjusted(kPad, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, HeadView::tr("query (attends)"));
    p.drawText(band.adjusted(0, 0, -kPad, 0), Qt::AlignRight | Qt::AlignVCenter, HeadView::tr("key (attended to)"));
}

void TokenLinesCanvas::paintTokens(QPainter& p, int firstRow, int lastRow) {
    const QFontMetrics fm(font());
    const auto hovered = view_->hoveredToken();
    for (int row = firstRow; row <= lastRow; ++row) {
        const int token = view_->keep_[static_cast<std::size_t>(row)];
        const Token& t = view_->trace_->tokens[static_cast<std::size_t>(token)];
        const QString text = fm.elidedText(QString::fromStdString(t.text), Qt::ElideRight, textWidth_ - 2 * kPad + 2);
        for (const auto side : {HoveredToken::Left, HoveredToken::Right}) {
            const QRect cell = cellRect(side, row).adjusted(kPad / 2, 0, -kPad / 2, 0);
            const bool isHovered = hovered && *hovered == HoveredToken{side, token};
            if (isHovered) p.fillRect(cell, palette().color(QPalette::Highlight).lighter(160));
            // Special tokens in grey: they soak up weight and are rarely the point.
            p.setPen(t.special ? palette().color(QPalette::PlaceholderText) : palette().color(QPalette::Text));
            p.drawText(cell.adjusted(kPad / 2, 0, -kPad / 2, 0),
                       (side == HoveredToken::Left ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter, text);
        }
    }
}

// While hovering, the tokens at the other end get a box in the line's colour (as bertviz does).
void TokenLinesCanvas::paintHoverBoxes(QPainter& p, int firstRow, int lastRow) {
    const auto hovered = view_->hoveredToken();
    if (!hovered) return;
    const auto other = hovered->side == HoveredToken::Left ? HoveredToken::Right : HoveredToken::Left;
    for (const DrawnLine& line : view_->shown_) {
        const int token = hovered->side == HoveredToken::Left ? line.to : line.from;
        const int row = view_->rowOf_[static_cast<std::size_t>(token)];
        if (row < firstRow || row > lastRow) continue;
        QColor c = HeadView::headColour(line.head);
        c.setAlphaF(static_cast<float>(line.alpha * kBoxAlpha));
        p.fillRect(cellRect(other, row).adjusted(kPad / 2, 1, -kPad / 2, -1), c);
    }
}

// A note at the top of the visible part of the band (the picture is still being made).
void TokenLinesCanvas::paintStatus(QPainter& p, const QString& text) {
    const QRect seen = visibleRegion().boundingRect() & band();
    const QRect box(seen.left(), std::max(seen.top(), top_), seen.width(), HeadView::kRowHeight + 6);
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(box, Qt::AlignCenter, text);
}

// The cached picture's exposed part, then, when hovering, the hovered token's lines over the
// dimmed picture: one function per case.
void TokenLinesCanvas::paintLines(QPainter& p, const QRect& exposed) {
    const QRect area = band() & exposed;
    if (area.isEmpty()) return;
    if (view_->all_->empty()) {
        if (view_->linesPending_) paintStatus(p, HeadView::tr("Finding lines…"));
        return;
    }
    const HeadView::ImageKey key = currentKey();
    const bool current = paintPicture(p, area, key);
    if (!view_->hovered_) {
        if (current) painted_ = {Painted::Picture, area};
    } else if (static_cast<int>(view_->shown_.size()) > kHoverDenseLines) {
        paintHoverPicture(p, area, key, current);
    } else {
        paintHoverLines(p, area);
    }
}

// The cached picture (a blit; stretched while a new size is being rendered, with a note).
// Returns whether it is the picture for `key`.
bool TokenLinesCanvas::paintPicture(QPainter& p, const QRect& area, const HeadView::ImageKey& key) {
    if (!(view_->imageKey_ == key)) view_->requestImage(key);  // may render right here when small
    const QImage& image = view_->linesImage_;
    const bool current = view_->imageKey_ == key;
    if (!image.isNull()) {
        const QRect b = band();
        blit(p, area, image, image.width() / static_cast<double>(b.width()), image.height() / static_cast<double>(b.height()));
    }
    if (!current) {
        if (!image.isNull()) dim(p, area, 160);
        paintStatus(p, HeadView::tr("Drawing %1 lines… %2%").arg(view_->all_->size()).arg(view_->renderPercent_));
    }
    return current;
}

// Many hovered lines (hovering [SEP] gives every row's line): the worker's hover picture, a
// blit, once the cached picture under it is current.
void TokenLinesCanvas::paintHoverPicture(QPainter& p, const QRect& area, const HeadView::ImageKey& key, bool pictureCurrent) {
    const auto want = std::make_pair(key, *view_->hovered_);
    if (pictureCurrent && view_->hoverKey_ != want) view_->requestHoverImage(key, want.second);
    if (pictureCurrent && view_->hoverKey_ == want) {
        const double dpr = view_->hoverImage_.devicePixelRatio();
        blit(p, area, view_->hoverImage_, dpr, dpr);
        painted_ = {Painted::HoverPicture, area};
        return;
    }
    dim(p, area, kHoverDim);
    paintStatus(p, HeadView::tr("Drawing %1 lines…").arg(view_->shown_.size()));
}

// A few hovered lines: stroked right here over the dimmed picture, cut to the exposed rows,
// batched per (head, opacity step).
void TokenLinesCanvas::paintHoverLines(QPainter& p, const QRect& area) {
    dim(p, area, kHoverDim);
    const std::pair<double, double> rows(area.top() - 2.0, area.bottom() + 2.0);
    std::map<std::pair<int, int>, std::vector<QLineF>> batches;
    for (const DrawnLine& line : view_->shown_) {
        const int fromRow = view_->rowOf_[static_cast<std::size_t>(line.from)];
        const int toRow = view_->rowOf_[static_cast<std::size_t>(line.to)];
        const auto segment = clippedToBand(QPointF(lineLeft(), rowCentre(fromRow)), QPointF(lineRight(), rowCentre(toRow)), rows);
        if (!segment) continue;
        const int step = static_cast<int>(std::lround(line.alpha * kOpacitySteps));
        batches[{line.head, step}].emplace_back(segment->first, segment->second);
    }
    p.save();
    p.setClipRect(area);
    p.setRenderHint(QPainter::Antialiasing);
    QPen pen;
    pen.setWidthF(2.0);
    for (const auto& [k, lines] : batches) {
        QColor c = HeadView::headColour(k.first);
        c.setAlphaF(static_cast<float>(k.second) / kOpacitySteps);
        pen.setColor(c);
        p.setPen(pen);
        p.drawLines(lines.data(), static_cast<int>(lines.size()));
    }
    p.restore();
    painted_ = {Painted::HoverLines, area};
}

// `image`'s part under `area` (band x from 0; sx, sy: image px per canvas px). No smoothing
// hint: a blit, or nearest when stale.
void TokenLinesCanvas::blit(QPainter& p, const QRect& area, const QImage& image, double sx, double sy) const {
    const QRectF source((area.left() - band().left()) * sx, area.top() * sy, area.width() * sx, area.height() * sy);
    p.drawImage(QRectF(area), image, source);
}

void TokenLinesCanvas::dim(QPainter& p, const QRect& area, int alpha) const {
    QColor veil = palette().color(QPalette::Base);
    veil.setAlpha(alpha);
    p.fillRect(area, veil);
}

void TokenLinesCanvas::mouseMoveEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    const int row = (pos.y() - top_) / HeadView::kRowHeight;
    std::optional<HoveredToken> hit;
    if (pos.y() >= top_ && row < static_cast<int>(view_->keep_.size())) {
        const int token = view_->keep_[static_cast<std::size_t>(row)];
        if (pos.x() < lineLeft()) hit = HoveredToken{HoveredToken::Left, token};
        else if (pos.x() > lineRight()) hit = HoveredToken{HoveredToken::Right, token};
    }
    view_->setHoveredToken(hit);
}

}  // namespace attnscope
