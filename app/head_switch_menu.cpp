#include "app/head_switch_menu.hpp"

#include <QLineEdit>
#include <QMenu>
#include <algorithm>

#include "core/trace/ablation.hpp"
#include "ui/attention/model_view.hpp"

namespace attnscope {

std::vector<HeadRef> toggledHead(std::vector<HeadRef> heads, HeadRef head) {
    const auto found = std::find(heads.begin(), heads.end(), head);
    if (found != heads.end()) heads.erase(found);
    else heads.push_back(head);
    std::sort(heads.begin(), heads.end());
    return heads;
}

QMenu* headSwitchMenu(const ModelView& view, const Trace& trace, QPoint at, QLineEdit* ablateEdit,
                      std::function<void()> apply) {
    const auto hit = view.thumbnailAt(at);
    if (!hit || hit->second == ModelView::kAggregateHead) return nullptr;
    const HeadRef head{hit->first, hit->second};
    const std::vector<HeadRef> off = ablatedHeads(trace);
    const bool isOff = std::find(off.begin(), off.end(), head) != off.end();
    auto* menu = new QMenu(ablateEdit);
    menu->setObjectName("headSwitchMenu");
    const QString name = QStringLiteral("%1:%2").arg(head.layer + 1).arg(head.head + 1);
    QAction* action = menu->addAction(isOff ? QObject::tr("Switch head %1 back on").arg(name)
                                            : QObject::tr("Switch head %1 off").arg(name));
    QObject::connect(action, &QAction::triggered, ablateEdit, [ablateEdit, off, head, apply] {
        ablateEdit->setText(QString::fromStdString(headSpecText(toggledHead(off, head))));
        apply();
    });
    return menu;
}

void addHeadSwitchMenu(ModelView* view, QLineEdit* ablateEdit, std::function<std::shared_ptr<const Trace>()> trace,
                       std::function<void()> apply) {
    QWidget* canvas = view->canvas();
    canvas->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(canvas, &QWidget::customContextMenuRequested, view, [=](QPoint at) {
        const auto shown = trace();
        if (!shown) return;
        QMenu* menu = headSwitchMenu(*view, *shown, at, ablateEdit, apply);
        if (!menu) return;
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(canvas->mapToGlobal(at));
    });
}

}  // namespace attnscope
