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
        setFocusPolicy(Qt::ClickFocus);  // Esc and the scroll keys after a click
    }
    void relayout();
    int rowHeight() const { return rowHeight_; }
    int rowCentre(int row) const { return top_ + row * rowHeight_ + rowHeight_ / 2; }
    int rowAt(int y) const {
        return std::clamp((y - top_) / rowHeight_, 0, std::max(static_cast<int>(view_->keep_.size()) - 1, 0));
    }
    QRect cellRect(HoveredToken::Side side, int row) const;
    QColor hoverFill() const;  // behind the hovered token's label
    QRect band() const { return QRect(lineLeft(), 0, std::max(lineRight() - lineLeft(), 1), height()); }
    HeadView::ImageKey currentKey() const;
    int windowHeight() const;  // of a long input's picture, canvas px
    HeadView::ImageKey windowAroundSeen(HeadView::ImageKey key) const;
    void drawAhead(const HeadView::ImageKey& shown);
    int top() const { return top_; }
    // What the last paint showed of the lines (HeadView::paintedLineCount counts them): which
    // set, over which part of the band (source None while a picture is still being made); the
    // token labels; where lines leave the visible rows.
    struct Painted {
        enum Source { None, Picture, HoverPicture, HoverLines } source = None;
        QRect area;
        std::vector<HeadViewLabel> labels;
        EdgeMarks edges;
    };
    const Painted& painted() const { return painted_; }
    static constexpr int kPad = 8;  // px around the two token columns

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;  // a token: it becomes the focus (again: none)
    void changeEvent(QEvent* event) override;           // a new font (View ▸ Zoom): new row heights
    void leaveEvent(QEvent*) override { view_->setHoveredToken(std::nullopt); }

private:
    void paintHeaders(QPainter& p);
    void paintTokens(QPainter& p, int firstRow, int lastRow);
    void paintHoverBoxes(QPainter& p, int firstRow, int lastRow);
    void paintLines(QPainter& p, const QRect& exposed);
    bool paintPicture(QPainter& p, const QRect& area, const HeadView::ImageKey& key);
    void paintHoverPicture(QPainter& p, const QRect& area, const HeadView::ImageKey& key, bool pictureCurrent);
    void paintHoverLines(QPainter& p, const QRect& area);
    void blit(QPainter& p, const QRect& area, const QImage& image, const HeadView::ImageKey& of) const;
    void dim(QPainter& p, const QRect& area, int alpha) const;
    void paintStatus(QPainter& p, const QString& text);
    void paintEdges(QPainter& p);
    std::optional<HoveredToken> tokenAt(QPoint pos) const;
    int lineLeft() const { return kPad + textWidth_ + 4; }
    int lineRight() const { return width() - kPad - textWidth_ - 4; }

    HeadView* view_;
    int textWidth_ = 60;
    int top_ = 24;
    int rowHeight_ = HeadView::kRowHeight;
    Painted painted_;
    // The few-lines hover frame is drawn into this, kept between frames and made (its pages
    // touched) by a paint without hover: a fresh 4 MB image a mouse move cost ~800 page faults,
    // 10-25 ms of a frame, whenever malloc had handed the last one back.
    QImage hoverScratch_;
    void reserveHoverScratch(QSize size);
    QImage hoverFrame(QSize size);  // hoverScratch_'s top-left `size`, the same memory
};

}  // namespace attnscope
