#pragma once
// Part of HeadView (a friend of it): paints both token columns and the lines.
#include <QWidget>
#include <algorithm>

#include "ui/attention/head_view.hpp"

namespace attnscope {

// Paints both token columns and the lines: the visible part of HeadView's cached picture, the
// hovered token's lines over it, and the visible token labels.
class TokenLinesCanvas : public QWidget {
public:
    explicit TokenLinesCanvas(HeadView* view) : QWidget(view), view_(view) {
        setMouseTracking(true);
        setAttribute(Qt::WA_OpaquePaintEvent);
    }
    void relayout();
    int rowCentre(int row) const { return top_ + row * HeadView::kRowHeight + HeadView::kRowHeight / 2; }
    QRect cellRect(HoveredToken::Side side, int row) const;
    QRect band() const { return QRect(lineLeft(), 0, std::max(lineRight() - lineLeft(), 1), height()); }
    HeadView::ImageKey currentKey() const {
        return {view_->linesGeneration_, band().width(), height(), top_, devicePixelRatioF(), palette().color(QPalette::Base).rgb()};
    }
    int top() const { return top_; }
    // What the last paint showed of the lines (HeadView::paintedLineCount counts them): which
    // set, over which part of the band. Source None while a picture is still being made.
    struct Painted {
        enum Source { None, Picture, HoverPicture, HoverLines } source = None;
        QRect area;
    };
    const Painted& painted() const { return painted_; }
    static constexpr int kPad = 8;  // px around the two token columns

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent*) override { view_->setHoveredToken(std::nullopt); }

private:
    void paintHeaders(QPainter& p);
    void paintTokens(QPainter& p, int firstRow, int lastRow);
    void paintHoverBoxes(QPainter& p, int firstRow, int lastRow);
    void paintLines(QPainter& p, const QRect& exposed);
    bool paintPicture(QPainter& p, const QRect& area, const HeadView::ImageKey& key);
    void paintHoverPicture(QPainter& p, const QRect& area, const HeadView::ImageKey& key, bool pictureCurrent);
    void paintHoverLines(QPainter& p, const QRect& area);
    void blit(QPainter& p, const QRect& area, const QImage& image, double sx, double sy) const;
    void dim(QPainter& p, const QRect& area, int alpha) const;
    void paintStatus(QPainter& p, const QString& text);
    int lineLeft() const { return kPad + textWidth_ + 4; }
    int lineRight() const { return width() - kPad - textWidth_ - 4; }

    HeadView* view_;
    int textWidth_ = 60;
    int top_ = 24;
    Painted painted_;
};

}  // namespace attnscope
