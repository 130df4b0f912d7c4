#include "ui/head_view.hpp"

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
constexpr int kDenseLines = 1500;  // more lines than this in one paint: hairlines

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

}  // namespace

// Paints both token columns and the lines; everything it draws comes from HeadView's lists.
class TokenLinesCanvas : public QWidget {
public:
    explicit TokenLinesCanvas(HeadView* view) : QWidget(view), view_(view) {
        setMouseTracking(true);
        setAttribute(Qt::WA_OpaquePaintEvent);
    }
    void relayout();
    int rowCentre(int row) const { return top_ + row * HeadView::kRowHeight + HeadView::kRowHeight / 2; }
    QRect cellRect(HoveredToken::Side side, int row) const;
    int painted = 0;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent*) override { view_->setHoveredToken(std::nullopt); }

private:
    void paintHeaders(QPainter& p);
    void paintTokens(QPainter& p, int firstRow, int lastRow);
    void paintHoverBoxes(QPainter& p);
    void paintLines(QPainter& p, const QRect& exposed);
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
    paintHeaders(p);
    if (rows == 0) return;
    // Only the rows the scroll area exposes (long inputs are thousands of px tall).
    const int first = std::clamp((exposed.top() - top_) / HeadView::kRowHeight, 0, std::max(rows - 1, 0));
    const int last = std::clamp((exposed.bottom() - top_) / HeadView::kRowHeight, 0, rows - 1);
    paintHoverBoxes(p);
    paintTokens(p, first, last);
    paintLines(p, exposed);
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
void TokenLinesCanvas::paintHoverBoxes(QPainter& p) {
    const auto hovered = view_->hoveredToken();
    if (!hovered) return;
    const auto other = hovered->side == HoveredToken::Left ? HoveredToken::Right : HoveredToken::Left;
    for (const DrawnLine& line : view_->shown_) {
        const int token = hovered->side == HoveredToken::Left ? line.to : line.from;
        QColor c = HeadView::headColour(line.head);
        c.setAlphaF(static_cast<float>(line.alpha * kBoxAlpha));
        p.fillRect(cellRect(other, view_->rowOf_[static_cast<std::size_t>(token)]).adjusted(kPad / 2, 1, -kPad / 2, -1), c);
    }
}

// Culling: a line is drawn only when one of its ends is a token in the visible rows (lines
// between two scrolled-away tokens cannot be read anyway), and only the part inside the
// exposed rows is stroked. Scrolling repaints the whole viewport so this stays consistent.
void TokenLinesCanvas::paintLines(QPainter& p, const QRect& exposed) {
    p.setRenderHint(QPainter::Antialiasing);
    const QRect seen = visibleRegion().boundingRect();
    const int firstSeen = (seen.top() - top_) / HeadView::kRowHeight;
    const int lastSeen = (seen.bottom() - top_) / HeadView::kRowHeight;
    const auto inSight = [&](int row) { return row >= firstSeen && row <= lastSeen; };
    const std::pair<double, double> band(exposed.top() - 2.0, exposed.bottom() + 2.0);
    // Batched per (head, opacity step): a few hundred pen changes instead of one per line.
    std::map<std::pair<int, int>, std::vector<QLineF>> batches;
    painted = 0;
    for (const DrawnLine& line : view_->shown_) {
        const int fromRow = view_->rowOf_[static_cast<std::size_t>(line.from)];
        const int toRow = view_->rowOf_[static_cast<std::size_t>(line.to)];
        if (!inSight(fromRow) && !inSight(toRow)) continue;
        const auto segment =
            clippedToBand(QPointF(lineLeft(), rowCentre(fromRow)), QPointF(lineRight(), rowCentre(toRow)), band);
        if (!segment) continue;
        const int step = static_cast<int>(std::lround(line.alpha * kOpacitySteps));
        batches[{line.head, step}].emplace_back(segment->first, segment->second);
        ++painted;
    }
    // Dense pictures (long inputs) get 1 px hairlines: Qt's fast path, several times cheaper.
    QPen pen;
    pen.setCosmetic(painted > kDenseLines);
    pen.setWidthF(painted > kDenseLines ? 1.0 : 2.0);
    for (const auto& [key, lines] : batches) {
        QColor c = HeadView::headColour(key.first);
        c.setAlphaF(static_cast<float>(key.second) / kOpacitySteps);
        pen.setColor(c);
        p.setPen(pen);
        p.drawLines(lines.data(), static_cast<int>(lines.size()));
    }
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
    // Culling depends on which rows are visible: repaint the viewport rather than blit on scroll.
    connect(scroll_->verticalScrollBar(), &QScrollBar::valueChanged, canvas_, qOverload<>(&QWidget::update));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(headButtons_);
    layout->addWidget(caption_);
    layout->addWidget(scroll_, 1);
}

