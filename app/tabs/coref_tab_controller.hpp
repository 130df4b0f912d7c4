#pragma once
// The controller of the Coreference tab: resolves the Trace on screen (every layer holds every
// head's weights, which is all coreference needs) when the tab is shown and something changed,
// so a hidden tab costs nothing; "use best heads" from the Heads tab lands here.
#include <QObject>
#include <memory>
#include <vector>

#include "core/analysis/coreference.hpp"

class QTabWidget;

namespace attnscope {

class CorefTab;

class CorefTabController : public QObject {
    Q_OBJECT
public:
    CorefTabController(QTabWidget* tabs, QObject* parent = nullptr);  // adds the tab

    // The trace on screen, the layer box's layer and the navigator's head (0-based).
    void show(std::shared_ptr<const Trace> trace, int layer, int head);
    void setHeads(const std::vector<HeadRef>& heads);  // and brings the tab forward
    CorefTab* tab() const { return tab_; }

private:
    void refresh();  // re-resolves the trace when the tab is on screen, else later

    QTabWidget* tabs_;
    CorefTab* tab_ = nullptr;
    std::shared_ptr<const Trace> trace_;
    int layer_ = 0, head_ = 0;
    bool stale_ = true;  // the trace, layer or head changed while the tab was hidden
};

}  // namespace attnscope
