#include "ui/lab/lab_plots.hpp"

#include <QFontMetricsF>
#include <QPointer>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

#include "core/trace/explain.hpp"
#include "ui/attention/heatmap_builder.hpp"
#include "ui/common/plot_font.hpp"
#include "ui/common/qt_text.hpp"
#include "ui/common/theme_colors.hpp"

namespace attnscope {

namespace {

// Where QCPColorMapData puts the first and last cell centres of `count` cells at 0, 1, 2, …. A single
// cell gets ±0.5: QCustomPlot draws a one-cell dimension with the width of its range, and a
// range of zero width would not be drawn at all.
QCPRange cellCentres(int count) { return count > 1 ? QCPRange(0, count - 1) : QCPRange(-0.5, 0.5); }

// Whole row / column numbers as people count them: the first row is 1 (the cell at coordinate 0).
// Only as many as fit the axis with a gap as wide as a number: at a projector's zoom "1 6 11 16"
// along a narrow axis printed as "1611162126".
class CountFromOneTicker : public QCPAxisTickerFixed {
public:
    explicit CountFromOneTicker(const QCPAxis& axis) : axis_(axis) {}

protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override {
        return QCPAxisTickerFixed::getTickLabel(tick + 1, locale, formatChar, precision);
    }
    double getTickStep(const QCPRange& range) override {
        const QFontMetricsF metrics(axis_.tickLabelFont());
        const bool across = axis_.orientation() == Qt::Horizontal && axis_.tickLabelRotation() == 0;
        const double number = across ? metrics.horizontalAdvance(QString::number(std::ceil(range.upper) + 1)) : metrics.height();
        const double length = axis_.orientation() == Qt::Horizontal ? axis_.axisRect()->width() : axis_.axisRect()->height();
        if (length > 0) setTickCount(std::max(2, static_cast<int>(length / (2 * number))));
        return QCPAxisTickerFixed::getTickStep(range);
    }

private:
    const QCPAxis& axis_;
};

// Few short x labels stand upright, side by side; as soon as they would not fit their columns
// (narrow cards, a larger zoom: "catschasemice") they slant as long lists do, and CJK characters,
// upright whenever they fit (tickLabelRotation), turn on their side. Decided at each layout, when
// the axis's width is known; returns the connection that does it, replacing `previous`.
QMetaObject::Connection uprightLabelsWhenTheyFit(QCustomPlot& plot, const QStringList& labels,
                                                 const QMetaObject::Connection& previous) {
    QObject::disconnect(previous);
    const double rotation = tickLabelRotation(labels, 5);
    plot.xAxis->setTickLabelRotation(rotation);
    if (rotation != 0 || labels.isEmpty()) return {};  // already slanted
    return QObject::connect(&plot, &QCustomPlot::afterLayout, &plot, [plot = &plot, labels] {
        const QFontMetricsF metrics(plot->xAxis->tickLabelFont());
        double widest = 0;
        for (const QString& label : labels) widest = std::max(widest, metrics.horizontalAdvance(label));
        const bool fits = widest + metrics.averageCharWidth() <= static_cast<double>(plot->axisRect()->width()) / labels.size();
        const bool cjk = std::any_of(labels.begin(), labels.end(), [](const QString& l) { return containsCjk(l); });
        const double wanted = fits ? 0 : cjk ? 90 : -45;  // a slanted character reads worse than one on its side
        if (plot->xAxis->tickLabelRotation() == wanted) return;
        plot->xAxis->setTickLabelRotation(wanted);
        plot->replot(QCustomPlot::rpQueuedReplot);  // the slant changes the margins: lay out again
    });
}

QCPTextElement* addTitle(QCustomPlot* plot) {
    plot->plotLayout()->insertRow(0);
    auto* title = new QCPTextElement(plot, QString());
    QFont font = plot->font();
    font.setPointSizeF(font.pointSizeF() * 1.15);
    title->setFont(font);
    plot->plotLayout()->addElement(0, 0, title);
    return title;
}

}  // namespace

QColor labColour(int index) {
    static const QColor colours[] = {QColor("#0072B2"), QColor("#D55E00"), QColor("#009E73"),
                                     QColor("#CC79A7"), QColor("#E69F00"), QColor("#56B4E9")};
    return colours[index % 6];
}

MatrixPlotBuilder::MatrixPlotBuilder(QCustomPlot* plot) : ColorMapPlot(plot, QString()) {
    title_->setFont(scaledFont(plot_->font(), 1.15));
}

void MatrixPlotBuilder::build(const Mat& m, const QString& title, const QStringList& rowLabels,
                              const QStringList& columnLabels, Range colours, const QString& scaleLabel) {
    drawn_ = m;
    rowLabels_ = rowLabels;
    columnLabels_ = columnLabels;
    const int rows = static_cast<int>(m.rows()), cols = static_cast<int>(m.cols());
    map_->data()->setSize(cols, rows);
    map_->data()->setRange(cellCentres(cols), cellCentres(rows));
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            const double v = m(r, c);
            map_->data()->setCell(c, r, std::isinf(v) ? (v < 0 ? colours.low : colours.high) : v);
        }
    map_->setDataRange(QCPRange(colours.low, colours.high));
    scale_->setLabel(scaleLabel);
    setAxis(true, columnLabels, cols);
    setAxis(false, rowLabels, rows);
    title_->setText(title);
    printCells(colours);
    plot_->replot();
}

