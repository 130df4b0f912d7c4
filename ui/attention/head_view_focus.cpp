// HeadView: the hovered and the focus token, and the records of what the last paint drew.
#include <QKeyEvent>
#include <QScrollArea>
#include <QScrollBar>

#include "ui/attention/head_view.hpp"
#include "ui/attention/head_view_lines.hpp"
#include "ui/attention/token_focus_bar.hpp"
#include "ui/attention/token_lines_canvas.hpp"

namespace attnscope {

void HeadView::setHoveredToken(std::optional<HoveredToken> token) {
    if (token == hovered_) return;
    hovered_ = token;
    filterByHover();
    canvas_->update();
}

void HeadView::setFocusToken(std::optional<int> token) {
    std::optional<HoveredToken> focus;
    if (token && !tokenRect(HoveredToken::Left, *token).isNull()) focus = HoveredToken{HoveredToken::Both, *token};
    focusBar_->showFocus(focus ? focus->token : -1);
    if (focus == focus_) return;
    focus_ = focus;
    filterByHover();
    const QRect cell = focus_ ? tokenRect(HoveredToken::Left, focus_->token) : QRect();
    const QRect seen(0, scroll_->verticalScrollBar()->value(), canvas_->width(), scroll_->viewport()->height());
    if (focus_ && !seen.contains(cell))  // its row a third down the view, when it is not in view already
        scroll_->ensureVisible(cell.center().x(), cell.center().y(), 0, scroll_->viewport()->height() / 3);
    canvas_->update();
}

std::optional<int> HeadView::focusToken() const {
    return focus_ ? std::make_optional(focus_->token) : std::nullopt;
}

// While a focus token is set, Esc is the view's: presentation mode's Esc shortcut (leave full
// screen) waits until the focus is cleared, so a teacher clearing the focus stays presenting.
bool HeadView::event(QEvent* event) {
    if (event->type() == QEvent::ShortcutOverride && focus_ && static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
        event->accept();
        return true;
    }
    return QWidget::event(event);
}

void HeadView::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Escape && focus_) return setFocusToken(std::nullopt);
    QWidget::keyPressEvent(event);
}

// The lines of the hovered token (one side) or else of the focus token (both sides).
void HeadView::filterByHover() {
    const auto token = active();
    if (!token) return shown_.clear();
    linesTouching(*all_, *token, shown_);
}

int HeadView::rowHeight() const { return canvas_->rowHeight(); }
const std::vector<HeadViewLabel>& HeadView::drawnLabels() const { return canvas_->painted().labels; }
const EdgeMarks& HeadView::edgeMarks() const { return canvas_->painted().edges; }

std::pair<int, int> HeadView::paintedRows() const {
    const TokenLinesCanvas::Painted& painted = canvas_->painted();
    if (painted.area.isEmpty() || keep_.empty()) return {-1, -1};
    return {canvas_->rowAt(painted.area.top()), canvas_->rowAt(painted.area.bottom())};
}

// Counted from what the last paint recorded (the paint itself only records which lines and rows):
// the lines with an end in, or crossing, the painted rows.
int HeadView::paintedLineCount() const {
    const TokenLinesCanvas::Painted& painted = canvas_->painted();
    if (painted.source == TokenLinesCanvas::Painted::None) return 0;
    const auto [firstRow, lastRow] = paintedRows();
    int n = 0;
    for (const DrawnLine& line : painted.source == TokenLinesCanvas::Painted::Picture ? *all_ : shown_) {
        const int a = rowOf_[static_cast<std::size_t>(line.from)], b = rowOf_[static_cast<std::size_t>(line.to)];
        if (std::min(a, b) <= lastRow && std::max(a, b) >= firstRow) ++n;
    }
    return n;
}

}  // namespace attnscope
