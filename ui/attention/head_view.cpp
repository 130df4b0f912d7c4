#include "ui/attention/head_view.hpp"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "core/analysis/head_summary.hpp"

#include "ui/attention/head_view_lines.hpp"
#include "ui/common/theme_colors.hpp"
#include "ui/attention/token_focus_bar.hpp"
#include "ui/attention/token_lines_canvas.hpp"

namespace attnscope {

namespace {

constexpr double kInlineWeights = 1 << 16;  // heads × K² up to this: lines extracted on the GUI thread
constexpr int kInlineLines = 600;           // lines up to this: the picture is rendered while painting
constexpr double kInlinePixels = 4e6;

}  // namespace

HeadView::HeadView(QWidget* parent) : QWidget(parent) {
    pool_.setMaxThreadCount(1);
    all_ = std::make_shared<const std::vector<DrawnLine>>();
    linesCancel_ = std::make_shared<std::atomic<bool>>(false);
    renderCancel_ = std::make_shared<std::atomic<bool>>(false);
    caption_ = new QLabel(this);
    caption_->setObjectName("headViewCaption");
    caption_->setWordWrap(true);
    headButtons_ = new QHBoxLayout;
    headButtons_->setSpacing(3);
    canvas_ = new TokenLinesCanvas(this);
    canvas_->setObjectName("headViewCanvas");
    scroll_ = new QScrollArea(this);
    scroll_->setWidget(canvas_);
    scroll_->setWidgetResizable(true);  // the canvas takes the width; its minimum height scrolls
    // The whole visible part is painted again: the edge marks and counts follow the view.
    connect(scroll_->verticalScrollBar(), &QScrollBar::valueChanged, canvas_, qOverload<>(&QWidget::update));
    focusBar_ = new TokenFocusBar(this);
    focusBar_->setObjectName("headViewFocus");
    connect(focusBar_, &TokenFocusBar::focusChosen, this,
            [this](int token) { setFocusToken(token < 0 ? std::nullopt : std::make_optional(token)); });
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(headButtons_);
    layout->addLayout(buildFilterRow());
    layout->addWidget(focusBar_);
    layout->addWidget(caption_);
    layout->addWidget(scroll_, 1);
}

HeadView::~HeadView() { cancelWork(true); }

// Stops the extraction and the rendering after the head / batch they are on; `wait`: until
// they have (needed before the trace the extraction reads may go away).
void HeadView::cancelWork(bool wait) {
    linesCancel_->store(true);
    renderCancel_->store(true);
    pendingImage_.reset();
    pendingHover_.reset();
    if (wait) pool_.waitForDone();
}

QColor HeadView::headColour(int head, QColor paper) {
    // Tableau 10 (bertviz uses the same family of categorical colours) plus two for 12 heads.
    static const char* colours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                                    "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#e7ba52"};
    constexpr int n = sizeof(colours) / sizeof(colours[0]);
    // Mean / max over heads: ink of the paper's opposite lightness (dark grey vanished on dark paper).
    if (head < 0) return QColor(paper.lightness() < 128 ? "#dddddd" : "#222222");
    if (head < n) return QColor(colours[head]);
    return QColor::fromHsv((head * 47) % 360, 200, 200);
}

void HeadView::showTrace(const Trace& trace, int layer, std::vector<int> heads, const AttentionViewOptions& options) {
    if (trace_ != &trace) cancelWork(true);  // the running extraction reads the old trace
    trace_ = &trace;
    layer_ = std::clamp(layer, 0, std::max(0, static_cast<int>(trace.layers.size()) - 1));
    options_ = options;
    heads_ = std::move(heads);
    if (heads_.empty())
        for (int h = 0; h < trace.headCount(); ++h) heads_.push_back(h);
    rebuildHeadButtons();
    rebuild();
}

void HeadView::showTrace(const Trace& trace, int layer, const AttentionViewOptions& options) {
    showTrace(trace, layer, {}, options);
}

void HeadView::setOptions(const AttentionViewOptions& options) {
    options_ = options;
    if (trace_) rebuild();
}

