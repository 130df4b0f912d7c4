#include "ui/lab/plot_cards.hpp"

#include <qcustomplot.h>

#include "ui/lab/figure_export.hpp"
#include "ui/lab/lab_plots.hpp"

namespace attnscope {

QWidget* matrixCard(QWidget* parent, std::unique_ptr<MatrixPlotBuilder>& builder, const QString& name, QSize minimum) {
    auto* plot = new QCustomPlot(parent);
    builder = std::make_unique<MatrixPlotBuilder>(plot);
    const MatrixPlotBuilder* drawn = builder.get();
    return plotCard(parent, plot, name, minimum, [drawn] { return &drawn->drawn(); });
}

QWidget* curveCard(QWidget* parent, std::unique_ptr<CurvePlotBuilder>& builder, const QString& name, QSize minimum) {
    auto* plot = new QCustomPlot(parent);
    builder = std::make_unique<CurvePlotBuilder>(plot);
    return plotCard(parent, plot, name, minimum);
}

}  // namespace attnscope
