#include "ui/heads/corpus_plots.hpp"

#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

#include "ui/common/color_map_plot.hpp"
#include "ui/common/plot_bytes.hpp"
#include "ui/common/theme_colors.hpp"

namespace attnscope {

namespace {

// Okabe–Ito: distinguishable with every common colour-vision deficiency.
const QColor kBlue(0x00, 0x72, 0xB2);
const QColor kVermillion(0xD5, 0x5E, 0x00);
const QColor kSkyBlue(0x56, 0xB4, 0xE9);

constexpr double kHitPixels = 8.0;  // how near the mouse must be to a point
constexpr double kSpread = 0.6;     // the heads of a layer spread over this much of the layer axis

// Exports at the plot's size on screen, never smaller (the tab may not have been shown yet).
QSize exportSize(const QCustomPlot* plot) { return plot->size().expandedTo(QSize(960, 400)); }

// x of head h of H around its layer (1-based), evenly spread so that no point hides another.
double spreadX(const HeadRef& head, int headsPerLayer) {
    const double share = headsPerLayer > 1 ? double(head.head) / (headsPerLayer - 1) - 0.5 : 0.0;
    return head.layer + 1 + share * kSpread;
}

// 0 … a little above the largest value (never a flat range).
QCPRange upTo(double largest) { return QCPRange(0, std::max(0.05, largest * 1.12)); }

QCPGraph* pointGraph(QCPAxisRect* rect, const QColor& colour, double size) {
    QCPGraph* graph = rect->parentPlot()->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, colour, colour.lighter(130), size));
    return graph;
}

QString number(double value) { return QString::number(value, 'f', 3); }

QPointF pixelOfPoint(const QCPAxisRect* rect, const DrawnCorpusPoint& p) {
    return {rect->axis(QCPAxis::atBottom)->coordToPixel(p.x), rect->axis(QCPAxis::atLeft)->coordToPixel(p.y)};
}

}  // namespace

QString corpusStatisticName(CorpusStatistic statistic, const CorpusStats* stats) {
    const auto named = [](const QString& plain, const std::string& special) {
        return special.empty() ? plain : QObject::tr("%1 (%2)").arg(plain, QString::fromStdString(special));
    };
    switch (statistic) {
        case CorpusStatistic::First: return named(QObject::tr("first token"), stats ? stats->firstSpecial : "");
        case CorpusStatistic::Last: return named(QObject::tr("last token"), stats ? stats->lastSpecial : "");
        case CorpusStatistic::Punctuation: return QObject::tr("punctuation");
        case CorpusStatistic::Previous: return QObject::tr("previous token");
        case CorpusStatistic::Self: return QObject::tr("itself");
        case CorpusStatistic::Next: return QObject::tr("next token");
        case CorpusStatistic::SameToken: return QObject::tr("same token elsewhere");
    }
    return {};
}

double corpusStatisticOf(const CorpusHeadStats& head, CorpusStatistic statistic) {
    switch (statistic) {
        case CorpusStatistic::First: return head.first;
        case CorpusStatistic::Last: return head.last;
        case CorpusStatistic::Punctuation: return head.punctuation;
        case CorpusStatistic::Previous: return head.previous;
        case CorpusStatistic::Self: return head.self;
        case CorpusStatistic::Next: return head.next;
        case CorpusStatistic::SameToken: return head.sameToken;
    }
    return 0;
}

CorpusPlotsBuilder::CorpusPlotsBuilder(QCustomPlot* plot) : plot_(plot) {
    buildLayout();
    theme::followTheme(plot_);  // the three panels' axes, titles and legend
    theme::follow(plot_, [plot = plot_] {  // the uniform-entropy bars (the only lines) in the ink, as the axes
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto* line = qobject_cast<QCPItemLine*>(plot->item(i))) line->setPen(QPen(theme::ink(), 2.5));
    });
    clear(QObject::tr("No corpus statistics yet"));
}

