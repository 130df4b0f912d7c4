#include "ui/common/fitting_tabs.hpp"

#include <QHelpEvent>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QToolTip>

namespace attnscope {

namespace {

// Over a tab whose label was shortened, its whole text (a tab's own tool tip, if set, wins).
class FullNameTips : public QObject {
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        auto* bar = qobject_cast<QTabBar*>(watched);
        if (!bar || event->type() != QEvent::ToolTip) return false;
        const auto* help = static_cast<QHelpEvent*>(event);
        const int tab = bar->tabAt(help->pos());
        if (tab < 0 || !bar->tabToolTip(tab).isEmpty()) return false;
        const QString text = bar->tabText(tab);
        const int room = bar->tabRect(tab).width() - bar->style()->pixelMetric(QStyle::PM_TabBarTabHSpace, nullptr, bar);
        if (bar->fontMetrics().horizontalAdvance(text) <= room) return false;  // shown whole
        QToolTip::showText(help->globalPos(), text, bar);
        return true;
    }
};

}  // namespace

void keepEveryTabInSight(QTabWidget* tabs) {
    tabs->setElideMode(Qt::ElideRight);
    tabs->setUsesScrollButtons(false);
    tabs->tabBar()->installEventFilter(new FullNameTips(tabs->tabBar()));
}

}  // namespace attnscope
