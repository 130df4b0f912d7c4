#include "app/tabs/qk_tab_controller.hpp"

#include <QTabWidget>

#include "core/analysis/qk_space.hpp"
#include "ui/qk/qk_view.hpp"

namespace attnscope {

QkTabController::QkTabController(QTabWidget* tabs, QObject* parent) : QObject(parent), tabs_(tabs) {
    setObjectName("qkController");
    view_ = new QkView(tabs_);
    view_->setObjectName("qkView");
    tabs_->addTab(view_, tr("Queries && keys"));
    connect(tabs_, &QTabWidget::currentChanged, this, [this] {
        if (tabs_->currentWidget() == view_ && stale_) refresh();
    });
}

void QkTabController::show(std::shared_ptr<const Trace> worked, int tracedLayer, int layer, int head) {
    trace_ = std::move(worked);
    tracedLayer_ = tracedLayer;
    layer_ = layer;
    head_ = head;
    refresh();
}

void QkTabController::setHead(int head) {
    if (head == head_) return;
    head_ = head;
    refresh();
}

void QkTabController::refresh() {
    if (tabs_->currentWidget() != view_) {
        stale_ = true;
        return;
    }
    stale_ = false;
    if (!trace_) return view_->showMessage(tr("Run a sentence to see its queries and keys."));
    auto sentence = qkSentenceOf(*trace_, tracedLayer_, head_);
    auto space = sentence ? qkSpace({sentence.value()}) : Result<QkSpace>(sentence.error());
    if (!space) return view_->showMessage(QString::fromStdString(space.error().text()));
    view_->showSpace(std::move(space).value(), HeadRef{layer_, head_});
}

}  // namespace attnscope
