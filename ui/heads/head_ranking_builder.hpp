#pragma once
// Builds the coreference ranking into one QCustomPlot: a layers × heads heatmap of each head's
// antecedent accuracy on a coreference set (rows = layers, layer 1 on top; columns = heads),
// colour on a fixed [0, 1] viridis scale, the percentage printed in each cell when they fit.
// The numbers come from core's CorefEvaluation; this only draws them and records what it drew
// (drawnCells) for tests. It also renders the plot as PNG, SVG and PDF bytes for exports.
#include <QByteArray>
#include <QPointF>
#include <optional>
#include <vector>

#include "core/analysis/coref_eval.hpp"
#include "ui/attention/heatmap_builder.hpp"

class QCPItemRect;
class QCPRange;

namespace attnscope {

class HeadRankingBuilder : public ColorMapPlot {
public:
    explicit HeadRankingBuilder(QCustomPlot* plot);

    // `title` says what was evaluated (model and set); "\n" starts a new line.
    void build(const CorefEvaluation& evaluation, const QString& title);
    void clear(const QString& message);  // nothing evaluated (yet)
    void selectHead(std::optional<HeadRef> head);  // a frame around the cell; nullopt: none

    // The head under a point in plot pixels; nothing outside the cells.
    std::optional<HeadRef> headAt(const QPointF& pixel) const;
    // The centre of a head's cell in plot pixels (tests click there).
    QPointF pixelOf(const HeadRef& head) const;
    QString hoverText(const QPointF& pixel) const;

    // "png", "svg" or "pdf" (plotFigureBytes) at the plot's size, at least 640×480; else empty.
    QByteArray figureBytes(const QString& format) const;

    // row = layer, col = head, value = accuracy (0 to 1).
    const std::vector<DrawnCell>& drawnCells() const { return cells_; }
    int layers() const { return layers_; }
    int heads() const { return heads_; }
    std::optional<HeadRef> selectedHead() const { return selected_; }
    int valueLabelCount() const { return valueLabels_; }

private:
    void setAxes();
    void setTitle(const QString& text, const QFont& font);
    void wrapTitle() const;  // titleText_ in lines that fit the plot's width
    void printValues();
    static int gridSize(int count);
    static QCPRange gridRange(int count);
    void setGridCell(int head, int layer, double value);

    QCPItemRect* frame_ = nullptr;  // around the selected cell
    std::vector<DrawnCell> cells_;
    std::vector<int> correct_;  // parallel to cells_, for the hover text
    int evaluated_ = 0;
    int layers_ = 0, heads_ = 0;
    std::optional<HeadRef> selected_;
    int valueLabels_ = 0;
    QString titleText_;  // as given, before wrapTitle broke it
};

}  // namespace attnscope
