#pragma once
// The one colour-map plot base: the heatmap, the head ranking and the lab's matrix plots all
// draw a grid of cells into a QCustomPlot with a title row on top, a viridis colour scale on the
// right that lines up with the axis rect, row 0 on top and no grid lines. Subclasses fill the map,
// label the axes and record what they drew (DrawnCell or a Mat) for tests.
#include <QFont>
#include <QStringList>

#include "core/base/matrix.hpp"

class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QCPColorGradient;
class QCPTextElement;

namespace attnscope {

// One cell as drawn: tests compare these with core's numbers instead of reading pixels.
struct DrawnCell {
    int row = 0;
    int col = 0;
    double value = 0;
};

// A perceptual, colour-blind-safe gradient: viridis sampled at ten stops.
QCPColorGradient viridisGradient();

// A diverging, colour-blind-safe gradient for signed values (a difference A − B): Okabe–Ito blue
// through white to vermillion, white at the middle of the range.
QCPColorGradient divergingGradient();

// `font` with its point size times `factor` (titles larger, cell numbers smaller).
QFont scaledFont(QFont font, double factor);

// The tick label rotation of a category axis: −45° for more than `uprightUpTo` Latin labels, so
// long words do not overlap; 0 (upright) otherwise, and always when a label has a CJK character.
double tickLabelRotation(const QStringList& labels, int uprightUpTo);

class ColorMapPlot {
public:
    QCustomPlot* plot() const { return plot_; }
    QCPColorScale* colourScale() const { return scale_; }
    void setGradient(const QCPColorGradient& gradient);  // viridis until set

protected:
    // Sets the plot up as described above; `scaleLabel` names what the colours mean.
    ColorMapPlot(QCustomPlot* plot, const QString& scaleLabel);
    ~ColorMapPlot() = default;  // the plot owns the items; never deleted through the base

    // The map's own cells as a rows×cols matrix (row r: value index r, column c: key index c),
    // written in place: no second T×T of doubles beside them, no cell-by-cell copy (at 4,096
    // tokens 128 MB and 16.7 M calls). resizeCells keeps the storage when the size is the same;
    // after writing, cellsWritten() has the image redrawn from them.
    Eigen::Map<Mat> resizeCells(Eigen::Index rows, Eigen::Index cols);
    Eigen::Map<const Mat> cells() const;
    void cellsWritten();
    // No cells drawn (cells() empty) until the next resizeCells, their storage and image kept: a
    // long run's layer between switches, whose next map has the same size. QCustomPlot allocates
    // and zero-fills both anew for any other size (at 4,096 tokens 128 + 64 MB of fresh pages,
    // 0.4 s of the GUI thread in a switch).
    void hideCells();

    QCustomPlot* plot_;
    QCPColorMap* map_ = nullptr;
    QCPColorScale* scale_ = nullptr;
    QCPTextElement* title_ = nullptr;
    bool cellsHidden_ = false;
};

}  // namespace attnscope