// A title row over three panels, each with its own title over its axis rect.
void CorpusPlotsBuilder::buildLayout() {
    plot_->plotLayout()->clear();
    title_ = new QCPTextElement(plot_, QString(), scaledFont(plot_->font(), 1.1));
    plot_->plotLayout()->addElement(0, 0, title_);
    auto* panels = new QCPLayoutGrid;
    plot_->plotLayout()->addElement(1, 0, panels);
    for (int i = 0; i < 3; ++i) {
        panelTitles_[i] = new QCPTextElement(plot_, QString(), plot_->font());
        panels->addElement(0, i, panelTitles_[i]);
        rects_[i] = new QCPAxisRect(plot_);
        panels->addElement(1, i, rects_[i]);
    }
    panels->setRowStretchFactor(0, 0.01);
    rects_[0]->axis(QCPAxis::atLeft)->setLabel(QObject::tr("mean attention"));
    rects_[1]->axis(QCPAxis::atLeft)->setLabel(QObject::tr("entropy (bits)"));
    rects_[2]->axis(QCPAxis::atBottom)->setLabel(QObject::tr("offset (key − query)"));
    rects_[2]->axis(QCPAxis::atLeft)->setLabel(QObject::tr("mean attention"));
    for (int i = 0; i < 2; ++i) rects_[i]->axis(QCPAxis::atBottom)->setLabel(QObject::tr("layer"));
    QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
    ticker->setTickStep(1.0);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);  // many layers: every 2nd, 5th … labelled
    for (QCPAxisRect* rect : rects_) rect->axis(QCPAxis::atBottom)->setTicker(ticker);
}

void CorpusPlotsBuilder::clear(const QString& message) {
    stats_.reset();
    scatter_.clear(), entropy_.clear(), baselines_.clear(), bars_.clear();
    selected_.reset();
    plot_->clearPlottables();
    plot_->clearItems();
    title_->setText(message);
    for (QCPTextElement* t : panelTitles_) t->setText(QString());
    setLayerAxes(1);
    plot_->replot();
}

void CorpusPlotsBuilder::build(const CorpusStats& stats, CorpusStatistic statistic, const QString& title) {
    stats_ = stats;
    statistic_ = statistic;
    title_->setText(title);
    if (selected_ && (selected_->layer >= stats.layers || selected_->head >= stats.headsPerLayer)) selected_.reset();
    if (!selected_ && !stats.heads.empty()) selected_ = HeadRef{0, 0};  // panel (c) is never empty
    redraw();
}

void CorpusPlotsBuilder::setStatistic(CorpusStatistic statistic) {
    statistic_ = statistic;
    if (stats_) redraw();
}

void CorpusPlotsBuilder::redraw() {
    plot_->clearPlottables();
    plot_->clearItems();
    setLayerAxes(stats_->layers);
    drawScatter(*stats_);
    drawEntropy(*stats_);
    drawOffsets();
    drawSelection();
    plot_->replot();
}

void CorpusPlotsBuilder::setLayerAxes(int layers) {
    for (int i = 0; i < 2; ++i) rects_[i]->axis(QCPAxis::atBottom)->setRange(0.5, layers + 0.5);
}

void CorpusPlotsBuilder::drawScatter(const CorpusStats& stats) {
    scatter_.clear();
    QCPGraph* graph = pointGraph(rects_[0], kBlue, 7);
    double largest = 0;
    for (const CorpusHeadStats& h : stats.heads) {
        const DrawnCorpusPoint p{h.head, spreadX(h.head, stats.headsPerLayer), corpusStatisticOf(h, statistic_)};
        graph->addData(p.x, p.y);
        scatter_.push_back(p);
        largest = std::max(largest, p.y);
    }
    rects_[0]->axis(QCPAxis::atLeft)->setRange(upTo(largest));
    panelTitles_[0]->setText(QObject::tr("(a) attention to: %1").arg(corpusStatisticName(statistic_, stats_ ? &*stats_ : nullptr)));
}

// Points per head, and per layer a bar in the ink's colour at a uniform row's entropy (the same for every
// head of a layer: it depends only on the tokens each query may see).
void CorpusPlotsBuilder::drawEntropy(const CorpusStats& stats) {
    entropy_.clear(), baselines_.clear();
    QCPGraph* graph = pointGraph(rects_[1], kBlue, 7);
    double largest = 0;
    for (const CorpusHeadStats& h : stats.heads) {
        const DrawnCorpusPoint p{h.head, spreadX(h.head, stats.headsPerLayer), h.entropy};
        graph->addData(p.x, p.y);
        entropy_.push_back(p);
        largest = std::max({largest, h.entropy, h.uniformEntropy});
        if (h.head.head != 0) continue;
        baselines_.push_back(h.uniformEntropy);
        auto* mark = new QCPItemLine(plot_);
        mark->setClipAxisRect(rects_[1]);
        for (QCPItemPosition* end : {mark->start, mark->end})
            end->setAxes(rects_[1]->axis(QCPAxis::atBottom), rects_[1]->axis(QCPAxis::atLeft));
        mark->start->setCoords(h.head.layer + 1 - 0.45, h.uniformEntropy);
        mark->end->setCoords(h.head.layer + 1 + 0.45, h.uniformEntropy);
        mark->setPen(QPen(theme::ink(), 2.5));
    }
    rects_[1]->axis(QCPAxis::atLeft)->setRange(upTo(largest));
    panelTitles_[1]->setText(QObject::tr("(b) entropy per head; bars: uniform"));
}