void MatrixPlotBuilder::setCellNumbers(int decimals) { cellDecimals_ = decimals; }

void MatrixPlotBuilder::printCells(Range colours) {
    plot_->clearItems();
    cellTexts_.clear();
    if (cellDecimals_ < 0 || drawn_.size() > kMaxCellsWithValues || drawn_.cols() > kMaxColumnsWithValues) return;
    const double shrink = drawn_.cols() > 4 ? 0.85 : 1.0;  // narrower cells
    const QFont font = scaledFont(plot_->font(), shrink);
    QList<QPointer<QCPItemText>> items;
    const double span = colours.high > colours.low ? colours.high - colours.low : 1.0;
    for (Eigen::Index r = 0; r < drawn_.rows(); ++r)
        for (Eigen::Index c = 0; c < drawn_.cols(); ++c) {
            const double v = drawn_(r, c);
            cellTexts_ << QString::fromStdString(formatNumber(v, cellDecimals_));
            auto* text = new QCPItemText(plot_);
            text->position->setCoords(static_cast<double>(c), static_cast<double>(r));
            text->setText(cellTexts_.back());
            text->setFont(font);
            // The ink that reads best on the cell's colour (viridis or the diverging map); ±∞ as before.
            const QColor cell = map_->gradient().color((v - colours.low) / span, QCPRange(0, 1));
            text->setColor(std::isinf(v) ? (v > 0 ? QColor(Qt::black) : QColor(Qt::white)) : theme::textOn(cell));
            text->setClipToAxisRect(true);
            items << text;
        }
    // Each layout (a resize, a zoom) fits the numbers to the cells' pixels: never over each other.
    QObject::disconnect(fitNumbers_);
    // The plot's font of the moment: a zoom changes it after the numbers were printed.
    fitNumbers_ = QObject::connect(plot_, &QCustomPlot::afterLayout, plot_, [plot = plot_, map = map_, items, shrink] {
        fitCellNumbers(*map, items, scaledFont(plot->font(), shrink));
    });
}

// The numbers in `font`, or smaller down to kSmallestCellPoints, when the widest fits its cell's
// width and a line its height; hidden when none does.
void fitCellNumbers(const QCPColorMap& map, const QList<QPointer<QCPItemText>>& items, QFont font) {
    const QPointF origin = map.coordsToPixels(0, 0), next = map.coordsToPixels(1, 1);
    const QSizeF cell(std::abs(next.x() - origin.x()), std::abs(next.y() - origin.y()));
    const auto fits = [&](const QFont& f) {
        const QFontMetricsF metrics(f);
        if (metrics.height() > cell.height()) return false;
        for (const QPointer<QCPItemText>& item : items)
            if (item && metrics.horizontalAdvance(item->text()) + 2 > cell.width()) return false;
        return true;
    };
    while (!fits(font) && font.pointSizeF() > MatrixPlotBuilder::kSmallestCellPoints)
        font.setPointSizeF(std::max(MatrixPlotBuilder::kSmallestCellPoints, font.pointSizeF() - 0.5));
    const bool shown = fits(font);
    for (const QPointer<QCPItemText>& item : items)
        if (item) {
            item->setFont(font);
            item->setVisible(shown);
        }
}

std::optional<std::pair<int, int>> MatrixPlotBuilder::cellAt(const QPointF& pixel) const {
    double x = 0, y = 0;
    map_->pixelsToCoords(pixel, x, y);
    const int col = static_cast<int>(std::lround(x)), row = static_cast<int>(std::lround(y));
    if (row < 0 || col < 0 || row >= drawn_.rows() || col >= drawn_.cols()) return std::nullopt;
    return std::pair{row, col};
}

QPointF MatrixPlotBuilder::cellCentre(int row, int col) const { return map_->coordsToPixels(col, row); }

void MatrixPlotBuilder::setAxisTitles(const QString& x, const QString& y) {
    plot_->xAxis->setLabel(x);
    plot_->yAxis->setLabel(y);
}

void MatrixPlotBuilder::setAxis(bool columns, const QStringList& labels, int count) {
    QCPAxis* axis = columns ? plot_->xAxis : plot_->yAxis;
    if (labels.isEmpty()) {  // whole row / column numbers from 1 only (multiples of 1, sparser when many)
        QSharedPointer<QCPAxisTickerFixed> ticker(new CountFromOneTicker(*axis));
        ticker->setTickStep(1.0);
        ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
        axis->setTicker(ticker);
    } else {
        QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
        for (int i = 0; i < labels.size(); ++i) ticker->addTick(i, labels[i]);
        axis->setTicker(ticker);
    }
    axis->setSubTicks(false);
    axis->setRange(-0.5, std::max(count, 1) - 0.5);
    if (columns) fitColumnLabels_ = uprightLabelsWhenTheyFit(*plot_, labels, fitColumnLabels_);
    else plot_->setProperty(kLabelledRows, static_cast<int>(labels.size()));  // tall enough for them (plot_font.hpp)
}

