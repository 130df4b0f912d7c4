#include "ui/attention/model_view.hpp"

#include <QEvent>
#include <QHelpEvent>
#include <QPaintEvent>
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
#include "ui/attention/heatmap_builder.hpp"

namespace attnscope {

namespace {

constexpr int kMinThumb = 36;    // px; below this the grid scrolls instead of shrinking
constexpr int kMaxThumb = 160;   // px; small traces do not blow up into huge blocks
constexpr int kGap = 6;          // px between thumbnails
constexpr int kAggregateGap = 18;  // px before the mean / max column, to set it apart
// Traces up to this many weights in all (L·H·T²) are built on the GUI thread at once (well under
// a millisecond); larger ones in the worker.
constexpr double kInlineWeights = 1 << 16;

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

// What is painted: `full` at `px` × `px` device pixels, RGB32 (a plain blit onto the backing
// store). Downscaling averages (smooth); upscaling keeps the cells crisp (nearest).
QImage scaledForPainting(const QImage& full, int px) {
    if (full.isNull() || px <= 0) return {};
    if (full.width() > px || full.height() > px)
        return full.convertToFormat(QImage::Format_RGB32).scaled(px, px, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    return full.scaled(px, px, Qt::IgnoreAspectRatio, Qt::FastTransformation).convertToFormat(QImage::Format_RGB32);
}

QString aggregateName(AttentionViewOptions::Aggregate a) {
    return a == AttentionViewOptions::Max ? QObject::tr("max") : QObject::tr("mean");
}

}  // namespace

// ------------------------------------------------------------------------------ the worker part

// Everything a build reads, copied (the trace itself stays alive until the next showTrace,
// which waits for the build to stop before letting go of it).
namespace {

struct BuildJob {
    const Trace* trace = nullptr;
    AttentionViewOptions options;
    WeightSelection selection;
    bool everything = true;  // no hidden tokens, no renormalising: draw the weights as they are
    std::shared_ptr<std::atomic<bool>> cancel;
    std::shared_ptr<std::atomic<int>> targetPixels;
};

struct Finished {
    std::size_t index = 0;  // into thumbs_
    double scaleMax = 0;
    QImage image;   // one pixel per weight
    QImage scaled;  // at the thumbnail size the build was asked for when it got there
};

// The whole build, thumbnail by thumbnail in thumbs_ order (per layer: heads, then the
// aggregate). Runs on the worker (or inline for tiny traces); stops after the thumbnail it is on
// when cancelled. Reads only the trace and its own copies.
template <class SharedMaxSink, class ThumbnailSink>
void runBuild(const BuildJob& job, SharedMaxSink&& onSharedMax, ThumbnailSink&& onThumbnail) {
    const Trace& trace = *job.trace;
    const auto cancelled = [&] { return job.cancel->load(std::memory_order_relaxed); };
    double sharedMax = 1.0;
    if (job.options.scale == AttentionViewOptions::SharedMax) {
        // maxWeight(trace, selection), head by head so that a cancel is seen within one head.
        sharedMax = 0;
        for (const LayerTrace& layer : trace.layers)
            for (const HeadTrace& head : layer.heads) {
                if (cancelled()) return;
                if (head.weights.size() == 0) continue;
                sharedMax = std::max(sharedMax, job.everything ? maxWeight(head.weights)
                                                               : maxWeight(shownWeights(head.weights, job.selection)));
            }
        onSharedMax(sharedMax);
    }
    std::size_t index = 0;
    const auto emitThumbnail = [&](const Mat& shown) {
        Finished done;
        done.index = index++;
        if (shown.size() > 0) {
            done.scaleMax = job.options.scale == AttentionViewOptions::PerHeadMax ? maxWeight(shown) : sharedMax;
            done.image = weightsImage(shown, done.scaleMax);
            done.scaled = scaledForPainting(done.image, job.targetPixels->load(std::memory_order_relaxed));
        }
        onThumbnail(std::move(done));
    };
    for (const LayerTrace& layer : trace.layers) {
        for (const HeadTrace& head : layer.heads) {
            if (cancelled()) return;
            if (job.everything) emitThumbnail(head.weights);  // no T×T copy
            else emitThumbnail(shownWeights(head.weights, job.selection));
        }
        if (job.options.aggregate == AttentionViewOptions::PerHead) continue;
        if (cancelled()) return;
        const Mat summary = job.options.aggregate == AttentionViewOptions::Max ? maxOverHeads(layer) : averageOverHeads(layer);
        emitThumbnail(shownWeights(summary, job.selection));
    }
}

}  // namespace

// The single painted widget holding every thumbnail. Geometry lives in ModelView::thumbs_;
// the images it paints are ModelView::scaled_, already at the thumbnail size.
class ThumbnailGrid : public QWidget {
public:
    explicit ThumbnailGrid(ModelView* view) : QWidget(view), view_(view) {
        setMouseTracking(true);
        setAttribute(Qt::WA_OpaquePaintEvent);
    }
    QPoint labelOrigin;  // top-left of the first thumbnail

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent*) override { setHovered(-1); }
    bool event(QEvent* event) override;

private:
    void paintLabels(QPainter& p, const QRect& exposed);
    void paintThumbnail(QPainter& p, std::size_t i);
    void paintBadge(QPainter& p, const QRect& thumb, const QString& text);
    void setHovered(int index) {
        if (index == hovered_) return;
        const auto& thumbs = view_->thumbs_;
        const auto rectOf = [&](int i) { return thumbs[static_cast<std::size_t>(i)].rect.adjusted(-3, -3, 3, 3); };
        if (hovered_ >= 0 && hovered_ < static_cast<int>(thumbs.size())) update(rectOf(hovered_));
        hovered_ = index;
        if (hovered_ >= 0) update(rectOf(hovered_));
    }
    int indexAt(QPoint pos) const;

