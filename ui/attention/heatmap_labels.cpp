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

std::vector<DrawnLabel> thinLabels(QCPAxis* axis, const QStringList& labels) {
    const bool along = axis->orientation() == Qt::Horizontal;
    const QFont font = axis->tickLabelFont();
    const double rotation = axis->tickLabelRotation();
    const QCPRange range = axis->range();
    const int first = std::max(0, static_cast<int>(std::ceil(range.lower)));
    const int last = std::min(static_cast<int>(labels.size()) - 1, static_cast<int>(std::floor(range.upper)));
    double widest = 0;  // of the labels in view: their neighbours may be any of them
    for (int i = first; i <= last; ++i) {
        const LabelExtent e = labelExtent(font, labels[i], 0, along, rotation);
        widest = std::max(widest, e.to - e.from);
    }
    const double pixelsPerCell = std::abs(axis->coordToPixel(1) - axis->coordToPixel(0));
    const int step = labelStep(pixelsPerCell, widest, gapFor(font));
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    std::vector<DrawnLabel> drawn;
    // Multiples of the step: labels stay on their tokens while the view pans.
    for (int i = (first + step - 1) / step * step; i <= last; i += step) {
        ticker->addTick(i, labels[i]);
        const LabelExtent e = labelExtent(font, labels[i], axis->coordToPixel(i), along, rotation);
        drawn.push_back({i, labels[i], e.from, e.to});
    }
    axis->setTicker(ticker);
    return drawn;
}

}  // namespace attnscope
