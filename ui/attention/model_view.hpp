#pragma once
// The model view: every layer × head of a Trace as a small attention heatmap (rows = layers,
// columns = heads, plus a column for the mean or maximum over heads when asked). Clicking a
// thumbnail emits headActivated(layer, head) so the window can open that head large.
//
// Built for 12 × 12 heads at 512 tokens: each thumbnail is one QImage, one pixel per shown
// weight (viridis), built in plain O(L·H·T²) loops — on a worker thread (QThreadPool) unless
// the trace is tiny. showTrace / setOptions only lay out the grid (rows, cols, rects are known at
// once) and start the worker; thumbnails appear as they finish (a progress line counts them),
// each already scaled to the thumbnail size by the worker, so painting is one blit per visible
// thumbnail. A generation counter drops stale results; a cancel flag stops a superseded build
// after the thumbnail it is on. Until a thumbnail's worker result arrives, thumbnailImage() is
// null and (for the SharedMax / PerHeadMax scales) its scaleMax is 0. The numbers (aggregates,
// hidden tokens, scale maxima) come from core/analysis/head_summary.hpp.
#include <QImage>
#include <QRect>
#include <QString>
#include <QThreadPool>
#include <QWidget>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/analysis/head_order.hpp"
#include "core/trace/head_digest.hpp"
#include "core/trace/trace.hpp"
#include "ui/attention/attention_options.hpp"
#include "ui/attention/thumbnail_headers.hpp"

class QLabel;
class QScrollArea;

namespace attnscope {

class ModelViewBar;
class ThumbnailGrid;

// What one thumbnail shows, for tests. `rect` is in canvas() coordinates.
struct DrawnThumbnail {
    int layer = 0;
    int head = 0;          // ModelView::kAggregateHead for the mean / max column
    int rows = 0;          // shown query tokens (0 when the layer's weights were not computed)
    int cols = 0;          // shown key tokens
    double scaleMax = 1;   // the weight drawn in the brightest colour
    bool computed = true;  // false: "not computed" is drawn instead
    bool pooled = false;   // a long run's thumbnail: rows×cols block means of the T×T weights
    QRect rect;
};

// A caption the app lays over one thumbnail, e.g. the head's statistics label ("prev", "sink").
// The view only draws it: the app computes what it says.
struct ThumbnailBadge {
    int layer = 0;
    int head = 0;
    QString text;     // short: drawn along the thumbnail's bottom edge, elided to fit
    QString tooltip;  // added to the thumbnail's tooltip
};

class ModelView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kAggregateHead = -1;

    explicit ModelView(QWidget* parent = nullptr);
    ~ModelView() override;

    // The view keeps `trace` alive itself: setOptions, the filters and the tooltips read it
    // whenever asked, also after the window let go of it.
    void showTrace(std::shared_ptr<const Trace> trace, const AttentionViewOptions& options);
    // Here the caller keeps `trace` alive until the next showTrace (tests, one-off pictures).
    void showTrace(const Trace& trace, const AttentionViewOptions& options);
    // Head-view signature for symmetry; the model view shows every layer and ignores `layer`.
    void showTrace(const Trace& trace, int layer, const AttentionViewOptions& options);
    void setOptions(const AttentionViewOptions& options);
    // A long run's thumbnails (ModelRun::digests, [layer][head]: block means of each head's
    // weights), drawn for the heads whose weights the trace does not hold; null: none. Kept until
    // replaced; the next showTrace or setOptions draws them.
    void setThumbnails(std::shared_ptr<const RunDigests> thumbnails) { thumbnails_ = std::move(thumbnails); }
    const std::shared_ptr<const RunDigests>& thumbnails() const { return thumbnails_; }
    const AttentionViewOptions& options() const { return options_; }

    // Optional overlays, kept across showTrace / setOptions until replaced; {} removes them.
    void setBadges(std::vector<ThumbnailBadge> badges);
    const std::vector<ThumbnailBadge>& badges() const { return badges_; }
    const ThumbnailBadge* badgeFor(int layer, int head) const;

