#include "ui/common/color_map_plot.hpp"

#include <qcustomplot.h>

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
    map_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
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

}  // namespace attnscope
