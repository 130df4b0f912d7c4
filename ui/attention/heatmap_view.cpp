#include "ui/attention/heatmap_view.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "ui/attention/heatmap_mouse.hpp"
#include "ui/attention/heatmap_tools.hpp"
#include "ui/common/theme_colors.hpp"

namespace attnscope {

namespace {

// One plot alone fills the view; side by side, each is at least this big (it grows to fill the
// width), so twelve or sixteen heads wrap into rows instead of making a window 4,000 px wide.
constexpr QSize kAlonePlot(320, 220);
constexpr QSize kGridPlot(300, 280);

}  // namespace

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
    scroll_ = new QScrollArea(this);
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    plotsArea_ = new QWidget;
    plotsGrid_ = new QGridLayout(plotsArea_);
    plotsGrid_->setContentsMargins(0, 0, 0, 0);
    scroll_->setWidget(plotsArea_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(tools_);
    layout->addWidget(scroll_, 1);

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

void HeatmapView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (builders_.size() > 1 && columnsThatFit() != columns_) placePlots();
}

void HeatmapView::clearPlots() {
    builders_.clear();
    while (QLayoutItem* item = plotsGrid_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    columns_ = 0;
}

// As many plots across as fit the view's width (the vertical scroll bar's room kept), at least one.
int HeatmapView::columnsThatFit() const {
    if (builders_.empty()) return 1;
    const int widest = builders_.front()->plot()->minimumWidth();
    const int spacing = plotsGrid_->horizontalSpacing();
    const int width = scroll_->width() - scroll_->verticalScrollBar()->sizeHint().width();
    const int fit = std::max(1, (width + spacing) / (widest + spacing));
    return std::min(fit, static_cast<int>(builders_.size()));
}

void HeatmapView::placePlots() {
    while (QLayoutItem* item = plotsGrid_->takeAt(0)) delete item;  // the plots stay
    for (int c = 0; c < plotsGrid_->columnCount(); ++c) plotsGrid_->setColumnStretch(c, 0);
    columns_ = columnsThatFit();
    for (int i = 0; i < static_cast<int>(builders_.size()); ++i)
        plotsGrid_->addWidget(builders_[static_cast<std::size_t>(i)]->plot(), i / columns_, i % columns_);
    for (int c = 0; c < columns_; ++c) plotsGrid_->setColumnStretch(c, 1);
}

// A hidden view gets no resize events: its rows of plots and the scrolled area are sized here.
void HeatmapView::layOutHidden() {
    if (builders_.size() > 1 && columnsThatFit() != columns_) placePlots();
    if (isVisible()) return;
    const QSize least = plotsArea_->minimumSizeHint();
    plotsArea_->resize(std::max(scroll_->width(), least.width()), std::max(scroll_->height(), least.height()));
    plotsGrid_->activate();
}

QCustomPlot* HeatmapView::addPlot(QSize minimum) {
    auto* plot = new QCustomPlot(plotsArea_);
    plot->setMinimumSize(minimum);
    plot->setMouseTracking(true);
    // QCustomPlot stops mouse events from reaching its parent: a right-click on a plot is passed
    // on as the view's own request, in the view's coordinates (headAt names the head there).
    plot->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(plot, &QWidget::customContextMenuRequested, this,
            [this, plot](QPoint at) { emit customContextMenuRequested(plot->mapTo(this, at)); });
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

// As many plots as wanted, each at its least size. The plots there are kept: a new plot's map,
// image and paint buffers are fresh pages (4,096 tokens: 128 + 64 + 64 MB), the most of a layer switch.
void HeatmapView::providePlots(int count, QSize minimum) {
    if (static_cast<int>(builders_.size()) != count) {
        clearPlots();
        for (int i = 0; i < count; ++i) addPlot(minimum);
    }
    for (const auto& b : builders_) b->plot()->setMinimumSize(minimum);
}

std::vector<int> HeatmapView::headsDrawnAlone() const {
    if (allHeads_ || options_.aggregate != AttentionViewOptions::PerHead) return {};
    return {head_};
}

std::vector<int> HeatmapView::headsDrawn() const {
    if (!trace_ || dirty_ || builders_.empty()) return {};
    if (!allHeads_ && options_.aggregate == AttentionViewOptions::PerHead) return {head_};
    std::vector<int> heads(static_cast<std::size_t>(trace_->headCount()));
    std::iota(heads.begin(), heads.end(), 0);
    return heads;
}

void HeatmapView::keepCellsFor(const Trace& trace) { trace_ = &trace; }

void HeatmapView::rebuild() {
    dirty_ = false;
    if (!trace_ || trace_->layers.empty()) return clearPlots();
    const int heads = trace_->headCount();
    headBox_->setEnabled(!allHeads_ && heads > 1);
    const bool summary = options_.aggregate != AttentionViewOptions::PerHead;  // one plot of all heads
    const bool all = allHeads_ && heads > 1 && !summary;
    const int first = all ? 0 : head_;
    providePlots(all ? heads : 1, all ? kGridPlot : kAlonePlot);
    for (int h = first; h < (all ? heads : head_ + 1); ++h) {
        HeatmapBuilder& builder = *builders_[static_cast<std::size_t>(h - first)];
        QCustomPlot* plot = builder.plot();
        builder.setTitleOnTwoLines(all);
        builder.build(*trace_, layer_, h, decimals_, options_, tools_->colours());
        // Side by side, each plot at least as wide as its title needs over the map beside the
        // colour scale, in the font of the moment (zoom, language): narrower would cut the title.
        if (all) plot->setMinimumWidth(std::max(kGridPlot.width(), plot->plotLayout()->minimumOuterSizeHint().width()));
    }
    // Every plot as wide as the widest title needs: titles are never cut.
    int widest = 0;
    for (const auto& b : builders_) widest = std::max(widest, b->titleWidth());
    for (const auto& b : builders_) b->plot()->setMinimumWidth(std::max(b->plot()->minimumWidth(), widest + 24));
    placePlots();
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
    const int last = builders_.front()->keyCount() - 1;
    tools_->showRange(std::clamp(static_cast<int>(std::ceil(keys.lower)), 0, last),
                      std::clamp(static_cast<int>(std::floor(keys.upper)), 0, last));
}

// Tokens whose text contains the find box's text, ignoring case: their rows and columns are outlined
// (rows alone under cross-attention, whose columns are the source's tokens).
void HeatmapView::find() {
    matches_.clear();
    const QString text = tools_->findText();
    if (!builders_.empty() && !text.isEmpty()) {
        const QStringList& labels = builders_.front()->queryLabels();
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
    const_cast<HeatmapView*>(this)->layOutHidden();
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

namespace attnscope {

QString HeatmapView::figureTitle(const QString& source, int layerNumber) const {
    const int heads = trace_ ? trace_->headCount() : 0;
    const QString where = tr("%1 — layer %2").arg(source).arg(layerNumber);
    switch (options_.aggregate) {
        case AttentionViewOptions::Average: return tr("%1, average over heads").arg(where);
        case AttentionViewOptions::Max: return tr("%1, maximum over heads").arg(where);
        default: break;
    }
    if (allHeads_ && heads > 1) return tr("%1, all %2 heads").arg(where).arg(heads);
    return tr("%1, head %2").arg(where).arg(head_ + 1);
}

// The title is drawn on the figure itself (not only in the file name), so a figure pasted into a
// paper or slide still says what it shows; long titles wrap rather than being cut.
QImage HeatmapView::renderFigure(const QString& source, int layerNumber) const {
    const QImage plots = renderImage();
    const qreal ratio = plots.devicePixelRatio();
    const int width = qRound(plots.width() / ratio);
    QFont font = this->font();
    font.setPointSizeF(font.pointSizeF() * 1.4);
    font.setBold(true);
    const QString title = figureTitle(source, layerNumber);
    const int margin = QFontMetrics(font).height() / 2;
    const QRect text = QFontMetrics(font).boundingRect(QRect(margin, margin, width - 2 * margin, 10000),
                                                       Qt::AlignHCenter | Qt::TextWordWrap, title);
    const int band = text.height() + 2 * margin;
    QImage figure(plots.width(), plots.height() + qRound(band * ratio), QImage::Format_ARGB32_Premultiplied);
    figure.setDevicePixelRatio(ratio);
    const QPalette light = theme::lightPalette();  // exports are drawn light, whatever the window shows
    figure.fill(light.color(QPalette::Base));
    QPainter painter(&figure);
    painter.setFont(font);
    painter.setPen(light.color(QPalette::WindowText));
    painter.drawText(QRect(margin, margin, width - 2 * margin, text.height()), Qt::AlignHCenter | Qt::TextWordWrap, title);
    painter.drawImage(QPointF(0, band), plots);
    return figure;
}

}  // namespace attnscope