    ModelView* view_;
    int hovered_ = -1;
};

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
    for (const DrawnThumbnail& t : view_->thumbs_) {
        if (t.layer == 0) {
            const QString text = t.head == ModelView::kAggregateHead ? aggregateName(view_->options_.aggregate)
                                                                     : ModelView::tr("head %1").arg(t.head + 1);
            const QRect box(t.rect.left() - kGap, 0, t.rect.width() + 2 * kGap, labelOrigin.y());
            if (box.intersects(exposed)) p.drawText(box, Qt::AlignHCenter | Qt::AlignBottom, text);
        }
        if (t.head == 0) {
            const QRect box(0, t.rect.top(), labelOrigin.x() - kGap, t.rect.height());
            if (box.intersects(exposed))
                p.drawText(box, Qt::AlignRight | Qt::AlignVCenter, ModelView::tr("layer %1").arg(t.layer + 1));
        }
    }
}

void ThumbnailGrid::paintThumbnail(QPainter& p, std::size_t i) {
    const DrawnThumbnail& t = view_->thumbs_[i];
    const QImage& scaled = view_->scaled_[i];
    if (!t.computed) {
        p.fillRect(t.rect, palette().color(QPalette::Mid));
        p.setPen(palette().color(QPalette::Light));
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
    viridisTable();  // built here, on the GUI thread, before any worker reads it
    pool_.setMaxThreadCount(1);
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    targetPixels_ = std::make_shared<std::atomic<int>>(0);
    rescaleCancel_ = std::make_shared<std::atomic<bool>>(false);
    caption_ = new QLabel(this);
    caption_->setObjectName("modelViewCaption");
    caption_->setWordWrap(true);
    grid_ = new ThumbnailGrid(this);
    grid_->setObjectName("modelViewGrid");
    scroll_ = new QScrollArea(this);
    scroll_->setWidget(grid_);
    scroll_->setWidgetResizable(false);  // the grid sizes itself from the thumbnail size
    scroll_->setFrameShape(QFrame::NoFrame);
    // Floats over the bottom-left of the viewport (not in the layout: showing it resizes nothing).
    progress_ = new QLabel(scroll_->viewport());
    progress_->setObjectName("modelViewProgress");
    progress_->setAutoFillBackground(true);
    progress_->setMargin(3);
    progress_->hide();
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(caption_);
    layout->addWidget(scroll_, 1);
    scroll_->viewport()->installEventFilter(this);
}

ModelView::~ModelView() { cancelWork(true); }

// Stops the build and any rescale after the thumbnail they are on; `wait`: until they have
// (needed before the trace they read may go away).
void ModelView::cancelWork(bool wait) {
    cancel_->store(true);
    rescaleCancel_->store(true);
    if (wait) pool_.waitForDone();
}

void ModelView::showTrace(const Trace& trace, const AttentionViewOptions& options) {
    if (trace_ != &trace) cancelWork(true);  // the running build reads the old trace
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

int ModelView::devicePixels(int px) const { return static_cast<int>(std::ceil(px * grid_->devicePixelRatioF())); }

// On the GUI thread: what is shown where (cheap, O(L·H + T)); the pixels come from runBuild.
void ModelView::rebuild() {
    cancelWork(false);
    ++generation_;
    // The previous pictures stay up (veiled) where the same (layer, head) is shown again.
    std::vector<std::pair<std::pair<int, int>, QImage>> previous;
    for (std::size_t i = 0; i < thumbs_.size(); ++i)
        if (!scaled_[i].isNull()) previous.push_back({{thumbs_[i].layer, thumbs_[i].head}, scaled_[i]});
    thumbs_.clear();
    images_.clear();
    scaled_.clear();
    finished_ = 0;
    keep_ = visibleTokens(*trace_, options_.hideSpecial);
    const int k = static_cast<int>(keep_.size());
    double weights = 0;
    const auto add = [&](int layer, int head, bool computed) {
        DrawnThumbnail t;
        t.layer = layer;
        t.head = head;
        t.computed = computed && k > 0;
        t.rows = t.cols = t.computed ? k : 0;
        t.scaleMax = options_.scale == AttentionViewOptions::Fixed01 ? 1.0 : 0.0;  // 0: not known yet
        thumbs_.push_back(t);
        weights += static_cast<double>(t.rows) * t.cols;
    };
    for (int l = 0; l < static_cast<int>(trace_->layers.size()); ++l) {
        const LayerTrace& lt = trace_->layers[static_cast<std::size_t>(l)];
        for (int h = 0; h < static_cast<int>(lt.heads.size()); ++h)
            add(l, h, lt.heads[static_cast<std::size_t>(h)].weights.size() > 0);
        if (options_.aggregate != AttentionViewOptions::PerHead) add(l, kAggregateHead, !lt.heads.empty() && hasWeights(lt));
    }
    images_.assign(thumbs_.size(), QImage());
    scaled_.assign(thumbs_.size(), QImage());
    for (std::size_t i = 0; i < thumbs_.size(); ++i)
        for (const auto& [key, image] : previous)
            if (key == std::make_pair(thumbs_[i].layer, thumbs_[i].head)) scaled_[i] = image;
    caption_->setText(describeScale(options_.scale == AttentionViewOptions::Fixed01 ? std::optional<double>(1.0) : std::nullopt));
    layoutThumbnails();

    BuildJob job;
    job.trace = trace_;
    job.options = options_;
    job.selection = WeightSelection{keep_, options_.renormalize};
    job.everything = !hidesTokens() && !options_.renormalize;
    job.cancel = cancel_ = std::make_shared<std::atomic<bool>>(false);
    job.targetPixels = targetPixels_;
    const std::uint64_t generation = generation_;
    if (weights <= kInlineWeights) {  // tiny: done before returning, no "building" state
        runBuild(job, [&](double m) { acceptSharedMax(generation, m); },
                 [&](Finished&& done) {
                     accept(generation, done.index, done.scaleMax, std::move(done.image), std::move(done.scaled));
                 });
        return;
    }
    updateProgress();
    pool_.start([this, job = std::move(job), generation] {
        runBuild(
            job,
            [&](double m) {
                QMetaObject::invokeMethod(this, [this, generation, m] { acceptSharedMax(generation, m); }, Qt::QueuedConnection);
            },
            [&](Finished&& done) {
                QMetaObject::invokeMethod(
                    this,
                    [this, generation, done = std::move(done)]() mutable {
                        accept(generation, done.index, done.scaleMax, std::move(done.image), std::move(done.scaled));
                    },
                    Qt::QueuedConnection);
            });
    });
}

// GUI thread: swap one finished thumbnail in (nothing else: the worker did the work).
void ModelView::accept(std::uint64_t generation, std::size_t index, double scaleMax, QImage image, QImage scaled) {
    if (generation != generation_ || index >= thumbs_.size()) return;  // stale
    DrawnThumbnail& t = thumbs_[index];
    if (!image.isNull()) t.scaleMax = scaleMax;
    images_[index] = std::move(image);
    scaled_[index] = std::move(scaled);
    ++finished_;
    grid_->update(t.rect.adjusted(-3, -3, 3, 3));
    updateProgress();
    if (finished_ == static_cast<int>(thumbs_.size())) rescaleLater();  // the size may have changed meanwhile
}

void ModelView::acceptSharedMax(std::uint64_t generation, double sharedMax) {
    if (generation == generation_) caption_->setText(describeScale(sharedMax));
}

void ModelView::acceptScaled(std::uint64_t generation, std::size_t index, QImage scaled) {
    if (generation != generation_ || index >= scaled_.size() || scaled.width() != devicePixels(thumbSize_)) return;
    scaled_[index] = std::move(scaled);
    grid_->update(thumbs_[index].rect);
}

// After a resize: the finished thumbnails at the new size, rescaled by the worker (painting
// meanwhile stretches the old ones). A build still running scales to the new size by itself.
void ModelView::rescaleLater() {
    if (!trace_ || finished_ < static_cast<int>(thumbs_.size())) return;
    const int px = devicePixels(thumbSize_);
    std::vector<std::pair<std::size_t, QImage>> todo;  // implicitly shared: no pixel copies
    double pixels = 0;
    for (std::size_t i = 0; i < images_.size(); ++i)
        if (!images_[i].isNull() && scaled_[i].width() != px) {
            todo.emplace_back(i, images_[i]);
            pixels += static_cast<double>(images_[i].width()) * images_[i].height();
        }
    if (todo.empty()) return;
    rescaleCancel_->store(true);
    if (pixels <= kInlineWeights) {
        for (auto& [i, full] : todo) scaled_[i] = scaledForPainting(full, px);
        grid_->update();
        return;
    }
    auto cancel = rescaleCancel_ = std::make_shared<std::atomic<bool>>(false);
    const std::uint64_t generation = generation_;
    pool_.start([this, todo = std::move(todo), cancel, px, generation] {
        for (const auto& [i, full] : todo) {
            if (cancel->load(std::memory_order_relaxed)) return;
            QImage scaled = scaledForPainting(full, px);
            QMetaObject::invokeMethod(
                this, [this, generation, i = i, scaled = std::move(scaled)] { acceptScaled(generation, i, scaled); },
                Qt::QueuedConnection);
        }
    });
}

void ModelView::updateProgress() {
    const int total = static_cast<int>(thumbs_.size());
    if (finished_ >= total) {
        progress_->hide();
        return;
    }
    progress_->setText(tr("Building thumbnails… %1 / %2").arg(finished_).arg(total));
    progress_->adjustSize();
    progress_->move(4, std::max(0, scroll_->viewport()->height() - progress_->height() - 4));
    progress_->show();
    progress_->raise();
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
    const bool resized = size != thumbSize_;
    thumbSize_ = size;
    targetPixels_->store(devicePixels(size));
    if (resized) rescaleLater();
    grid_->update();
}

bool ModelView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == scroll_->viewport() && event->type() == QEvent::Resize) {
        if (trace_) layoutThumbnails();
        if (progress_->isVisible()) updateProgress();
    }
    return QWidget::eventFilter(watched, event);
}

