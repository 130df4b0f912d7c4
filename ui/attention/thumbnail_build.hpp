#pragma once
// The model view's pixels, off the GUI thread: one Indexed8 image per thumbnail (one pixel per
// shown weight, viridis), scaled to the thumbnail size before it reaches the GUI thread. The
// numbers (aggregates, hidden tokens, scale maxima) come from core/analysis/head_summary.hpp.
#include <QImage>
#include <QVector>
#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "core/analysis/head_summary.hpp"
#include "core/trace/head_digest.hpp"
#include "core/trace/trace.hpp"
#include "ui/attention/attention_options.hpp"

namespace attnscope {

// viridis sampled at 256 steps once: thumbnails are Indexed8 images using this colour table.
// First called on the GUI thread (ModelView's constructor) before any worker reads it.
const QVector<QRgb>& viridisTable();
// 255 / scaleMax, the factor from a weight to a colour-table index (0 when there is no scale).
double indexFactor(double scaleMax);
// Rounded and clamped to 0…255 without lround (this runs L·H·T² times per rebuild).
inline uchar colourIndex(double value, double factor) {
    const double x = value * factor + 0.5;
    if (!(x >= 1.0)) return 0;  // also NaN
    return x >= 255.0 ? 255 : static_cast<uchar>(x);
}
// What is painted: `full` at `px` × `px` device pixels, RGB32 (a plain blit onto the backing
// store). Downscaling averages (smooth); upscaling keeps the cells crisp (nearest).
QImage scaledForPainting(const QImage& full, int px);

// Everything a build reads, copied (the trace itself stays alive until the next showTrace,
// which waits for the build to stop before letting go of it).
struct BuildJob {
    const Trace* trace = nullptr;
    // What to build, in the view's order: (layer, head), head kBuildAggregate for the layer's
    // mean / max over all its heads. Filtered-out heads and layers are simply not listed.
    std::vector<std::pair<int, int>> items;
    AttentionViewOptions options;
    WeightSelection selection;
    bool everything = true;  // no hidden tokens, no renormalising: draw the weights as they are
    std::shared_ptr<const RunDigests> thumbnails;  // a long run's, for heads without weights (pooledThumbnail)
    std::shared_ptr<std::atomic<bool>> cancel;
    std::shared_ptr<std::atomic<int>> targetPixels;
};

struct BuiltThumbnail {
    std::size_t index = 0;  // into ModelView's thumbnails
    double scaleMax = 0;
    QImage image;   // one pixel per weight
    QImage scaled;  // at the thumbnail size the build was asked for when it got there
};

inline constexpr int kBuildAggregate = -1;

// A long run's thumbnail of (layer, head) when the trace holds no weights for it and the
// thumbnail was made from weights of the trace's size; else null.
const HeadDigest* pooledThumbnail(const Trace& trace, const RunDigests* thumbnails, int layer, int head);

// The whole build, thumbnail by thumbnail in the order of job.items. Runs on the worker (or inline for tiny traces); stops after the thumbnail it is on
// when cancelled. Reads only the trace and its own copies.
void runBuild(const BuildJob& job, const std::function<void(double)>& onSharedMax,
              const std::function<void(BuiltThumbnail&&)>& onThumbnail);

}  // namespace attnscope
