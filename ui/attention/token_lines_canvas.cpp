#include "ui/attention/token_lines_canvas.hpp"

#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "ui/attention/head_view_lines.hpp"

namespace attnscope {

namespace {

constexpr int kMaxTextWidth = 160; // px; longer tokens are elided
constexpr int kMinLineSpan = 140;  // px between the columns at least
constexpr double kBoxAlpha = 0.55; // hover boxes: a little lighter than the lines they echo
constexpr int kHoverDenseLines = 300;  // more hovered lines than this: plain-loop hairlines
constexpr int kEdgeBucket = 6;  // px along an edge per mark
constexpr int kEdgeMark = 4;    // px: a mark's depth
// A band taller than this many screens gets a picture of a window around the visible rows only:
// at 4,096 tokens the whole band is 80,000 px (a picture of 200 MB and a minute of drawing).
constexpr int kWindowScreens = 3;

}  // namespace

void TokenLinesCanvas::relayout() {
    const QFontMetrics fm(font());
    int widest = 0;
    if (view_->trace_)
        for (const int t : view_->keep_)
            widest = std::max(widest, fm.horizontalAdvance(QString::fromStdString(view_->trace_->tokens[t].text)));
    textWidth_ = std::min(widest, kMaxTextWidth) + 2 * kPad + 4;  // +4: elidedText wants slack
    top_ = fm.height() + 12;
    rowHeight_ = std::max(HeadView::kRowHeight, fm.height() + 4);  // legible at any zoom: 512 rows scroll
    setMinimumSize(2 * (kPad + textWidth_) + kMinLineSpan,
                   top_ + static_cast<int>(view_->keep_.size()) * rowHeight_ + kPad);
    update();
}

// The picture wanted now: the whole band, or a window of kWindowScreens screens around the
// visible rows. While the visible rows stay inside the window of the picture shown (or being
// drawn), that window is kept, so scrolling within it redraws nothing.
HeadView::ImageKey TokenLinesCanvas::currentKey() const {
    HeadView::ImageKey key{view_->linesGeneration_, band().width(), height(), top_, rowHeight_, devicePixelRatioF(),
                           palette().color(QPalette::Base).rgb()};
    const QRect seen = visibleRegion().boundingRect();
    if (height() <= windowHeight()) return key;
    const auto covers = [&](const HeadView::ImageKey& k) {
        HeadView::ImageKey same = k;
        same.windowTop = 0, same.height = key.height;
        return same == key && k.windowTop <= seen.top() && seen.bottom() < k.windowTop + k.height;
    };
    if (covers(view_->imageKey_)) return view_->imageKey_;
    if (view_->pendingImage_ && covers(*view_->pendingImage_)) return *view_->pendingImage_;
    return windowAroundSeen(key);
}

// `key` moved to a window centred on the visible rows.
int TokenLinesCanvas::windowHeight() const { return std::max(visibleRegion().boundingRect().height(), 200) * kWindowScreens; }

HeadView::ImageKey TokenLinesCanvas::windowAroundSeen(HeadView::ImageKey key) const {
    const QRect seen = visibleRegion().boundingRect();
    const int window = windowHeight();
    key.windowTop = std::clamp(seen.center().y() - window / 2, 0, std::max(height() - window, 0));
    key.height = std::min(window, height());
    return key;
}

// Scrolled to within half a screen of the picture's edge (with more rows beyond it): the next
// window is drawn while this one is still shown, so scrolling on rarely meets undrawn rows.
void TokenLinesCanvas::drawAhead(const HeadView::ImageKey& shown) {
    const QRect seen = visibleRegion().boundingRect();
    const int margin = seen.height() / 2, end = shown.windowTop + shown.height;
    const bool nearTop = shown.windowTop > 0 && seen.top() - shown.windowTop < margin;
    const bool nearBottom = end < height() && end - seen.bottom() < margin;
    if (!nearTop && !nearBottom) return;
    const HeadView::ImageKey next = windowAroundSeen(shown);
    if (next != shown && view_->pendingImage_ != next) view_->requestImage(next);
}

QRect TokenLinesCanvas::cellRect(HoveredToken::Side side, int row) const {
    const int x = side == HoveredToken::Left ? kPad : width() - kPad - textWidth_;
    return QRect(x, top_ + row * rowHeight_, textWidth_, rowHeight_);
}

void TokenLinesCanvas::paintEvent(QPaintEvent* event) {
    QPainter p(this);
    const QRect exposed = event->rect();
    p.fillRect(exposed, palette().base());
    const int rows = static_cast<int>(view_->keep_.size());
    painted_ = {};
    painted_.area = band() & exposed;
    if (rows > 0) {
        // Only the rows the scroll area exposes (long inputs are thousands of px tall).
        const int first = rowAt(exposed.top()), last = rowAt(exposed.bottom());
        paintHoverBoxes(p, first, last);
        paintTokens(p, first, last);
        paintLines(p, exposed);
        paintEdges(p);
    }
    paintHeaders(p);  // last: the cached line picture is opaque over the header band
}

void TokenLinesCanvas::paintHeaders(QPainter& p) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    const QRect band(0, 0, width(), top_ - 4);
    p.drawText(band.adjusted(kPad, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, HeadView::tr("query (attends)"));
    p.drawText(band.adjusted(0, 0, -kPad, 0), Qt::AlignRight | Qt::AlignVCenter, HeadView::tr("key (attended to)"));
}

// A third of the way from the paper to the highlight: the Text pen stays legible on it in
// both themes (Highlight.lighter() put light text on light blue in the dark one).
QColor TokenLinesCanvas::hoverFill() const {
    const QColor paper = palette().color(QPalette::Base), mark = palette().color(QPalette::Highlight);
    const auto mix = [](int a, int b) { return (2 * a + b) / 3; };
    return QColor(mix(paper.red(), mark.red()), mix(paper.green(), mark.green()), mix(paper.blue(), mark.blue()));
}

void TokenLinesCanvas::paintTokens(QPainter& p, int firstRow, int lastRow) {
    const QFontMetrics fm(font());
    const auto hovered = view_->active();
    for (int row = firstRow; row <= lastRow; ++row) {
        const int token = view_->keep_[static_cast<std::size_t>(row)];
        const Token& t = view_->trace_->tokens[static_cast<std::size_t>(token)];
        const QString text = fm.elidedText(QString::fromStdString(t.text), Qt::ElideRight, textWidth_ - 2 * kPad + 2);
        for (const auto side : {HoveredToken::Left, HoveredToken::Right}) {
            const QRect cell = cellRect(side, row).adjusted(kPad / 2, 0, -kPad / 2, 0);
            const bool isHovered = hovered && hovered->token == token && (hovered->side == side || hovered->side == HoveredToken::Both);
            if (isHovered) p.fillRect(cell, hoverFill());
            // Special tokens in grey: they soak up weight and are rarely the point.
            p.setPen(t.special ? palette().color(QPalette::PlaceholderText) : palette().color(QPalette::Text));
            QRect bounds;
            p.drawText(cell.adjusted(kPad / 2, 0, -kPad / 2, 0),
                       (side == HoveredToken::Left ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter, text, &bounds);
            painted_.labels.push_back({token, side, bounds});
        }
    }
}

// While hovering, the tokens at the other end get a box in the line's colour (as bertviz does).
void TokenLinesCanvas::paintHoverBoxes(QPainter& p, int firstRow, int lastRow) {
    const auto hovered = view_->active();
    if (!hovered) return;
    for (const DrawnLine& line : view_->shown_) {
        // The focus token's lines go both ways: the box goes on the end that is not the focus.
        const bool out = hovered->side == HoveredToken::Left || (hovered->side == HoveredToken::Both && line.from == hovered->token);
        const int row = view_->rowOf_[static_cast<std::size_t>(out ? line.to : line.from)];
        if (row < firstRow || row > lastRow) continue;
        QColor c = HeadView::headColour(line.head, palette().color(QPalette::Base));
        c.setAlphaF(static_cast<float>(line.alpha * kBoxAlpha));
        p.fillRect(cellRect(out ? HoveredToken::Right : HoveredToken::Left, row).adjusted(kPad / 2, 1, -kPad / 2, -1), c);
    }
}

// A note at the top of the visible part of the band (the picture is still being made).
void TokenLinesCanvas::paintStatus(QPainter& p, const QString& text) {
    const QRect seen = visibleRegion().boundingRect() & band();
    const QRect box(seen.left(), std::max(seen.top(), top_), seen.width(), rowHeight_ + 6);
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
    if (!view_->active()) {
        if (current) painted_.source = Painted::Picture;
        const double dpr = devicePixelRatioF();
        const QSize seen = (visibleRegion().boundingRect() & band()).size();
        reserveHoverScratch(QSize(static_cast<int>(std::ceil(seen.width() * dpr)), static_cast<int>(std::ceil(seen.height() * dpr))));
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
    if (current && !view_->active() && key.height < height()) drawAhead(key);
    if (!image.isNull()) {
        blit(p, area, image, view_->imageKey_);
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
    const auto want = std::make_pair(key, *view_->active());
    if (pictureCurrent && view_->hoverKey_ != want) view_->requestHoverImage(key, want.second);
    if (pictureCurrent && view_->hoverKey_ == want) {
        blit(p, area, view_->hoverImage_, key);
        painted_.source = Painted::HoverPicture;
        return;
    }
    dim(p, area, kHoverDim);
    paintStatus(p, HeadView::tr("Drawing %1 lines…").arg(view_->shown_.size()));
}

// A few hovered lines, right here: the picture's part under `area`, dimmed, with the lines
// drawn into it as plain-loop ~2 px lines (QPainter's antialiased strokes of 80 lines across a
// 1000 px view take 5–15 ms; these well under 1 ms), then one blit.
void TokenLinesCanvas::paintHoverLines(QPainter& p, const QRect& area) {
    const double dpr = devicePixelRatioF();
    QImage image = hoverFrame(QSize(static_cast<int>(std::ceil(area.width() * dpr)), static_cast<int>(std::ceil(area.height() * dpr))));
    image.fill(palette().color(QPalette::Base));
    if (!view_->linesImage_.isNull()) {
        QPainter under(&image);
        under.scale(dpr, dpr);
        under.translate(-area.topLeft());
        blit(under, area, view_->linesImage_, view_->imageKey_);
    }
    HairlineRaster raster(image);
    raster.veil(palette().color(QPalette::Base).rgb(), kHoverDim);
    const auto x = [&](double cx) { return (cx - area.left()) * dpr; };
    const auto y = [&](int token) { return (rowCentre(view_->rowOf_[static_cast<std::size_t>(token)]) - area.top()) * dpr; };
    for (const DrawnLine& line : view_->shown_) {
        const double alpha = static_cast<double>(std::lround(line.alpha * kOpacitySteps)) / kOpacitySteps;
        raster.wideLine(x(lineLeft()), y(line.from), x(lineRight()), y(line.to), HeadView::headColour(line.head, palette().color(QPalette::Base)).rgb(), alpha);
    }
    image.setDevicePixelRatio(dpr);
    p.drawImage(area.topLeft(), image);
    painted_.source = Painted::HoverLines;
}

void TokenLinesCanvas::reserveHoverScratch(QSize size) {
    if (hoverScratch_.width() >= size.width() && hoverScratch_.height() >= size.height()) return;
    hoverScratch_ = QImage(size.expandedTo(hoverScratch_.size()), QImage::Format_RGB32);
    hoverScratch_.fill(Qt::black);  // touches every page now, not in the first hover frame
}

QImage TokenLinesCanvas::hoverFrame(QSize size) {
    reserveHoverScratch(size);
    return QImage(hoverScratch_.bits(), size.width(), size.height(), hoverScratch_.bytesPerLine(), QImage::Format_RGB32);
}

// `image`'s part under `area`, the image drawn for `of` (band x from 0, canvas y from of.windowTop;
// stretched when the band has changed size since). No smoothing hint: a blit, or nearest when
// stale. Where the image's window does not reach, nothing is drawn.
void TokenLinesCanvas::blit(QPainter& p, const QRect& area, const QImage& image, const HeadView::ImageKey& of) const {
    const QRect covered = area & QRect(area.left(), of.windowTop, area.width(), of.height);
    if (covered.isEmpty() || of.width <= 0 || of.height <= 0) return;
    const double sx = image.width() / static_cast<double>(band().width()), sy = image.height() / static_cast<double>(of.height);
    const QRectF source((covered.left() - band().left()) * sx, (covered.top() - of.windowTop) * sy, covered.width() * sx,
                        covered.height() * sy);
    p.drawImage(QRectF(covered), image, source);
}

void TokenLinesCanvas::dim(QPainter& p, const QRect& area, int alpha) const {
    QColor veil = palette().color(QPalette::Base);
    veil.setAlpha(alpha);
    p.fillRect(area, veil);
}

// Where lines leave the visible rows: a short bar in the head's colour at each crossing of the
// top or bottom edge, and how many lines go on beyond it (nothing off screen is silently hidden).
void TokenLinesCanvas::paintEdges(QPainter& p) {
    const QRect seen = visibleRegion().boundingRect() & band();
    if (seen.isEmpty() || (view_->all_->empty() && !view_->active())) return;
    const std::vector<DrawnLine>& lines = view_->active() ? view_->shown_ : *view_->all_;
    // With a focus (or hover), its lines count even when none of them reaches the screen.
    painted_.edges = edgeMarksOf(lines, {view_->rowOf_, top_, rowHeight_}, {seen.top(), seen.bottom()}, lineLeft(), lineRight(),
                                 kEdgeBucket, view_->active().has_value());
    for (const EdgeMarks::Mark& m : painted_.edges.marks)
        p.fillRect(QRect(m.x - kEdgeBucket / 2, m.top ? seen.top() : seen.bottom() - kEdgeMark + 1, kEdgeBucket, kEdgeMark),
                   HeadView::headColour(m.head, palette().color(QPalette::Base)));
    const QFontMetrics fm(font());
    const auto note = [&](int n, bool top, const QString& text) {
        if (n == 0) return;
        QRect box = fm.boundingRect(text).adjusted(-4, -1, 4, 1);
        box.moveCenter(QPoint(seen.center().x(), 0));
        box.moveTop(top ? seen.top() + kEdgeMark + 1 : seen.bottom() - kEdgeMark - box.height());
        QColor veil = palette().color(QPalette::Base);
        veil.setAlpha(225);
        p.fillRect(box, veil);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(box, Qt::AlignCenter, text);
    };
    note(painted_.edges.above, true, HeadView::tr("▲ lines to tokens above: %1").arg(painted_.edges.above));
    note(painted_.edges.below, false, HeadView::tr("▼ lines to tokens below: %1").arg(painted_.edges.below));
}

std::optional<HoveredToken> TokenLinesCanvas::tokenAt(QPoint pos) const {
    const int row = (pos.y() - top_) / rowHeight_;
    if (pos.y() < top_ || row >= static_cast<int>(view_->keep_.size())) return std::nullopt;
    const int token = view_->keep_[static_cast<std::size_t>(row)];
    if (pos.x() < lineLeft()) return HoveredToken{HoveredToken::Left, token};
    if (pos.x() > lineRight()) return HoveredToken{HoveredToken::Right, token};
    return std::nullopt;
}

void TokenLinesCanvas::mouseMoveEvent(QMouseEvent* event) { view_->setHoveredToken(tokenAt(event->position().toPoint())); }

void TokenLinesCanvas::mousePressEvent(QMouseEvent* event) {
    const auto hit = tokenAt(event->position().toPoint());
    if (!hit || event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
    view_->setFocusToken(view_->focusToken() == hit->token ? std::nullopt : std::make_optional(hit->token));
}

void TokenLinesCanvas::changeEvent(QEvent* event) {
    if (event->type() == QEvent::FontChange) relayout();
    QWidget::changeEvent(event);
}

}  // namespace attnscope
