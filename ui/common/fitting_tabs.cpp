#include "ui/common/fitting_tabs.hpp"

#include <algorithm>
#include <functional>

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QToolTip>

namespace attnscope {

namespace {

// A tab's label as drawn: "&&" is one "&", a lone "&" marks the shortcut's letter.
QString drawnText(const QTabBar& bar, int tab) {
    QString text = bar.tabText(tab);
    text.replace(QStringLiteral("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    return text.replace(QLatin1Char('\x01'), QLatin1Char('&'));
}

// Over a tab whose label was shortened, its whole text (a tab's own tool tip, if set, wins).
bool showWholeName(QTabBar& bar, const QHelpEvent& help) {
    const int tab = bar.tabAt(help.pos());
    if (tab < 0 || !bar.tabToolTip(tab).isEmpty()) return false;
    const QString text = drawnText(bar, tab);
    const int room = bar.tabRect(tab).width() - bar.style()->pixelMetric(QStyle::PM_TabBarTabHSpace, nullptr, &bar);
    if (bar.fontMetrics().horizontalAdvance(text) <= room) return false;  // shown whole
    QToolTip::showText(help.globalPos(), text, &bar);
    return true;
}

// The tab widget's font (the application's, at View ▸ Zoom) scaled so that every shown label fits
// whole, not below kSmallestTabPoints. What the tabs take besides their labels (padding, frames) is
// read off the bar's own size hint; one tab's padding is kept spare, so no label misses by a pixel.
QFont fittingFont(const QTabWidget& tabs) {
    const QTabBar& bar = *tabs.tabBar();
    const QFont base = tabs.font();
    const QFontMetricsF atBase(base), atBar(bar.font());
    // The bar's size hint: every shown tab at its whole label's width, in the bar's present font.
    double text = 0, besides = bar.sizeHint().width() + bar.style()->pixelMetric(QStyle::PM_TabBarTabHSpace, nullptr, &bar);
    for (int i = 0; i < bar.count(); ++i) {
        if (!bar.isTabVisible(i)) continue;
        text += atBase.horizontalAdvance(drawnText(bar, i));
        besides -= atBar.horizontalAdvance(drawnText(bar, i));
    }
    const double room = tabs.width() - besides;
    if (text <= room || text <= 0 || room <= 0 || base.pointSizeF() <= 0) return base;
    QFont font = base;
    font.setPointSizeF(std::max(kSmallestTabPoints, base.pointSizeF() * room / text));
    return font;
}

// An event filter that hands each event of the object it watches to `handle`.
class EventHook : public QObject {
public:
    EventHook(QObject* watched, std::function<bool(QEvent*)> handle) : QObject(watched), handle_(std::move(handle)) {
        watched->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject*, QEvent* event) override { return handle_(event); }

private:
    std::function<bool(QEvent*)> handle_;
};

}  // namespace

void keepEveryTabInSight(QTabWidget* tabs) {
    tabs->setElideMode(Qt::ElideRight);
    tabs->setUsesScrollButtons(false);
    QTabBar* bar = tabs->tabBar();
    new EventHook(bar, [bar](QEvent* event) {
        return event->type() == QEvent::ToolTip && showWholeName(*bar, *static_cast<QHelpEvent*>(event));
    });
    // The bar's font fitted again when the tab widget is resized, its font changes (a zoom) or its
    // bar lays out again (a label translated, a tab shown or hidden).
    new EventHook(tabs, [tabs](QEvent* event) {
        const QEvent::Type type = event->type();
        if (type == QEvent::Resize || type == QEvent::FontChange || type == QEvent::LayoutRequest) {
            const QFont font = fittingFont(*tabs);
            if (tabs->tabBar()->font() != font) tabs->tabBar()->setFont(font);
        }
        return false;
    });
}

}  // namespace attnscope
