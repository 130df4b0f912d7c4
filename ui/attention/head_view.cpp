#include "ui/attention/head_view.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "core/analysis/head_summary.hpp"

namespace attnscope {

namespace {

constexpr int kPad = 8;            // px around the two token columns
constexpr int kMaxTextWidth = 160; // px; longer tokens are elided
constexpr int kMinLineSpan = 140;  // px between the columns at least
constexpr double kBoxAlpha = 0.55; // hover boxes: a little lighter than the lines they echo
constexpr int kOpacitySteps = 64;  // line opacities are painted in 1/64 steps (grouped strokes)
constexpr int kDenseLines = 1500;  // more lines than this in one picture: hairlines
constexpr double kInlineWeights = 1 << 16;  // heads × K² up to this: lines extracted on the GUI thread
constexpr int kInlineLines = 600;           // lines up to this: the picture is rendered while painting
constexpr double kInlinePixels = 4e6;
constexpr int kHoverDenseLines = 300;  // more hovered lines than this: plain-loop hairlines
constexpr int kHoverDim = 215;     // 0…255: how much the cached picture fades behind hovered lines

// The part of a line between y = band.first and y = band.second, or nothing. Long inputs have
// lines thousands of px long; the antialiasing rasteriser would stroke all of them before
// clipping, so each is cut to the exposed rows first.
std::optional<std::pair<QPointF, QPointF>> clippedToBand(QPointF a, QPointF b, std::pair<double, double> band) {
    if (std::max(a.y(), b.y()) < band.first || std::min(a.y(), b.y()) > band.second) return std::nullopt;
    if (a.y() == b.y()) return std::make_pair(a, b);
    const auto at = [&](double y) {
        const double t = std::clamp((y - a.y()) / (b.y() - a.y()), 0.0, 1.0);
        return a + t * (b - a);
    };
    return std::make_pair(at(std::clamp(a.y(), band.first, band.second)), at(std::clamp(b.y(), band.first, band.second)));
}

// Plain-loop hairlines for dense pictures (tens of thousands of lines thousands of px long):
// one antialiased pixel pair per scanline (Xiaolin Wu), blended straight into an RGB32 image.
// QPainter's stroker takes ~50× longer per pixel for the same picture.
class HairlineRaster {
public:
    explicit HairlineRaster(QImage& image)
        : bits_(image.bits()), stride_(image.bytesPerLine()), w_(image.width()), h_(image.height()) {}

    // From (x0, y0) to (x1, y1) in image pixels; `alpha` 0…1 of `colour` at full coverage.
    // Only the scanlines (columns) inside the image are walked; 16.16 fixed point inside.
    void line(double x0, double y0, double x1, double y1, QRgb colour, double alpha) {
        const int a = static_cast<int>(alpha * 256 + 0.5);
        if (a <= 0) return;
        const bool steep = std::abs(y1 - y0) >= std::abs(x1 - x0);
        if (!steep) std::swap(x0, y0), std::swap(x1, y1);  // walk along the longer axis
        if (y0 > y1) std::swap(x0, x1), std::swap(y0, y1);
        const int along = steep ? h_ : w_, across = steep ? w_ : h_;
        const double g = y1 > y0 ? (x1 - x0) / (y1 - y0) : 0.0;
        const int s0 = std::max(0, static_cast<int>(std::ceil(y0 - 0.5)));
        const int s1 = std::min(along - 1, static_cast<int>(std::floor(y1 - 0.5)));
        if (s0 > s1) return;
        constexpr double kOne = 65536.0;
        // Offset by +1 pixel so the fixed-point value stays positive (truncation = floor).
        std::int64_t pos = static_cast<std::int64_t>((x0 + (s0 + 0.5 - y0) * g - 0.5 + 1.0) * kOne);
        const std::int64_t step = static_cast<std::int64_t>(g * kOne);
        const qsizetype pixelStep = steep ? static_cast<qsizetype>(sizeof(QRgb)) : stride_;
        const qsizetype lineStep = steep ? stride_ : static_cast<qsizetype>(sizeof(QRgb));
        uchar* row = bits_ + s0 * lineStep;
        for (int s = s0; s <= s1; ++s, pos += step, row += lineStep) {
            const int i = static_cast<int>(pos >> 16) - 1;
            const int f = static_cast<int>((pos >> 8) & 0xff);
            const int a0 = (a * (256 - f)) >> 8, a1 = (a * f) >> 8;
            if (static_cast<unsigned>(i) < static_cast<unsigned>(across))
                blend(reinterpret_cast<QRgb*>(row + i * pixelStep), colour, a0);
            if (static_cast<unsigned>(i + 1) < static_cast<unsigned>(across))
                blend(reinterpret_cast<QRgb*>(row + (i + 1) * pixelStep), colour, a1);
        }
    }

