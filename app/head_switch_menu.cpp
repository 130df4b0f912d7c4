#include "app/head_switch_menu.hpp"

#include <QLineEdit>
#include <QMenu>
#include <algorithm>

#include "core/trace/ablation.hpp"

namespace attnscope {

std::vector<HeadRef> toggledHead(std::vector<HeadRef> heads, HeadRef head) {
    const auto found = std::find(heads.begin(), heads.end(), head);
    if (found != heads.end()) heads.erase(found);
    else heads.push_back(head);
    std::sort(heads.begin(), heads.end());
    return heads;
}

QMenu* headSwitchMenu(HeadRef head, const Trace& trace, QLineEdit* ablateEdit, std::function<void()> apply) {
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

void switchHeadOff(HeadRef head, const Trace& trace, const HeadSwitching& switching) {
    const std::vector<HeadRef> off = ablatedHeads(trace);
    if (std::find(off.begin(), off.end(), head) != off.end()) return;
    switching.ablateEdit->setText(QString::fromStdString(headSpecText(toggledHead(off, head))));
    switching.apply();
}

void addHeadSwitchMenu(QWidget* widget, std::function<std::optional<HeadRef>(QPoint)> headAt,
                       const HeadSwitching& switching) {
    widget->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(widget, &QWidget::customContextMenuRequested, widget, [=](QPoint at) {
        const auto shown = switching.trace();
        const auto head = headAt(at);
        if (!shown || !head || head->layer >= static_cast<int>(shown->layers.size()) ||
            head->head >= static_cast<int>(shown->layers[static_cast<std::size_t>(head->layer)].heads.size()))
            return;
        QMenu* menu = headSwitchMenu(*head, *shown, switching.ablateEdit, switching.apply);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(widget->mapToGlobal(at));
    });
}

}  // namespace attnscope
