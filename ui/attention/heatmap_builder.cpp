#include "ui/attention/heatmap_builder.hpp"

#include <cmath>
#include <qcustomplot.h>

#include "core/analysis/head_summary.hpp"
#include "core/trace/explain.hpp"
#include "ui/attention/heatmap_labels.hpp"
#include "ui/common/qt_text.hpp"
#include "ui/common/theme_colors.hpp"

namespace attnscope {

namespace {

// Cells with more tokens than this get no printed numbers: they would not be legible.
constexpr int kMaxTokensWithNumbers = 12;

// The smallest window: two cells across, so a zoom never ends on a sliver of one cell.
constexpr double kMinSpan = 2;

// `r` moved (and shrunk if need be) to lie inside `full`, keeping its size otherwise.
QCPRange clampedInto(const QCPRange& r, const QCPRange& full) {
    const double span = std::clamp(r.size(), std::min(kMinSpan, full.size()), full.size());
    const double lower = std::clamp(r.lower, full.lower, full.upper - span);
    return {lower, lower + span};
}

QString colourScaleLabel(HeatmapColours colours) {
    switch (colours) {
        case HeatmapColours::PerRow: return QObject::tr("weight ÷ its row's maximum");
        case HeatmapColours::Log: return QObject::tr("attention weight (log scale, from %1)").arg(kLogColourFloor);
        default: return QObject::tr("attention weight");
    }
}

}  // namespace

HeatmapBuilder::HeatmapBuilder(QCustomPlot* plot) : ColorMapPlot(plot, QObject::tr("attention weight")) {
    map_->setDataRange(QCPRange(0, 1));  // fixed: colours mean the same in every head
    plot_->xAxis->setLabel(QObject::tr("attended-to token (key)"));
    plot_->yAxis->setLabel(QObject::tr("query token"));
    // Labels are thinned for the axis rect of this replot; when the layout then changes its size
    // (a resize, longer labels), the plot is drawn again with labels thinned for the new size.
    QObject::connect(plot_, &QCustomPlot::beforeReplot, plot_, [this] { relabel(); });
    QObject::connect(plot_, &QCustomPlot::afterLayout, plot_, [this] {
        if (plot_->axisRect()->rect().size() == labelledFor_) relabelRounds_ = 0;
        else if (relabelRounds_++ < 2) plot_->replot(QCustomPlot::rpQueuedReplot);
    });
}

namespace {

// The weights the map shows before the selection: one head read in place, or an aggregate over
// heads made first (into `made`, which must outlive the result).
GridRef weightsShownOf(const LayerTrace& layer, int head, AttentionViewOptions::Aggregate aggregate, Mat& made) {
    switch (aggregate) {
        case AttentionViewOptions::Average: return made = averageOverHeads(layer);
        case AttentionViewOptions::Max: return made = maxOverHeads(layer);
        default: return layer.heads.at(head).weights;
    }
}

// The texts of tokens[keep…], and their 1-based positions into `positions`.
QStringList labelsOf(const std::vector<Token>& tokens, const std::vector<int>& keep, std::vector<int>& positions) {
    QStringList labels;
    positions.clear();
    for (const int i : keep) {
        labels << qs(tokens.at(static_cast<std::size_t>(i)).text);
        positions.push_back(i + 1);
    }
    return labels;
}

double scaleTop(const Trace& trace, int layer, const Eigen::Map<const Mat>& shown, const WeightSelection& selection,
                AttentionViewOptions::Scale scale) {
    const double top = scale == AttentionViewOptions::SharedMax ? maxWeight(trace, layer, selection)
                       : scale == AttentionViewOptions::PerHeadMax
                           ? (shown.size() == 0 ? 0.0 : std::max(0.0, shown.maxCoeff()))
                           : 1.0;
    return top > 0 ? top : 1.0;
}

QString titleFor(const Trace& trace, int head, const AttentionViewOptions& options, bool twoLines) {
    const bool norms = options.weighting == AttentionViewOptions::Norms;
    QString title = options.aggregate == AttentionViewOptions::Average ? QObject::tr("Average over heads")
                    : options.aggregate == AttentionViewOptions::Max   ? QObject::tr("Maximum over heads")
                    : trace.headCount() > 1 ? (norms ? QObject::tr("Weight × ‖value‖ — head %1")
                                                     : QObject::tr("Attention weights — head %1")).arg(head + 1)
                    : norms ? QObject::tr("Weight × ‖value‖") : QObject::tr("Attention weights");
    if (norms && options.aggregate != AttentionViewOptions::PerHead) title += QObject::tr(" of weight × ‖value‖");
    if (options.hideSpecial)
        title += (twoLines ? "\n" : "") + (options.renormalize ? QObject::tr(" (special tokens hidden, rows renormalised)")
                                     : QObject::tr(" (special tokens hidden: rows sum to < 1)"));
    return twoLines ? title.replace("\n ", "\n") : title;
}

}  // namespace

void HeatmapBuilder::build(const Trace& trace, int layer, int head, int decimals,
                           const AttentionViewOptions& options, HeatmapColours colours) {
    head_ = head;
    decimals_ = decimals;
    colours_ = colours;
    const WeightSelection selection = selectionOf(trace, options.hideSpecial, options.renormalize);
    crossAttention_ = trace.isCrossAttention();
    fillWeights(trace.layers.at(layer), head, options.aggregate, selection);  // K×K
    plot_->xAxis->setLabel(options.words ? QObject::tr("attended-to word (key)") : QObject::tr("attended-to token (key)"));
    plot_->yAxis->setLabel(options.words ? QObject::tr("query word") : QObject::tr("query token"));
    scaleMax_ = colours == HeatmapColours::Weight ? scaleTop(trace, layer, weights(), selection, options.scale) : 1.0;
    setColourScale(colours);
    if (options.weighting == AttentionViewOptions::Norms && colours == HeatmapColours::Weight)
        scale_->setLabel(QObject::tr("weight × ‖value‖, each row's share"));
    setAxes(labelsOf(trace.tokens, selection.keep, positions_),
            labelsOf(trace.columnTokens(), selection.columns(), keyPositions_));
    // A long run's layer between switches (the one on screen let go, the asked one being rebuilt)
    // or a cancelled one's until the layer shown before is back: an empty map that says why.
    const bool weightless = !weightsComputedFor(trace.layers.at(layer), head, options.aggregate != AttentionViewOptions::PerHead);
    title_->setText(weightless ? QObject::tr("Layer %1: attention weights not computed").arg(layer + 1)
                               : titleFor(trace, head, options, titleOnTwoLines_));
    title_->setFont(scaledFont(plot_->font(), 1.2));
    marks_.clear();  // printValues clears every item
    highlighted_.clear();
    printValues(decimals);
    plot_->replot();
}

QString HeatmapBuilder::title() const { return title_->text(); }

int HeatmapBuilder::titleWidth() const {
    const QFontMetrics metrics(title_->font());
    int widest = 0;
    for (const QString& line : title_->text().split('\n')) widest = std::max(widest, metrics.horizontalAdvance(line));
    return widest;
}

// Weight colours: the weights straight into the map's cells, which are then what hover and the
// printed numbers read (weights()). Other colours: the weights kept apart, the cells their colours.
void HeatmapBuilder::fillWeights(const LayerTrace& layer, int head, AttentionViewOptions::Aggregate aggregate,
                                 const WeightSelection& selection) {
    // A long run's layer not rebuilt (yet), or a head its run still going did not hand over: the
    // map says so in its title.
    if (!weightsComputedFor(layer, head, aggregate != AttentionViewOptions::PerHead)) {
        weights_ = Mat();
        hideCells();
        return;
    }
    Mat made;
    const GridRef source = weightsShownOf(layer, head, aggregate, made);
    if (colours_ == HeatmapColours::Weight) {
        weights_ = Mat();
        const auto [rows, cols] = shownShape(source, selection);
        shownWeightsInto(source, selection, resizeCells(rows, cols));
    } else {
        shownWeightsInto(source, selection, weights_);
        const Mat colours = colours_ == HeatmapColours::PerRow ? rowMaxNormalized(weights_) : flooredWeights(weights_);
        resizeCells(colours.rows(), colours.cols()) = colours;
    }
    cellsWritten();
}

Eigen::Map<const Mat> HeatmapBuilder::weights() const {
    if (colours_ == HeatmapColours::Weight) return cells();
    return {weights_.data(), weights_.rows(), weights_.cols()};
}

std::vector<DrawnCell> HeatmapBuilder::drawnCells() const {
    const Eigen::Map<const Mat> shown = weights();
    std::vector<DrawnCell> cells;
    cells.reserve(static_cast<std::size_t>(shown.size()));
    for (int row = 0; row < shown.rows(); ++row)
        for (int col = 0; col < shown.cols(); ++col) cells.push_back({row, col, shown(row, col)});
    return cells;
}

void HeatmapBuilder::setColourScale(HeatmapColours colours) {
    const bool log = colours == HeatmapColours::Log;
    map_->setDataScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);  // the colour bar follows
    map_->setDataRange(log ? QCPRange(kLogColourFloor, 1) : QCPRange(0, scaleMax_));
    if (log) scale_->axis()->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    else scale_->axis()->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    scale_->setLabel(colourScaleLabel(colours));
}