    // Which layers / heads are shown: "1-3,7" counted from 1, empty for all. A text that does not
    // parse (or names a layer or head the trace lacks) is refused with a message in bar() and
    // the last valid filter stays; returns whether it was taken.
    bool setLayerFilter(const QString& text);
    bool setHeadFilter(const QString& text);
    // Per layer, its heads left to right (the app computes it from the head statistics, see
    // core/analysis/head_order.hpp); {} or an order not of this trace's shape: head number order.
    void setHeadOrder(std::vector<std::vector<int>> order, const QString& statisticName = {});
    // What the "Order heads by" box asks for; nullopt: head number. headOrderRequested on change.
    std::optional<HeadSortKey> headSortKey() const;
    ModelViewBar* bar() const { return bar_; }

    // What is drawn, for tests.
    const std::vector<DrawnThumbnail>& drawnThumbnails() const { return thumbs_; }
    // Column headers and layer labels, as drawn (canvas() coordinates).
    const std::vector<DrawnHeader>& headers() const { return headers_; }
    // (layer, head) under a canvas() point; the aggregate column and gaps give nothing.
    std::optional<std::pair<int, int>> thumbnailAt(QPoint canvasPoint) const;
    // One pixel per shown weight (row = query, column = key); null when not drawn.
    QImage thumbnailImage(int layer, int head) const;
    QString caption() const;
    QWidget* canvas() const;
    // The colour a weight gets on a [0, scaleMax] viridis scale (256 steps).
    static QRgb colourFor(double value, double scaleMax);

signals:
    void headActivated(int layer, int head);
    void headOrderRequested();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;  // re-fits on viewport resize
    void changeEvent(QEvent* event) override;                    // and on a font change

private:
    friend class ThumbnailGrid;
    void rebuild();
    double placeThumbnails();
    void startBuild(double weights);
    void cancelWork(bool wait);
    void accept(std::uint64_t generation, std::size_t index, double scaleMax, QImage image, QImage scaled);
    void acceptSharedMax(std::uint64_t generation, double sharedMax);
    void acceptScaled(std::uint64_t generation, std::size_t index, QImage scaled);
    void rescaleLater();
    void updateProgress();
    void layoutThumbnails();
    int columnCount() const;
    bool applyFilter(const QString& text, bool layers);
    QString validateFilters();
    std::vector<int> shownHeads(int layer) const;
    bool sorted() const;
    void placeRects(int size, int extra, QPoint origin);
    void placeHeaders(const QFontMetrics& fm, int size, int extra, QPoint origin);
    QString describeSelection() const;
    int devicePixels(int px) const;
    QString tooltipAt(QPoint canvasPoint) const;
    QString describeScale(std::optional<double> sharedMax) const;
    bool hidesTokens() const;

    const Trace* trace_ = nullptr;
    std::shared_ptr<const Trace> held_;  // trace_'s owner when given as a shared_ptr
    std::shared_ptr<const RunDigests> thumbnails_;
    AttentionViewOptions options_;
    std::vector<int> keep_;
    QString layerFilterText_, headFilterText_;  // the last valid filters
    std::vector<int> layers_, heads_;          // what they select in the trace shown
    // Heads per layer of the trace laid out: layout and painting read this, never trace_ (which
    // may be gone while the window has not shown the next one yet).
    std::vector<int> shape_;
    std::vector<std::vector<int>> headOrder_;
    QString orderName_;
    QString scaleText_;  // the caption's first part (describeScale)
    QLabel* caption_ = nullptr;
    std::vector<DrawnHeader> headers_;
    std::vector<DrawnThumbnail> thumbs_;
    std::vector<ThumbnailBadge> badges_;
    std::vector<QImage> images_;  // parallel to thumbs_: one pixel per weight (null until built)
    std::vector<QImage> scaled_;  // parallel to thumbs_: what is painted (worker-scaled, or stale)
    int thumbSize_ = 0;           // current thumbnail side, px
    int finished_ = 0;            // thumbnails of this generation that arrived
    QLabel* progress_ = nullptr;  // says finished_ of thumbs_ while a build runs
    std::uint64_t generation_ = 0;
    std::shared_ptr<std::atomic<bool>> cancel_;       // of the running build
    std::shared_ptr<std::atomic<int>> targetPixels_;  // thumbnail side (device px) the build scales to
    std::shared_ptr<std::atomic<bool>> rescaleCancel_;
    bool rescalePending_ = false;
    QThreadPool pool_;  // one worker: builds and rescales run in order
    ModelViewBar* bar_ = nullptr;
    QScrollArea* scroll_ = nullptr;
    ThumbnailGrid* grid_ = nullptr;
};

}  // namespace attnscope