void CorpusPlotsBuilder::drawOffsets() {
    bars_.clear();
    const CorpusHeadStats* head = nullptr;
    if (stats_ && selected_)
        head = &stats_->heads[static_cast<std::size_t>(selected_->layer * stats_->headsPerLayer + selected_->head)];
    QCPAxis* x = rects_[2]->axis(QCPAxis::atBottom);
    const int K = stats_ ? stats_->maxOffset : kCorpusMaxOffset;
    x->setRange(-K - 0.7, K + 0.7);
    if (!head) return panelTitles_[2]->setText(QString());
    auto* bars = new QCPBars(x, rects_[2]->axis(QCPAxis::atLeft));
    bars->setWidth(0.75);
    bars->setPen(QPen(kBlue));
    bars->setBrush(kSkyBlue);
    double largest = 0;
    for (int o = -K; o <= K; ++o) {
        const double value = head->offsets[static_cast<std::size_t>(o + K)];
        bars->addData(o, value);
        bars_.push_back(value);
        largest = std::max(largest, value);
    }
    rects_[2]->axis(QCPAxis::atLeft)->setRange(upTo(largest));
    panelTitles_[2]->setText(
        QObject::tr("(c) offsets of layer %1, head %2").arg(head->head.layer + 1).arg(head->head.head + 1));
}

// A vermillion ring around the selected head's point in (a) and (b).
void CorpusPlotsBuilder::drawSelection() {
    if (!selected_ || !stats_) return;
    const auto index = static_cast<std::size_t>(selected_->layer * stats_->headsPerLayer + selected_->head);
    for (int i = 0; i < 2; ++i) {
        const DrawnCorpusPoint& p = (i == 0 ? scatter_ : entropy_)[index];
        QCPGraph* ring = pointGraph(rects_[i], kVermillion, 14);
        ring->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kVermillion, 2.5), Qt::NoBrush, 14));
        ring->addData(p.x, p.y);
    }
}

void CorpusPlotsBuilder::selectHead(std::optional<HeadRef> head) {
    if (!stats_ || (head && (head->layer < 0 || head->head < 0 || head->layer >= stats_->layers ||
                             head->head >= stats_->headsPerLayer)))
        return;
    selected_ = head;
    redraw();
}

std::optional<HeadRef> CorpusPlotsBuilder::nearest(const std::vector<DrawnCorpusPoint>& points,
                                                   const QCPAxisRect* rect, const QPointF& pixel) {
    if (!rect->rect().contains(pixel.toPoint())) return std::nullopt;
    std::optional<HeadRef> best;
    double bestDistance = kHitPixels;
    for (const DrawnCorpusPoint& p : points) {
        const QPointF at = pixelOfPoint(rect, p);
        const double distance = std::hypot(at.x() - pixel.x(), at.y() - pixel.y());
        if (distance <= bestDistance) bestDistance = distance, best = p.head;
    }
    return best;
}

std::optional<HeadRef> CorpusPlotsBuilder::headAt(const QPointF& pixel) const {
    if (auto head = nearest(scatter_, rects_[0], pixel)) return head;
    return nearest(entropy_, rects_[1], pixel);
}

namespace {

QPointF pixelIn(const QCPAxisRect* rect, const std::vector<DrawnCorpusPoint>& points, const HeadRef& head) {
    for (const DrawnCorpusPoint& p : points)
        if (p.head == head) return pixelOfPoint(rect, p);
    return {-1, -1};
}

}  // namespace

QPointF CorpusPlotsBuilder::scatterPixelOf(const HeadRef& head) const { return pixelIn(rects_[0], scatter_, head); }
QPointF CorpusPlotsBuilder::entropyPixelOf(const HeadRef& head) const { return pixelIn(rects_[1], entropy_, head); }

QString CorpusPlotsBuilder::hoverText(const QPointF& pixel) const {
    const auto head = headAt(pixel);
    if (!head || !stats_) return {};
    const auto index = static_cast<std::size_t>(head->layer * stats_->headsPerLayer + head->head);
    const CorpusHeadStats& h = stats_->heads[index];
    const QString name = QStringLiteral("%1:%2  ").arg(head->layer + 1).arg(head->head + 1);
    if (nearest(scatter_, rects_[0], pixel)) return name + number(corpusStatisticOf(h, statistic_));
    return name + QObject::tr("%1 bits (uniform %2)").arg(number(h.entropy), number(h.uniformEntropy));
}

QString CorpusPlotsBuilder::title() const { return title_->text(); }

QByteArray CorpusPlotsBuilder::figureBytes(const QString& format) const {
    return plotFigureBytes(plot_, exportSize(plot_), title_->text(), format);
}

}  // namespace attnscope
