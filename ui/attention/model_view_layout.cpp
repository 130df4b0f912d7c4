#include "ui/attention/model_view.hpp"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <algorithm>
#include <numeric>

#include "core/text/error_messages.hpp"
#include "ui/attention/model_view_bar.hpp"
#include "ui/attention/thumbnail_grid.hpp"
#include "ui/common/core_error_text.hpp"

// The model view's grid geometry (thumbnail size, rects, headers) and what it selects: the
// layer / head filters and the head order. The rest of ModelView is in model_view.cpp.

namespace attnscope {

namespace {

constexpr int kMinThumb = 48;    // px; below this the grid scrolls instead of shrinking
constexpr int kMaxThumb = 220;   // px; small traces do not blow up into huge blocks
constexpr int kAggregateGap = 18;  // px before the mean / max column, to set it apart

}  // namespace

// The largest thumbnail side that fits the whole grid in the viewport (within kMin…kMaxThumb;
// below kMinThumb the grid scrolls), then every rect and header for it.
void ModelView::layoutThumbnails() {
    const QFontMetrics fm(font());
    const int rows = std::max(static_cast<int>(layers_.size()), 1);
    const int cols = std::max(columnCount(), 1);
    const bool aggregate = options_.aggregate != AttentionViewOptions::PerHead;
    const int aggregateText = aggregate ? fm.horizontalAdvance(aggregateName(options_.aggregate)) : 0;
    // Room for the aggregate's header to clear the last head's (at the smallest size) and the edge.
    const int extra = aggregate ? std::max(kAggregateGap, (aggregateText - kMinThumb - kThumbnailGap) / 2 + kHeaderSpacing) : 0;
    const int right = std::max(kThumbnailGap, (aggregateText - kMinThumb) / 2 + kHeaderSpacing);
    const int lastLayer = layers_.empty() ? 1 : layers_.back() + 1;
    const QPoint origin(fm.horizontalAdvance(tr("layer %1").arg(lastLayer)) + 2 * kThumbnailGap, fm.height() + kThumbnailGap);
    const QSize room = scroll_->viewport()->size() - QSize(origin.x() + extra + right, origin.y() + kThumbnailGap);
    const int fitW = room.width() / cols - kThumbnailGap;
    const int fitH = room.height() / rows - kThumbnailGap;
    const int size = std::clamp(std::min(fitW, fitH), kMinThumb, kMaxThumb);
    placeRects(size, extra, origin);
    placeHeaders(fm, size, extra, origin);
    grid_->labelOrigin = origin;
    grid_->setFixedSize(origin.x() + cols * (size + kThumbnailGap) + extra + right,
                        origin.y() + rows * (size + kThumbnailGap) + kThumbnailGap);
    const bool resized = size != thumbSize_;
    thumbSize_ = size;
    targetPixels_->store(devicePixels(size));
    if (resized) rescaleLater();
    grid_->update();
}

// Rows follow the layer filter; columns the head order (when set) within the head filter.
void ModelView::placeRects(int size, int extra, QPoint origin) {
    const int pitch = size + kThumbnailGap;
    const std::size_t layers = shape_.size();
    std::vector<int> rowOf(layers, 0);
    std::vector<std::vector<int>> columnOf(layers);
    for (std::size_t r = 0; r < layers_.size(); ++r) {
        const int l = layers_[r];
        rowOf[static_cast<std::size_t>(l)] = static_cast<int>(r);
        const std::vector<int> shown = shownHeads(l);
        columnOf[static_cast<std::size_t>(l)].assign(static_cast<std::size_t>(shape_[static_cast<std::size_t>(l)]), 0);
        for (std::size_t c = 0; c < shown.size(); ++c)
            columnOf[static_cast<std::size_t>(l)][static_cast<std::size_t>(shown[c])] = static_cast<int>(c);
    }
    const int cols = columnCount();
    for (DrawnThumbnail& t : thumbs_) {
        const bool summary = t.head == kAggregateHead;
        const int col = summary ? cols - 1 : columnOf[static_cast<std::size_t>(t.layer)][static_cast<std::size_t>(t.head)];
        t.rect = QRect(origin.x() + col * pitch + (summary ? extra : 0), origin.y() + rowOf[static_cast<std::size_t>(t.layer)] * pitch, size, size);
    }
}

// Head numbers (or ranks when sorted) over the columns, the aggregate's name, layer labels.
void ModelView::placeHeaders(const QFontMetrics& fm, int size, int extra, QPoint origin) {
    const int pitch = size + kThumbnailGap;
    const int heads = static_cast<int>(heads_.size());
    std::vector<DrawnHeader> summary;
    if (options_.aggregate != AttentionViewOptions::PerHead) {
        const QString text = aggregateName(options_.aggregate);
        const int width = fm.horizontalAdvance(text);
        summary.push_back({QRect(origin.x() + heads * pitch + extra + size / 2 - width / 2, 0, width, fm.height()), text});
    }
    const bool ranks = sorted();
    std::vector<int> centres, numbers;
    for (int c = 0; c < heads; ++c) {
        centres.push_back(origin.x() + c * pitch + size / 2);
        numbers.push_back(ranks ? c + 1 : heads_[static_cast<std::size_t>(c)] + 1);
    }
    const QStringList forms = ranks ? QStringList{tr("rank %1"), tr("#%1"), "%1"} : QStringList{tr("head %1"), tr("h%1"), "%1"};
    headers_ = columnHeaders(fm, centres, pitch, 0, forms, numbers, summary);
    headers_.insert(headers_.end(), summary.begin(), summary.end());
    std::vector<int> rowCentres, layerNumbers;
    for (std::size_t r = 0; r < layers_.size(); ++r) {
        rowCentres.push_back(origin.y() + static_cast<int>(r) * pitch + size / 2);
        layerNumbers.push_back(layers_[r] + 1);
    }
    const auto labels = rowHeaders(fm, rowCentres, pitch, origin.x() - kThumbnailGap, tr("layer %1"), layerNumbers);
    headers_.insert(headers_.end(), labels.begin(), labels.end());
}


bool ModelView::setLayerFilter(const QString& text) { return applyFilter(text, true); }
bool ModelView::setHeadFilter(const QString& text) { return applyFilter(text, false); }

// Parsed against the trace shown (before there is one, checked when it comes); a refused text
// leaves the last valid filter in place and says so.
bool ModelView::applyFilter(const QString& text, bool layers) {
    QString& kept = layers ? layerFilterText_ : headFilterText_;
    if (trace_) {
        const int count = layers ? trace_->layerCount() : trace_->headCount();
        const auto parsed = parseIndexList(text.toStdString(), count,
                                           ErrorText(layers ? ErrorId::WhereLayerFilter : ErrorId::WhereHeadFilter));
        if (!parsed) {
            bar_->showMessage(tr("%1. The previous filter (%2) stays.").arg(coreErrorText(parsed.error()), kept.isEmpty() ? tr("all") : kept));
            return false;
        }
    }
    kept = text.trimmed();
    bar_->showMessage({});
    if (trace_) rebuild();
    return true;
}

// The filters against the trace now shown: one that no longer fits it (a smaller model) is
// dropped and everything is shown. Returns the message saying so (shown by the caller once the
// grid is consistent again: showing it resizes the viewport, which lays the grid out).
QString ModelView::validateFilters() {
    QString message;
    const auto select = [&message](QString& text, int count, ErrorId where, QLineEdit* edit) {
        auto parsed = parseIndexList(text.toStdString(), count, ErrorText(where));
        if (parsed) return std::move(parsed).value();
        message = tr("%1. Showing all.").arg(coreErrorText(parsed.error()));
        text.clear();
        edit->clear();
        return parseIndexList("", count, ErrorText(where)).value();
    };
    layers_ = select(layerFilterText_, trace_->layerCount(), ErrorId::WhereLayerFilter, bar_->layerEdit());
    heads_ = select(headFilterText_, trace_->headCount(), ErrorId::WhereHeadFilter, bar_->headEdit());
    return message;
}

// True when the head order given fits this trace: one permutation of its heads per layer.
bool ModelView::sorted() const {
    if (headOrder_.empty() || headOrder_.size() != shape_.size()) return false;
    for (std::size_t l = 0; l < headOrder_.size(); ++l) {
        std::vector<int> heads = headOrder_[l];
        std::sort(heads.begin(), heads.end());
        std::vector<int> expected(static_cast<std::size_t>(shape_[l]));
        std::iota(expected.begin(), expected.end(), 0);
        if (heads != expected) return false;
    }
    return true;
}

std::vector<int> ModelView::shownHeads(int layer) const {
    if (!sorted()) return heads_;
    std::vector<int> shown;
    for (const int h : headOrder_[static_cast<std::size_t>(layer)])
        if (std::binary_search(heads_.begin(), heads_.end(), h)) shown.push_back(h);
    return shown;
}

void ModelView::setHeadOrder(std::vector<std::vector<int>> order, const QString& statisticName) {
    headOrder_ = std::move(order);
    orderName_ = statisticName;
    if (!trace_) return;
    caption_->setText(scaleText_ + describeSelection());
    layoutThumbnails();
}

std::optional<HeadSortKey> ModelView::headSortKey() const {
    const int entry = bar_->orderBox()->currentIndex();
    if (entry <= 0 || entry > kHeadSortKeyCount) return std::nullopt;
    return static_cast<HeadSortKey>(entry - 1);
}

QString ModelView::describeSelection() const {
    QString text;
    const int layers = static_cast<int>(shape_.size());
    const int heads = shape_.empty() ? 0 : shape_.front();
    if (static_cast<int>(layers_.size()) < layers || static_cast<int>(heads_.size()) < heads)
        text += tr(" Showing %1 of %2 layers and %3 of %4 heads.").arg(layers_.size()).arg(layers).arg(heads_.size()).arg(heads);
    if (sorted())
        text += tr(" Heads ordered by %1 within each layer, highest first; the number in each corner is the head.").arg(orderName_);
    return text;
}

}  // namespace attnscope