void HeatmapBuilder::setAxes(const QStringList& queries, const QStringList& keys) {
    keyLabels_ = keys;
    queryLabels_ = queries;
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
        axis->setSubTicks(false);
        axis->setTickLabelFont(plot_->font());
        axis->setLabelFont(plot_->font());
    }
    const HeatmapWindow full = fullWindow();
    plot_->xAxis->setRange(full.keys);
    plot_->yAxis->setRange(full.queries);
    plot_->xAxis->setTickLabelRotation(tickLabelRotation(keys, 6));
    scale_->axis()->setTickLabelFont(plot_->font());
    scale_->axis()->setLabelFont(plot_->font());
}

void HeatmapBuilder::relabel() {
    labelledFor_ = plot_->axisRect()->rect().size();
    drawnKeys_ = thinLabels(plot_->xAxis, keyLabels_, plot_->font());
    drawnQueries_ = thinLabels(plot_->yAxis, queryLabels_, plot_->font());
}

bool HeatmapBuilder::labelsUpToDate() const {
    return labelledFor_ == plot_->axisRect()->rect().size();
}

void HeatmapBuilder::settle() {
    plot_->setViewport(plot_->rect());
    for (int round = 0; round < 3 && (round == 0 || !labelsUpToDate()); ++round) plot_->replot();
}