QString MatrixPlotBuilder::title() const { return title_->text(); }

QStringList tokenLabels(const Trace& trace) {
    QStringList labels;
    for (const Token& t : trace.tokens) labels << QString::fromStdString(t.text);
    return labels;
}

MatrixPlotBuilder::Range symmetricRange(const Mat& m) {
    const double top = std::max(m.size() > 0 ? m.cwiseAbs().maxCoeff() : 0.0, 1e-12);  // never an empty range
    return {-top, top};
}

CurvePlotBuilder::CurvePlotBuilder(QCustomPlot* plot) : plot_(plot) {
    title_ = addTitle(plot_);
    plot_->legend->setVisible(true);
    plot_->legend->setFont(plot_->font());  // as large as the tick labels: read from the back of a room
    theme::followTheme(plot_);  // axes, grid and the legend (on see-through paper) in the theme's colours
}

void CurvePlotBuilder::setLegendCorner(Qt::Alignment corner) {
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, corner);
}

void CurvePlotBuilder::setLegendBelow(int perRow) {
    plot_->legend->setWrap(perRow);  // before the fill order, which lays the entries out again
    QCPLayoutGrid* layout = plot_->plotLayout();
    if (layout->hasElement(layout->rowCount() - 1, 0) && layout->element(layout->rowCount() - 1, 0) == plot_->legend)
        return;
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    const int row = layout->rowCount();
    layout->addElement(row, 0, plot_->legend);
    layout->setRowStretchFactor(row, 0.001);  // as tall as its entries
    plot_->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot_->legend->setMargins(QMargins(4, 2, 4, 2));
}

void CurvePlotBuilder::begin(const QString& title, const QString& xLabel, const QString& yLabel, bool logX,
                             bool logY) {
    plot_->clearGraphs();
    series_.clear();
    xLabels_ = 0;
    title_->setText(title);
    plot_->xAxis->setLabel(xLabel);
    plot_->yAxis->setLabel(yLabel);
    const auto setScale = [](QCPAxis* axis, bool log) {
        axis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
        axis->setTicker(log ? QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog)
                            : QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        axis->setNumberFormat(log ? "eb" : "g");
        axis->setNumberPrecision(log ? 0 : 6);
    };
    setScale(plot_->xAxis, logX);
    setScale(plot_->yAxis, logY);
}

void CurvePlotBuilder::add(const DrawnSeries& series, const QColor& colour) {
    series_.push_back(series);
    QCPGraph* graph = plot_->addGraph();
    graph->setName(series.name);
    graph->setData(QVector<double>(series.x.begin(), series.x.end()), QVector<double>(series.y.begin(), series.y.end()),
                   true);
    QPen pen(colour);
    pen.setWidthF(series.style == DrawnSeries::Points ? 1.0 : 2.0);
    graph->setPen(pen);
    if (series.style == DrawnSeries::Line && series.x.size() <= 40)  // few points: mark each one
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colour, 5));
    if (series.style == DrawnSeries::Points) {
        graph->setLineStyle(QCPGraph::lsNone);
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, colour, 4));
    } else if (series.style == DrawnSeries::Steps) {
        graph->setLineStyle(QCPGraph::lsStepCenter);
        QColor fill = colour;
        fill.setAlpha(60);
        graph->setBrush(fill);
    }
}

void CurvePlotBuilder::setXLabels(const QStringList& labels) {
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int i = 0; i < labels.size(); ++i) ticker->addTick(i, labels[i]);
    plot_->xAxis->setTicker(ticker);
    xLabels_ = static_cast<int>(labels.size());
    fitXLabels_ = uprightLabelsWhenTheyFit(*plot_, labels, fitXLabels_);
}

void CurvePlotBuilder::finish() {
    plot_->rescaleAxes();
    if (xLabels_ > 0) plot_->xAxis->setRange(-0.5, xLabels_ - 0.5);  // half a category of room each side
    else plot_->xAxis->scaleRange(1.05, plot_->xAxis->range().center());
    const QCPRange y = plot_->yAxis->range();
    // A decade of room on a log axis, a tenth of the span on a linear one: no point on the frame.
    if (plot_->yAxis->scaleType() == QCPAxis::stLogarithmic) plot_->yAxis->setRange(y.lower / 10, y.upper * 10);
    else plot_->yAxis->scaleRange(1.1, y.center());
    plot_->replot();
}

const DrawnSeries* CurvePlotBuilder::find(const QString& name) const {
    for (const DrawnSeries& s : series_)
        if (s.name == name) return &s;
    return nullptr;
}

QString CurvePlotBuilder::title() const { return title_->text(); }

}  // namespace attnscope
