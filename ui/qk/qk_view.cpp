#include "ui/qk/qk_view.hpp"

#include <QComboBox>
#include <QLabel>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <qcustomplot.h>

#include "ui/common/color_map_plot.hpp"
#include "ui/common/theme_colors.hpp"
#include "ui/lab/control_row.hpp"

namespace attnscope {

namespace {

constexpr int kPositionColours = 12;  // position colours are viridis sampled at up to this many steps
constexpr double kHitPixels = 8.0;    // how near the mouse must be to a point
constexpr std::size_t kLabelledPointsUpTo = 80;  // more points: hover names them, no labels

// Okabe–Ito colours, distinguishable with every common colour-vision deficiency.
QColor tokenKindColour(TokenKind kind) {
    switch (kind) {
        case TokenKind::Special: return QColor(0xE6, 0x9F, 0x00);      // orange
        case TokenKind::Punctuation: return QColor(0xCC, 0x79, 0xA7);  // reddish purple
        case TokenKind::Word: return QColor(0x00, 0x72, 0xB2);         // blue
    }
    return Qt::gray;
}

// Number of tokens of the point's own sentence and kind (for the position colour).
std::map<std::pair<int, QkKind>, int> countsOf(const QkSpace& space) {
    std::map<std::pair<int, QkKind>, int> counts;
    for (const QkPoint& p : space.points) ++counts[{p.sentence, p.kind}];
    return counts;
}

// A colour bucket: the position's share of its sentence, in kPositionColours steps.
int positionBucket(const QkPoint& p, int tokens) {
    const int steps = std::min(tokens, kPositionColours);
    return tokens <= 1 ? 0 : static_cast<int>(std::lround(double(p.token) / (tokens - 1) * (steps - 1)));
}

QColor bucketColour(int bucket, int steps) {
    return viridisGradient().color(steps <= 1 ? 0.0 : double(bucket) / (steps - 1), QCPRange(0, 1));
}

}  // namespace

QkView::QkView(QWidget* parent) : QWidget(parent) {
    layout_ = new QComboBox(this);
    layout_->setObjectName("qkLayout");
    layout_->addItems({tr("PCA"), tr("t-SNE")});
    connect(layout_, &QComboBox::currentIndexChanged, this, &QkView::layoutChanged);
    colourBy_ = new QComboBox(this);
    colourBy_->setObjectName("qkColourBy");
    colourBy_->addItems({tr("position"), tr("token kind")});
    captions_.legend = new QLabel(this);
    captions_.legend->setObjectName("qkLegend");
    connect(colourBy_, &QComboBox::currentIndexChanged, this, [this] { redraw(); });
    plot_ = new QCustomPlot(this);
    plot_->setObjectName("qkPlot");
    plot_->setMinimumSize(360, 260);
    plot_->setMouseTracking(true);
    theme::followTheme(plot_);
    theme::follow(plot_, [this] { if (space_) redraw(); });  // outlines and labels in the theme's shades
    captions_.summary = new QLabel(this);
    captions_.summary->setObjectName("qkSummary");
    captions_.summary->setWordWrap(true);
    captions_.note = new QLabel(this);
    captions_.note->setObjectName("qkNote");
    captions_.note->setWordWrap(true);
    // One unit is as long across as up, so distances in the plane read true at any window size.
    connect(plot_, &QCustomPlot::afterLayout, this, &QkView::keepEqualScales);
    connect(plot_, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        if (event->button() != Qt::LeftButton || !space_) return;
        const int point = pointAt(event->position());
        selectQuery(point >= 0 && space_->points[static_cast<std::size_t>(point)].kind == QkKind::Query ? point : -1);
    });
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        const int point = pointAt(event->position());
        if (point < 0) QToolTip::hideText();
        else QToolTip::showText(event->globalPosition().toPoint(), hoverText(point), plot_);
    });
    ControlRow row(this);
    row.add(tr("Layout:"), layout_).add(tr("Colour by:"), colourBy_);
    captions_.legend->setWordWrap(true);  // a narrow window (a model's predictions beside it) wraps it
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(row.done());
    layout->addWidget(captions_.legend);
    layout->addWidget(plot_, 1);
    layout->addWidget(captions_.summary);
    layout->addWidget(captions_.note);
}