void HeatmapBuilder::setWindow(HeatmapWindow window) {
    const HeatmapWindow full = fullWindow();
    plot_->xAxis->setRange(clampedInto(window.keys, full.keys));
    plot_->yAxis->setRange(clampedInto(window.queries, full.queries));
    plot_->replot();
}

HeatmapWindow HeatmapBuilder::window() const { return {plot_->xAxis->range(), plot_->yAxis->range()}; }

HeatmapWindow HeatmapBuilder::fullWindow() const {
    return {QCPRange(-0.5, std::max(keyCount(), 1) - 0.5), QCPRange(-0.5, std::max(tokenCount(), 1) - 0.5)};
}

void HeatmapBuilder::setHighlight(const std::vector<int>& tokens, int current) {
    for (QCPItemRect* mark : marks_) plot_->removeItem(mark);
    marks_.clear();
    highlighted_ = tokens;
    const double right = keyCount() - 0.5, bottom = tokenCount() - 0.5;
    // Under cross-attention the columns are other tokens (the source's): rows alone are outlined.
    const bool columnsToo = !crossAttention_;
    for (const int t : tokens) {
        // Okabe–Ito vermillion for the current match, white for the others: both read on viridis.
        const QPen pen = t == current ? QPen(theme::color(theme::Role::CurrentMark), 3) : QPen(Qt::white, 1.5);
        std::vector<QRectF> bands{QRectF(QPointF(-0.5, t - 0.5), QPointF(right, t + 0.5))};  // its row
        if (columnsToo) bands.emplace_back(QPointF(t - 0.5, -0.5), QPointF(t + 0.5, bottom));  // its column
        for (const QRectF& band : bands) {
            auto* mark = new QCPItemRect(plot_);
            mark->topLeft->setCoords(band.topLeft());
            mark->bottomRight->setCoords(band.bottomRight());
            mark->setPen(pen);
            mark->setClipToAxisRect(true);
            marks_.push_back(mark);
        }
    }
    plot_->replot();
}

void HeatmapBuilder::printValues(int decimals) {
    plot_->clearItems();
    valueLabels_ = 0;
    const int T = std::max(tokenCount(), keyCount());
    if (T > kMaxTokensWithNumbers) return;
    const int shown = T > 6 ? std::min(decimals, 2) : decimals;
    const QFont font = scaledFont(plot_->font(), T > 6 ? 0.85 : 1.0);
    for (const DrawnCell& c : drawnCells()) {
        auto* text = new QCPItemText(plot_);
        text->position->setCoords(c.col, c.row);
        text->setText(qs(formatNumber(c.value, shown)));
        text->setFont(font);
        text->setColor(theme::textOn(cellColour(c.row, c.col)));  // black on bright cells, white on dark
        text->setClipToAxisRect(true);
        ++valueLabels_;
    }
}

QColor HeatmapBuilder::cellColour(int row, int col) const {
    QCPColorGradient gradient = map_->gradient();
    return QColor(gradient.color(map_->data()->cell(col, row), map_->dataRange(),
                                 map_->dataScaleType() == QCPAxis::stLogarithmic));
}

QString HeatmapBuilder::hoverText(const QPointF& pixel) const {
    double key = 0, value = 0;
    map_->pixelsToCoords(pixel, key, value);
    const int col = static_cast<int>(std::lround(key));
    const int row = static_cast<int>(std::lround(value));
    const Eigen::Map<const Mat> shown = weights();  // none for a layer without weights (its tokens still labelled)
    if (row < 0 || col < 0 || row >= shown.rows() || col >= shown.cols() || row >= tokenCount() || col >= keyCount() ||
        !plot_->axisRect()->rect().contains(pixel.toPoint()))
        return {};
    const double w = shown(row, col);
    return QStringLiteral("%1 (#%2) → %3 (#%4): %5")
        .arg(queryLabels_[row])
        .arg(positions_[static_cast<std::size_t>(row)])
        .arg(keyLabels_[col])
        .arg(keyPositions_[static_cast<std::size_t>(col)])
        .arg(qs(formatNumber(w, decimals_)));
}

}  // namespace attnscope
