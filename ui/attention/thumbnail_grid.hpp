#pragma once
// The model view's single painted widget holding every thumbnail (internal to the model view).
// Geometry lives in ModelView::thumbs_; the images it paints are ModelView::scaled_, already at
// the thumbnail size.
#include <QObject>
#include <QWidget>

class QPainter;

#include "ui/attention/model_view.hpp"

namespace attnscope {

inline constexpr int kThumbnailGap = 6;  // px between thumbnails

inline QString aggregateName(AttentionViewOptions::Aggregate a) {
    return a == AttentionViewOptions::Max ? QObject::tr("max") : QObject::tr("mean");
}

class ThumbnailGrid : public QWidget {
public:
    explicit ThumbnailGrid(ModelView* view) : QWidget(view), view_(view) {
        setMouseTracking(true);
        setAttribute(Qt::WA_OpaquePaintEvent);
    }
    QPoint labelOrigin;  // top-left of the first thumbnail

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent*) override { setHovered(-1); }
    bool event(QEvent* event) override;

private:
    void paintLabels(QPainter& p, const QRect& exposed);
    void paintThumbnail(QPainter& p, std::size_t i);
    void paintBadge(QPainter& p, const QRect& thumb, const QString& text);
    void paintHeadTag(QPainter& p, const QRect& thumb, int head);
    void setHovered(int index) {
        if (index == hovered_) return;
        const auto& thumbs = view_->thumbs_;
        const auto rectOf = [&](int i) { return thumbs[static_cast<std::size_t>(i)].rect.adjusted(-3, -3, 3, 3); };
        if (hovered_ >= 0 && hovered_ < static_cast<int>(thumbs.size())) update(rectOf(hovered_));
        hovered_ = index;
        if (hovered_ >= 0) update(rectOf(hovered_));
    }
    int indexAt(QPoint pos) const;

    ModelView* view_;
    int hovered_ = -1;
};

}  // namespace attnscope