std::optional<std::pair<int, int>> ModelView::thumbnailAt(QPoint canvasPoint) const {
    for (const DrawnThumbnail& t : thumbs_)
        if (t.head != kAggregateHead && t.computed && t.rect.contains(canvasPoint))
            return std::make_pair(t.layer, t.head);
    return std::nullopt;
}

void ModelView::setBadges(std::vector<ThumbnailBadge> badges) {
    badges_ = std::move(badges);
    grid_->update();
}

const ThumbnailBadge* ModelView::badgeFor(int layer, int head) const {
    for (const ThumbnailBadge& b : badges_)
        if (b.layer == layer && b.head == head) return &b;
    return nullptr;
}

QImage ModelView::thumbnailImage(int layer, int head) const {
    for (std::size_t i = 0; i < thumbs_.size(); ++i)
        if (thumbs_[i].layer == layer && thumbs_[i].head == head) return images_[i];
    return {};
}

QString ModelView::tooltipAt(QPoint canvasPoint) const {
    for (std::size_t i = 0; i < thumbs_.size(); ++i) {
        const DrawnThumbnail& t = thumbs_[i];
        if (!t.rect.contains(canvasPoint)) continue;
        const QString where = t.head == kAggregateHead
                                  ? tr("Layer %1 · %2 over %3 heads").arg(t.layer + 1).arg(aggregateName(options_.aggregate)).arg(trace_->headCount())
                                  : tr("Layer %1 · head %2").arg(t.layer + 1).arg(t.head + 1);
        if (!t.computed) return where + tr("\nweights not computed");
        const QString scale = images_[i].isNull() ? tr("\nbuilding…") : tr("\nbrightest colour = %1").arg(t.scaleMax, 0, 'g', 3);
        const ThumbnailBadge* badge = badgeFor(t.layer, t.head);
        const QString badgeText = badge && !badge->tooltip.isEmpty() ? "\n" + badge->tooltip : QString();
        return where + badgeText + scale + (t.head == kAggregateHead ? QString() : tr("\nclick to open it large"));
    }
    return {};
}

QString ModelView::describeScale(std::optional<double> sharedMax) const {
    QString text;
    switch (options_.scale) {
    case AttentionViewOptions::Fixed01: text = tr("Colour: attention weight from 0 (dark) to 1 (yellow)."); break;
    case AttentionViewOptions::SharedMax:
        text = sharedMax ? tr("Colour: 0 (dark) to %1 (yellow), the largest weight shown in any head.").arg(*sharedMax, 0, 'g', 3)
                         : tr("Colour: 0 (dark) to the largest weight shown in any head (yellow; finding it…).");
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
