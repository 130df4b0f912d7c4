#include "ui/attention/heatmap_mouse.hpp"

#include <QMouseEvent>
#include <QRubberBand>
#include <QWheelEvent>
#include <cmath>

namespace attnscope {

namespace {

// One wheel notch (120 eighths of a degree) shows 80% of the span, the next 80% of that, …
constexpr double kZoomPerNotch = 0.8;
// A rubber band smaller than this (pixels, either side) was a click, not a selection.
constexpr int kMinBand = 5;

QCPRange scaledAround(const QCPRange& r, double center, double factor) {
    return {center + (r.lower - center) * factor, center + (r.upper - center) * factor};
}

}  // namespace

HeatmapWindow zoomedAround(const HeatmapWindow& window, double key, double query, double factor) {
    return {scaledAround(window.keys, key, factor), scaledAround(window.queries, query, factor)};
}

HeatmapWindow bandWindow(const QCustomPlot& plot, const QRect& pixels) {
    const QRect r = pixels.normalized();
    const double x1 = plot.xAxis->pixelToCoord(r.left()), x2 = plot.xAxis->pixelToCoord(r.right());
    const double y1 = plot.yAxis->pixelToCoord(r.top()), y2 = plot.yAxis->pixelToCoord(r.bottom());
    const double half = std::max(std::abs(x2 - x1), std::abs(y2 - y1)) / 2;
    const double cx = (x1 + x2) / 2, cy = (y1 + y2) / 2;
    return {QCPRange(cx - half, cx + half), QCPRange(cy - half, cy + half)};
}

HeatmapMouse::HeatmapMouse(QCustomPlot* plot, const HeatmapBuilder& builder)
    : QObject(plot), plot_(plot), builder_(builder) {
    plot_->installEventFilter(this);
}

bool HeatmapMouse::eventFilter(QObject* watched, QEvent* event) {
    if (watched != plot_) return false;
    switch (event->type()) {
        case QEvent::Wheel: return wheel(static_cast<const QWheelEvent&>(*event));
        case QEvent::MouseButtonPress: return press(static_cast<const QMouseEvent&>(*event));
        case QEvent::MouseMove: return move(static_cast<const QMouseEvent&>(*event));
        case QEvent::MouseButtonRelease: return release(static_cast<const QMouseEvent&>(*event));
        case QEvent::MouseButtonDblClick:
            emit resetRequested();
            return true;
        default: return false;
    }
}

bool HeatmapMouse::wheel(const QWheelEvent& event) {
    const int delta = event.angleDelta().y();
    if (delta == 0) return false;
    const QPointF at = event.position();
    const double factor = std::pow(kZoomPerNotch, delta / 120.0);
    emit windowRequested(zoomedAround(builder_.window(), plot_->xAxis->pixelToCoord(at.x()),
                                      plot_->yAxis->pixelToCoord(at.y()), factor));
    return true;
}

bool HeatmapMouse::press(const QMouseEvent& event) {
    const bool pan = event.button() == Qt::MiddleButton ||
                     (event.button() == Qt::LeftButton && event.modifiers() & Qt::ShiftModifier);
    if (pan) {
        panning_ = true;
        panFrom_ = event.position();
        panStart_ = builder_.window();
        return true;
    }
    if (event.button() != Qt::LeftButton) return false;
    if (!band_) band_ = new QRubberBand(QRubberBand::Rectangle, plot_);
    bandStart_ = event.position().toPoint();
    band_->setGeometry(QRect(bandStart_, QSize()));
    band_->show();
    return true;
}

bool HeatmapMouse::move(const QMouseEvent& event) {
    if (panning_) {
        const QPointF p = event.position();
        const double dk = plot_->xAxis->pixelToCoord(p.x()) - plot_->xAxis->pixelToCoord(panFrom_.x());
        const double dq = plot_->yAxis->pixelToCoord(p.y()) - plot_->yAxis->pixelToCoord(panFrom_.y());
        emit windowRequested({panStart_.keys - dk, panStart_.queries - dq});
        return true;
    }
    if (band_ && band_->isVisible()) {
        band_->setGeometry(QRect(bandStart_, event.position().toPoint()).normalized());
        return true;
    }
    return false;  // hovering: the plot's mouseMove shows the cell's weight
}

bool HeatmapMouse::release(const QMouseEvent& event) {
    if (panning_) {
        panning_ = false;
        return true;
    }
    if (!band_ || !band_->isVisible()) return false;
    band_->hide();
    const QRect rect = QRect(bandStart_, event.position().toPoint()).normalized();
    if (rect.width() >= kMinBand || rect.height() >= kMinBand) emit windowRequested(bandWindow(*plot_, rect));
    return true;
}

}  // namespace attnscope
