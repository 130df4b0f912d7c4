#include "ui/attention/heatmap_view.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "ui/attention/heatmap_mouse.hpp"
#include "ui/attention/heatmap_tools.hpp"
#include "ui/common/theme_colors.hpp"

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
    tools_ = new HeatmapTools(this);
    tools_->setObjectName("heatmapTools");
    plotsArea_ = new QWidget(this);
    plotsRow_ = new QHBoxLayout(plotsArea_);
    plotsRow_->setContentsMargins(0, 0, 0, 0);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(tools_);
    layout->addWidget(plotsArea_, 1);

    connect(headBox_, &QComboBox::currentIndexChanged, this, [this](int head) {
        if (head < 0 || head == head_) return;
        setHead(head);
        emit headChanged(head);
    });
    connect(allBox_, &QCheckBox::toggled, this, &HeatmapView::setAllHeads);
    connect(tools_, &HeatmapTools::rangeChosen, this, [this](int first, int last) {
        const QCPRange range(first - 0.5, last + 0.5);
        zoomTo({range, range});
    });
    connect(tools_, &HeatmapTools::resetRequested, this, &HeatmapView::resetZoom);
    connect(tools_, &HeatmapTools::findChanged, this, &HeatmapView::find);
    connect(tools_, &HeatmapTools::findStep, this, &HeatmapView::stepMatch);
    connect(tools_, &HeatmapTools::coloursChanged, this, &HeatmapView::rebuild);
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
    auto* mouse = new HeatmapMouse(plot, *builder);
    connect(mouse, &HeatmapMouse::windowRequested, this, &HeatmapView::zoomTo);
    connect(mouse, &HeatmapMouse::resetRequested, this, &HeatmapView::resetZoom);
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
        builders_.back()->build(*trace_, layer_, h, decimals_, options_, tools_->colours());
    }
    tools_->setTokenCount(builders_.front()->tokenCount());
    restoreWindow();
    find();
}

void HeatmapView::restoreWindow() {
    const HeatmapWindow full = builders_.front()->fullWindow();
    // Another sentence (other tokens) starts from the whole map; a head or layer keeps the zoom.
    if (window_ && (window_->keys.upper > full.keys.upper || window_->queries.upper > full.queries.upper))
        window_.reset();
    if (window_)
        for (const auto& b : builders_) b->setWindow(*window_);
    showWindow();
}

void HeatmapView::zoomTo(const HeatmapWindow& window) {
    if (builders_.empty()) return;
    for (const auto& b : builders_) b->setWindow(window);
    window_ = builders_.front()->window();  // as clamped to the cells
    showWindow();
}

void HeatmapView::resetZoom() {
    if (builders_.empty()) return;
    zoomTo(builders_.front()->fullWindow());
    window_.reset();
}

void HeatmapView::showWindow() {
    const QCPRange keys = builders_.front()->window().keys;
    const int last = builders_.front()->tokenCount() - 1;
    tools_->showRange(std::clamp(static_cast<int>(std::ceil(keys.lower)), 0, last),
                      std::clamp(static_cast<int>(std::floor(keys.upper)), 0, last));
}

// Tokens whose text contains the find box's text, ignoring case: their rows and columns are outlined.
void HeatmapView::find() {
    matches_.clear();
    const QString text = tools_->findText();
    if (!builders_.empty() && !text.isEmpty()) {
        const QStringList& labels = builders_.front()->keyLabels();
        for (int i = 0; i < labels.size(); ++i)
            if (labels[i].contains(text, Qt::CaseInsensitive)) matches_.push_back(i);
    }
    current_ = matches_.empty() ? -1 : 0;
    highlight();
}

// The previous or next match becomes current; the window moves (same zoom) to show it.
void HeatmapView::stepMatch(int delta) {
    if (matches_.empty()) return;
    const int n = static_cast<int>(matches_.size());
    current_ = ((current_ + delta) % n + n) % n;
    highlight();
    const double token = matches_[static_cast<std::size_t>(current_)];
    HeatmapWindow w = builders_.front()->window();
    if (!w.keys.contains(token)) w.keys += token - w.keys.center();
    if (!w.queries.contains(token)) w.queries += token - w.queries.center();
    zoomTo(w);
}

void HeatmapView::highlight() {
    const int current = current_ < 0 ? -1 : matches_[static_cast<std::size_t>(current_)];
    for (const auto& b : builders_) b->setHighlight(matches_, current);
    tools_->showMatches(static_cast<int>(matches_.size()), current_);
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
    // A hidden view (the command line's export) is laid out here, and its labels thinned for
    // the size it is drawn at.
    if (layout()) layout()->activate();
    plotsRow_->activate();
    for (const auto& b : builders_) b->settle();
    const theme::LightForExport light;  // exports are drawn light, whatever the window shows
    if (builders_.size() == 1) return builders_.front()->plot()->toPixmap().toImage();
    plotsArea_->setPalette(theme::lightPalette());  // the grab paints the area's background too
    for (const auto& b : builders_) b->plot()->replot();  // a grab shows the plots' buffers: drawn light now
    QImage image = plotsArea_->grab().toImage();
    plotsArea_->setPalette(QPalette());  // the application's again
    return image;
}

}  // namespace attnscope
