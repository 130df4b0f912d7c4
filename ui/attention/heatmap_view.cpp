#include "ui/attention/heatmap_view.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace attnscope {

HeatmapView::HeatmapView(QWidget* parent) : QWidget(parent) {
    headBox_ = new QComboBox(this);
    headBox_->setObjectName("heatmapHead");
    allBox_ = new QCheckBox(tr("All heads side by side"), this);
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Head:"), this));
    controls->addWidget(headBox_);
    controls->addWidget(allBox_);
    controls->addStretch(1);
    controls->addWidget(new QLabel(tr("Hover a cell for its exact weight."), this));
    plotsArea_ = new QWidget(this);
    plotsRow_ = new QHBoxLayout(plotsArea_);
    plotsRow_->setContentsMargins(0, 0, 0, 0);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(plotsArea_, 1);

    connect(headBox_, &QComboBox::currentIndexChanged, this, [this](int head) {
        if (head < 0 || head == head_) return;
        setHead(head);
        emit headChanged(head);
    });
    connect(allBox_, &QCheckBox::toggled, this, &HeatmapView::setAllHeads);
}

HeatmapView::~HeatmapView() = default;

void HeatmapView::showTrace(const Trace& trace, int layer, int decimals) {
    trace_ = &trace;
    layer_ = layer;
    decimals_ = decimals;
    const int heads = trace.headCount();
    head_ = std::clamp(head_, 0, std::max(0, heads - 1));
    {
        const QSignalBlocker blocker(headBox_);
        headBox_->clear();
        for (int h = 0; h < heads; ++h) headBox_->addItem(tr("head %1").arg(h + 1));
        headBox_->setCurrentIndex(head_);
    }
    allBox_->setEnabled(heads > 1);
    // A hidden heatmap is drawn when it is shown or asked for: rebuilding plots nobody sees
    // on every keystroke took half the frame budget.
    dirty_ = true;
    if (isVisible()) rebuild();
}

void HeatmapView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    ensureBuilt();
}

void HeatmapView::ensureBuilt() const {
    if (dirty_) const_cast<HeatmapView*>(this)->rebuild();
}

void HeatmapView::setHead(int head) {
    if (head == head_ && !builders_.empty()) return;
    head_ = head;
    {
        const QSignalBlocker blocker(headBox_);
        headBox_->setCurrentIndex(head);
    }
    rebuild();
}

void HeatmapView::setOptions(const AttentionViewOptions& options) {
    options_ = options;
    dirty_ = true;  // drawn by the showTrace that follows, or when shown
}

void HeatmapView::setAllHeads(bool all) {
    allHeads_ = all;
    {
        const QSignalBlocker blocker(allBox_);
        allBox_->setChecked(all);
    }
    rebuild();
}

void HeatmapView::clearPlots() {
    builders_.clear();
    while (QLayoutItem* item = plotsRow_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
}

QCustomPlot* HeatmapView::addPlot() {
    auto* plot = new QCustomPlot(plotsArea_);
    plot->setMinimumSize(320, 300);
    plot->setMouseTracking(true);
    // QCustomPlot stops mouse events from reaching its parent: a right-click on a plot is passed
    // on as the view's own request, in the view's coordinates (headAt names the head there).
    plot->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(plot, &QWidget::customContextMenuRequested, this,
            [this, plot](QPoint at) { emit customContextMenuRequested(plot->mapTo(this, at)); });
    plotsRow_->addWidget(plot, 1);
    auto* builder = new HeatmapBuilder(plot);
    builders_.emplace_back(builder);
    connect(plot, &QCustomPlot::mouseMove, plot, [plot, builder](QMouseEvent* event) {
        const QString text = builder->hoverText(event->position());
        if (text.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(event->globalPosition().toPoint(), text, plot);
    });
    return plot;
}

void HeatmapView::rebuild() {
    dirty_ = false;
    clearPlots();
    if (!trace_ || trace_->layers.empty()) return;
    const int heads = trace_->headCount();
    headBox_->setEnabled(!allHeads_ && heads > 1);
    const bool summary = options_.aggregate != AttentionViewOptions::PerHead;  // one plot of all heads
    const bool all = allHeads_ && heads > 1 && !summary;
    for (int h = all ? 0 : head_; h < (all ? heads : head_ + 1); ++h) {
        addPlot();
        builders_.back()->build(*trace_, layer_, h, decimals_, options_);
    }
}

std::vector<const HeatmapBuilder*> HeatmapView::builders() const {
    ensureBuilt();
    std::vector<const HeatmapBuilder*> out;
    for (const auto& b : builders_) out.push_back(b.get());
    return out;
}

std::optional<HeadRef> HeatmapView::headAt(QPoint point) const {
    if (options_.aggregate != AttentionViewOptions::PerHead) return std::nullopt;
    for (const auto& b : builders_) {
        const QWidget* plot = b->plot();
        if (plot->rect().contains(plot->mapFrom(this, point))) return HeadRef{layer_, b->head()};
    }
    return std::nullopt;
}

QCustomPlot* HeatmapView::firstPlot() const {
    ensureBuilt();
    return builders_.empty() ? nullptr : builders_.front()->plot();
}

QImage HeatmapView::renderImage() const {
    ensureBuilt();
    if (builders_.size() == 1) return builders_.front()->plot()->toPixmap().toImage();
    return plotsArea_->grab().toImage();
}

}  // namespace attnscope
