#pragma once
// The head view's line work, apart from the widget: which lines a layer gives (extractLines),
// the picture of them (renderLines, batched strokes or plain-loop hairlines) and the hairline
// rasteriser. Worker-thread safe: the jobs carry their own copies and a cancel flag.
#include <QColor>
#include <QImage>
#include <QPointF>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/analysis/line_selection.hpp"
#include "ui/attention/head_view.hpp"

namespace attnscope {

constexpr int kOpacitySteps = 64;  // line opacities are painted in 1/64 steps (grouped strokes)
constexpr int kDenseLines = 1500;  // more lines than this in one picture: hairlines
constexpr int kHoverDim = 215;     // 0…255: how much the cached picture fades behind hovered lines

// The part of a line between y = band.first and y = band.second, or nothing. Long inputs have
// lines thousands of px long; the antialiasing rasteriser would stroke all of them before
// clipping, so each is cut to the exposed rows first.
std::optional<std::pair<QPointF, QPointF>> clippedToBand(QPointF a, QPointF b, std::pair<double, double> band);

// Plain-loop hairlines for dense pictures (tens of thousands of lines thousands of px long):
// one antialiased pixel pair per scanline (Xiaolin Wu), blended straight into an RGB32 image.
// QPainter's stroker takes ~50× longer per pixel for the same picture.
class HairlineRaster {
public:
    explicit HairlineRaster(QImage& image)
        : bits_(image.bits()), stride_(image.bytesPerLine()), w_(image.width()), h_(image.height()) {}
    // Rows first … first + rows − 1 of `image` as an image of their own (y 0 = row `first`).
    HairlineRaster(QImage& image, int first, int rows)
        : bits_(image.bits() + static_cast<qsizetype>(first) * image.bytesPerLine()), stride_(image.bytesPerLine()),
          w_(image.width()), h_(rows) {}

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

    // Two hairlines half a pixel either side across the line: about 2 px wide, as the strokes of
    // sparse pictures, at a hairline's cost (a hover repaints within a frame).
    void wideLine(double x0, double y0, double x1, double y1, QRgb colour, double alpha) {
        const bool steep = std::abs(y1 - y0) >= std::abs(x1 - x0);
        const double dx = steep ? 0.5 : 0.0, dy = steep ? 0.0 : 0.5;
        line(x0 - dx, y0 - dy, x1 - dx, y1 - dy, colour, alpha);
        line(x0 + dx, y0 + dy, x1 + dx, y1 + dy, colour, alpha);
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
    LineFilter filter;  // which weights become lines
};

// Every line of the layer under the options; nothing when cancelled. Worker or GUI thread.
std::optional<std::vector<DrawnLine>> extractLines(const LinesJob& job);

// The lines of `token` (out of it on the Left, into it on the Right, both for Both) into `into`,
// which is cleared first and keeps its capacity.
void linesTouching(const std::vector<DrawnLine>& lines, const HoveredToken& token, std::vector<DrawnLine>& into);

// The most lines any one token has, in and out: what a hover's list can grow to.
std::size_t mostLinesOfOneToken(const std::vector<DrawnLine>& lines, int tokenCount);

// What rendering the picture reads: its own copies only.
struct RenderJob {
    std::shared_ptr<const std::vector<DrawnLine>> lines;
    std::vector<int> rowOf;
    int width = 0, height = 0, top = 0;
    double dpr = 1;
    QColor base;
    std::shared_ptr<std::atomic<bool>> cancel;
    int rowHeight = HeadView::kRowHeight;
};

// Every line on an opaque picture of the band between the token columns (x 0 … width, canvas
// y). Batched per (head, opacity step): a few hundred pen changes instead of one per line.
// `progress(percent)` now and then; a null image when cancelled.
QImage renderLines(const RenderJob& job, const std::function<void(int)>& progress);

// Where the rows of the canvas are: token t's centre is at y = top + rowOf[t]·rowHeight + rowHeight/2.
struct RowGeometry {
    const std::vector<int>& rowOf;
    int top = 0, rowHeight = 0;
    double centre(int token) const { return top + rowOf[static_cast<std::size_t>(token)] * rowHeight + rowHeight / 2; }
};

// Where `lines` leave the rows between canvas y `seen.first` and `seen.second` (the visible
// part), the line band running from x `left` to `right`. Crossings are bucketed per head and
// `bucket` px, so 6,000 lines into [SEP] make a few hundred marks. The counts take the lines on
// screen, and with `countUnseen` those off it too. O(lines), no allocation per line: it runs on
// every paint, over every line when no token is focused.
EdgeMarks edgeMarksOf(const std::vector<DrawnLine>& lines, const RowGeometry& rows, std::pair<double, double> seen,
                      double left, double right, int bucket, bool countUnseen);

}  // namespace attnscope
