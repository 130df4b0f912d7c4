#include "ui/heads/head_ranking_builder.hpp"

#include <QTextLayout>
#include <cmath>
#include <qcustomplot.h>

#include "ui/common/plot_bytes.hpp"
#include "ui/common/theme_colors.hpp"

namespace attnscope {

namespace {

// More cells than this get no printed percentages: they would not be legible.
constexpr int kMaxCellsWithNumbers = 16 * 16;

QString percent(double share) { return QString::number(100 * share, 'f', 0) + "%"; }

// Exports at the plot's size on screen, but never smaller than this (the tab may not have been
// shown yet, leaving the plot at a placeholder size).
QSize exportSize(const QCustomPlot* plot) { return plot->size().expandedTo(QSize(640, 480)); }

// Each line of `text` broken at word (or CJK character) boundaries into lines of at most `width`
// pixels in `font`, as a QLabel wraps.
QString wrapped(const QString& text, const QFont& font, int width) {
    QStringList lines;
    for (const QString& paragraph : text.split('\n')) {
        QTextLayout layout(paragraph, font);
        layout.beginLayout();
        for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
            line.setLineWidth(width);
            lines << paragraph.mid(line.textStart(), line.textLength()).trimmed();
        }
        layout.endLayout();
    }
    return lines.join('\n');
}

}  // namespace

HeadRankingBuilder::HeadRankingBuilder(QCustomPlot* plot)
    : ColorMapPlot(plot, QObject::tr("antecedent accuracy")) {
    map_->setDataRange(QCPRange(0, 1));  // fixed: the same colour means the same accuracy on every model
    plot_->xAxis->setLabel(QObject::tr("head"));
    plot_->yAxis->setLabel(QObject::tr("layer"));
    // A title wider than the plot (a lesson's long name at 1280×720) wraps; each layout checks again.
    QObject::connect(plot_, &QCustomPlot::afterLayout, plot_, [this] { wrapTitle(); });
    clear(QObject::tr("No evaluation yet"));
}

void HeadRankingBuilder::setTitle(const QString& text, const QFont& font) {
    titleText_ = text;
    title_->setFont(font);
    title_->setText(text);
    wrapTitle();
}

// To the viewport's width: the widget's on screen, the figure's while an export draws it.
void HeadRankingBuilder::wrapTitle() const {
    const int room = plot_->viewport().width() - 8;
    const QString text = room > 0 ? wrapped(titleText_, title_->font(), room) : titleText_;
    if (text == title_->text()) return;
    title_->setText(text);
    plot_->replot(QCustomPlot::rpQueuedReplot);  // the title's height changed within this layout
}

void HeadRankingBuilder::clear(const QString& message) {
    cells_.clear();
    correct_.clear();
    layers_ = heads_ = evaluated_ = 0;
    selected_.reset();
    map_->data()->clear();
    setTitle(message, scaledFont(plot_->font(), 1.1));
    setAxes();
    printValues();
    plot_->replot();
}

void HeadRankingBuilder::build(const CorefEvaluation& evaluation, const QString& title) {
    layers_ = evaluation.layers;
    heads_ = evaluation.headsPerLayer;
    evaluated_ = evaluation.evaluated;
    cells_.clear();
    correct_.clear();
    if (layers_ > 0 && heads_ > 0) {
        map_->data()->setSize(gridSize(heads_), gridSize(layers_));
        map_->data()->setRange(gridRange(heads_), gridRange(layers_));
    } else {
        map_->data()->clear();
    }
    for (int l = 0; l < layers_; ++l)
        for (int h = 0; h < heads_; ++h) {
            const double accuracy = evaluation.accuracy(l, h);
            setGridCell(h, l, accuracy);
            cells_.push_back({l, h, accuracy});
            correct_.push_back(static_cast<int>(std::lround(evaluation.correct(l, h))));
        }
    setTitle(title, plot_->font());  // the caller's lines, each wrapped when wider than the plot
    if (selected_ && (selected_->layer >= layers_ || selected_->head >= heads_)) selected_.reset();
    setAxes();
    printValues();
    plot_->replot();
}

// QCPColorMap sizes a cell from the distance between the first and last cell centres, so a
// lone row or column (a lesson's one layer) would be drawn zero pixels tall. Such a dimension
// is stored as two half-cells with the same value, centred at ±0.25: together one cell, −0.5…0.5.
int HeadRankingBuilder::gridSize(int count) { return count == 1 ? 2 : count; }

QCPRange HeadRankingBuilder::gridRange(int count) {
    return count == 1 ? QCPRange(-0.25, 0.25) : QCPRange(0, count - 1);
}