void QkView::showSpace(QkSpace space, HeadRef head) {
    const bool keep = space_ && selected_ >= 0 && selected_ < static_cast<int>(space.points.size()) &&
                      space.points[static_cast<std::size_t>(selected_)].kind == QkKind::Query;
    if (!keep) selected_ = -1;
    space_ = std::move(space);
    head_ = head;
    const QkSpace& s = *space_;
    const QString layout = s.layout == QkLayout::Tsne
                               ? tr("t-SNE (perplexity %1, seed 1; its axes have no meaning, only neighbours do). ")
                                     .arg(s.perplexity, 0, 'g', 3)
                               : QString();
    captions_.summary->setText(tr("Layer %1, head %2: %3 queries ● and %4 keys ▲. %8PC1 explains %5 %, PC2 %6 % of the variance; "
                         "correlation of 2-D distance and dot product: %7.")
                          .arg(head.layer + 1)
                          .arg(head.head + 1)
                          .arg(s.queryCount())
                          .arg(s.keyCount())
                          .arg(100 * s.explained[0], 0, 'f', 1)
                          .arg(100 * s.explained[1], 0, 'f', 1)
                          .arg(s.distanceDotCorrelation, 0, 'f', 3)
                          .arg(layout));
    captions_.note->setText(tr("The keys are moved so their centre meets the queries' centre, the queries multiplied by a = %1 and "
                      "the keys divided by it: this changes no softmax, since every score of a query shifts by the same amount "
                      "(recomputed from the moved vectors, the weights differ by at most %2). Click a query to draw its "
                      "attention.")
                       .arg(s.scale, 0, 'g', 4)
                       .arg(s.softmaxMaxDifference, 0, 'e', 1));
    redraw();
}

void QkView::showMessage(const QString& text) {
    space_.reset();
    selected_ = -1;
    captions_.summary->setText(text);
    captions_.note->clear();
    redraw();
}

void QkView::selectQuery(int point) {
    selected_ = point;
    drawLines();
    plot_->replot();
}

QkLayout QkView::layout() const { return layout_->currentIndex() == 1 ? QkLayout::Tsne : QkLayout::Pca; }

QString QkView::caption() const { return captions_.summary->text() + "\n" + captions_.note->text(); }

void QkView::redraw() {
    drawPoints();
    drawLines();
    plot_->replot();
}

void QkView::drawPoints() {
    plot_->clearPlottables();
    plot_->clearItems();
    lineItems_.clear();
    drawnPoints_ = 0;
    if (!space_) return;
    const bool byKind = colourBy_->currentIndex() == 1;
    captions_.legend->setText(byKind ? tr("● queries, ▲ keys; orange: special token, purple: punctuation, blue: word")
                            : tr("● queries, ▲ keys; dark purple → yellow: first → last token"));
    const auto counts = countsOf(*space_);
    std::map<std::pair<QkKind, QRgb>, QCPGraph*> graphs;  // one graph per shape and colour
    for (const QkPoint& p : space_->points) {
        const int tokens = counts.at({p.sentence, p.kind});
        const QColor colour = byKind ? tokenKindColour(p.tokenKind)
                                     : bucketColour(positionBucket(p, tokens), std::min(tokens, kPositionColours));
        QCPGraph*& graph = graphs[{p.kind, colour.rgb()}];
        if (!graph) {
            graph = plot_->addGraph();
            graph->setLineStyle(QCPGraph::lsNone);
            const auto shape = p.kind == QkKind::Query ? QCPScatterStyle::ssCircle : QCPScatterStyle::ssTriangle;
            graph->setScatterStyle(QCPScatterStyle(shape, theme::color(theme::Role::PointOutline), colour, p.kind == QkKind::Query ? 9 : 11));
        }
        graph->addData(p.x, p.y);
        ++drawnPoints_;
    }
    plot_->rescaleAxes();
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) axis->scaleRange(1.2, axis->range().center());
    fitted_ = {plot_->xAxis->range(), plot_->yAxis->range()};
    if (space_->points.size() <= kLabelledPointsUpTo) drawLabels();
    const bool pca = space_->layout == QkLayout::Pca;
    plot_->xAxis->setLabel(pca ? tr("PC1 (%1 %)").arg(100 * space_->explained[0], 0, 'f', 1) : tr("t-SNE 1"));
    plot_->yAxis->setLabel(pca ? tr("PC2 (%1 %)").arg(100 * space_->explained[1], 0, 'f', 1) : tr("t-SNE 2"));
}

