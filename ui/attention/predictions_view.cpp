#include "ui/attention/predictions_view.hpp"

#include <algorithm>

#include <QFontMetrics>
#include <QPainter>
#include <QPaintEvent>
#include "ui/common/qt_text.hpp"
#include "ui/common/theme_colors.hpp"

namespace attnscope {

namespace {

constexpr int kMargin = 8;
constexpr int kLabelWidthChars = 14;  // token column


QString numberText(const PredictionsView::Row& row) {
    const QString after = QString::number(row.probability, 'f', 3);
    return row.before < 0 ? after : QString::number(row.before, 'f', 3) + QStringLiteral(" → ") + after;
}

// Where the bar ended with every head on: a dark tick across the track.
void drawBeforeMark(QPainter& painter, const QRect& track, double before) {
    const int x = track.left() + static_cast<int>(track.width() * before);
    painter.fillRect(QRect(x - 1, track.top() - 2, 3, track.height() + 4), QColor("#fde725"));  // viridis yellow
    painter.fillRect(QRect(x, track.top() - 2, 1, track.height() + 4), QColor("#440154"));      // on a dark core
}

QString headingOf(const Prediction& p, const Trace& trace, bool nextToken) {
    const QString token = p.position < trace.tokenCount() ? qs(trace.tokens[p.position].text) : QStringLiteral("?");
    if (nextToken) return QObject::tr("Next token after “%1” (position %2)").arg(token).arg(p.position + 1);
    return QObject::tr("%1 at position %2").arg(token).arg(p.position + 1);
}

}  // namespace

PredictionsView::PredictionsView(QWidget* parent) : QWidget(parent) {
    setObjectName("predictions");
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    clear();
}

void PredictionsView::clear() {
    groups_.clear();
    emptyText_ = tr("No predictions: BERT-family models predict at [MASK] tokens (type [MASK] in the sentence).");
    updateGeometry();
    update();
}

void PredictionsView::showPredictions(const ModelRun& run, bool nextToken, const Labeler& label) {
    groups_.clear();
    for (const Prediction& p : run.predictions) {
        Group group{headingOf(p, run.trace, nextToken), {}};
        for (const TokenScore& s : p.top) group.rows.push_back({qs(label(s.id)), s.probability, s.id});
        groups_.push_back(std::move(group));
    }
    updateGeometry();
    update();
}

void PredictionsView::showChanges(const ModelRun& run, const std::vector<PredictionChange>& changes, bool nextToken,
                                  const Labeler& label) {
    groups_.clear();
    for (const PredictionChange& change : changes) {
        Prediction at;
        at.position = change.position;
        Group group{headingOf(at, run.trace, nextToken), {}};
        for (const PredictionShift& s : change.rows) group.rows.push_back({qs(label(s.id)), s.after, s.id, s.before});
        groups_.push_back(std::move(group));
    }
    updateGeometry();
    update();
}

int PredictionsView::itemCount() const {
    int n = 0;
    for (const Group& g : groups_) n += static_cast<int>(g.rows.size());
    return n;
}

bool PredictionsView::hasChanges() const {
    for (const Group& g : groups_)
        for (const Row& r : g.rows)
            if (r.before >= 0) return true;
    return false;
}

int PredictionsView::rowHeight() const { return fontMetrics().height() + 6; }

QFont PredictionsView::headingFont() const {
    QFont bold = font();
    bold.setBold(true);
    return bold;
}

// A heading as many lines high as it takes in `width`: on one line, "Next token after “␣too”
// (position 16)" was cut off at the panel's edge.
int PredictionsView::headingHeight(const Group& group, int width) const {
    const QRect lines = QFontMetrics(headingFont()).boundingRect(QRect(0, 0, std::max(1, width), 1 << 20),
                                                                  Qt::TextWordWrap, group.heading);
    return std::max(rowHeight(), lines.height() + 6);
}

int PredictionsView::contentHeight(int width) const {
    if (groups_.empty()) return 2 * kMargin + 2 * rowHeight();
    int height = 2 * kMargin + itemCount() * rowHeight() + static_cast<int>(groups_.size()) * kMargin;
    for (const Group& group : groups_) height += headingHeight(group, width - 2 * kMargin);
    return height;
}

QSize PredictionsView::sizeHint() const { return {360, contentHeight(360)}; }

bool PredictionsView::hasHeightForWidth() const { return true; }

int PredictionsView::heightForWidth(int width) const { return contentHeight(width); }

void PredictionsView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    const int h = rowHeight();
    const QRect area = rect().adjusted(kMargin, kMargin, -kMargin, -kMargin);
    if (groups_.empty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(area, Qt::TextWordWrap, emptyText_);
        return;
    }
    const int labelWidth = fontMetrics().averageCharWidth() * kLabelWidthChars;
    const int numberWidth = fontMetrics().horizontalAdvance(hasChanges() ? QStringLiteral("0.000 → 0.000 ")
                                                                         : QStringLiteral("0.000 "));
    const int barWidth = std::max(40, area.width() - labelWidth - numberWidth);
    int y = area.top();
    for (const Group& group : groups_) {
        const int headingH = headingHeight(group, area.width());
        painter.setFont(headingFont());
        painter.setPen(palette().color(QPalette::Text));
        painter.drawText(QRect(area.left(), y, area.width(), headingH), Qt::AlignVCenter | Qt::TextWordWrap, group.heading);
        painter.setFont(font());
        y += headingH;
        for (const Row& row : group.rows) {
            const QRect label(area.left(), y, labelWidth - 6, h);
            painter.drawText(label, Qt::AlignVCenter | Qt::AlignRight,
                             fontMetrics().elidedText(row.token, Qt::ElideRight, label.width()));
            const QRect track(area.left() + labelWidth, y + 3, barWidth, h - 6);
            painter.fillRect(track, theme::color(theme::Role::BarTrack));
            painter.fillRect(QRect(track.topLeft(), QSize(static_cast<int>(track.width() * row.probability), track.height())),
                             theme::color(theme::Role::BarFill));
            if (row.before >= 0) drawBeforeMark(painter, track, row.before);
            painter.drawText(QRect(track.right() + 6, y, numberWidth, h), Qt::AlignVCenter, numberText(row));
            y += h;
        }
        y += kMargin;
    }
}

}  // namespace attnscope
