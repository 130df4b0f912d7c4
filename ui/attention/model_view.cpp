#include "ui/attention/model_view.hpp"

#include <QEvent>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/analysis/head_summary.hpp"
#include "ui/attention/model_view_bar.hpp"
#include "ui/attention/thumbnail_build.hpp"
#include "ui/attention/thumbnail_grid.hpp"

// The model view's grid layout, its builds and rescales on the worker, captions and tooltips.
// The pixels are made in thumbnail_build.cpp, painted by ThumbnailGrid (thumbnail_grid.cpp).

namespace attnscope {

namespace {

// Traces up to this many weights in all (L·H·T²) are built on the GUI thread at once (well under
// a millisecond); larger ones in the worker.
constexpr double kInlineWeights = 1 << 16;

}  // namespace

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
    bar_ = new ModelViewBar(this);
    bar_->setObjectName("modelViewBar");
    connect(bar_, &ModelViewBar::layerFilterEntered, this, &ModelView::setLayerFilter);
    connect(bar_, &ModelViewBar::headFilterEntered, this, &ModelView::setHeadFilter);
    connect(bar_, &ModelViewBar::orderChosen, this, [this](int entry) {
        if (entry <= 0) setHeadOrder({});
        emit headOrderRequested();
    });
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(caption_);
    layout->addWidget(bar_);
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

void ModelView::showTrace(std::shared_ptr<const Trace> trace, const AttentionViewOptions& options) {
    showTrace(*trace, options);
    held_ = std::move(trace);  // setOptions, filters and tooltips may read it at any later time
}

void ModelView::showTrace(const Trace& trace, const AttentionViewOptions& options) {
    if (trace_ != &trace) cancelWork(true);  // the running build reads the old trace
    if (held_.get() != &trace) held_.reset();
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
    const int heads = trace_ ? static_cast<int>(heads_.size()) : 0;
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
    shape_.clear();
    for (const LayerTrace& layer : trace_->layers) shape_.push_back(static_cast<int>(layer.heads.size()));
    const QString refused = validateFilters();
    const double weights = placeThumbnails();
    for (std::size_t i = 0; i < thumbs_.size(); ++i)
        for (const auto& [key, image] : previous)
            if (key == std::make_pair(thumbs_[i].layer, thumbs_[i].head)) scaled_[i] = image;
    scaleText_ = describeScale(options_.scale == AttentionViewOptions::Fixed01 ? std::optional<double>(1.0) : std::nullopt);
    caption_->setText(scaleText_ + describeSelection());
    layoutThumbnails();
    if (!refused.isEmpty()) bar_->showMessage(refused);
    startBuild(weights);
}

// One thumbnail per (layer, head), plus the aggregate column, none of them built yet. Returns
// how many weights they show in all (what decides between building inline and on the worker).
double ModelView::placeThumbnails() {
    thumbs_.clear();
    finished_ = 0;
    keep_ = visibleTokens(*trace_, options_.hideSpecial);
    const int k = static_cast<int>(keep_.size());
    double weights = 0;
    const auto add = [&](int layer, int head, bool computed, const HeadDigest* pooled = nullptr) {
        DrawnThumbnail t;
        t.layer = layer;
        t.head = head;
        t.computed = (computed || pooled) && k > 0;
        t.pooled = pooled != nullptr;
        t.rows = t.computed ? (pooled ? static_cast<int>(pooled->thumbnail.rows()) : k) : 0;
        t.cols = t.computed ? (pooled ? static_cast<int>(pooled->thumbnail.cols()) : k) : 0;
        t.scaleMax = options_.scale == AttentionViewOptions::Fixed01 ? 1.0 : 0.0;  // 0: not known yet
        thumbs_.push_back(t);
        weights += static_cast<double>(t.rows) * t.cols;
    };
    for (const int l : layers_) {
        const LayerTrace& lt = trace_->layers[static_cast<std::size_t>(l)];
        for (const int h : heads_)
            if (h < static_cast<int>(lt.heads.size()))
                add(l, h, lt.heads[static_cast<std::size_t>(h)].weights.size() > 0, pooledThumbnail(*trace_, thumbnails_.get(), l, h));
        if (options_.aggregate != AttentionViewOptions::PerHead) add(l, kAggregateHead, !lt.heads.empty() && hasWeights(lt));
    }
    images_.assign(thumbs_.size(), QImage());
    scaled_.assign(thumbs_.size(), QImage());
    return weights;
}

// Tiny traces are built before returning (no "building" state); others on the worker, each
// thumbnail queued back to the GUI thread as it is done.
void ModelView::startBuild(double weights) {
    BuildJob job;
    job.trace = trace_;
    job.options = options_;
    for (const DrawnThumbnail& t : thumbs_) job.items.push_back({t.layer, t.head == kAggregateHead ? kBuildAggregate : t.head});
    job.selection = WeightSelection{keep_, options_.renormalize};
    job.everything = !hidesTokens() && !options_.renormalize;
    job.thumbnails = thumbnails_;
    job.cancel = cancel_ = std::make_shared<std::atomic<bool>>(false);
    job.targetPixels = targetPixels_;
    const std::uint64_t generation = generation_;
    if (weights <= kInlineWeights) {
        runBuild(job, [&](double m) { acceptSharedMax(generation, m); },
                 [&](BuiltThumbnail&& done) {
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
            [&](BuiltThumbnail&& done) {
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
    if (generation != generation_) return;
    scaleText_ = describeScale(sharedMax);
    caption_->setText(scaleText_ + describeSelection());
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

bool ModelView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == scroll_->viewport() && event->type() == QEvent::Resize) {
        if (trace_) layoutThumbnails();
        if (progress_->isVisible()) updateProgress();
    }
    return QWidget::eventFilter(watched, event);
}

void ModelView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::FontChange && trace_) layoutThumbnails();
    QWidget::changeEvent(event);
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
        const QString pooled = t.pooled ? tr("\n%1 × %2 block means of the weights (a long run keeps this thumbnail)").arg(t.rows).arg(t.cols)
                                        : QString();
        const QString scale = images_[i].isNull() ? tr("\nbuilding…") : tr("\nbrightest colour = %1").arg(t.scaleMax, 0, 'g', 3);
        const ThumbnailBadge* badge = badgeFor(t.layer, t.head);
        const QString badgeText = badge && !badge->tooltip.isEmpty() ? "\n" + badge->tooltip : QString();
        return where + pooled + badgeText + scale + (t.head == kAggregateHead ? QString() : tr("\nclick to open it large"));
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
    if (options_.weighting == AttentionViewOptions::Norms)
        text += tr(" Shown: weight × ‖value‖ (Kobayashi et al. 2020), each row's share, not the raw weight.");
    if (hidesTokens())
        text += options_.renormalize ? tr(" Special tokens hidden; rows renormalised to sum to 1.")
                                     : tr(" Special tokens hidden: rows no longer sum to 1.");
    if (options_.aggregate != AttentionViewOptions::PerHead)
        text += tr(" Last column: %1 over the layer's heads.").arg(aggregateName(options_.aggregate));
    return text + tr(" Click a head to open it.");
}

}  // namespace attnscope