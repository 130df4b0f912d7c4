#include "ui/attention/heatmap_builder.hpp"

#include <cmath>
#include <qcustomplot.h>

#include "core/analysis/head_summary.hpp"
#include "core/trace/explain.hpp"
#include "ui/common/qt_text.hpp"

namespace attnscope {

namespace {

// Cells with more tokens than this get no printed numbers: they would not be legible.
constexpr int kMaxTokensWithNumbers = 12;


}  // namespace

HeatmapBuilder::HeatmapBuilder(QCustomPlot* plot) : ColorMapPlot(plot, QObject::tr("attention weight")) {
    map_->setDataRange(QCPRange(0, 1));  // fixed: colours mean the same in every head
    plot_->xAxis->setLabel(QObject::tr("attended-to token (key)"));
    plot_->yAxis->setLabel(QObject::tr("query token"));
}

namespace {

Mat weightsToShow(const LayerTrace& layer, int head, AttentionViewOptions::Aggregate aggregate) {
    switch (aggregate) {
        case AttentionViewOptions::Average: return averageOverHeads(layer);
        case AttentionViewOptions::Max: return maxOverHeads(layer);
        default: return layer.heads.at(head).weights;
    }
}

double scaleTop(const Trace& trace, int layer, const Mat& shown, const WeightSelection& selection,
                AttentionViewOptions::Scale scale) {
    const double top = scale == AttentionViewOptions::SharedMax    ? maxWeight(trace, layer, selection)
                       : scale == AttentionViewOptions::PerHeadMax ? maxWeight(shown)
                                                                   : 1.0;
    return top > 0 ? top : 1.0;
}

QString titleFor(const Trace& trace, int head, const AttentionViewOptions& options) {
    QString title = options.aggregate == AttentionViewOptions::Average ? QObject::tr("Average over heads")
                    : options.aggregate == AttentionViewOptions::Max   ? QObject::tr("Maximum over heads")
                    : trace.headCount() > 1 ? QObject::tr("Attention weights — head %1").arg(head + 1)
                                            : QObject::tr("Attention weights");
    if (options.hideSpecial)
        title += options.renormalize ? QObject::tr(" (special tokens hidden, rows renormalised)")
                                     : QObject::tr(" (special tokens hidden: rows sum to < 1)");
    return title;
}

}  // namespace

void HeatmapBuilder::build(const Trace& trace, int layer, int head, int decimals,
                           const AttentionViewOptions& options) {
    head_ = head;
    decimals_ = decimals;
    cells_.clear();
    const WeightSelection selection{visibleTokens(trace, options.hideSpecial), options.renormalize};
    const Mat w = shownWeights(weightsToShow(trace.layers.at(layer), head, options.aggregate), selection);  // K×K
    scaleMax_ = scaleTop(trace, layer, w, selection, options.scale);
    const int T = static_cast<int>(w.rows());
    if (T == 0) map_->data()->clear();
    else map_->data()->setSize(T, T);
    map_->data()->setRange(QCPRange(0, std::max(T - 1, 0)), QCPRange(0, std::max(T - 1, 0)));
    for (int row = 0; row < T; ++row)
        for (int col = 0; col < T; ++col) {
            map_->data()->setCell(col, row, w(row, col));
            cells_.push_back({row, col, w(row, col)});
        }
    map_->setDataRange(QCPRange(0, scaleMax_));
    QStringList labels;
    for (const int i : selection.keep) labels << qs(trace.tokens.at(i).text);
    setAxes(labels);
    title_->setText(titleFor(trace, head, options));
    title_->setFont(scaledFont(plot_->font(), 1.2));
    printValues(decimals);
    plot_->replot();
}

void HeatmapBuilder::setAxes(const QStringList& labels) {
    keyLabels_ = labels;
    queryLabels_ = labels;
    const int T = static_cast<int>(labels.size());
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
        QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
        for (int i = 0; i < T; ++i) ticker->addTick(i, labels[i]);
        axis->setTicker(ticker);
        axis->setSubTicks(false);
        axis->setRange(-0.5, std::max(T, 1) - 0.5);
        axis->setTickLabelFont(plot_->font());
        axis->setLabelFont(plot_->font());
    }
    plot_->xAxis->setTickLabelRotation(tickLabelRotation(labels, 6));
    scale_->axis()->setTickLabelFont(plot_->font());
    scale_->axis()->setLabelFont(plot_->font());
    scale_->axis()->setRange(0, scaleMax_);
}

void HeatmapBuilder::printValues(int decimals) {
    plot_->clearItems();
    valueLabels_ = 0;
    const int T = static_cast<int>(keyLabels_.size());
    if (T > kMaxTokensWithNumbers) return;
    const int shown = T > 6 ? std::min(decimals, 2) : decimals;
    const QFont font = scaledFont(plot_->font(), T > 6 ? 0.85 : 1.0);
    for (const DrawnCell& c : cells_) {
        auto* text = new QCPItemText(plot_);
        text->position->setCoords(c.col, c.row);
        text->setText(qs(formatNumber(c.value, shown)));
        text->setFont(font);
        // Viridis is dark below ~0.6 and bright above: pick the readable ink.
        text->setColor(c.value / scaleMax_ > 0.6 ? Qt::black : Qt::white);
        text->setClipToAxisRect(true);
        ++valueLabels_;
    }
}

QString HeatmapBuilder::hoverText(const QPointF& pixel) const {
    double key = 0, value = 0;
    map_->pixelsToCoords(pixel, key, value);
    const int col = static_cast<int>(std::lround(key));
    const int row = static_cast<int>(std::lround(value));
    const int T = static_cast<int>(keyLabels_.size());
    if (row < 0 || col < 0 || row >= T || col >= T) return {};
    const double w = cells_[static_cast<std::size_t>(row * T + col)].value;
    return QStringLiteral("%1 → %2: %3").arg(queryLabels_[row], keyLabels_[col], qs(formatNumber(w, decimals_)));
}

}  // namespace attnscope