    // Every pixel a fraction alpha/256 of the way to `colour` (the hover dimming).
    void veil(QRgb colour, int alpha) {
        for (int y = 0; y < h_; ++y) {
            auto* p = reinterpret_cast<QRgb*>(bits_ + static_cast<qsizetype>(y) * stride_);
            for (int x = 0; x < w_; ++x) blend(p + x, colour, alpha);
        }
    }

private:
    // d = (c·a + d·(256 − a)) / 256, red and blue in one multiply, green in another.
    static void blend(QRgb* p, QRgb c, int a) {
        const quint32 d = *p, b = 256 - static_cast<quint32>(a), ua = static_cast<quint32>(a);
        const quint32 rb = (((c & 0xff00ff) * ua + (d & 0xff00ff) * b) >> 8) & 0xff00ff;
        const quint32 g = (((c & 0x00ff00) * ua + (d & 0x00ff00) * b) >> 8) & 0x00ff00;
        *p = 0xff000000u | rb | g;
    }

    uchar* bits_;
    qsizetype stride_;
    int w_, h_;
};

// What the line extraction reads (the trace stays alive until the next showTrace, which waits).
struct LinesJob {
    const Trace* trace = nullptr;
    int layer = 0;
    std::vector<int> heads;
    AttentionViewOptions options;
    std::vector<int> keep;
    std::shared_ptr<std::atomic<bool>> cancel;
};

// Lines for one K×K shown matrix; row/column r is token keep[r].
void addLines(std::vector<DrawnLine>& out, const Mat& shown, const std::vector<int>& keep, int head, double scaleMax) {
    for (Eigen::Index r = 0; r < shown.rows(); ++r)
        for (Eigen::Index c = 0; c < shown.cols(); ++c) {
            const double w = shown(r, c);
            if (!(w >= HeadView::kMinWeight)) continue;  // also skips NaN
            const double alpha = scaleMax > 0 ? std::min(1.0, w / scaleMax) : 0.0;
            out.push_back({keep[static_cast<std::size_t>(r)], keep[static_cast<std::size_t>(c)], head, w, alpha});
        }
}

// Every line of the layer under the options; nothing when cancelled. Worker or GUI thread.
std::optional<std::vector<DrawnLine>> extractLines(const LinesJob& job) {
    std::vector<DrawnLine> lines;
    if (job.trace->layers.empty()) return lines;
    const auto cancelled = [&] { return job.cancel->load(std::memory_order_relaxed); };
    const LayerTrace& layer = job.trace->layers[static_cast<std::size_t>(job.layer)];
    const WeightSelection selection{job.keep, job.options.renormalize};
    double layerMax = 1.0;
    if (job.options.scale == AttentionViewOptions::SharedMax) {
        // maxWeight(trace, layer, selection), head by head so that a cancel is seen within one head.
        layerMax = 0;
        for (const HeadTrace& h : layer.heads) {
            if (cancelled()) return std::nullopt;
            if (h.weights.size() > 0) layerMax = std::max(layerMax, maxWeight(shownWeights(h.weights, selection)));
        }
    }
    const auto scaleFor = [&](const Mat& shown) {
        switch (job.options.scale) {
        case AttentionViewOptions::Fixed01: return 1.0;
        case AttentionViewOptions::SharedMax: return layerMax;
        case AttentionViewOptions::PerHeadMax: return maxWeight(shown);
        }
        return 1.0;
    };
    if (job.options.aggregate != AttentionViewOptions::PerHead && !job.heads.empty()) {
        const Mat summary = job.options.aggregate == AttentionViewOptions::Max ? maxOverHeads(layer, job.heads)
                                                                                : averageOverHeads(layer, job.heads);
        const Mat shown = shownWeights(summary, selection);
        addLines(lines, shown, job.keep, HeadView::kAggregateHead, scaleFor(shown));
    } else {
        for (const int h : job.heads) {
            if (cancelled()) return std::nullopt;
            if (h < 0 || h >= static_cast<int>(layer.heads.size())) continue;
            const Mat shown = shownWeights(layer.heads[static_cast<std::size_t>(h)].weights, selection);
            addLines(lines, shown, job.keep, h, scaleFor(shown));
        }
    }
    return lines;
}

// What rendering the picture reads: its own copies only.
struct RenderJob {
    std::shared_ptr<const std::vector<DrawnLine>> lines;
    std::vector<int> rowOf;
    int width = 0, height = 0, top = 0;
    double dpr = 1;
    QColor base;
    std::shared_ptr<std::atomic<bool>> cancel;
};

// Every line on an opaque picture of the band between the token columns (x 0 … width, canvas
// y). Batched per (head, opacity step): a few hundred pen changes instead of one per line.
// `progress(percent)` now and then; a null image when cancelled.
template <class Progress>
QImage renderLines(const RenderJob& job, Progress&& progress) {
    QImage image(static_cast<int>(std::ceil(job.width * job.dpr)), static_cast<int>(std::ceil(job.height * job.dpr)),
                 QImage::Format_RGB32);  // opaque: painting it is a plain blit
    if (image.isNull()) return {};
    image.setDevicePixelRatio(job.dpr);
    image.fill(job.base);
    const auto rowCentre = [&](int row) { return job.top + row * HeadView::kRowHeight + HeadView::kRowHeight / 2.0; };
    const std::size_t total = std::max<std::size_t>(job.lines->size(), 1);
    constexpr std::size_t kChunk = 32;  // lines between cancel checks (dense: up to ~300k px)
    int reported = 0;
    const auto progressAt = [&](std::size_t done) {
        const int percent = static_cast<int>(100 * done / total);
        if (percent >= reported + 5) progress(reported = percent);
    };
    if (static_cast<int>(job.lines->size()) > kDenseLines) {
        // Dense (long inputs): 1 device-px antialiased hairlines in plain loops.
        HairlineRaster raster(image);
        const double right = job.width * job.dpr;
        std::size_t done = 0;
        for (const DrawnLine& line : *job.lines) {
            if (done % kChunk == 0) {
                if (job.cancel->load(std::memory_order_relaxed)) return {};
                progressAt(done);
            }
            ++done;
            const double alpha = static_cast<double>(std::lround(line.alpha * kOpacitySteps)) / kOpacitySteps;
            raster.line(0, rowCentre(job.rowOf[static_cast<std::size_t>(line.from)]) * job.dpr, right,
                        rowCentre(job.rowOf[static_cast<std::size_t>(line.to)]) * job.dpr, HeadView::headColour(line.head).rgb(),
                        alpha);
        }
        return image;
    }
    // Sparse: antialiased 2 px strokes, batched per (head, opacity step) — a few pen changes.
    std::map<std::pair<int, int>, std::vector<QLineF>> batches;
    for (const DrawnLine& line : *job.lines) {
        const int step = static_cast<int>(std::lround(line.alpha * kOpacitySteps));
        if (step <= 0) continue;
        batches[{line.head, step}].emplace_back(QPointF(0, rowCentre(job.rowOf[static_cast<std::size_t>(line.from)])),
                                                QPointF(job.width, rowCentre(job.rowOf[static_cast<std::size_t>(line.to)])));
    }
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    QPen pen;
    pen.setWidthF(2.0);
    std::size_t done = 0;
    for (const auto& [key, lines] : batches) {
        QColor c = HeadView::headColour(key.first);
        c.setAlphaF(static_cast<float>(key.second) / kOpacitySteps);
        pen.setColor(c);
        p.setPen(pen);
        for (std::size_t at = 0; at < lines.size(); at += kChunk) {
            if (job.cancel->load(std::memory_order_relaxed)) return {};
            const int n = static_cast<int>(std::min(kChunk, lines.size() - at));
            p.drawLines(lines.data() + at, n);
            progressAt(done += static_cast<std::size_t>(n));
        }
    }
    return image;
}

}  // namespace

// Paints both token columns and the lines: the visible part of HeadView's cached picture, the
// hovered token's lines over it, and the visible token labels.
class TokenLinesCanvas : public QWidget {
public:
    explicit TokenLinesCanvas(HeadView* view) : QWidget(view), view_(view) {
        setMouseTracking(true);
        setAttribute(Qt::WA_OpaquePaintEvent);
    }
    void relayout();
    int rowCentre(int row) const { return top_ + row * HeadView::kRowHeight + HeadView::kRowHeight / 2; }
    QRect cellRect(HoveredToken::Side side, int row) const;
    QRect band() const { return QRect(lineLeft(), 0, std::max(lineRight() - lineLeft(), 1), height()); }
    HeadView::ImageKey currentKey() const {
        return {view_->linesGeneration_, band().width(), height(), top_, devicePixelRatioF(), palette().color(QPalette::Base).rgb()};
    }
    int top() const { return top_; }
    int painted = 0;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent*) override { view_->setHoveredToken(std::nullopt); }

private:
    void paintHeaders(QPainter& p);
    void paintTokens(QPainter& p, int firstRow, int lastRow);
    void paintHoverBoxes(QPainter& p, int firstRow, int lastRow);
    void paintLines(QPainter& p, const QRect& exposed);
    void paintStatus(QPainter& p, const QString& text);
    int lineLeft() const { return kPad + textWidth_ + 4; }
    int lineRight() const { return width() - kPad - textWidth_ - 4; }

