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
constexpr int kFitExplanationBelowShare = 50;  // percent of the panel's height at most, below it
const QSize kUnboundedTable{100000, 100000};

}  // namespace

void MatrixPanel::setFitToArea(bool on) {
    if (fit_ == on) return;
    fit_ = on;
    splitter_->setOrientation(on ? Qt::Horizontal : Qt::Vertical);  // fitExplanation may turn it again
    canvas_->layout()->setContentsMargins(on ? QMargins(4, 4, 4, 4) : scroll_->style()->pixelMetric(QStyle::PM_LayoutLeftMargin) * QMargins(1, 1, 1, 1));
    for (Slot* slot : {&operands_[0], &operands_[1], &result_}) slot->table->setCompact(on);
    if (on) {
        giveRestToExplanation();
        return fitEquation();
    }
    explanation_->setFont(explanationFont_.value_or(QFont()));
    showNaturalSizes();
    giveRestToExplanation();
}

// Outside fit mode: the tables in the panel's font (the zoom's), up to a size that grows with it.
void MatrixPanel::showNaturalSizes() {
    for (Slot* slot : {&operands_[0], &operands_[1], &result_}) {
        slot->box->setFont(QFont());  // the panel's again
        slot->table->setCompact(false);
    }
    applyFonts();
    operators_[1]->setFont(scaledBold(font(), resultOperatorScale_));
    sizeTables(kMaxTableSize * std::max(1.0, font().pointSizeF() / kBasePointSize));
    wrapRow();
}

QSize MatrixPanel::equationArea() const {
    const int frame = 2 * scroll_->frameWidth();
    return scroll_->size() - QSize(frame, frame);
}

double MatrixPanel::equationPointSize() const { return result_.table->font().pointSizeF(); }

// The largest font at which the whole equation fits the scroll area, or the smallest readable
// one, at which each table then scrolls within the area.
void MatrixPanel::fitEquation() {
    if (fitting_ || !result_.model->hasMatrix()) return;
    if (!fit_) return shrinkToArea();
    const QSize area = equationArea();
    if (area.width() <= 0 || area.height() <= 0) return;
    const int frame = 2 * scroll_->frameWidth();
    fitting_ = true;
    const std::optional<double> fits = largestEquationFont(area, font().pointSizeF() * kMaxFitScale);
    if (fits) setEquationPointSize(*fits, kUnboundedTable, area.width() + frame);
    else setEquationPointSize(std::min(font().pointSizeF(), kReadablePointSize), area, area.width() + frame);
    fitting_ = false;
    showSelectedCell();
}

// Outside fit mode a step that does not fit its area in the panel's font (at 1280×720 the cross
// stage's Queries, Output, residual sum and logits, whose feature names widen their tables, wrapped
// the result below its operands) takes fit mode's compact columns and smaller font, down to the
// readable size, rather than make a lecture scroll; one that does not fit even then keeps its
// natural sizes and scrolls.
void MatrixPanel::shrinkToArea() {
    const QSize area = equationArea();
    if (area.width() <= 0 || area.height() <= 0) return;
    fitting_ = true;
    showNaturalSizes();
    const QSize natural = equationSize();
    if (natural.width() > area.width() || natural.height() > area.height()) {
        for (Slot* slot : {&operands_[0], &operands_[1], &result_}) slot->table->setCompact(true);
        const std::optional<double> fits = largestEquationFont(area, font().pointSizeF());
        if (fits) setEquationPointSize(*fits, kUnboundedTable, area.width() + 2 * scroll_->frameWidth());
        else showNaturalSizes();
    }
    fitting_ = false;
}

