#pragma once
// The attention heatmaps: one head, or every head side by side, in as many rows as the width
// needs (a plot never narrower than its title, which is never cut). One HeatmapBuilder per plot;
// hovering a cell shows its exact weight. Every plot shows the same window of rows and columns
// (zoomed and panned together, kept while the layer or head changes), the same found tokens and
// the same colour scale, chosen in the HeatmapTools row.
#include <QImage>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "core/trace/trace.hpp"
#include "ui/attention/heatmap_builder.hpp"

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QGridLayout;
class QScrollArea;

namespace attnscope {

class HeatmapTools;

class HeatmapView : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapView(QWidget* parent = nullptr);
    ~HeatmapView() override;

    void showTrace(const Trace& trace, int layer, int decimals);
    void setHead(int head);
    void setAllHeads(bool all);
    // Hidden tokens, aggregate, colour scale; drawn at the next showTrace or when shown.
    void setOptions(const AttentionViewOptions& options);
    int head() const { return head_; }
    // The one head its next drawing reads (0-based); none when it draws every head side by side or
    // an average or maximum over heads (TraceSource::setEarlyHeads).
    std::vector<int> headsDrawnAlone() const;
    std::vector<int> headsDrawn() const;  // every head the drawing on screen reads; none before one
    // `trace` holds the cells on screen (sameWeightsShown): the view reads it from now on and draws
    // nothing again (a 4,096-token head is 16 M cells, about 0.2 s on the GUI thread).
    void keepCellsFor(const Trace& trace);
    bool allHeads() const { return allHeads_; }

    // What is drawn, for tests and PNG export.
    std::vector<const HeatmapBuilder*> builders() const;
    QCustomPlot* firstPlot() const;
    QImage renderImage() const;  // the whole row of plots, for the PNG export (writePngFile)
    // An exported figure: renderImage() under a title band naming `source` (the model or lesson),
    // the layer counted from 1 as everywhere for people, and the head or heads drawn.
    QImage renderFigure(const QString& source, int layerNumber) const;
    QString figureTitle(const QString& source, int layerNumber) const;
    QComboBox* headBox() const { return headBox_; }
    // The head drawn under `point` (this widget's coordinates); nullopt off the plots or on an
    // average / maximum of heads.
    std::optional<HeadRef> headAt(QPoint point) const;
    QCheckBox* allHeadsBox() const { return allBox_; }

    // Zoom and pan (every plot), back to every token, and the tokens matching the find box.
    void zoomTo(const HeatmapWindow& window);
    void resetZoom();
    HeatmapTools* tools() const { return tools_; }
    const std::vector<int>& matches() const { return matches_; }
    int currentMatch() const { return current_; }  // index into matches(), −1 when none

signals:
    void headChanged(int head);

protected:
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild();
    void ensureBuilt() const;  // the plots are a cache of the trace, rebuilt when stale
    void clearPlots();
    void providePlots(int count, QSize minimum);
    QCustomPlot* addPlot(QSize minimum);
    int columnsThatFit() const;
    void placePlots();  // in rows of columnsThatFit(), kept when the count is the same
    void layOutHidden();
    void restoreWindow();  // the kept window on freshly built plots, when the tokens still fit
    void showWindow();     // the range boxes follow the window
    void find();
    void stepMatch(int delta);
    void highlight();

    const Trace* trace_ = nullptr;
    int layer_ = 0;
    int decimals_ = 3;
    int head_ = 0;
    bool allHeads_ = false;
    bool dirty_ = false;
    AttentionViewOptions options_;
    std::optional<HeatmapWindow> window_;  // none: every token
    std::vector<int> matches_;
    int current_ = -1;
    HeatmapTools* tools_ = nullptr;
    QComboBox* headBox_ = nullptr;
    QCheckBox* allBox_ = nullptr;
    QScrollArea* scroll_ = nullptr;  // more rows of heads than the height holds scroll
    QWidget* plotsArea_ = nullptr;
    QGridLayout* plotsGrid_ = nullptr;
    int columns_ = 0;
    std::vector<std::unique_ptr<HeatmapBuilder>> builders_;
};

}  // namespace attnscope
