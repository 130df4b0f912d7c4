#include "ui/model_view.hpp"

#include <QEvent>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollArea>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <array>
#include <cmath>
#include <qcustomplot.h>

#include "core/analysis/head_summary.hpp"
#include "ui/heatmap_builder.hpp"

namespace attnscope {

namespace {

constexpr int kMinThumb = 36;    // px; below this the grid scrolls instead of shrinking
constexpr int kMaxThumb = 160;   // px; small traces do not blow up into huge blocks
constexpr int kGap = 6;          // px between thumbnails
constexpr int kAggregateGap = 18;  // px before the mean / max column, to set it apart

// viridis sampled at 256 steps once: thumbnails are Indexed8 images using this colour table.
const QVector<QRgb>& viridisTable() {
    static const QVector<QRgb> table = [] {
        QVector<QRgb> t(256);
        QCPColorGradient g = viridisGradient();  // color() is non-const: it caches its table
        for (int i = 0; i < 256; ++i) t[i] = g.color(i / 255.0, QCPRange(0, 1));
        return t;
    }();
    return table;
}

// 255 / scaleMax, the factor from a weight to a colour-table index (0 when there is no scale).
double indexFactor(double scaleMax) { return scaleMax > 0 ? 255.0 / scaleMax : 0.0; }

// Rounded and clamped to 0…255 without lround (this runs L·H·T² times per rebuild).
uchar colourIndex(double value, double factor) {
    const double x = value * factor + 0.5;
    if (!(x >= 1.0)) return 0;  // also NaN
    return x >= 255.0 ? 255 : static_cast<uchar>(x);
}

// One pixel per weight. Plain loops: this runs L·H times per rebuild, never while painting.
QImage weightsImage(const Mat& w, double scaleMax) {
    QImage img(static_cast<int>(w.cols()), static_cast<int>(w.rows()), QImage::Format_Indexed8);
    img.setColorTable(viridisTable());
    const double factor = indexFactor(scaleMax);
    for (int r = 0; r < img.height(); ++r) {
        uchar* line = img.scanLine(r);
        const double* weights = w.data() + static_cast<std::ptrdiff_t>(r) * w.cols();  // row-major
        for (int c = 0; c < img.width(); ++c) line[c] = colourIndex(weights[c], factor);
    }
    return img;
}

QString aggregateName(AttentionViewOptions::Aggregate a) {
    return a == AttentionViewOptions::Max ? QObject::tr("max") : QObject::tr("mean");
}

}  // namespace

// The single painted widget holding every thumbnail. Geometry lives in ModelView::thumbs_.
class ThumbnailGrid : public QWidget {
public:
    explicit ThumbnailGrid(ModelView* view) : QWidget(view), view_(view) {
        setMouseTracking(true);
        setAttribute(Qt::WA_OpaquePaintEvent);
    }
    void invalidateScaled() { scaled_.clear(); }
    QPoint labelOrigin;  // top-left of the first thumbnail

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent*) override { setHovered(-1); }
    bool event(QEvent* event) override;

private:
    const QImage& scaledImage(std::size_t i);
    void paintLabels(QPainter& p);
    void paintThumbnail(QPainter& p, std::size_t i);
    void setHovered(int index) {
        if (index == hovered_) return;
        hovered_ = index;
        update();
    }
    int indexAt(QPoint pos) const;

    ModelView* view_;
    std::vector<QImage> scaled_;  // downscaled copies for T > thumbnail size; rebuilt on resize
    int hovered_ = -1;
};

int ThumbnailGrid::indexAt(QPoint pos) const {
    const auto& thumbs = view_->thumbs_;
    for (std::size_t i = 0; i < thumbs.size(); ++i)
        if (thumbs[i].rect.contains(pos)) return static_cast<int>(i);
    return -1;
}

