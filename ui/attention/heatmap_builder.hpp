#pragma once
// Builds one attention heatmap into one QCustomPlot: rows are query tokens (top row = first
// token), columns are the tokens attended to, colour on a viridis scale (the weight, the weight
// over its row's maximum, or its logarithm: the values come from core/analysis/head_summary).
// It can be zoomed to a window of rows and columns, thins its axis labels to what fits, and
// marks found tokens. It records what it drew so tests can check the picture without pixels.
#include <QColor>
#include <QPointF>
#include <QStringList>
#include <qcustomplot.h>
#include <vector>

#include "core/analysis/head_summary.hpp"
#include "core/trace/trace.hpp"
#include "ui/attention/attention_options.hpp"
#include "ui/attention/heatmap_labels.hpp"
#include "ui/common/color_map_plot.hpp"

namespace attnscope {

// What the colours show: the weight on [0, the options' scale maximum], each weight divided by
// its row's maximum, or the weight on a logarithmic scale from kLogColourFloor to 1.
enum class HeatmapColours { Weight, PerRow, Log };

// The rows (queries) and columns (keys) in view, in cell coordinates (token i spans i ± 0.5).
struct HeatmapWindow {
    QCPRange keys;
    QCPRange queries;
    bool operator==(const HeatmapWindow& o) const { return keys == o.keys && queries == o.queries; }
};

// Drawn cells: row = query token, col = attended-to token.
class HeatmapBuilder : public ColorMapPlot {
public:
    explicit HeatmapBuilder(QCustomPlot* plot);

    // Draws one head's weights, or the heads' average / maximum, with the options' hidden
    // tokens, renormalisation and colour scale (all computed by core/analysis/head_summary).
    void build(const Trace& trace, int layer, int head, int decimals, const AttentionViewOptions& options = {},
               HeatmapColours colours = HeatmapColours::Weight);
    double scaleMax() const { return scaleMax_; }  // the colour scale's top
    // Side by side, a long title (special tokens hidden…) is drawn on two lines, so plots stay narrow.
    void setTitleOnTwoLines(bool twoLines) { titleOnTwoLines_ = twoLines; }
    QString title() const;
    int titleWidth() const;  // pixels, its widest line in its font

    // "query (#i) → key (#j): weight" for a point in plot pixels; empty outside the cells.
    QString hoverText(const QPointF& pixel) const;

    // Zoom and pan: shows `window` (clamped to the cells), relabels the axes and replots.
    void setWindow(HeatmapWindow window);
    HeatmapWindow window() const;
    HeatmapWindow fullWindow() const;  // every row and column
    int tokenCount() const { return static_cast<int>(queryLabels_.size()); }  // rows (queries)
    int keyCount() const { return static_cast<int>(keyLabels_.size()); }      // columns: the source's under cross-attention
    // True once the labels were thinned for the axis rect as last laid out (a resize queues a
    // second replot that makes it true again).
    bool labelsUpToDate() const;
    // Lays the plot out for its widget's current size and thins the labels for it: a hidden
    // plot (the command line's export) gets no resize event, so exports call this first.
    void settle();

    // Outlines the rows and columns of `tokens` (indices into the labels); `current` stands out.
    void setHighlight(const std::vector<int>& tokens, int current);
    const std::vector<int>& highlighted() const { return highlighted_; }

    // Every cell with the weight it stands for, row by row (built on demand: tests and small maps).
    std::vector<DrawnCell> drawnCells() const;
    const QStringList& keyLabels() const { return keyLabels_; }      // x axis, left to right
    const QStringList& queryLabels() const { return queryLabels_; }  // y axis, top to bottom
    // The axis labels drawn at the last replot (thinned), with their pixel extents.
    const std::vector<DrawnLabel>& drawnKeyLabels() const { return drawnKeys_; }
    const std::vector<DrawnLabel>& drawnQueryLabels() const { return drawnQueries_; }
    int head() const { return head_; }
    int valueLabelCount() const { return valueLabels_; }  // numbers printed inside cells
    QColor cellColour(int row, int col) const;            // as the colour map paints it
    HeatmapColours colours() const { return colours_; }

private:
    void fillWeights(const LayerTrace& layer, int head, AttentionViewOptions::Aggregate aggregate,
                     const WeightSelection& selection);
    Eigen::Map<const Mat> weights() const;  // what the cells stand for
    void setColourScale(HeatmapColours colours);
    void setAxes(const QStringList& queries, const QStringList& keys);
    void relabel();
    void printValues(int decimals);

    bool titleOnTwoLines_ = false;
    // The weights the cells stand for (K×K, K×K_k under cross-attention; what hover and the printed
    // numbers read) when the cells hold their colours instead (per-row and log colours); empty else.
    Mat weights_;
    QStringList keyLabels_;
    QStringList queryLabels_;
    std::vector<int> positions_;     // 1-based positions of the rows' tokens in the sentence, for hoverText
    bool crossAttention_ = false;     // columns are the source's tokens, not the rows'
    std::vector<int> keyPositions_;  // the same of the columns' (the source's under cross-attention)
    std::vector<DrawnLabel> drawnKeys_;
    std::vector<DrawnLabel> drawnQueries_;
    std::vector<int> highlighted_;
    std::vector<QCPItemRect*> marks_;
    QSize labelledFor_;  // the axis rect size the labels were thinned for
    int relabelRounds_ = 0;  // replots queued in a row for a changed size: at most 2
    HeatmapColours colours_ = HeatmapColours::Weight;
    int head_ = 0;
    double scaleMax_ = 1;
    int decimals_ = 3;
    int valueLabels_ = 0;
};

}  // namespace attnscope
