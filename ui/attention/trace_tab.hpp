#pragma once
// The controller of a tab that draws the Trace on screen. The window hands every tab the same
// TraceOnScreen; the tab keeps it (and so keeps the trace alive while its view points into it)
// and draws it now, or, when the tab is off screen and drawing is dear, when the tab opens.
// Where to add a view: subclass ViewTab<YourView>, draw() in one call to the view, add it to the
// window.
#include <QWidget>
#include <memory>

#include "core/trace/head_digest.hpp"
#include "core/trace/trace.hpp"
#include "ui/attention/attention_options.hpp"

namespace attnscope {

class HeadView;
class HeatmapView;
class ModelView;

struct TraceOnScreen {
    std::shared_ptr<const Trace> trace;  // every layer
    int layer = 0;                       // 0-based, the layer box's choice
    int decimals = 3;
    AttentionViewOptions options;        // default for sources without attention options
    // A long run's thumbnails for the layers `trace` holds no weights of (TraceSource::thumbnails); null: none.
    std::shared_ptr<const RunDigests> thumbnails;
};

class TraceTab {
public:
    explicit TraceTab(QWidget* page) : page_(page) {}
    virtual ~TraceTab() = default;
    TraceTab(const TraceTab&) = delete;
    TraceTab& operator=(const TraceTab&) = delete;

    QWidget* page() const { return page_; }
    // Keeps `shown`; draws it at once when `now`, else at the next drawIfStale().
    void show(TraceOnScreen shown, bool now);
    void drawIfStale();  // the tab opened

protected:
    virtual void draw(const TraceOnScreen& shown) = 0;
    // `shown` replaces `onScreen`, which the tab drew last and still shows: true when the view
    // keeps what it drew, reading `shown` from now on. By default false: drawn anew, once `onScreen`
    // is let go (its Trace is not held beside the new drawing).
    virtual bool keepsDrawing(const TraceOnScreen& shown, const TraceOnScreen& onScreen) {
        static_cast<void>(shown);
        static_cast<void>(onScreen);
        return false;
    }

private:
    QWidget* page_;
    TraceOnScreen shown_;
    bool stale_ = false;
};

// A tab whose page is the one view widget it draws into.
template <class View>
class ViewTab : public TraceTab {
public:
    explicit ViewTab(View* view) : TraceTab(view), view_(view) {}
    View* view() const { return view_; }

protected:
    View* view_;
};

// Attention heatmap of the chosen layer.
class HeatmapTab : public ViewTab<HeatmapView> {
public:
    using ViewTab::ViewTab;

protected:
    void draw(const TraceOnScreen& shown) override;
    bool keepsDrawing(const TraceOnScreen& shown, const TraceOnScreen& onScreen) override;
};

// Every head of every layer as thumbnails: another layer in the layer box changes nothing here.
class ModelViewTab : public ViewTab<ModelView> {
public:
    using ViewTab::ViewTab;

protected:
    void draw(const TraceOnScreen& shown) override;

private:
    std::shared_ptr<const Trace> drawn_;
    AttentionViewOptions drawnOptions_;
};

// Lines between tokens for the chosen layer's selected heads (kept when the trace changes).
class HeadViewTab : public ViewTab<HeadView> {
public:
    using ViewTab::ViewTab;

protected:
    void draw(const TraceOnScreen& shown) override;
};

}  // namespace attnscope