const QImage& ThumbnailGrid::scaledImage(std::size_t i) {
    if (scaled_.size() != view_->images_.size()) scaled_.assign(view_->images_.size(), QImage());
    const QImage& full = view_->images_[i];
    const QSize size = view_->thumbs_[i].rect.size();
    // Upscaling is left to drawImage (nearest: crisp cells); downscaling averages once here.
    if (full.isNull() || (full.width() <= size.width() && full.height() <= size.height())) return full;
    if (scaled_[i].size() != size)
        scaled_[i] = full.convertToFormat(QImage::Format_RGB32)
                         .scaled(size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    return scaled_[i];
}

void ThumbnailGrid::paintEvent(QPaintEvent* event) {
    QPainter p(this);
    p.fillRect(event->rect(), palette().window());
    paintLabels(p);
    for (std::size_t i = 0; i < view_->thumbs_.size(); ++i)
        if (view_->thumbs_[i].rect.intersects(event->rect())) paintThumbnail(p, i);
}

void ThumbnailGrid::paintLabels(QPainter& p) {
    p.setPen(palette().color(QPalette::WindowText));
    for (const DrawnThumbnail& t : view_->thumbs_) {
        if (t.layer == 0) {
            const QString text = t.head == ModelView::kAggregateHead ? aggregateName(view_->options_.aggregate)
                                                                     : ModelView::tr("head %1").arg(t.head + 1);
            p.drawText(QRect(t.rect.left() - kGap, 0, t.rect.width() + 2 * kGap, labelOrigin.y()),
                       Qt::AlignHCenter | Qt::AlignBottom, text);
        }
        if (t.head == 0)
            p.drawText(QRect(0, t.rect.top(), labelOrigin.x() - kGap, t.rect.height()),
                       Qt::AlignRight | Qt::AlignVCenter, ModelView::tr("layer %1").arg(t.layer + 1));
    }
}

void ThumbnailGrid::paintThumbnail(QPainter& p, std::size_t i) {
    const DrawnThumbnail& t = view_->thumbs_[i];
    if (!t.computed) {
        p.fillRect(t.rect, palette().color(QPalette::Mid));
        p.setPen(palette().color(QPalette::Light));
        QFont small = font();
        small.setPointSizeF(small.pointSizeF() * 0.8);
        p.setFont(small);
        p.drawText(t.rect.adjusted(2, 2, -2, -2), Qt::AlignCenter | Qt::TextWordWrap, ModelView::tr("not computed"));
        p.setFont(font());
    } else {
        p.drawImage(t.rect, scaledImage(i));  // no smoothing: upscaled cells stay sharp
    }
    if (static_cast<int>(i) == hovered_) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 2));
        p.drawRect(t.rect.adjusted(-2, -2, 1, 1));
    }
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

// ---------------------------------------------------------------------------------- ModelView

ModelView::ModelView(QWidget* parent) : QWidget(parent) {
    caption_ = new QLabel(this);
    caption_->setObjectName("modelViewCaption");
    caption_->setWordWrap(true);
    grid_ = new ThumbnailGrid(this);
    grid_->setObjectName("modelViewGrid");
    scroll_ = new QScrollArea(this);
    scroll_->setWidget(grid_);
    scroll_->setWidgetResizable(false);  // the grid sizes itself from the thumbnail size
    scroll_->setFrameShape(QFrame::NoFrame);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(caption_);
    layout->addWidget(scroll_, 1);
    scroll_->viewport()->installEventFilter(this);
}

ModelView::~ModelView() = default;

void ModelView::showTrace(const Trace& trace, const AttentionViewOptions& options) {
    trace_ = &trace;
    options_ = options;
    rebuild();
}

void ModelView::showTrace(const Trace& trace, int /*layer*/, const AttentionViewOptions& options) {
    showTrace(trace, options);
}

void ModelView::setOptions(const AttentionViewOptions& options) {
    options_ = options;
    if (trace_) rebuild();
}

QWidget* ModelView::canvas() const { return grid_; }
QString ModelView::caption() const { return caption_->text(); }

QRgb ModelView::colourFor(double value, double scaleMax) {
    return viridisTable()[colourIndex(value, indexFactor(scaleMax))];
}

bool ModelView::hidesTokens() const { return trace_ && static_cast<int>(keep_.size()) < trace_->tokenCount(); }

int ModelView::columnCount() const {
    const int heads = trace_ ? trace_->headCount() : 0;
    return heads + (options_.aggregate == AttentionViewOptions::PerHead ? 0 : 1);
}

void ModelView::rebuild() {
    thumbs_.clear();
    images_.clear();
    grid_->invalidateScaled();
    keep_ = visibleTokens(*trace_, options_.hideSpecial);
    const WeightSelection selection{keep_, options_.renormalize};
    const double sharedMax = options_.scale == AttentionViewOptions::Fixed01 ? 1.0 : maxWeight(*trace_, selection);
    for (int l = 0; l < static_cast<int>(trace_->layers.size()); ++l) addLayer(l, sharedMax);
    caption_->setText(describeScale(sharedMax));
    layoutThumbnails();
}

void ModelView::addLayer(int layer, double sharedMax) {
    const LayerTrace& lt = trace_->layers[static_cast<std::size_t>(layer)];
    const WeightSelection selection{keep_, options_.renormalize};
    const bool everything = !hidesTokens() && !options_.renormalize;  // skip the copy of each T×T
    for (int h = 0; h < static_cast<int>(lt.heads.size()); ++h) {
        const Mat& w = lt.heads[static_cast<std::size_t>(h)].weights;
        if (everything) addThumbnail(layer, h, w, sharedMax);
        else addThumbnail(layer, h, shownWeights(w, selection), sharedMax);
    }
    if (options_.aggregate == AttentionViewOptions::PerHead) return;
    const Mat summary = options_.aggregate == AttentionViewOptions::Max ? maxOverHeads(lt) : averageOverHeads(lt);
    addThumbnail(layer, kAggregateHead, shownWeights(summary, selection), sharedMax);
}

