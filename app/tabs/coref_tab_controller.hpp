#pragma once
// The controller of the Coreference tab: resolves the Trace on screen (every layer holds every
// head's weights, which is all coreference needs) when the tab is shown and something changed,
// so a hidden tab costs nothing; "use best heads" from the Heads tab lands here. Rollout, the
// default scoring, multiplies T×T matrices per layer: beyond a few dozen tokens it runs on a
// LatestRequestWorker (the drawing on screen stays until the newer one is ready).
#include <QObject>
#include <memory>
#include <vector>

#include "app/tabs/on_screen_refresh.hpp"
#include "core/analysis/coreference.hpp"

class QTabWidget;

namespace attnscope {

class CorefTab;
class LatestRequestWorker;

class CorefTabController : public QObject {
    Q_OBJECT
public:
    CorefTabController(QTabWidget* tabs, QObject* parent = nullptr);  // adds the tab

    // The trace on screen, the layer box's layer and the navigator's head (0-based).
    void show(std::shared_ptr<const Trace> trace, int layer, int head);
    void setHeads(const std::vector<HeadRef>& heads);  // and brings the tab forward
    // The Compare tab's sentence B (nullptr: none): its arcs are drawn under A's.
    void setSecond(std::shared_ptr<const Trace> b);
    CorefTab* tab() const { return tab_; }
    // Sentences up to this many tokens are resolved at once on the GUI thread (microseconds).
    void setInlineTokenLimit(int tokens) { inlineTokenLimit_ = tokens; }
    bool busy() const;  // a resolution is running on the worker

private:
    void refresh();  // re-resolves the trace when the tab is on screen, else later

    QTabWidget* tabs_;
    CorefTab* tab_ = nullptr;
    LatestRequestWorker* worker_ = nullptr;
    int inlineTokenLimit_ = 64;
    std::shared_ptr<const Trace> trace_, b_;
    int layer_ = 0, head_ = 0;
    std::unique_ptr<OnScreenRefresh> onScreen_;  // the trace, layer or head changed while hidden
};

}  // namespace attnscope