    HeadView* view_;
    int textWidth_ = 60;
    int top_ = 24;
};

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
    painted = 0;
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

// The cached picture's exposed part (a blit; stretched while a new size is being rendered),
// then, when hovering, the hovered token's lines over the dimmed picture, cut to the exposed
// rows.
void TokenLinesCanvas::paintLines(QPainter& p, const QRect& exposed) {
    const QRect area = band() & exposed;
    if (area.isEmpty()) return;
    const std::vector<DrawnLine>& all = *view_->all_;
    if (all.empty()) {
        if (view_->linesPending_) paintStatus(p, HeadView::tr("Finding lines…"));
        return;
    }
    const HeadView::ImageKey key = currentKey();
    if (!(view_->imageKey_ == key)) view_->requestImage(key);  // may render right here when small
    const QImage& image = view_->linesImage_;
    const bool current = view_->imageKey_ == key;
    if (!image.isNull()) {
        const QRect b = band();
        const double sx = image.width() / static_cast<double>(b.width());
        const double sy = image.height() / static_cast<double>(b.height());
        const QRectF source((area.left() - b.left()) * sx, area.top() * sy, area.width() * sx, area.height() * sy);
        p.drawImage(QRectF(area), image, source);  // no smoothing hint: a blit, or nearest when stale
    }
    if (!current) {
        QColor veil = palette().color(QPalette::Base);
        veil.setAlpha(160);
        if (!image.isNull()) p.fillRect(area, veil);
        paintStatus(p, HeadView::tr("Drawing %1 lines… %2%").arg(all.size()).arg(view_->renderPercent_));
    }
    if (!view_->hovered_) {
        if (!current) return;
        // Lines of the picture crossing the painted rows.
        const int firstRow = (area.top() - top_) / HeadView::kRowHeight;
        const int lastRow = (area.bottom() - top_) / HeadView::kRowHeight;
        const auto& rowOf = view_->rowOf_;
        for (const DrawnLine& line : all) {
            const int a = rowOf[static_cast<std::size_t>(line.from)], b = rowOf[static_cast<std::size_t>(line.to)];
            if (std::min(a, b) <= lastRow && std::max(a, b) >= firstRow) ++painted;
        }
        return;
    }
    const std::vector<DrawnLine>& hoveredLines = view_->shown_;
    if (static_cast<int>(hoveredLines.size()) > kHoverDenseLines) {
        // Many (hovering [SEP] gives every row's line): the worker's hover picture, a blit.
        const HoveredToken token = *view_->hovered_;
        const auto want = std::make_pair(key, token);
        if (current && view_->hoverKey_ != want) view_->requestHoverImage(key, token);
        if (current && view_->hoverKey_ == want) {
            const QImage& hover = view_->hoverImage_;
            const double dpr = hover.devicePixelRatio();
            p.drawImage(QRectF(area), hover, QRectF((area.left() - band().left()) * dpr, area.top() * dpr, area.width() * dpr, area.height() * dpr));
            const int firstRow = (area.top() - top_) / HeadView::kRowHeight;
            const int lastRow = (area.bottom() - top_) / HeadView::kRowHeight;
            for (const DrawnLine& line : hoveredLines) {
                const int a = view_->rowOf_[static_cast<std::size_t>(line.from)], b = view_->rowOf_[static_cast<std::size_t>(line.to)];
                if (std::min(a, b) <= lastRow && std::max(a, b) >= firstRow) ++painted;
            }
            return;
        }
        QColor dim = palette().color(QPalette::Base);
        dim.setAlpha(kHoverDim);
        p.fillRect(area, dim);
        paintStatus(p, HeadView::tr("Drawing %1 lines…").arg(hoveredLines.size()));
        return;
    }
    QColor dim = palette().color(QPalette::Base);
    dim.setAlpha(kHoverDim);
    p.fillRect(area, dim);
    p.save();
    p.setClipRect(area);
    p.setRenderHint(QPainter::Antialiasing);
    const std::pair<double, double> rows(area.top() - 2.0, area.bottom() + 2.0);
    std::map<std::pair<int, int>, std::vector<QLineF>> batches;
    for (const DrawnLine& line : hoveredLines) {
        const int fromRow = view_->rowOf_[static_cast<std::size_t>(line.from)];
        const int toRow = view_->rowOf_[static_cast<std::size_t>(line.to)];
        const auto segment = clippedToBand(QPointF(lineLeft(), rowCentre(fromRow)), QPointF(lineRight(), rowCentre(toRow)), rows);
        if (!segment) continue;
        const int step = static_cast<int>(std::lround(line.alpha * kOpacitySteps));
        batches[{line.head, step}].emplace_back(segment->first, segment->second);
        ++painted;
    }
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

// ----------------------------------------------------------------------------------- HeadView

HeadView::HeadView(QWidget* parent) : QWidget(parent) {
    pool_.setMaxThreadCount(1);
    all_ = std::make_shared<const std::vector<DrawnLine>>();
    linesCancel_ = std::make_shared<std::atomic<bool>>(false);
    renderCancel_ = std::make_shared<std::atomic<bool>>(false);
    caption_ = new QLabel(this);
    caption_->setObjectName("headViewCaption");
    caption_->setWordWrap(true);
    headButtons_ = new QHBoxLayout;
    headButtons_->setSpacing(3);
    canvas_ = new TokenLinesCanvas(this);
    canvas_->setObjectName("headViewCanvas");
    scroll_ = new QScrollArea(this);
    scroll_->setWidget(canvas_);
    scroll_->setWidgetResizable(true);  // the canvas takes the width; its minimum height scrolls
    // Scrolling blits what is already painted; only a "drawing…" note has to follow the view.
    connect(scroll_->verticalScrollBar(), &QScrollBar::valueChanged, this, [this] {
        if (linesPending_ || !(imageKey_ == canvas_->currentKey())) canvas_->update();
    });
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(headButtons_);
    layout->addWidget(caption_);
    layout->addWidget(scroll_, 1);
}

HeadView::~HeadView() { cancelWork(true); }

// Stops the extraction and the rendering after the head / batch they are on; `wait`: until
// they have (needed before the trace the extraction reads may go away).
void HeadView::cancelWork(bool wait) {
    linesCancel_->store(true);
    renderCancel_->store(true);
    pendingImage_.reset();
    pendingHover_.reset();
    if (wait) pool_.waitForDone();
}

QColor HeadView::headColour(int head) {
    // Tableau 10 (bertviz uses the same family of categorical colours) plus two for 12 heads.
    static const char* colours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                                    "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#e7ba52"};
    constexpr int n = sizeof(colours) / sizeof(colours[0]);
    if (head < 0) return QColor("#222222");  // mean / max over heads
    if (head < n) return QColor(colours[head]);
    return QColor::fromHsv((head * 47) % 360, 200, 200);
}

