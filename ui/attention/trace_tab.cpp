#include "ui/attention/trace_tab.hpp"

#include <algorithm>

#include "ui/attention/head_view.hpp"
#include "ui/attention/heatmap_view.hpp"
#include "ui/attention/model_view.hpp"

namespace attnscope {

namespace {

// The head view's selection, minus heads a newly opened model does not have.
std::vector<int> validHeads(std::vector<int> heads, int headCount) {
    std::erase_if(heads, [headCount](int h) { return h < 0 || h >= headCount; });
    return heads;
}

}  // namespace

void TraceTab::show(TraceOnScreen shown, bool now) {
    const bool drawn = !stale_ && shown_.trace;
    TraceOnScreen onScreen = std::exchange(shown_, std::move(shown));  // let go of before any new drawing
    stale_ = true;
    if (!now || !shown_.trace) return;
    stale_ = false;
    if (drawn && keepsDrawing(shown_, onScreen)) return;
    onScreen = {};
    draw(shown_);
}

void TraceTab::drawIfStale() {
    if (!stale_ || !shown_.trace) return;
    stale_ = false;
    draw(shown_);
}

void HeatmapTab::draw(const TraceOnScreen& shown) {
    view_->setOptions(shown.options);
    view_->showTrace(*shown.trace, shown.layer, shown.decimals);
}

// A long run's whole layer after the heatmap's head came first holds the same numbers.
bool HeatmapTab::keepsDrawing(const TraceOnScreen& shown, const TraceOnScreen& onScreen) {
    const bool same = shown.layer == onScreen.layer && shown.decimals == onScreen.decimals &&
                      shown.options == onScreen.options &&
                      sameWeightsShown(*onScreen.trace, *shown.trace, shown.layer, view_->headsDrawn());
    if (same) view_->keepCellsFor(*shown.trace);
    return same;
}

void ModelViewTab::draw(const TraceOnScreen& shown) {
    if (shown.trace == drawn_ && shown.options == drawnOptions_ && shown.thumbnails == view_->thumbnails()) return;
    drawn_ = shown.trace;
    drawnOptions_ = shown.options;
    view_->setThumbnails(shown.thumbnails);
    view_->showTrace(shown.trace, shown.options);  // the view holds it too (tooltips, setOptions)
}

void HeadViewTab::draw(const TraceOnScreen& shown) {
    const Trace& trace = *shown.trace;
    view_->showTrace(trace, shown.layer, validHeads(view_->heads(), trace.headCount()), shown.options);
}

}  // namespace attnscope