void HeadView::setHeads(std::vector<int> heads) {
    std::sort(heads.begin(), heads.end());
    heads_ = std::move(heads);
    for (std::size_t h = 0; h < buttons_.size(); ++h) {
        const QSignalBlocker blocker(buttons_[h]);
        buttons_[h]->setChecked(std::binary_search(heads_.begin(), heads_.end(), static_cast<int>(h)));
    }
    if (trace_) rebuild();
}

QString HeadView::caption() const { return caption_->text(); }
QWidget* HeadView::canvas() const { return canvas_; }

void HeadView::rebuildHeadButtons() {
    buttons_.clear();
    while (QLayoutItem* item = headButtons_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    headButtons_->addWidget(new QLabel(tr("Heads:"), this));
    for (int h = 0; h < trace_->headCount(); ++h) {
        auto* b = new QToolButton(this);
        b->setText(QString::number(h + 1));
        b->setCheckable(true);
        b->setChecked(std::find(heads_.begin(), heads_.end(), h) != heads_.end());
        b->setToolTip(tr("Show or hide head %1's lines").arg(h + 1));
        const QColor c = headColour(h);
        // Black or white, whichever reads on the head's colour (white on #bcbd22 was 2:1).
        b->setStyleSheet(QStringLiteral("QToolButton { background: %1; color: %2; border: 2px solid %1;"
                                        " border-radius: 3px; min-width: 20px; }"
                                        " QToolButton:!checked { background: transparent; color: %1; }")
                             .arg(c.name(), theme::textOn(c).name()));
        connect(b, &QToolButton::toggled, this, [this, h](bool on) { toggleHead(h, on); });
        headButtons_->addWidget(b);
        buttons_.push_back(b);
    }
    headButtons_->addStretch(1);
}

QLayout* HeadView::buildFilterRow() {
    floor_ = new QDoubleSpinBox(this);
    floor_->setObjectName("lineFloor");
    floor_->setDecimals(4);
    floor_->setRange(0.0001, 1);
    floor_->setSingleStep(0.001);
    floor_->setValue(filter_.minWeight);
    topK_ = new QSpinBox(this);
    topK_->setObjectName("lineTopK");
    topK_->setRange(0, 50);
    topK_->setSpecialValueText(tr("off"));
    topK_->setToolTip(tr("Also draw each token's strongest weights, however small (at 512 tokens a weight is ~0.002)."));
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Lines from weight"), this));
    row->addWidget(floor_);
    row->addWidget(new QLabel(tr("and the strongest per token:"), this));
    row->addWidget(topK_);
    row->addStretch(1);
    const auto changed = [this] { setLineFilter({floor_->value(), topK_->value()}); };
    connect(floor_, &QDoubleSpinBox::valueChanged, this, changed);
    connect(topK_, &QSpinBox::valueChanged, this, changed);
    return row;
}

void HeadView::setLineFilter(const LineFilter& filter) {
    if (filter == filter_) return;
    filter_ = filter;
    {
        const QSignalBlocker a(floor_), b(topK_);
        floor_->setValue(filter.minWeight);
        topK_->setValue(filter.topK);
    }
    if (trace_) rebuild();
}

void HeadView::toggleHead(int head, bool on) {
    std::vector<int> heads = heads_;
    if (on) heads.push_back(head);
    else heads.erase(std::remove(heads.begin(), heads.end(), head), heads.end());
    setHeads(heads);
    emit headsChanged(heads_);
}

// On the GUI thread: which tokens, in which rows (O(T)); the lines come from extractLines, at
// once for a small layer, else from the worker.
void HeadView::rebuild() {
    cancelWork(false);
    ++linesGeneration_;
    keep_ = visibleTokens(*trace_, options_.hideSpecial);
    rowOf_.assign(static_cast<std::size_t>(trace_->tokenCount()), -1);
    for (std::size_t r = 0; r < keep_.size(); ++r) rowOf_[static_cast<std::size_t>(keep_[r])] = static_cast<int>(r);
    const auto hidden = [&](const std::optional<HoveredToken>& t) { return t && tokenRect(HoveredToken::Left, t->token).isNull(); };
    if (hidden(hovered_)) hovered_.reset();
    if (hidden(focus_)) focus_.reset();
    QStringList labels;
    for (const Token& t : trace_->tokens) labels.push_back(QString::fromStdString(t.text));
    focusBar_->setTokens(std::move(labels), keep_);
    focusBar_->showFocus(focus_ ? focus_->token : -1);
    all_ = std::make_shared<const std::vector<DrawnLine>>();
    shown_.clear();
    caption_->setText(describe());

    LinesJob job{trace_, layer_, heads_, options_, keep_, linesCancel_ = std::make_shared<std::atomic<bool>>(false), filter_};
    const double k = static_cast<double>(keep_.size());
    const double weights = (options_.aggregate != AttentionViewOptions::PerHead ? 1.0 : static_cast<double>(heads_.size())) * k * k;
    linesPending_ = weights > kInlineWeights;
    if (!linesPending_) {
        acceptLines(linesGeneration_, std::make_shared<const std::vector<DrawnLine>>(*extractLines(job)));
    } else {
        const std::uint64_t generation = linesGeneration_;
        pool_.start([this, job = std::move(job), generation] {
            auto lines = extractLines(job);
            if (!lines) return;  // cancelled
            auto shared = std::make_shared<const std::vector<DrawnLine>>(std::move(*lines));
            QMetaObject::invokeMethod(this, [this, generation, shared] { acceptLines(generation, shared); }, Qt::QueuedConnection);
        });
    }
    canvas_->relayout();
}

void HeadView::acceptLines(std::uint64_t generation, std::shared_ptr<const std::vector<DrawnLine>> lines) {
    if (generation != linesGeneration_) return;  // stale
    all_ = std::move(lines);
    linesPending_ = false;
    // A hover's list at its largest, its pages touched now: growing it in a mouse move cost that
    // frame ~800 page faults (10 ms) on a [CLS]-like token of a long input.
    const std::size_t most = mostLinesOfOneToken(*all_, trace_->tokenCount());
    if (most > shown_.capacity()) shown_.resize(most);
    filterByHover();
    canvas_->update();  // the next paint asks for the picture (only if it is on screen)
}

// The picture for `key`: rendered right here when it is small, else by the worker (a newer
// request cancels an older one). Called while painting.
void HeadView::requestImage(const ImageKey& key) {
    if (pendingImage_ == key) return;
    RenderJob job{all_, rowOf_, key.width, key.height, key.top - key.windowTop, key.dpr, QColor::fromRgb(key.base), nullptr, key.rowHeight};
    renderCancel_->store(true);
    pendingHover_.reset();
    job.cancel = renderCancel_ = std::make_shared<std::atomic<bool>>(false);
    if (static_cast<int>(all_->size()) <= kInlineLines && key.width * key.height * key.dpr * key.dpr <= kInlinePixels) {
        pendingImage_.reset();
        linesImage_ = renderLines(job, [](int) {});
        imageKey_ = key;
        return;
    }
    pendingImage_ = key;
    renderPercent_ = 0;
    pool_.start([this, job = std::move(job), key] {
        QImage image = renderLines(job, [&](int percent) {
            QMetaObject::invokeMethod(this, [this, key, percent] { acceptProgress(key, percent); }, Qt::QueuedConnection);
        });
        if (image.isNull()) return;  // cancelled
        QMetaObject::invokeMethod(this, [this, key, image = std::move(image)] { acceptImage(key, image); }, Qt::QueuedConnection);
    });
}

// The picture dimmed, with the hovered token's lines on top (plain-loop hairlines), by the
// worker. Called while painting, only once the picture for `key` is there.
void HeadView::requestHoverImage(const ImageKey& key, const HoveredToken& token) {
    const auto want = std::make_pair(key, token);
    if (pendingHover_ == want) return;
    renderCancel_->store(true);  // an older hover picture is not wanted any more
    pendingImage_.reset();
    auto cancel = renderCancel_ = std::make_shared<std::atomic<bool>>(false);
    pendingHover_ = want;
    // The worker picks the token's lines itself: copying thousands of them here cost the frame.
    pool_.start([this, base = linesImage_, all = all_, rowOf = rowOf_, key, token, cancel] {
        std::vector<DrawnLine> lines;
        linesTouching(*all, token, lines);
        QImage image = base.copy();
        HairlineRaster raster(image);
        raster.veil(key.base, kHoverDim);
        const auto y = [&](int t) {
            return (key.top - key.windowTop + rowOf[static_cast<std::size_t>(t)] * key.rowHeight + key.rowHeight / 2.0) * key.dpr;
        };
        std::size_t n = 0;
        for (const DrawnLine& line : lines) {
            if (n++ % 32 == 0 && cancel->load(std::memory_order_relaxed)) return;
            raster.line(0, y(line.from), image.width(), y(line.to), headColour(line.head, QColor::fromRgb(key.base)).rgb(), line.alpha);
        }
        QMetaObject::invokeMethod(this, [this, key, token, image = std::move(image)] { acceptHoverImage(key, token, image); },
                                  Qt::QueuedConnection);
    });
}

void HeadView::acceptHoverImage(const ImageKey& key, const HoveredToken& token, QImage image) {
    const auto got = std::make_pair(key, token);
    if (pendingHover_ != got) return;  // superseded
    pendingHover_.reset();
    hoverImage_ = std::move(image);
    hoverKey_ = got;
    if (hovered_ == token) canvas_->update();
}

void HeadView::acceptImage(const ImageKey& key, QImage image) {
    if (!(pendingImage_ == key)) return;  // superseded
    pendingImage_.reset();
    linesImage_ = std::move(image);
    imageKey_ = key;
    canvas_->update();
}

void HeadView::acceptProgress(const ImageKey& key, int percent) {
    if (!(pendingImage_ == key)) return;
    renderPercent_ = percent;
    canvas_->update(canvas_->visibleRegion().boundingRect() & canvas_->band());
}

QRect HeadView::tokenRect(HoveredToken::Side side, int token) const {
    if (token < 0 || token >= static_cast<int>(rowOf_.size()) || rowOf_[static_cast<std::size_t>(token)] < 0) return {};
    return canvas_->cellRect(side, rowOf_[static_cast<std::size_t>(token)]);
}

QString HeadView::describe() const {
    if (!trace_->layers.empty() && !hasWeights(trace_->layers[static_cast<std::size_t>(layer_)]))
        return tr("Layer %1: attention weights not computed.").arg(layer_ + 1);
    QString text = options_.weighting == AttentionViewOptions::Norms
                       ? tr("Layer %1. Line opacity = weight × ‖value‖, each row's share (Kobayashi et al. 2020)").arg(layer_ + 1)
                       : tr("Layer %1. Line opacity = weight").arg(layer_ + 1);
    switch (options_.scale) {
    case AttentionViewOptions::Fixed01: text += tr(" (1 = opaque)"); break;
    case AttentionViewOptions::SharedMax: text += tr(" / the layer's largest shown weight"); break;
    case AttentionViewOptions::PerHeadMax: text += tr(" / each head's largest weight"); break;
    }
    if (filter_.topK > 0)
        text += tr("; drawn: weights from %1 and each token's %2 strongest.").arg(filter_.minWeight).arg(filter_.topK);
    else text += tr("; weights below %1 are not drawn.").arg(filter_.minWeight);
    if (options_.aggregate != AttentionViewOptions::PerHead)
        text += options_.aggregate == AttentionViewOptions::Max ? tr(" Black: maximum over the selected heads.")
                                                                : tr(" Black: mean over the selected heads.");
    if (static_cast<int>(keep_.size()) < trace_->tokenCount())
        text += options_.renormalize ? tr(" Special tokens hidden; rows renormalised to sum to 1.")
                                     : tr(" Special tokens hidden: rows no longer sum to 1.");
    return text + tr(" Hover a token to isolate its lines; click it to keep them (Esc: every line again).");
}

}  // namespace attnscope
