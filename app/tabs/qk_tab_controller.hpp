#pragma once
// The controller of the "Queries & keys" tab (issue 14 §2): it gathers the shown head's query and
// key rows from the worked trace (the one layer a model keeps in full detail, every layer of a
// lesson), calls core's qkSpace and hands the result to the QkView. It follows the layer box and
// the worked example's head, and recomputes only when the tab is on screen. PCA of one sentence is
// cheap (2·T points of d_k numbers, T² pairs: milliseconds at 512 tokens) and runs on the GUI
// thread; t-SNE (seconds for a thousand points) runs on a LatestRequestWorker, the last picture
// staying until it is ready.
#include <QObject>
#include <memory>

#include "app/tabs/on_screen_refresh.hpp"

#include "core/analysis/qk_space.hpp"

class QTabWidget;

namespace attnscope {

class LatestRequestWorker;
class QkView;

class QkTabController : public QObject {
    Q_OBJECT
public:
    QkTabController(QTabWidget* tabs, QObject* parent = nullptr);  // adds the tab

    // The worked trace, which of its layers is window layer `layer` (both 0-based), the head.
    void show(std::shared_ptr<const Trace> worked, int tracedLayer, int layer, int head);
    void setHead(int head);
    QkView* view() const { return view_; }
    bool busy() const;  // a t-SNE layout is being computed

private:
    void refresh();
    void show(const std::shared_ptr<const Result<QkSpace>>& space, HeadRef head);

    QTabWidget* tabs_;
    QkView* view_ = nullptr;
    LatestRequestWorker* worker_ = nullptr;
    std::shared_ptr<const Trace> trace_;
    int tracedLayer_ = 0, layer_ = 0, head_ = 0;
    std::unique_ptr<OnScreenRefresh> onScreen_;
};

}  // namespace attnscope