void HeadRankingBuilder::setGridCell(int head, int layer, double value) {
    for (int h = head; h < (heads_ == 1 ? 2 : head + 1); ++h)
        for (int l = layer; l < (layers_ == 1 ? 2 : layer + 1); ++l) map_->data()->setCell(h, l, value);
}

// Ticks 1…H and 1…L: the numbers people say ("layer 5, head 4").
void HeadRankingBuilder::setAxes() {
    const auto ticker = [](int count) {
        QSharedPointer<QCPAxisTickerText> t(new QCPAxisTickerText);
        const int step = count > 24 ? 4 : count > 12 ? 2 : 1;  // long axes: every other label
        for (int i = 0; i < count; i += step) t->addTick(i, QString::number(i + 1));
        return t;
    };
    plot_->xAxis->setTicker(ticker(heads_));
    plot_->yAxis->setTicker(ticker(layers_));
    plot_->xAxis->setRange(-0.5, std::max(heads_, 1) - 0.5);
    plot_->yAxis->setRange(-0.5, std::max(layers_, 1) - 0.5);
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis, scale_->axis()}) {
        axis->setSubTicks(false);
        axis->setTickLabelFont(plot_->font());
        axis->setLabelFont(plot_->font());
    }
    scale_->axis()->setRange(0, 1);
}

void HeadRankingBuilder::printValues() {
    plot_->clearItems();  // also the selection frame: selectHead draws it again
    frame_ = nullptr;
    valueLabels_ = 0;
    if (static_cast<int>(cells_.size()) <= kMaxCellsWithNumbers) {
        const QFont font = scaledFont(plot_->font(), cells_.size() > 64 ? 0.75 : 0.9);
        for (const DrawnCell& c : cells_) {
            auto* text = new QCPItemText(plot_);
            text->position->setCoords(c.col, c.row);
            text->setText(percent(c.value));
            text->setFont(font);
            text->setColor(theme::textOn(map_->gradient().color(c.value, QCPRange(0, 1))));  // black on bright cells
            text->setClipToAxisRect(true);
            ++valueLabels_;
        }
    }
    selectHead(selected_);
}

void HeadRankingBuilder::selectHead(std::optional<HeadRef> head) {
    if (head && (head->layer < 0 || head->head < 0 || head->layer >= layers_ || head->head >= heads_)) head.reset();
    selected_ = head;
    if (frame_) plot_->removeItem(frame_);
    frame_ = nullptr;
    if (selected_) {
        frame_ = new QCPItemRect(plot_);
        frame_->topLeft->setCoords(selected_->head - 0.5, selected_->layer - 0.5);
        frame_->bottomRight->setCoords(selected_->head + 0.5, selected_->layer + 0.5);
        frame_->setPen(QPen(theme::color(theme::Role::CurrentMark), 3));
        frame_->setBrush(Qt::NoBrush);
    }
    plot_->replot();
}

std::optional<HeadRef> HeadRankingBuilder::headAt(const QPointF& pixel) const {
    if (!plot_->axisRect()->rect().contains(pixel.toPoint())) return std::nullopt;
    double key = 0, value = 0;
    map_->pixelsToCoords(pixel, key, value);
    const int head = static_cast<int>(std::lround(key));
    const int layer = static_cast<int>(std::lround(value));
    if (layer < 0 || head < 0 || layer >= layers_ || head >= heads_) return std::nullopt;
    return HeadRef{layer, head};
}

QPointF HeadRankingBuilder::pixelOf(const HeadRef& head) const { return map_->coordsToPixels(head.head, head.layer); }

QString HeadRankingBuilder::hoverText(const QPointF& pixel) const {
    const auto head = headAt(pixel);
    if (!head) return {};
    const std::size_t i = static_cast<std::size_t>(head->layer * heads_ + head->head);
    return QObject::tr("Layer %1 · head %2: %3% (%4 of %5)")
        .arg(head->layer + 1)
        .arg(head->head + 1)
        .arg(QString::number(100 * cells_[i].value, 'f', 1))
        .arg(correct_[i])
        .arg(evaluated_);
}

// The title wrapped to the figure's width before it is drawn (not while its layout is made), and
// to the screen's again after.
QByteArray HeadRankingBuilder::figureBytes(const QString& format) const {
    const QSize size = exportSize(plot_);
    title_->setText(wrapped(titleText_, title_->font(), size.width() - 8));
    const QByteArray bytes = plotFigureBytes(plot_, size, titleText_, format);
    wrapTitle();
    return bytes;
}

}  // namespace attnscope