// Lines from the selected query to every key of its sentence with a weight above 0.
void QkView::drawLines() {
    for (QCPAbstractItem* item : lineItems_) plot_->removeItem(item);
    lineItems_.clear();
    lines_.clear();
    if (!space_ || selected_ < 0) return;
    const auto& points = space_->points;
    const QkPoint& query = points[static_cast<std::size_t>(selected_)];
    auto* ring = new QCPItemTracer(plot_);  // the clicked query, ringed
    ring->position->setCoords(query.x, query.y);
    ring->setStyle(QCPItemTracer::tsCircle);
    ring->setSize(18);
    ring->setPen(QPen(theme::color(theme::Role::Alert), 2));
    lineItems_.push_back(ring);
    const Mat& weights = space_->weights[static_cast<std::size_t>(query.sentence)];
    for (int k = 0; k < static_cast<int>(points.size()); ++k) {
        const QkPoint& key = points[static_cast<std::size_t>(k)];
        if (key.kind != QkKind::Key || key.sentence != query.sentence) continue;
        const double w = weights(query.token, key.token);
        if (!(w > 0)) continue;
        auto* line = new QCPItemLine(plot_);
        line->start->setCoords(query.x, query.y);
        line->end->setCoords(key.x, key.y);
        QColor pen = theme::color(theme::Role::Alert);
        pen.setAlpha(40 + static_cast<int>(200 * w));
        line->setPen(QPen(pen, 0.5 + 5 * w));
        lineItems_.push_back(line);
        lines_.push_back({selected_, k, w});
    }
}

// The token texts beside the points; points drawn on the same spot share one label ("a, b, c …").
void QkView::drawLabels() {
    std::map<std::tuple<QkKind, long long, long long>, QStringList> spots;
    const double unit = std::max(fitted_.first.size(), fitted_.second.size()) / 400.0;  // ~1 pixel
    for (const QkPoint& p : space_->points)
        spots[{p.kind, std::llround(p.x / unit), std::llround(p.y / unit)}] << QString::fromStdString(p.text);
    for (const auto& [spot, texts] : spots) {
        const auto& [kind, x, y] = spot;
        auto* label = new QCPItemText(plot_);
        label->position->setCoords(double(x) * unit, double(y) * unit);
        const bool query = kind == QkKind::Query;
        label->setPositionAlignment(Qt::AlignLeft | (query ? Qt::AlignBottom : Qt::AlignTop));
        label->setPadding(QMargins(7, 1, 0, 1));
        label->setText(texts.size() > 3 ? texts.mid(0, 3).join(", ") + tr(" … (%1)").arg(texts.size()) : texts.join(", "));
        QFont font = scaledFont(this->font(), 0.85);
        font.setItalic(!query);
        label->setFont(font);
        label->setColor(theme::color(query ? theme::Role::QueryLabel : theme::Role::KeyLabel));
        label->setClipToAxisRect(true);
    }
}

// Widens one axis so that both have the same scale; the fitted ranges stay in view.
void QkView::keepEqualScales() {
    if (!space_) return;
    QCPAxisRect* rect = plot_->axisRect();
    if (rect->width() <= 0 || rect->height() <= 0) return;
    const double perPixel = std::max(fitted_.first.size() / rect->width(), fitted_.second.size() / rect->height());
    plot_->xAxis->setRange(fitted_.first.center(), perPixel * rect->width(), Qt::AlignCenter);
    plot_->yAxis->setRange(fitted_.second.center(), perPixel * rect->height(), Qt::AlignCenter);
}

int QkView::pointAt(const QPointF& position) const {
    if (!space_) return -1;
    int best = -1;
    double bestDistance = kHitPixels;
    for (int p = 0; p < static_cast<int>(space_->points.size()); ++p) {
        const QkPoint& point = space_->points[static_cast<std::size_t>(p)];
        const QPointF at(plot_->xAxis->coordToPixel(point.x), plot_->yAxis->coordToPixel(point.y));
        const double distance = std::hypot(at.x() - position.x(), at.y() - position.y());
        if (distance <= bestDistance) best = p, bestDistance = distance;
    }
    return best;
}

QString QkView::hoverText(int point) const {
    const QkPoint& p = space_->points[static_cast<std::size_t>(point)];
    const QString kind = p.kind == QkKind::Query ? tr("query") : tr("key");
    const QString tokenKind = p.tokenKind == TokenKind::Special       ? tr("special token")
                              : p.tokenKind == TokenKind::Punctuation ? tr("punctuation")
                                                                      : tr("word");
    return tr("%1 of “%2” (position %3, %4)").arg(kind, QString::fromStdString(p.text)).arg(p.token + 1).arg(tokenKind);
}

}  // namespace attnscope
