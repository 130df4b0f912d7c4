#include "ui/common/color_map_plot.hpp"

#include <algorithm>
#include <qcustomplot.h>

#include "core/kernels/zero_pages.hpp"
#include "ui/common/qt_text.hpp"
#include "ui/common/theme_colors.hpp"

namespace attnscope {

QCPColorGradient viridisGradient() {
    QCPColorGradient g;
    g.clearColorStops();
    const char* stops[] = {"#440154", "#482878", "#3e4989", "#31688e", "#26828e",
                           "#1f9e89", "#35b779", "#6ece58", "#b5de2b", "#fde725"};
    for (int i = 0; i < 10; ++i) g.setColorStopAt(i / 9.0, QColor(stops[i]));
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    return g;
}

QCPColorGradient divergingGradient() {
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor("#0072b2"));  // Okabe–Ito blue: B larger
    g.setColorStopAt(0.5, QColor("#ffffff"));
    g.setColorStopAt(1.0, QColor("#d55e00"));  // Okabe–Ito vermillion: A larger
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    return g;
}

namespace {

// QCPColorMapData with its cells reachable: they are QCustomPlot's row-major value×key array.
class CellGrid : public QCPColorMapData {
public:
    CellGrid() : QCPColorMapData(0, 0, QCPRange(0, 1), QCPRange(0, 1)) {}
    double* cells() const { return mData; }
    void markModified() { mDataModified = true; }
    // setSize without its fill(0): the cells are zeros as pages given back (core/kernels/
    // zero_pages.hpp), so those the map leaves 0 are never resident. A causal head's hidden half
    // is 64 of a 4,096-token map's 128 MB, and fill(0) faulted all of them in (0.4 s in a VM).
    void resizeAsZeros(int keySize, int valueSize) {
        if (keySize == mKeySize && valueSize == mValueSize) return;
        delete[] mData;
        delete[] mAlpha;
        mAlpha = nullptr;
        mKeySize = keySize;
        mValueSize = valueSize;
        mIsEmpty = keySize == 0 || valueSize == 0;
        const auto count = static_cast<std::size_t>(keySize) * static_cast<std::size_t>(valueSize);
        mData = mIsEmpty ? nullptr : new double[count];
        if (mData) zeroReleasingPages(mData, count);
        mDataModified = true;
    }
};

// A colour map drawn row 0 on top (its value axis reversed) whose image is stored upright once per
// change of the cells, where QCustomPlot mirrors it at every draw of a reversed axis: at 4,096
// tokens that copied 64 MB a frame (a wheel-zoom frame took 70 ms of CPU, most of it in
// QImage::mirrored and its page faults).
class UprightColorMap : public QCPColorMap {
public:
    using QCPColorMap::QCPColorMap;

protected:
    // Called by QCPColorMap::draw when the cells changed: inside draw below, where the axis is
    // not reversed for the moment, hence drawingUpright_.
    void updateMapImage() override {
        QCPColorMap::updateMapImage();
        if (drawingUpright_ || rowZeroOnTop()) mMapImage.mirror(false, true);  // in place: no fresh 64 MB at 4,096 tokens
    }

    // Drawn by QCustomPlot as if the value axis were not reversed and its range were mirrored
    // about the cells' middle (a + b − v for v): the same pixels, the upright image not mirrored.
    void draw(QCPPainter* painter) override {
        if (!rowZeroOnTop()) return QCPColorMap::draw(painter);
        QCPAxis* axis = valueAxis();
        const QCPRange shown = axis->range();
        const double middle2 = data()->valueRange().lower + data()->valueRange().upper;
        const QSignalBlocker quiet(axis);
        axis->setRangeReversed(false);
        axis->setRange(QCPRange(middle2 - shown.upper, middle2 - shown.lower));
        drawingUpright_ = true;
        QCPColorMap::draw(painter);
        drawingUpright_ = false;
        axis->setRange(shown);
        axis->setRangeReversed(true);
    }

private:
    bool drawingUpright_ = false;
    bool rowZeroOnTop() const {
        return keyAxis() && valueAxis() && keyAxis()->orientation() == Qt::Horizontal && valueAxis()->rangeReversed();
    }
};

}  // namespace

QFont scaledFont(QFont font, double factor) {
    font.setPointSizeF(font.pointSizeF() * factor);
    return font;
}

double tickLabelRotation(const QStringList& labels, int uprightUpTo) {
    if (labels.size() <= uprightUpTo) return 0;
    for (const QString& label : labels)
        if (containsCjk(label)) return 0;
    return -45;
}

void ColorMapPlot::setGradient(const QCPColorGradient& gradient) {
    map_->setGradient(gradient);
    scale_->setGradient(gradient);
}

ColorMapPlot::ColorMapPlot(QCustomPlot* plot, const QString& scaleLabel) : plot_(plot) {
    // The title spans the map and its colour scale, so a long title has the plot's whole width
    // (fitTitles in plot_font.cpp): QCPLayoutGrid has no column spans, hence a row of its own above
    // a grid holding the two.
    QCPLayoutGrid* layout = plot_->plotLayout();
    QCPAxisRect* rect = plot_->axisRect();
    layout->take(rect);
    layout->simplify();
    title_ = new QCPTextElement(plot_, QString());
    layout->addElement(0, 0, title_);
    auto* body = new QCPLayoutGrid;
    layout->addElement(1, 0, body);
    body->addElement(0, 0, rect);
    map_ = new UprightColorMap(plot_->xAxis, plot_->yAxis);
    map_->setData(new CellGrid, false);  // owned by the map
    map_->setInterpolate(false);
    map_->setGradient(viridisGradient());
    scale_ = new QCPColorScale(plot_);
    body->addElement(0, 1, scale_);
    scale_->setLabel(scaleLabel);
    map_->setColorScale(scale_);
    scale_->setGradient(viridisGradient());  // the scale's gradient wins over the map's
    auto* group = new QCPMarginGroup(plot_);
    plot_->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    scale_->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    plot_->yAxis->setRangeReversed(true);  // row 0 (first token, layer 1) on top, as written
    plot_->xAxis->grid()->setVisible(false);
    plot_->yAxis->grid()->setVisible(false);
    theme::followTheme(plot_);  // axes, tick labels and title in the theme's ink
}

namespace {

CellGrid& gridOf(const QCPColorMap& map) { return static_cast<CellGrid&>(*map.data()); }  // set in ColorMapPlot

}  // namespace

Eigen::Map<Mat> ColorMapPlot::resizeCells(Eigen::Index rows, Eigen::Index cols) {
    cellsHidden_ = false;
    map_->setVisible(true);
    CellGrid& grid = gridOf(*map_);
    if (rows == 0 || cols == 0) grid.clear();
    else grid.resizeAsZeros(static_cast<int>(cols), static_cast<int>(rows));
    grid.setRange(QCPRange(0, std::max<double>(double(cols) - 1, 0)), QCPRange(0, std::max<double>(double(rows) - 1, 0)));
    return {grid.cells(), grid.isEmpty() ? 0 : rows, grid.isEmpty() ? 0 : cols};
}

Eigen::Map<const Mat> ColorMapPlot::cells() const {
    const CellGrid& grid = gridOf(*map_);
    if (grid.isEmpty() || cellsHidden_) return {nullptr, 0, 0};
    return {grid.cells(), grid.valueSize(), grid.keySize()};
}

void ColorMapPlot::cellsWritten() { gridOf(*map_).markModified(); }

void ColorMapPlot::hideCells() {
    cellsHidden_ = true;
    map_->setVisible(false);
}

}  // namespace attnscope