void HeadView::showTrace(const Trace& trace, int layer, std::vector<int> heads, const AttentionViewOptions& options) {
    if (trace_ != &trace) cancelWork(true);  // the running extraction reads the old trace
    trace_ = &trace;
    layer_ = std::clamp(layer, 0, std::max(0, static_cast<int>(trace.layers.size()) - 1));
    options_ = options;
    heads_ = std::move(heads);
    if (heads_.empty())
        for (int h = 0; h < trace.headCount(); ++h) heads_.push_back(h);
    rebuildHeadButtons();
    rebuild();
}

void HeadView::showTrace(const Trace& trace, int layer, const AttentionViewOptions& options) {
    showTrace(trace, layer, {}, options);
}

void HeadView::setOptions(const AttentionViewOptions& options) {
    options_ = options;
    if (trace_) rebuild();
}

void HeadView::setHeads(std::vector<int> heads) {
    std::sort(heads.begin(), heads.end());
    heads_ = std::move(heads);
    for (std::size_t h = 0; h < buttons_.size(); ++h) {
        const QSignalBlocker blocker(buttons_[h]);
        buttons_[h]->setChecked(std::binary_search(heads_.begin(), heads_.end(), static_cast<int>(h)));
    }
    if (trace_) rebuild();
}

QString HeadView::caption() const { return caption_->text(); }
QWidget* HeadView::canvas() const { return canvas_; }
int HeadView::paintedLineCount() const { return canvas_->painted; }

