#pragma once
// Tabs that compute (Coreference, Queries & keys) recompute only while they are on screen: at
// 512 tokens a rollout or a t-SNE costs more than a frame, and nobody looks at a hidden tab. A
// change while hidden marks the tab stale; opening it recomputes once.
#include <QObject>
#include <QTabWidget>

namespace attnscope {

class OnScreenRefresh {
public:
    // `refresh` runs when `page` is opened after a change it missed.
    template <class Refresh>
    OnScreenRefresh(QTabWidget* tabs, QWidget* page, QObject* context, Refresh refresh) : tabs_(tabs), page_(page) {
        QObject::connect(tabs, &QTabWidget::currentChanged, context, [this, refresh] {
            if (tabs_->currentWidget() == page_ && stale_) refresh();
        });
    }
    // True when the page is on screen (recompute now); false marks it stale.
    bool onScreen() {
        stale_ = tabs_->currentWidget() != page_;
        return !stale_;
    }
    void markStale() { stale_ = true; }
    bool stale() const { return stale_; }

private:
    QTabWidget* tabs_;
    QWidget* page_;
    bool stale_ = true;
};

}  // namespace attnscope
