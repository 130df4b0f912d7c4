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

const char* const kWholeLabel = "wholeTabLabel";  // a page's properties: its tab's two labels
const char* const kShortLabel = "shortTabLabel";

// A label as drawn: "&&" is one "&", a lone "&" marks the shortcut's letter.
QString drawn(QString text) {
    text.replace(QStringLiteral("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    return text.replace(QLatin1Char('\x01'), QLatin1Char('&'));
}

QString drawnText(const QTabBar& bar, int tab) { return drawn(bar.tabText(tab)); }

// Tab i's label, whole or (where it has one) short, as given to setTabText.
QString labelOf(const QTabWidget& tabs, int i, bool shortLabel) {
    const QWidget* page = tabs.widget(i);
    const QString whole = page ? page->property(kWholeLabel).toString() : QString();
    const QString brief = page ? page->property(kShortLabel).toString() : QString();
    if (shortLabel && !brief.isEmpty()) return brief;
    return whole.isEmpty() ? tabs.tabText(i) : whole;
}

// Over a tab whose label was shortened or is its short form, its whole text (a tab's own tool
// tip, if set, wins).
bool showWholeName(const QTabWidget& tabs, QTabBar& bar, const QHelpEvent& help) {
    const int tab = bar.tabAt(help.pos());
    if (tab < 0 || !bar.tabToolTip(tab).isEmpty()) return false;
    const QString text = drawnText(bar, tab), whole = drawn(labelOf(tabs, tab, false));
    const int room = bar.tabRect(tab).width() - bar.style()->pixelMetric(QStyle::PM_TabBarTabHSpace, nullptr, &bar);
    if (text == whole && bar.fontMetrics().horizontalAdvance(text) <= room) return false;  // shown whole
    QToolTip::showText(help.globalPos(), whole, &bar);
    return true;
}

// The tab widget's font (the application's, at View ▸ Zoom) scaled so that every shown label, in
// its whole or short form, fits whole, not below kSmallestTabPoints. What the tabs take besides
// their labels (padding, frames) is read off the bar's own size hint; one tab's padding is kept
// spare, so no label misses by a pixel.
QFont fittingFont(const QTabWidget& tabs, bool shortLabels) {
    const QTabBar& bar = *tabs.tabBar();
    const QFont base = tabs.font();
    const QFontMetricsF atBase(base), atBar(bar.font());
    // The bar's size hint: every shown tab at its present label's width, in the bar's present font.
    double text = 0, besides = bar.sizeHint().width() + bar.style()->pixelMetric(QStyle::PM_TabBarTabHSpace, nullptr, &bar);
    for (int i = 0; i < bar.count(); ++i) {
        if (!bar.isTabVisible(i)) continue;
        text += atBase.horizontalAdvance(drawn(labelOf(tabs, i, shortLabels)));
        besides -= atBar.horizontalAdvance(drawnText(bar, i));
    }
    const double room = tabs.width() - besides;
    if (text <= room || text <= 0 || room <= 0 || base.pointSizeF() <= 0) return base;
    QFont font = base;
    font.setPointSizeF(std::max(kSmallestTabPoints, base.pointSizeF() * room / text));
    return font;
}

// The whole labels while they fit at kWholeLabelsDownTo of the page's font, else the short ones;
// set only where they change (each change lays the bar out again, and comes back here).
void fitLabels(QTabWidget& tabs) {
    QFont font = fittingFont(tabs, false);
    const bool shortLabels = font.pointSizeF() < tabs.font().pointSizeF() * kWholeLabelsDownTo;
    if (shortLabels) font = fittingFont(tabs, true);
    for (int i = 0; i < tabs.count(); ++i) {
        const QString label = labelOf(tabs, i, shortLabels);
        if (tabs.tabText(i) != label) tabs.setTabText(i, label);
    }
    if (tabs.tabBar()->font() != font) tabs.tabBar()->setFont(font);
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
    new EventHook(bar, [tabs, bar](QEvent* event) {
        return event->type() == QEvent::ToolTip && showWholeName(*tabs, *bar, *static_cast<QHelpEvent*>(event));
    });
    // The labels and the bar's font fitted again when the tab widget is resized, its font changes
    // (a zoom) or its bar lays out again (a tab added, shown or hidden).
    new EventHook(tabs, [tabs](QEvent* event) {
        const QEvent::Type type = event->type();
        if (type == QEvent::Resize || type == QEvent::FontChange || type == QEvent::LayoutRequest) fitLabels(*tabs);
        return false;
    });
}

QString wholeTabLabel(const QTabWidget& tabs, int tab) { return labelOf(tabs, tab, false); }

void setShortTabLabel(QTabWidget* tabs, QWidget* page, const QString& label) {
    const int tab = tabs->indexOf(page);
    if (tab < 0) return;
    page->setProperty(kWholeLabel, tabs->tabText(tab));
    page->setProperty(kShortLabel, label);
    fitLabels(*tabs);
}

}  // namespace attnscope
