#include "ui/attention/head_view_lines.hpp"

#include <QPainter>
#include <algorithm>
#include <cmath>
#include <map>

#include "core/analysis/head_summary.hpp"

namespace attnscope {

std::optional<std::pair<QPointF, QPointF>> clippedToBand(QPointF a, QPointF b, std::pair<double, double> band) {
    if (std::max(a.y(), b.y()) < band.first || std::min(a.y(), b.y()) > band.second) return std::nullopt;
    if (a.y() == b.y()) return std::make_pair(a, b);
    const auto at = [&](double y) {
        const double t = std::clamp((y - a.y()) / (b.y() - a.y()), 0.0, 1.0);
        return a + t * (b - a);
    };
    return std::make_pair(at(std::clamp(a.y(), band.first, band.second)), at(std::clamp(b.y(), band.first, band.second)));
}

namespace {

// Lines for one K×K shown matrix (Mat or MatF); row/column r is token keep[r].
template <class Matrix>
void addLines(std::vector<DrawnLine>& out, const Matrix& shown, const std::vector<int>& keep, int head, double scaleMax,
              const LineFilter& filter) {
    const std::vector<double> threshold = rowLineThresholds(GridRef(shown), filter);
    for (Eigen::Index r = 0; r < shown.rows(); ++r)
        for (Eigen::Index c = 0; c < shown.cols(); ++c) {
            const double w = shown(r, c);
            if (!drawsLine(w, threshold[static_cast<std::size_t>(r)])) continue;  // also skips NaN
            const double alpha = scaleMax > 0 ? std::min(1.0, w / scaleMax) : 0.0;
            out.push_back({keep[static_cast<std::size_t>(r)], keep[static_cast<std::size_t>(c)], head, w, alpha});
        }
}

// Every token kept, in order, rows as they are: the weights are shown as stored. A long input's
// copy would be 128 MB a head (and most of the time of finding its lines).
bool showsAsStored(GridRef weights, const WeightSelection& selection) {
    if (selection.renormalize || static_cast<Eigen::Index>(selection.keep.size()) != weights.rows()) return false;
    for (std::size_t i = 0; i < selection.keep.size(); ++i)
        if (selection.keep[i] != static_cast<int>(i)) return false;
    return true;
}

// f(the shown matrix): the stored one itself when nothing is hidden, else shownWeights' copy.
template <class F>
void withShown(GridRef weights, const WeightSelection& selection, F&& f) {
    if (showsAsStored(weights, selection)) weights.visit(f);
    else f(shownWeights(weights, selection));
}

}  // namespace

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
            if (h.weights.size() > 0) withShown(h.weights, selection, [&](const auto& shown) { layerMax = std::max(layerMax, maxWeight(GridRef(shown))); });
        }
    }
    const auto scaleFor = [&](GridRef shown) {
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
        addLines(lines, shown, job.keep, HeadView::kAggregateHead, scaleFor(shown), job.filter);
    } else {
        for (const int h : job.heads) {
            if (cancelled()) return std::nullopt;
            if (h < 0 || h >= static_cast<int>(layer.heads.size())) continue;
            withShown(layer.heads[static_cast<std::size_t>(h)].weights, selection,
                      [&](const auto& shown) { addLines(lines, shown, job.keep, h, scaleFor(GridRef(shown)), job.filter); });
        }
    }
    return lines;
}

namespace {

constexpr std::size_t kChunk = 32;  // strokes between cancel checks
constexpr int kStripRows = 256;    // device rows of a dense picture drawn at a time (about 0.6 MB)

// Reports progress in steps of 5 %.
class ProgressSteps {
public:
    ProgressSteps(std::size_t total, const std::function<void(int)>& progress)
        : total_(std::max<std::size_t>(total, 1)), progress_(progress) {}
    void at(std::size_t done) {
        const int percent = static_cast<int>(100 * done / total_);
        if (percent >= reported_ + 5) progress_(reported_ = percent);
    }

private:
    std::size_t total_;
    const std::function<void(int)>& progress_;
    int reported_ = 0;
};

double rowCentreOf(const RenderJob& job, int token) {
    return job.top + job.rowOf[static_cast<std::size_t>(token)] * job.rowHeight + job.rowHeight / 2.0;
}

// Dense (long inputs): 1 device-px antialiased hairlines in plain loops, one strip of rows at a
// time. A long input's picture is tens of thousands of rows (200 MB at 4,096 tokens) and its
// lines are nearly vertical: drawn whole, each pixel of a line is on another row and misses the
// cache; a strip fits in it. False when cancelled.
bool drawHairlines(QImage& image, const RenderJob& job, ProgressSteps& progress) {
    const double right = job.width * job.dpr;
    const auto y = [&](int token) { return rowCentreOf(job, token) * job.dpr; };
    for (int first = 0; first < image.height(); first += kStripRows) {
        if (job.cancel->load(std::memory_order_relaxed)) return false;
        progress.at(static_cast<std::size_t>(first) * job.lines->size() / static_cast<std::size_t>(image.height()));
        const int rows = std::min(kStripRows, image.height() - first);
        HairlineRaster raster(image, first, rows);
        for (const DrawnLine& line : *job.lines) {
            const double y0 = y(line.from), y1 = y(line.to);
            if (std::max(y0, y1) < first - 1 || std::min(y0, y1) > first + rows + 1) continue;
            const double alpha = static_cast<double>(std::lround(line.alpha * kOpacitySteps)) / kOpacitySteps;
            raster.line(0, y0 - first, right, y1 - first, HeadView::headColour(line.head, job.base).rgb(), alpha);
        }
    }
    return true;
}

// Sparse: antialiased 2 px strokes, batched per (head, opacity step) — a few pen changes.
// False when cancelled.
bool drawStrokes(QImage& image, const RenderJob& job, ProgressSteps& progress) {
    std::map<std::pair<int, int>, std::vector<QLineF>> batches;
    for (const DrawnLine& line : *job.lines) {
        const int step = static_cast<int>(std::lround(line.alpha * kOpacitySteps));
        if (step <= 0) continue;
        batches[{line.head, step}].emplace_back(QPointF(0, rowCentreOf(job, line.from)), QPointF(job.width, rowCentreOf(job, line.to)));
    }
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    QPen pen;
    pen.setWidthF(2.0);
    std::size_t done = 0;
    for (const auto& [key, lines] : batches) {
        QColor c = HeadView::headColour(key.first, job.base);
        c.setAlphaF(static_cast<float>(key.second) / kOpacitySteps);
        pen.setColor(c);
        p.setPen(pen);
        for (std::size_t at = 0; at < lines.size(); at += kChunk) {
            if (job.cancel->load(std::memory_order_relaxed)) return false;
            const int n = static_cast<int>(std::min(kChunk, lines.size() - at));
            p.drawLines(lines.data() + at, n);
            progress.at(done += static_cast<std::size_t>(n));
        }
    }
    return true;
}

}  // namespace

