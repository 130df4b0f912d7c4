#pragma once
// Builds one attention heatmap into one QCustomPlot: rows are query tokens (top row = first
// token), columns are the tokens attended to, colour on a fixed [0, 1] viridis scale. It records
// what it drew so tests can check the picture without reading pixels.
#include <QPointF>
#include <QStringList>
#include <vector>

#include "core/trace/trace.hpp"
#include "ui/attention/attention_options.hpp"
#include "ui/common/color_map_plot.hpp"

namespace attnscope {

// Drawn cells: row = query token, col = attended-to token.
class HeatmapBuilder : public ColorMapPlot {
public:
    explicit HeatmapBuilder(QCustomPlot* plot);

    // Draws one head's weights, or the heads' average / maximum, with the options' hidden
    // tokens, renormalisation and colour scale (all computed by core/analysis/head_summary).
    void build(const Trace& trace, int layer, int head, int decimals, const AttentionViewOptions& options = {});
    double scaleMax() const { return scaleMax_; }  // the colour scale's top

    // "query → key: weight" for a point in plot pixels; empty outside the cells.
    QString hoverText(const QPointF& pixel) const;

    const std::vector<DrawnCell>& drawnCells() const { return cells_; }
    const QStringList& keyLabels() const { return keyLabels_; }      // x axis, left to right
    const QStringList& queryLabels() const { return queryLabels_; }  // y axis, top to bottom
    int head() const { return head_; }
    int valueLabelCount() const { return valueLabels_; }  // numbers printed inside cells

private:
    void setAxes(const QStringList& labels);
    void printValues(int decimals);

    std::vector<DrawnCell> cells_;
    QStringList keyLabels_;
    QStringList queryLabels_;
    int head_ = 0;
    double scaleMax_ = 1;
    int decimals_ = 3;
    int valueLabels_ = 0;
};

}  // namespace attnscope
