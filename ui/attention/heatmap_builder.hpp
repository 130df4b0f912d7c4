#pragma once
// Builds one attention heatmap into one QCustomPlot: rows are query tokens (top row = first
// token), columns are the tokens attended to, colour on a fixed [0, 1] viridis scale. It records
// what it drew so tests can check the picture without reading pixels.
#include <QPointF>
#include <QStringList>
#include <vector>

#include "core/trace/trace.hpp"
#include "ui/attention/attention_options.hpp"

class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QCPColorGradient;
class QCPTextElement;

namespace attnscope {

struct DrawnCell {
    int row = 0;  // query token
    int col = 0;  // attended-to token
    double value = 0;
};

// A perceptual, colour-blind-safe gradient: viridis sampled at ten stops.
QCPColorGradient viridisGradient();

class HeatmapBuilder {
public:
    explicit HeatmapBuilder(QCustomPlot* plot);

    // Draws one head's weights, or the heads' average / maximum, with the options' hidden
    // tokens, renormalisation and colour scale (all computed by core/analysis/head_summary).
    void build(const Trace& trace, int layer, int head, int decimals, const AttentionViewOptions& options = {});
    double scaleMax() const { return scaleMax_; }  // the colour scale's top

    // "query → key: weight" for a point in plot pixels; empty outside the cells.
    QString hoverText(const QPointF& pixel) const;

    QCustomPlot* plot() const { return plot_; }
    const std::vector<DrawnCell>& drawnCells() const { return cells_; }
    const QStringList& keyLabels() const { return keyLabels_; }      // x axis, left to right
    const QStringList& queryLabels() const { return queryLabels_; }  // y axis, top to bottom
    int head() const { return head_; }
    int valueLabelCount() const { return valueLabels_; }  // numbers printed inside cells

private:
    void setAxes(const QStringList& labels);
    void printValues(int decimals);

    QCustomPlot* plot_;
    QCPColorMap* map_ = nullptr;
    QCPColorScale* scale_ = nullptr;
    QCPTextElement* title_ = nullptr;
    std::vector<DrawnCell> cells_;
    QStringList keyLabels_;
    QStringList queryLabels_;
    int head_ = 0;
    double scaleMax_ = 1;
    int decimals_ = 3;
    int valueLabels_ = 0;
};

}  // namespace attnscope
