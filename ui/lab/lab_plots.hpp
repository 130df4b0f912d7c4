#pragma once
// Builders for the teaching lab's QCustomPlot views. Each draws numbers computed by core/lab and
// records what it drew, so tests compare the picture with core's numbers instead of pixels.
#include <QColor>
#include <QFont>
#include <QList>
#include <QMetaObject>
#include <QPointer>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <optional>
#include <utility>
#include <vector>

#include "core/base/matrix.hpp"
#include "core/trace/trace.hpp"
#include "ui/common/color_map_plot.hpp"

class QCustomPlot;
class QCPColorMap;
class QCPItemText;
class QCPTextElement;

namespace attnscope {

// Any matrix as a heatmap: row 0 on top, colour over [low, high] (viridis); ±∞ cells take the
// colour of the range's end (a mask's −∞ is the darkest), and drawn() keeps them as they are.
class MatrixPlotBuilder : public ColorMapPlot {
public:
    explicit MatrixPlotBuilder(QCustomPlot* plot);
    struct Range { double low = 0, high = 1; };
    // Empty labels number the rows / columns from 1 instead.
    void build(const Mat& m, const QString& title, const QStringList& rowLabels, const QStringList& columnLabels,
               Range colours, const QString& scaleLabel);
    void setAxisTitles(const QString& x, const QString& y);
    // From the next build on, print each cell's number with `decimals` decimals ("−∞" spelled out)
    // when the matrix has at most kMaxCellsWithValues cells and kMaxColumnsWithValues columns (more
    // would not be legible); a negative value prints none (the default).
    void setCellNumbers(int decimals);
    const QStringList& cellTexts() const { return cellTexts_; }  // row-major, as printed
    // The (row, column) of the cell under a pixel of the plot; nullopt outside the matrix.
    std::optional<std::pair<int, int>> cellAt(const QPointF& pixel) const;
    QPointF cellCentre(int row, int col) const;  // in plot pixels (for clicks in tests)
    static constexpr int kMaxCellsWithValues = 256;
    static constexpr int kMaxColumnsWithValues = 8;
    static constexpr double kSmallestCellPoints = 7;  // smaller cells show no numbers (fitCellNumbers)

    const Mat& drawn() const { return drawn_; }  // cell (row, col) as drawn
    QString title() const;
    const QStringList& rowLabels() const { return rowLabels_; }
    const QStringList& columnLabels() const { return columnLabels_; }

private:
    void setAxis(bool columns, const QStringList& labels, int count);
    void printCells(Range colours);

    Mat drawn_;
    QStringList rowLabels_, columnLabels_;
    int cellDecimals_ = -1;
    QStringList cellTexts_;
    QMetaObject::Connection fitNumbers_, fitColumnLabels_;
};

// The printed numbers of `map`'s cells fitted to the cells' size in pixels (MatrixPlotBuilder).
void fitCellNumbers(const QCPColorMap& map, const QList<QPointer<QCPItemText>>& items, QFont font);

// A colour range symmetric around 0 that covers every entry of m: signs read the same in every plot.
MatrixPlotBuilder::Range symmetricRange(const Mat& m);

// The tokens' texts, as row and column labels.
QStringList tokenLabels(const Trace& trace);

// One named series of (x, y) points as drawn.
struct DrawnSeries {
    QString name;
    std::vector<double> x, y;
    enum Style { Line, Points, Steps } style = Line;
};

// Curves, scattered points and histogram steps on one pair of axes (optionally logarithmic).
class CurvePlotBuilder {
public:
    explicit CurvePlotBuilder(QCustomPlot* plot);
    void begin(const QString& title, const QString& xLabel, const QString& yLabel, bool logX = false, bool logY = false);
    void add(const DrawnSeries& series, const QColor& colour);
    void setXLabels(const QStringList& labels);  // text at x = 0, 1, 2, … (after begin)
    void setLegendCorner(Qt::Alignment corner);  // where the legend does not hide the data
    // Rows of their own under the axes, `perRow` entries a row (0: all in one): never over a point,
    // whatever the data.
    void setLegendBelow(int perRow = 0);
    void finish();  // fits the axes, shows the legend, replots

    QCustomPlot* plot() const { return plot_; }
    const std::vector<DrawnSeries>& series() const { return series_; }
    const DrawnSeries* find(const QString& name) const;
    QString title() const;

private:
    QCustomPlot* plot_;
    QCPTextElement* title_ = nullptr;
    std::vector<DrawnSeries> series_;
    int xLabels_ = 0;  // categories on x (0: a numeric axis)
    QMetaObject::Connection fitXLabels_;
};

// The colours the lab uses for two compared settings (colour-blind safe: Okabe–Ito).
QColor labColour(int index);

}  // namespace attnscope
