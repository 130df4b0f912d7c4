// Fit mode of the worked example (View ▸ Fit the step to the window, and presentation mode): the
// equation's tables, captions and operators take the largest font at which they fit the area, the
// explanation sits beside them with all its lines showing.
#include <QFontMetrics>
#include <QLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStyle>
#include <QTextDocument>
#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "ui/step/matrix_panel.hpp"
#include "ui/step/matrix_panel_sizes.hpp"
#include "ui/step/matrix_table.hpp"

namespace attnscope {

using namespace panel_sizes;

namespace {

// The equation grows up to 4× the zoom's font, and shrinks down to 9 points (readable on a
// projector's 1280×720); below that the tables scroll instead, the chosen cell in view.
constexpr double kMaxFitScale = 4.0;
constexpr double kReadablePointSize = 9;
constexpr std::pair<int, int> kFitExplanationShares{25, 45};  // percent of the panel's width, beside the equation
const QSize kUnboundedTable{100000, 100000};

}  // namespace

void MatrixPanel::setFitToArea(bool on) {
    if (fit_ == on) return;
    fit_ = on;
    splitter_->setOrientation(on ? Qt::Horizontal : Qt::Vertical);
    canvas_->layout()->setContentsMargins(on ? QMargins(4, 4, 4, 4) : scroll_->style()->pixelMetric(QStyle::PM_LayoutLeftMargin) * QMargins(1, 1, 1, 1));
    for (Slot* slot : {&operands_[0], &operands_[1], &result_}) slot->table->setCompact(on);
    if (on) {
        giveRestToExplanation();
        return fitEquation();
    }
    for (Slot* slot : {&operands_[0], &operands_[1], &result_}) slot->box->setFont(QFont());  // the panel's again
    explanation_->setFont(explanationFont_.value_or(QFont()));
    applyFonts();
    operators_[1]->setFont(scaledBold(font(), resultOperatorScale_));
    sizeTables(kMaxTableSize * std::max(1.0, font().pointSizeF() / kBasePointSize));
    wrapRow();
    giveRestToExplanation();
}

double MatrixPanel::equationPointSize() const { return result_.table->font().pointSizeF(); }

// The largest font at which the whole equation fits the scroll area (a bisection: the size of
// the equation grows with the font), or the smallest readable one, which then scrolls.
void MatrixPanel::fitEquation() {
    if (!fit_ || fitting_ || !result_.model->hasMatrix()) return;
    const int frame = 2 * scroll_->frameWidth();
    const QSize area = scroll_->size() - QSize(frame, frame);
    if (area.width() <= 0 || area.height() <= 0) return;
    fitting_ = true;
    const double zoomed = font().pointSizeF();
    double fits = std::min(zoomed, kReadablePointSize);
    double tooLarge = zoomed * kMaxFitScale;
    const auto fitsAt = [&](double points) {
        setEquationPointSize(points, kUnboundedTable);
        const QSize needed = equationSize();
        return needed.width() <= area.width() && needed.height() <= area.height();
    };
    while (tooLarge - fits > 0.25) {
        const double middle = (fits + tooLarge) / 2;
        (fitsAt(middle) ? fits : tooLarge) = middle;
    }
    // Too large even at the readable size: each table scrolls within the area.
    if (!fitsAt(fits)) setEquationPointSize(fits, area);
    fitting_ = false;
    showSelectedCell();
}

// Too large to fit: the chosen cell (its row and column) scrolls into view, in its table and on the canvas.
// Queued: after the layout has placed the resized tables and the canvas.
void MatrixPanel::showSelectedCell() {
    QMetaObject::invokeMethod(this, [this] {
        const QModelIndex current = result_.table->currentIndex();
        if (!current.isValid()) return;
        result_.table->scrollTo(current);
        const QRect cell = result_.table->visualRect(current);
        const QPoint centre = result_.table->viewport()->mapTo(canvas_, cell.center());
        scroll_->ensureVisible(centre.x(), centre.y(), cell.width(), cell.height());
    }, Qt::QueuedConnection);
}

void MatrixPanel::setEquationPointSize(double points, QSize maxTable) {
    QFont f = font();
    f.setPointSizeF(points);
    for (Slot* slot : {&operands_[0], &operands_[1], &result_}) slot->box->setFont(f);
    title_->setFont(scaledBold(f, 1.3));
    operators_[0]->setFont(scaledBold(f, 2.0));
    operators_[1]->setFont(scaledBold(f, std::min(resultOperatorScale_, 1.0)));  // "softmax of each row →" at text size
    sizeTables(maxTable);
    wrapRow();
}

// What the canvas needs: the title and the lines of the equation wrapRow laid out.
QSize MatrixPanel::equationSize() {
    canvas_->layout()->invalidate();
    return canvas_->layout()->sizeHint();
}

void MatrixPanel::sizeTables(QSize maxSize) {
    for (Slot* slot : {&operands_[0], &operands_[1], &result_}) {
        if (!slot->model->hasMatrix()) continue;
        slot->table->fitToContents(maxSize);
        slot->caption->setMaximumWidth(std::max(slot->table->width(), 220));
    }
}

// Fit mode: the explanation beside the equation (a projector is wider than high), all its lines
// within the panel's height (below the readable size, it scrolls): the equation gets the rest.
void MatrixPanel::fitExplanation() {
    const int height = splitter_->height();
    const double zoomed = explanationFont().pointSizeF();
    const double smallest = std::min(zoomed, kReadablePointSize);
    const auto widthAt = [this](int percent) { return splitter_->width() * percent / 100; };
    const auto narrowestFitting = [&](double points) -> std::optional<int> {
        for (int percent = kFitExplanationShares.first; percent <= kFitExplanationShares.second; percent += 5)
            if (explanationHeight(points, widthAt(percent)) <= height) return widthAt(percent);
        return std::nullopt;
    };
    // The equation comes first: the explanation as narrow as the readable size allows, then in
    // the largest font that fits there (the zoom's at most).
    const int width = narrowestFitting(smallest).value_or(widthAt(kFitExplanationShares.second));
    double points = zoomed;
    while (points > smallest && explanationHeight(points, width) > height) points = std::max(smallest, points - 0.5);
    QFont f = explanationFont();
    f.setPointSizeF(points);
    explanation_->setFont(f);
    splitter_->setSizes({splitter_->width() - width, width});
}

// The pane's height for its text (or the placeholder's lines) in the mono font at `points`,
// wrapped at `width` as the editor wraps it.
int MatrixPanel::explanationHeight(double points, int width) const {
    QFont f = explanationFont();
    f.setPointSizeF(points);
    QTextDocument doc;
    doc.setDefaultFont(f);
    doc.setDocumentMargin(explanation_->document()->documentMargin());
    const QString text = explanation_->toPlainText();
    doc.setPlainText(text.isEmpty() ? QString(kExplanationMinLines - 1, '\n') : text);
    const int frame = 2 * explanation_->frameWidth();
    doc.setTextWidth(width - frame - explanation_->verticalScrollBar()->sizeHint().width());
    return static_cast<int>(std::ceil(doc.size().height())) + frame + QFontMetrics(f).lineSpacing() / 2;
}

QFont MatrixPanel::explanationFont() const { return explanationFont_.value_or(font()); }

}  // namespace attnscope