QImage renderLines(const RenderJob& job, const std::function<void(int)>& progress) {
    QImage image(static_cast<int>(std::ceil(job.width * job.dpr)), static_cast<int>(std::ceil(job.height * job.dpr)),
                 QImage::Format_RGB32);  // opaque: painting it is a plain blit
    if (image.isNull()) return {};
    image.setDevicePixelRatio(job.dpr);
    image.fill(job.base);
    ProgressSteps steps(job.lines->size(), progress);
    const bool dense = static_cast<int>(job.lines->size()) > kDenseLines;
    const bool done = dense ? drawHairlines(image, job, steps) : drawStrokes(image, job, steps);
    return done ? image : QImage();
}

EdgeMarks edgeMarksOf(const std::vector<DrawnLine>& lines, const RowGeometry& rows, std::pair<double, double> seen,
                      double left, double right, int bucket, bool countUnseen) {
    const auto [top, bottom] = seen;
    EdgeMarks out;
    int heads = 0;
    for (const DrawnLine& line : lines) heads = std::max(heads, line.head + 2);  // head −1 (mean / max) at 0
    const int columns = static_cast<int>(std::ceil(right / bucket)) + 1;
    std::vector<int> counts(2 * static_cast<std::size_t>(columns) * static_cast<std::size_t>(heads), 0);
    const auto count = [&](bool atTop, double x, int head) {
        const int column = std::clamp(static_cast<int>(x) / bucket, 0, columns - 1);
        ++counts[(static_cast<std::size_t>(atTop ? 0 : columns) + static_cast<std::size_t>(column)) * static_cast<std::size_t>(heads) +
                 static_cast<std::size_t>(head + 1)];
    };
    for (const DrawnLine& line : lines) {
        const double a = rows.centre(line.from), b = rows.centre(line.to);
        const bool above = std::min(a, b) < top, below = std::max(a, b) > bottom;
        const bool onScreen = std::max(a, b) >= top && std::min(a, b) <= bottom;
        if (!onScreen && !countUnseen) continue;
        out.above += above;
        out.below += below;
        if (!onScreen) continue;
        // Where the line (x from left to right as y goes from a to b) meets the edge; a ≠ b here.
        if (above) count(true, left + (right - left) * (top - a) / (b - a), line.head);
        if (below) count(false, left + (right - left) * (bottom - a) / (b - a), line.head);
    }
    for (std::size_t i = 0; i < counts.size(); ++i) {
        if (counts[i] == 0) continue;
        const int head = static_cast<int>(i % static_cast<std::size_t>(heads)) - 1;
        const int cell = static_cast<int>(i / static_cast<std::size_t>(heads));
        out.marks.push_back({cell < columns, (cell % columns) * bucket + bucket / 2, head, counts[i]});
    }
    return out;
}

void linesTouching(const std::vector<DrawnLine>& lines, const HoveredToken& token, std::vector<DrawnLine>& into) {
    into.clear();
    const bool out = token.side != HoveredToken::Right, in = token.side != HoveredToken::Left;
    for (const DrawnLine& line : lines)
        if ((out && line.from == token.token) || (in && line.to == token.token)) into.push_back(line);
}

std::size_t mostLinesOfOneToken(const std::vector<DrawnLine>& lines, int tokenCount) {
    std::vector<std::size_t> count(static_cast<std::size_t>(std::max(tokenCount, 0)));
    const auto add = [&count](int token) {  // a cross-attention key may lie past the query tokens
        const auto t = static_cast<std::size_t>(token);
        if (t >= count.size()) count.resize(t + 1);
        ++count[t];
    };
    for (const DrawnLine& line : lines) {
        add(line.from);
        if (line.to != line.from) add(line.to);
    }
    return count.empty() ? 0 : *std::max_element(count.begin(), count.end());
}

}  // namespace attnscope