void HeadView::rebuildHeadButtons() {
    buttons_.clear();
    while (QLayoutItem* item = headButtons_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    headButtons_->addWidget(new QLabel(tr("Heads:"), this));
    for (int h = 0; h < trace_->headCount(); ++h) {
        auto* b = new QToolButton(this);
        b->setText(QString::number(h + 1));
        b->setCheckable(true);
        b->setChecked(std::find(heads_.begin(), heads_.end(), h) != heads_.end());
        b->setToolTip(tr("Show or hide head %1's lines").arg(h + 1));
        const QString c = headColour(h).name();
        b->setStyleSheet(QStringLiteral("QToolButton { background: %1; color: white; border: 2px solid %1;"
                                        " border-radius: 3px; min-width: 20px; }"
                                        " QToolButton:!checked { background: transparent; color: %1; }")
                             .arg(c));
        connect(b, &QToolButton::toggled, this, [this, h](bool on) { toggleHead(h, on); });
        headButtons_->addWidget(b);
        buttons_.push_back(b);
    }
    headButtons_->addStretch(1);
}

void HeadView::toggleHead(int head, bool on) {
    std::vector<int> heads = heads_;
    if (on) heads.push_back(head);
    else heads.erase(std::remove(heads.begin(), heads.end(), head), heads.end());
    setHeads(heads);
    emit headsChanged(heads_);
}

// On the GUI thread: which tokens, in which rows (O(T)); the lines come from extractLines, at
// once for a small layer, else from the worker.
void HeadView::rebuild() {
    cancelWork(false);
    ++linesGeneration_;
    keep_ = visibleTokens(*trace_, options_.hideSpecial);
    rowOf_.assign(static_cast<std::size_t>(trace_->tokenCount()), -1);
    for (std::size_t r = 0; r < keep_.size(); ++r) rowOf_[static_cast<std::size_t>(keep_[r])] = static_cast<int>(r);
    if (hovered_ && rowOf_.at(static_cast<std::size_t>(hovered_->token)) < 0) hovered_.reset();
    all_ = std::make_shared<const std::vector<DrawnLine>>();
    shown_.clear();
    caption_->setText(describe());

    LinesJob job{trace_, layer_, heads_, options_, keep_, linesCancel_ = std::make_shared<std::atomic<bool>>(false)};
    const double k = static_cast<double>(keep_.size());
    const double weights = (options_.aggregate != AttentionViewOptions::PerHead ? 1.0 : static_cast<double>(heads_.size())) * k * k;
    linesPending_ = weights > kInlineWeights;
    if (!linesPending_) {
        acceptLines(linesGeneration_, std::make_shared<const std::vector<DrawnLine>>(*extractLines(job)));
    } else {
        const std::uint64_t generation = linesGeneration_;
        pool_.start([this, job = std::move(job), generation] {
            auto lines = extractLines(job);
            if (!lines) return;  // cancelled
            auto shared = std::make_shared<const std::vector<DrawnLine>>(std::move(*lines));
            QMetaObject::invokeMethod(this, [this, generation, shared] { acceptLines(generation, shared); }, Qt::QueuedConnection);
        });
    }
    canvas_->relayout();
}

void HeadView::acceptLines(std::uint64_t generation, std::shared_ptr<const std::vector<DrawnLine>> lines) {
    if (generation != linesGeneration_) return;  // stale
    all_ = std::move(lines);
    linesPending_ = false;
    filterByHover();
    canvas_->update();  // the next paint asks for the picture (only if it is on screen)
}

// The picture for `key`: rendered right here when it is small, else by the worker (a newer
// request cancels an older one). Called while painting.
void HeadView::requestImage(const ImageKey& key) {
    if (pendingImage_ == key) return;
    RenderJob job{all_, rowOf_, key.width, key.height, key.top, key.dpr, QColor::fromRgb(key.base), nullptr};
    renderCancel_->store(true);
    pendingHover_.reset();
    job.cancel = renderCancel_ = std::make_shared<std::atomic<bool>>(false);
    if (static_cast<int>(all_->size()) <= kInlineLines && key.width * key.height * key.dpr * key.dpr <= kInlinePixels) {
        pendingImage_.reset();
        linesImage_ = renderLines(job, [](int) {});
        imageKey_ = key;
        return;
    }
    pendingImage_ = key;
    renderPercent_ = 0;
    pool_.start([this, job = std::move(job), key] {
        QImage image = renderLines(job, [&](int percent) {
            QMetaObject::invokeMethod(this, [this, key, percent] { acceptProgress(key, percent); }, Qt::QueuedConnection);
        });
        if (image.isNull()) return;  // cancelled
        QMetaObject::invokeMethod(this, [this, key, image = std::move(image)] { acceptImage(key, image); }, Qt::QueuedConnection);
    });
}

// The picture dimmed, with the hovered token's lines on top (plain-loop hairlines), by the
// worker. Called while painting, only once the picture for `key` is there.
void HeadView::requestHoverImage(const ImageKey& key, const HoveredToken& token) {
    const auto want = std::make_pair(key, token);
    if (pendingHover_ == want) return;
    renderCancel_->store(true);  // an older hover picture is not wanted any more
    pendingImage_.reset();
    auto cancel = renderCancel_ = std::make_shared<std::atomic<bool>>(false);
    pendingHover_ = want;
    auto lines = std::make_shared<const std::vector<DrawnLine>>(shown_);
    pool_.start([this, base = linesImage_, lines, rowOf = rowOf_, key, token, cancel] {
        QImage image = base.copy();
        HairlineRaster raster(image);
        raster.veil(key.base, kHoverDim);
        const auto y = [&](int t) {
            return (key.top + rowOf[static_cast<std::size_t>(t)] * HeadView::kRowHeight + HeadView::kRowHeight / 2.0) * key.dpr;
        };
        std::size_t n = 0;
        for (const DrawnLine& line : *lines) {
            if (n++ % 32 == 0 && cancel->load(std::memory_order_relaxed)) return;
            raster.line(0, y(line.from), image.width(), y(line.to), headColour(line.head).rgb(), line.alpha);
        }
        QMetaObject::invokeMethod(this, [this, key, token, image = std::move(image)] { acceptHoverImage(key, token, image); },
                                  Qt::QueuedConnection);
    });
}

void HeadView::acceptHoverImage(const ImageKey& key, const HoveredToken& token, QImage image) {
    const auto got = std::make_pair(key, token);
    if (pendingHover_ != got) return;  // superseded
    pendingHover_.reset();
    hoverImage_ = std::move(image);
    hoverKey_ = got;
    if (hovered_ == token) canvas_->update();
}

void HeadView::acceptImage(const ImageKey& key, QImage image) {
    if (!(pendingImage_ == key)) return;  // superseded
    pendingImage_.reset();
    linesImage_ = std::move(image);
    imageKey_ = key;
    canvas_->update();
}

void HeadView::acceptProgress(const ImageKey& key, int percent) {
    if (!(pendingImage_ == key)) return;
    renderPercent_ = percent;
    canvas_->update(canvas_->visibleRegion().boundingRect() & canvas_->band());
}

void HeadView::setHoveredToken(std::optional<HoveredToken> token) {
    if (token == hovered_) return;
    hovered_ = token;
    filterByHover();
    canvas_->update();
}

void HeadView::filterByHover() {
    shown_.clear();
    if (!hovered_) return;
    for (const DrawnLine& line : *all_)
        if ((hovered_->side == HoveredToken::Left ? line.from : line.to) == hovered_->token) shown_.push_back(line);
}

QRect HeadView::tokenRect(HoveredToken::Side side, int token) const {
    if (token < 0 || token >= static_cast<int>(rowOf_.size()) || rowOf_[static_cast<std::size_t>(token)] < 0) return {};
    return canvas_->cellRect(side, rowOf_[static_cast<std::size_t>(token)]);
}

QString HeadView::describe() const {
    if (!trace_->layers.empty() && !hasWeights(trace_->layers[static_cast<std::size_t>(layer_)]))
        return tr("Layer %1: attention weights not computed.").arg(layer_ + 1);
    QString text = tr("Layer %1. Line opacity = weight").arg(layer_ + 1);
    switch (options_.scale) {
    case AttentionViewOptions::Fixed01: text += tr(" (1 = opaque)"); break;
    case AttentionViewOptions::SharedMax: text += tr(" / the layer's largest shown weight"); break;
    case AttentionViewOptions::PerHeadMax: text += tr(" / each head's largest weight"); break;
    }
    text += tr("; weights below %1 are not drawn.").arg(kMinWeight);
    if (options_.aggregate != AttentionViewOptions::PerHead)
        text += options_.aggregate == AttentionViewOptions::Max ? tr(" Black: maximum over the selected heads.")
                                                                : tr(" Black: mean over the selected heads.");
    if (static_cast<int>(keep_.size()) < trace_->tokenCount())
        text += options_.renormalize ? tr(" Special tokens hidden; rows renormalised to sum to 1.")
                                     : tr(" Special tokens hidden: rows no longer sum to 1.");
    return text + tr(" Hover a token to isolate its lines.");
}

}  // namespace attnscope
