#include "ui/attention/thumbnail_build.hpp"

#include <algorithm>
#include <qcustomplot.h>

#include "ui/attention/heatmap_builder.hpp"

namespace attnscope {

namespace {

// One pixel per weight. Plain loops: this runs L·H times per rebuild, never while painting.
QImage weightsImage(GridRef grid, double scaleMax) {
    QImage img(static_cast<int>(grid.cols()), static_cast<int>(grid.rows()), QImage::Format_Indexed8);
    img.setColorTable(viridisTable());
    const double factor = indexFactor(scaleMax);
    grid.visit([&](const auto& w) {  // a model's float weights as they are, no double copy
        for (int r = 0; r < img.height(); ++r) {
            uchar* line = img.scanLine(r);
            const auto* weights = w.data() + static_cast<std::ptrdiff_t>(r) * w.cols();  // row-major
            for (int c = 0; c < img.width(); ++c) line[c] = colourIndex(static_cast<double>(weights[c]), factor);
        }
    });
    return img;
}

}  // namespace

const QVector<QRgb>& viridisTable() {
    static const QVector<QRgb> table = [] {
        QVector<QRgb> t(256);
        QCPColorGradient g = viridisGradient();  // color() is non-const: it caches its table
        for (int i = 0; i < 256; ++i) t[i] = g.color(i / 255.0, QCPRange(0, 1));
        return t;
    }();
    return table;
}

const HeadDigest* pooledThumbnail(const Trace& trace, const RunDigests* thumbnails, int layer, int head) {
    const auto l = static_cast<std::size_t>(layer), h = static_cast<std::size_t>(head);
    if (!thumbnails || l >= thumbnails->size() || h >= (*thumbnails)[l].size() || l >= trace.layers.size() ||
        h >= trace.layers[l].heads.size() || trace.layers[l].heads[h].weights.size() > 0)
        return nullptr;
    const HeadDigest& digest = (*thumbnails)[l][h];
    return digest.rows == trace.tokenCount() && digest.cols == trace.keyCount() ? &digest : nullptr;
}

double indexFactor(double scaleMax) { return scaleMax > 0 ? 255.0 / scaleMax : 0.0; }

QImage scaledForPainting(const QImage& full, int px) {
    if (full.isNull() || px <= 0) return {};
    if (full.width() > px || full.height() > px)
        return full.convertToFormat(QImage::Format_RGB32).scaled(px, px, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    return full.scaled(px, px, Qt::IgnoreAspectRatio, Qt::FastTransformation).convertToFormat(QImage::Format_RGB32);
}

void runBuild(const BuildJob& job, const std::function<void(double)>& onSharedMax,
              const std::function<void(BuiltThumbnail&&)>& onThumbnail) {
    const Trace& trace = *job.trace;
    const auto cancelled = [&] { return job.cancel->load(std::memory_order_relaxed); };
    double sharedMax = 1.0;
    if (job.options.scale == AttentionViewOptions::SharedMax) {
        // maxWeight(trace, selection), head by head so that a cancel is seen within one head.
        sharedMax = 0;
        for (const LayerTrace& layer : trace.layers)
            for (const HeadTrace& head : layer.heads) {
                if (cancelled()) return;
                if (head.weights.size() == 0) continue;  // a long run's thumbnails: below
                sharedMax = std::max(sharedMax, job.everything ? maxWeight(head.weights)
                                                               : maxWeight(shownWeights(head.weights, job.selection)));
            }
        for (const auto& [l, h] : job.items)
            if (const HeadDigest* pooled = pooledThumbnail(trace, job.thumbnails.get(), l, h))
                sharedMax = std::max(sharedMax, maxWeight(pooled->thumbnail));
        onSharedMax(sharedMax);
    }
    std::size_t index = 0;
    const auto emitThumbnail = [&](GridRef shown) {
        BuiltThumbnail done;
        done.index = index++;
        if (shown.size() > 0) {
            done.scaleMax = job.options.scale == AttentionViewOptions::PerHeadMax ? maxWeight(shown) : sharedMax;
            done.image = weightsImage(shown, done.scaleMax);
            done.scaled = scaledForPainting(done.image, job.targetPixels->load(std::memory_order_relaxed));
        }
        onThumbnail(std::move(done));
    };
    for (const auto& [l, h] : job.items) {
        if (cancelled()) return;
        const LayerTrace& layer = trace.layers[static_cast<std::size_t>(l)];
        if (h == kBuildAggregate) {
            const Mat summary = job.options.aggregate == AttentionViewOptions::Max ? maxOverHeads(layer) : averageOverHeads(layer);
            emitThumbnail(shownWeights(summary, job.selection));
        } else if (const HeadDigest* pooled = pooledThumbnail(trace, job.thumbnails.get(), l, h)) {
            emitThumbnail(pooled->thumbnail);  // block means, drawn as they are (no tokens to hide)
        } else if (job.everything) {
            emitThumbnail(layer.heads[static_cast<std::size_t>(h)].weights);  // no T×T copy
        } else {
            emitThumbnail(shownWeights(layer.heads[static_cast<std::size_t>(h)].weights, job.selection));
        }
    }
}

}  // namespace attnscope
