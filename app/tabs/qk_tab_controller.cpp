#include "app/tabs/qk_tab_controller.hpp"

#include <QTabWidget>
#include <algorithm>

#include "app/source/latest_request_worker.hpp"
#include "core/analysis/qk_space.hpp"
#include "ui/qk/qk_view.hpp"
#include "ui/common/fitting_tabs.hpp"

namespace attnscope {

QkTabController::QkTabController(QTabWidget* tabs, QObject* parent)
    : QObject(parent), tabs_(tabs), worker_(new LatestRequestWorker("attnscope-qk", this)) {
    setObjectName("qkController");
    view_ = new QkView(tabs_);
    view_->setObjectName("qkView");
    tabs_->addTab(view_, tr("Queries && keys"));
    setShortTabLabel(tabs_, view_, tr("Q && K", "short tab label"));
    connect(view_, &QkView::layoutChanged, this, &QkTabController::refresh);
    onScreen_ = std::make_unique<OnScreenRefresh>(tabs_, view_, this, [this] { refresh(); });
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
    if (!onScreen_->onScreen()) return;
    if (!trace_) return view_->showMessage(tr("Run a sentence to see its queries and keys."));
    auto sentence = qkSentenceOf(*trace_, tracedLayer_, head_);
    if (!sentence || view_->layout() == QkLayout::Pca) {
        worker_->drop();  // an older t-SNE still running must not draw over this
        auto space = sentence ? qkSpace({sentence.value()}) : Result<QkSpace>(sentence.error());
        return show(std::make_shared<const Result<QkSpace>>(std::move(space)), HeadRef{layer_, head_});
    }
    QkOptions options;
    options.layout = QkLayout::Tsne;
    const int points = static_cast<int>(sentence.value().q.rows() + sentence.value().k.rows());
    options.tsne.perplexity = std::clamp(largestPerplexity(points), 1.0, 30.0);
    worker_->submit([this, s = std::move(sentence).value(), options, head = HeadRef{layer_, head_}](
                        const LatestRequestWorker::Request& request) mutable {
        options.cancel = request.cancelFlag();
        auto space = std::make_shared<const Result<QkSpace>>(qkSpace({s}, options));
        return [this, space, head] { show(space, head); };
    });
}

void QkTabController::show(const std::shared_ptr<const Result<QkSpace>>& space, HeadRef head) {
    if (!*space) return view_->showMessage(QString::fromStdString(space->error().text()));
    view_->showSpace(space->value(), head);
}

bool QkTabController::busy() const { return worker_->busy(); }

}  // namespace attnscope