// A bisection (the size of the equation grows with the font) between the readable size and
// `most`; none when the equation does not fit even at the readable size. Leaves the tables at
// whatever size it tried last.
std::optional<double> MatrixPanel::largestEquationFont(QSize area, double most) {
    double fits = std::min(font().pointSizeF(), kReadablePointSize);
    double tooLarge = most;
    const int scrollWidth = area.width() + 2 * scroll_->frameWidth();
    const auto fitsAt = [&](double points) {
        setEquationPointSize(points, kUnboundedTable, scrollWidth);
        const QSize needed = equationSize();
        return needed.width() <= area.width() && needed.height() <= area.height();
    };
    if (!fitsAt(fits)) return std::nullopt;
    if (fitsAt(most)) return most;
    while (tooLarge - fits > 0.25) {
        const double middle = (fits + tooLarge) / 2;
        (fitsAt(middle) ? fits : tooLarge) = middle;
    }
    return fits;
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

void MatrixPanel::setEquationPointSize(double points, QSize maxTable, int scrollWidth) {
    QFont f = font();
    f.setPointSizeF(points);
    for (Slot* slot : {&operands_[0], &operands_[1], &result_}) slot->box->setFont(f);
    title_->setFont(scaledBold(f, 1.3));
    operators_[0]->setFont(scaledBold(f, 2.0));
    operators_[1]->setFont(scaledBold(f, std::min(resultOperatorScale_, 1.0)));  // "softmax of each row →" at text size
    sizeTables(maxTable);
    wrapRow(scrollWidth);
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

// Fit mode: the explanation beside the equation (a projector is wider than high) or below it (a
// wide equation, e.g. 14 tokens' scores and weights side by side), whichever lets the equation's
// font be larger; all its lines showing (below the readable size, it scrolls).
void MatrixPanel::fitExplanation() {
    if (fitting_ || splitter_->width() <= 0 || splitter_->height() <= 0) return;
    fitting_ = true;
    const ExplanationPlace beside = placeBeside();
    const ExplanationPlace below = result_.model->hasMatrix() ? placeBelow() : beside;
    const ExplanationPlace& place = below.equationPoints > beside.equationPoints ? below : beside;
    fitting_ = false;
    QFont f = explanationFont();
    f.setPointSizeF(place.points);
    explanation_->setFont(f);
    splitter_->setOrientation(place.orientation);
    const int total = place.orientation == Qt::Horizontal ? splitter_->width() : splitter_->height();
    splitter_->setSizes({total - place.size, place.size});
    fitEquation();
}

// The equation comes first: the explanation as narrow as the readable size allows, then in the
// largest font that fits there (the zoom's at most).
MatrixPanel::ExplanationPlace MatrixPanel::placeBeside() {
    const int height = splitter_->height();
    const double zoomed = explanationFont().pointSizeF();
    const double smallest = std::min(zoomed, kReadablePointSize);
    const auto widthAt = [this](int percent) { return splitter_->width() * percent / 100; };
    const auto narrowestFitting = [&](double points) -> std::optional<int> {
        for (int percent = kFitExplanationShares.first; percent <= kFitExplanationShares.second; percent += 5)
            if (explanationHeight(points, widthAt(percent)) <= height) return widthAt(percent);
        return std::nullopt;
    };
    const int width = narrowestFitting(smallest).value_or(widthAt(kFitExplanationShares.second));
    double points = zoomed;
    while (points > smallest && explanationHeight(points, width) > height) points = std::max(smallest, points - 0.5);
    const QSize area(splitter_->width() - width - splitter_->handleWidth() - 2 * scroll_->frameWidth(),
                     height - 2 * scroll_->frameWidth());
    return {Qt::Horizontal, width, points, largestEquationFont(area, font().pointSizeF() * kMaxFitScale).value_or(0)};
}

// Below: the full width, the explanation's lines in the largest font (the zoom's at most) that
// keeps it within half the height.
MatrixPanel::ExplanationPlace MatrixPanel::placeBelow() {
    const int width = splitter_->width();
    const int most = splitter_->height() * kFitExplanationBelowShare / 100;
    const double zoomed = explanationFont().pointSizeF();
    const double smallest = std::min(zoomed, kReadablePointSize);
    double points = zoomed;
    while (points > smallest && explanationHeight(points, width) > most) points = std::max(smallest, points - 0.5);
    const int height = explanationHeight(points, width);
    if (height > most) return {Qt::Vertical, most, points, 0};  // it would scroll: beside is better
    const QSize area(width - 2 * scroll_->frameWidth(),
                     splitter_->height() - height - splitter_->handleWidth() - 2 * scroll_->frameWidth());
    return {Qt::Vertical, height, points, largestEquationFont(area, font().pointSizeF() * kMaxFitScale).value_or(0)};
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