void ModelView::addThumbnail(int layer, int head, const Mat& shown, double sharedMax) {
    DrawnThumbnail t;
    t.layer = layer;
    t.head = head;
    t.computed = shown.size() > 0;
    t.rows = static_cast<int>(shown.rows());
    t.cols = static_cast<int>(shown.cols());
    t.scaleMax = options_.scale == AttentionViewOptions::PerHeadMax ? maxWeight(shown) : sharedMax;
    thumbs_.push_back(t);
    images_.push_back(t.computed ? weightsImage(shown, t.scaleMax) : QImage());
}

void ModelView::layoutThumbnails() {
    const QFontMetrics fm(grid_->font());
    const int layers = trace_ ? static_cast<int>(trace_->layers.size()) : 0;
    const int cols = std::max(columnCount(), 1);
    const int extra = options_.aggregate == AttentionViewOptions::PerHead ? 0 : kAggregateGap;
    const QPoint origin(fm.horizontalAdvance(tr("layer %1").arg(std::max(layers, 1))) + 2 * kGap,
                        fm.height() + kGap);
    const QSize room = scroll_->viewport()->size() - QSize(origin.x() + extra + kGap, origin.y() + kGap);
    const int fitW = room.width() / cols - kGap;
    const int fitH = room.height() / std::max(layers, 1) - kGap;
    const int size = std::clamp(std::min(fitW, fitH), kMinThumb, kMaxThumb);
    for (DrawnThumbnail& t : thumbs_) {
        const int col = t.head == kAggregateHead ? cols - 1 : t.head;
        const int x = origin.x() + col * (size + kGap) + (t.head == kAggregateHead ? extra : 0);
        t.rect = QRect(x, origin.y() + t.layer * (size + kGap), size, size);
    }
    grid_->labelOrigin = origin;
    grid_->setFixedSize(origin.x() + cols * (size + kGap) + extra + kGap,
                        origin.y() + std::max(layers, 1) * (size + kGap) + kGap);
    grid_->update();
}

bool ModelView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == scroll_->viewport() && event->type() == QEvent::Resize && trace_) layoutThumbnails();
    return QWidget::eventFilter(watched, event);
}

std::optional<std::pair<int, int>> ModelView::thumbnailAt(QPoint canvasPoint) const {
    for (const DrawnThumbnail& t : thumbs_)
        if (t.head != kAggregateHead && t.computed && t.rect.contains(canvasPoint))
            return std::make_pair(t.layer, t.head);
    return std::nullopt;
}

QImage ModelView::thumbnailImage(int layer, int head) const {
    for (std::size_t i = 0; i < thumbs_.size(); ++i)
        if (thumbs_[i].layer == layer && thumbs_[i].head == head) return images_[i];
    return {};
}

QString ModelView::tooltipAt(QPoint canvasPoint) const {
    for (const DrawnThumbnail& t : thumbs_) {
        if (!t.rect.contains(canvasPoint)) continue;
        const QString where = t.head == kAggregateHead
                                  ? tr("Layer %1 · %2 over %3 heads").arg(t.layer + 1).arg(aggregateName(options_.aggregate)).arg(trace_->headCount())
                                  : tr("Layer %1 · head %2").arg(t.layer + 1).arg(t.head + 1);
        if (!t.computed) return where + tr("\nweights not computed");
        const QString scale = tr("\nbrightest colour = %1").arg(t.scaleMax, 0, 'g', 3);
        return where + scale + (t.head == kAggregateHead ? QString() : tr("\nclick to open it large"));
    }
    return {};
}

QString ModelView::describeScale(double sharedMax) const {
    QString text;
    switch (options_.scale) {
    case AttentionViewOptions::Fixed01: text = tr("Colour: attention weight from 0 (dark) to 1 (yellow)."); break;
    case AttentionViewOptions::SharedMax:
        text = tr("Colour: 0 (dark) to %1 (yellow), the largest weight shown in any head.").arg(sharedMax, 0, 'g', 3);
        break;
    case AttentionViewOptions::PerHeadMax: text = tr("Colour: 0 (dark) to each head's own largest weight (yellow)."); break;
    }
    if (hidesTokens())
        text += options_.renormalize ? tr(" Special tokens hidden; rows renormalised to sum to 1.")
                                     : tr(" Special tokens hidden: rows no longer sum to 1.");
    if (options_.aggregate != AttentionViewOptions::PerHead)
        text += tr(" Last column: %1 over the layer's heads.").arg(aggregateName(options_.aggregate));
    return text + tr(" Click a head to open it.");
}

}  // namespace attnscope