HeadView::~HeadView() = default;

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

void HeadView::rebuild() {
    all_.clear();
    keep_ = visibleTokens(*trace_, options_.hideSpecial);
    rowOf_.assign(static_cast<std::size_t>(trace_->tokenCount()), -1);
    for (std::size_t r = 0; r < keep_.size(); ++r) rowOf_[static_cast<std::size_t>(keep_[r])] = static_cast<int>(r);
    if (!trace_->layers.empty()) {
        const LayerTrace& layer = trace_->layers[static_cast<std::size_t>(layer_)];
        const WeightSelection selection{keep_, options_.renormalize};
        const double layerMax = options_.scale == AttentionViewOptions::SharedMax ? maxWeight(*trace_, layer_, selection) : 1.0;
        if (options_.aggregate != AttentionViewOptions::PerHead && !heads_.empty()) {
            const Mat summary = options_.aggregate == AttentionViewOptions::Max ? maxOverHeads(layer, heads_)
                                                                                 : averageOverHeads(layer, heads_);
            const Mat shown = shownWeights(summary, selection);
            addLines(shown, kAggregateHead, scaleFor(shown, layerMax));
        } else {
            for (const int h : heads_) {
                if (h < 0 || h >= static_cast<int>(layer.heads.size())) continue;
                const Mat shown = shownWeights(layer.heads[static_cast<std::size_t>(h)].weights, selection);
                addLines(shown, h, scaleFor(shown, layerMax));
            }
        }
    }
    if (hovered_ && rowOf_.at(static_cast<std::size_t>(hovered_->token)) < 0) hovered_.reset();
    caption_->setText(describe());
    filterByHover();
    canvas_->relayout();
}

double HeadView::scaleFor(const Mat& shown, double layerMax) const {
    switch (options_.scale) {
    case AttentionViewOptions::Fixed01: return 1.0;
    case AttentionViewOptions::SharedMax: return layerMax;
    case AttentionViewOptions::PerHeadMax: return maxWeight(shown);
    }
    return 1.0;
}

// Lines for one K×K shown matrix; row/column r is token keep_[r].
void HeadView::addLines(const Mat& shown, int head, double scaleMax) {
    for (Eigen::Index r = 0; r < shown.rows(); ++r)
        for (Eigen::Index c = 0; c < shown.cols(); ++c) {
            const double w = shown(r, c);
            if (!(w >= kMinWeight)) continue;  // also skips NaN
            const double alpha = scaleMax > 0 ? std::min(1.0, w / scaleMax) : 0.0;
            all_.push_back({keep_[static_cast<std::size_t>(r)], keep_[static_cast<std::size_t>(c)], head, w, alpha});
        }
}

void HeadView::setHoveredToken(std::optional<HoveredToken> token) {
    if (token == hovered_) return;
    hovered_ = token;
    filterByHover();
    canvas_->update();
}

void HeadView::filterByHover() {
    if (!hovered_) {
        shown_ = all_;
        return;
    }
    shown_.clear();
    for (const DrawnLine& line : all_)
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
