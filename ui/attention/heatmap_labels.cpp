#include "ui/attention/heatmap_labels.hpp"

#include <QFontMetricsF>
#include <cmath>
#include <qcustomplot.h>

namespace attnscope {

namespace {

// A slanted label's line is this much longer measured along the axis than across it.
double slantFactor(double rotation) {
    const double s = std::abs(std::sin(rotation * M_PI / 180));
    return s > 1e-9 ? 1 / s : 1;
}

// Room between neighbouring labels: a third of the font's average character.
double gapFor(const QFont& font) { return QFontMetricsF(font).averageCharWidth() / 3; }

}  // namespace

LabelExtent labelExtent(const QFont& font, const QString& text, double center, bool alongText, double rotation) {
    const QFontMetricsF metrics(font);
    const double size = alongText && rotation == 0 ? metrics.horizontalAdvance(text)
                        : alongText                ? metrics.height() * slantFactor(rotation)
                                                   : metrics.height();
    return {center - size / 2, center + size / 2};
}

int labelStep(double pixelsPerCell, double extent, double gap) {
    if (pixelsPerCell <= 0) return 1;
    return std::max(1, static_cast<int>(std::ceil((extent + gap) / pixelsPerCell)));
}

namespace {

// The labels of tokens first…last along one axis.
struct AxisLabels {
    const QStringList& labels;
    int first = 0, last = -1;
    bool along = false;  // a bottom axis (see labelExtent)
    double rotation = 0;
    double pixelsPerCell = 0;

    int stepAt(const QFont& font) const {
        return labelStep(pixelsPerCell, widest(font), gapFor(font));
    }
    // Of the labels in view (their neighbours may be any of them); one line's height across the
    // text, whatever it says.
    double widest(const QFont& font) const {
        if (!along || rotation != 0) return labelExtent(font, QString(), 0, along, rotation).to * 2;
        const QFontMetricsF metrics(font);
        double most = 0;
        for (int i = first; i <= last; ++i) most = std::max(most, metrics.horizontalAdvance(labels[i]));
        return most;
    }
};

// The plot's font, or one down to kSmallestLabelShare of it when that labels every token in view
// (an 11-token sentence at 1280×720 showed every other query's label at the plot's size); tried
// half a point at a time and at the floor, each measured, as text does not scale exactly with its size.
QFont labellingFont(const QFont& plotFont, const AxisLabels& axis) {
    const double full = plotFont.pointSizeF(), floor = full * kSmallestLabelShare;
    if (full <= 0 || axis.stepAt(plotFont) == 1) return plotFont;
    QFont atFloor = plotFont;
    atFloor.setPointSizeF(floor);
    if (axis.stepAt(atFloor) > 1) return plotFont;  // thinned at any size allowed: the usual case of a long text
    QFont smaller = plotFont;
    for (double size = full - 0.5; size > floor; size -= 0.5) {
        smaller.setPointSizeF(size);
        if (axis.stepAt(smaller) == 1) return smaller;
    }
    return atFloor;  // measured above: it labels every token
}

}  // namespace

std::vector<DrawnLabel> thinLabels(QCPAxis* axis, const QStringList& labels, const QFont& plotFont) {
    const QCPRange range = axis->range();
    const AxisLabels inView{labels, std::max(0, static_cast<int>(std::ceil(range.lower))),
                            std::min(static_cast<int>(labels.size()) - 1, static_cast<int>(std::floor(range.upper))),
                            axis->orientation() == Qt::Horizontal, axis->tickLabelRotation(),
                            std::abs(axis->coordToPixel(1) - axis->coordToPixel(0))};
    const QFont font = labellingFont(plotFont, inView);
    if (axis->tickLabelFont() != font) axis->setTickLabelFont(font);
    const int step = inView.stepAt(font);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    std::vector<DrawnLabel> drawn;
    // Multiples of the step: labels stay on their tokens while the view pans.
    for (int i = (inView.first + step - 1) / step * step; i <= inView.last; i += step) {
        ticker->addTick(i, labels[i]);
        const LabelExtent e = labelExtent(font, labels[i], axis->coordToPixel(i), inView.along, inView.rotation);
        drawn.push_back({i, labels[i], e.from, e.to});
    }
    axis->setTicker(ticker);
    return drawn;
}

}  // namespace attnscope
