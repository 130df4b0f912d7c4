#pragma once
// Zoom and pan of one heatmap plot with the mouse: the wheel zooms around the cursor, a left drag
// draws a rubber band to zoom into, a middle drag (or Shift + left drag) pans, a double-click
// resets. Rows and columns keep the same span, so cells keep their shape. It only asks for a
// window: the view applies it to every head's plot, which keeps them in step.
#include <QObject>
#include <QPoint>

#include "ui/attention/heatmap_builder.hpp"

class QMouseEvent;
class QRubberBand;
class QWheelEvent;

namespace attnscope {

// `window` zoomed by `factor` (< 1 zooms in) around the cell coordinates (key, query): the point
// under the cursor stays where it is.
HeatmapWindow zoomedAround(const HeatmapWindow& window, double key, double query, double factor);

// The window a rubber band of `pixels` asks for on `plot`: its larger side, on both axes, around
// the band's centre.
HeatmapWindow bandWindow(const QCustomPlot& plot, const QRect& pixels);

class HeatmapMouse : public QObject {
    Q_OBJECT
public:
    HeatmapMouse(QCustomPlot* plot, const HeatmapBuilder& builder);

signals:
    void windowRequested(attnscope::HeatmapWindow window);
    void resetRequested();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    bool wheel(const QWheelEvent& event);
    bool press(const QMouseEvent& event);
    bool move(const QMouseEvent& event);
    bool release(const QMouseEvent& event);

    QCustomPlot* plot_;
    const HeatmapBuilder& builder_;
    QRubberBand* band_ = nullptr;  // shown while a left drag selects a window
    QPoint bandStart_;
    bool panning_ = false;
    QPointF panFrom_;
    HeatmapWindow panStart_;
};

}  // namespace attnscope
