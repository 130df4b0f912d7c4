// A lecture on a projector (issue 28 §1): in presentation mode (and with View ▸ Fit the step to
// the window) the worked example's equation fills the screen, every cell of the current step and
// every line of the explanation inside the visible area, at 1280×720 and 1920×1080 (two offscreen
// screens, tests/gui/lecture_screens.json). Measured from widget geometry, not pixels. Also the
// presentation fixes (full screen is the screen, the default window fits it, zoom keeps hidden
// what presenting hid, menus and popups follow the zoom, the layer box shrinks back) and the
// clicker crossing layers.
#include <QApplication>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QToolButton>
#include <QMenu>
#include <QToolTip>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QStandardPaths>
#include <QStatusBar>
#include <QListWidget>
#include <QTabBar>
#include <QTabWidget>
#include <QStyle>
#include <QTableWidget>
#include <QTest>
#include <QTextBlock>
#include <cmath>
#include <memory>

#include <qcustomplot.h>

#include "app/lab_window.hpp"
#include "app/language.hpp"
#include "app/presentation.hpp"
#include "ui/lab/grouped_query_box.hpp"
#include "ui/lab/lab_plots.hpp"
#include "ui/lab/multi_head_panel.hpp"
#include "ui/common/folding_text.hpp"
#include "ui/common/plot_font.hpp"
#include "ui/step/matrix_panel.hpp"
#include "ui/step/matrix_table.hpp"
#include "ui/step/step_navigator.hpp"
#include "ui/step/token_strip.hpp"
#include "ui/common/fitting_tabs.hpp"
#include "window_access.hpp"

using namespace attnscope;

namespace {

// A plot's title row: the text element above its axes.
const QCPTextElement* titleOf(const QCustomPlot& plot) {
    for (QCPLayoutElement* element : plot.plotLayout()->elements(false))
        if (auto* text = qobject_cast<QCPTextElement*>(element)) return text;
    return nullptr;
}

// What makes a page wider than `room`: its widgets whose minimum width exceeds it, the innermost first.
QString widestParts(const QWidget& page, int room) {
    QStringList parts;
    for (const QWidget* w : page.findChildren<QWidget*>()) {
        if (!w->isVisible() || (w->minimumSizeHint().width() <= room && w->minimumWidth() <= room)) continue;
        bool inner = true;
        for (const QWidget* child : w->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly))
            inner = inner && !(child->isVisible() && (child->minimumSizeHint().width() > room || child->minimumWidth() > room));
        if (inner) parts << QString("%1 %2 px").arg(w->metaObject()->className()).arg(std::max(w->minimumSizeHint().width(), w->minimumWidth()));
    }
    return parts.mid(0, 4).join(", ");
}

// `inner` in the coordinates of `outer`'s widget.
QRect mapped(const QWidget* from, const QRect& r, const QWidget* to) {
    return QRect(from->mapTo(to, r.topLeft()), r.size());
}

// The main tabs as drawn: how many are shown, shortened with "…" or in their short form, and any
// outside the bar. A shortened or short label names its tab whole in its tool tip, unless the tab
// has a tool tip of its own (X → Y explains itself).
struct TabsInSight {
    int shown = 0, shortened = 0, brief = 0;
    QString outside;
};

TabsInSight tabsInSight(const QTabWidget& widget) {
    QTabBar* bar = widget.tabBar();
    TabsInSight tabs;
    for (int i = 0; i < bar->count(); ++i) {
        if (!bar->isTabVisible(i)) continue;
        ++tabs.shown;
        const QRect tab = bar->tabRect(i);
        if (!bar->rect().contains(tab))
            tabs.outside += QString("tab \"%1\" at %2..%3 of a bar %4 px wide; ").arg(bar->tabText(i)).arg(tab.left()).arg(tab.right()).arg(bar->width());
        const QString drawn = QString(bar->tabText(i)).replace(QStringLiteral("&&"), QStringLiteral("&"));  // "Queries && keys"
        const bool elided = bar->fontMetrics().horizontalAdvance(drawn) > tab.width() - bar->style()->pixelMetric(QStyle::PM_TabBarTabHSpace, nullptr, bar);
        const bool brief = bar->tabText(i) != wholeTabLabel(widget, i);
        tabs.shortened += elided;
        tabs.brief += brief;
        if (!elided && !brief) continue;
        QHelpEvent help(QEvent::ToolTip, tab.center(), bar->mapToGlobal(tab.center()));
        QApplication::sendEvent(bar, &help);
        const QString whole = QString(wholeTabLabel(widget, i)).replace(QStringLiteral("&&"), QStringLiteral("&"));
        if (QToolTip::text() != (bar->tabToolTip(i).isEmpty() ? whole : bar->tabToolTip(i)))
            tabs.outside += QString("tab \"%1\"'s tool tip \"%2\"; ").arg(bar->tabText(i), QToolTip::text());
        QToolTip::hideText();
    }
    return tabs;
}

}  // namespace

class LectureFitTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanup() {
        window.reset();
        applyLanguage("en");
    }

    void weightsStepFitsTheScreen_data();
    void weightsStepFitsTheScreen();
    void defaultWindowFitsA1280x720Screen();
    void zoomKeepsWhatPresentingHidHidden();
    void menusTooltipsAndPopupsFollowTheZoom();
    void layerBoxShrinksBackAfterZoomingOut();
    void clickerCrossesLayers();
    void rowHeaderSelectsTheRow();
    void descriptionFoldsToThreeLines();
    void labFollowsZoomAndPresentation();
    void labLegendsKeepTheTickSize();
    void groupedQueryFitsA1280x720Screen();
    void crossStageFitsA1280x720Screen_data();
    void crossStageFitsA1280x720Screen();
    void focusedRowStepsThroughTheProducts();
    void longSentenceKeepsTheChosenCellReadable();
    void peopleCountFromOne();
    void labPagesFitAtPresentationZoom_data();
    void labPagesFitAtPresentationZoom();
    void everyTabIsInSight_data();
    void everyTabIsInSight();

private:
    void openOn(int screenWidth, const QString& lesson = "coreference-zh");
    void presentOn(int screenWidth, int zoom, const QString& lesson = "coreference-zh");
    void goToStep(Step step);
    StepNavigator& navigator() { return *child<StepNavigator>(*window, "navigator"); }
    QComboBox& layerBox() { return *child<QComboBox>(*window, "layer"); }
    MatrixPanel& panel() { return *child<MatrixPanel>(*window, "matrixPanel"); }
    Presentation& presentation() { return *window->findChild<Presentation*>(); }
    QString cellsOutside(const QWidget& area);
    QString explanationLinesOutside(const QWidget& area);
    std::unique_ptr<MainWindow> window;
};

void LectureFitTest::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    if (!screenOf(1280) || !screenOf(1920)) QSKIP("needs the two offscreen screens of tests/gui/lecture_screens.json");
}

void LectureFitTest::openOn(int screenWidth, const QString& lesson) {
    window = std::make_unique<MainWindow>();
    QScreen* screen = screenOf(screenWidth);
    window->setScreen(screen);
    window->move(screen->geometry().topLeft());
    QVERIFY(window->openBuiltInLesson(lesson));
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
}

void LectureFitTest::presentOn(int screenWidth, int zoom, const QString& lesson) {
    openOn(screenWidth, lesson);
    presentation().setZoom(zoom);
    presentation().setPresenting(true);
}

void LectureFitTest::goToStep(Step step) {
    StepNavigator& nav = *child<StepNavigator>(*window, "navigator");
    const auto& steps = nav.steps();
    nav.setCurrentIndex(static_cast<int>(std::find(steps.begin(), steps.end(), step) - steps.begin()));
    QCOMPARE(nav.currentStep(), step);
}

// Every cell of every matrix of the step: inside its table's viewport (not scrolled away) and
// inside the scroll area's viewport (not below or beside the visible canvas).
QString LectureFitTest::cellsOutside(const QWidget& area) {
    QStringList outside;
    for (const MatrixTable* table : panel().findChildren<MatrixTable*>()) {
        if (!table->isVisible()) continue;
        const QAbstractItemModel* m = table->model();
        for (int r = 0; r < m->rowCount(); ++r)
            for (int c = 0; c < m->columnCount(); ++c) {
                const QRect cell = table->visualRect(m->index(r, c));
                if (!table->viewport()->rect().contains(cell) ||
                    !area.rect().contains(mapped(table->viewport(), cell, &area)))
                    outside << QString("(%1,%2) %3").arg(r + 1).arg(c + 1).arg(m->index(r, c).data().toString());
            }
    }
    return outside.mid(0, 5).join(", ") + (outside.size() > 5 ? QString(" … %1 cells").arg(outside.size()) : QString());
}

// Every line of the explanation's text inside the explanation's viewport, and that inside the window.
QString LectureFitTest::explanationLinesOutside(const QWidget& area) {
    auto* explanation = panel().findChild<QPlainTextEdit*>("explanation");
    QStringList outside;
    if (!area.rect().contains(mapped(explanation, explanation->rect(), &area))) outside << "the pane itself";
    for (QTextBlock b = explanation->document()->begin(); b.isValid(); b = b.next()) {
        QTextCursor cursor(b);
        cursor.movePosition(QTextCursor::EndOfBlock);
        const QRect last = explanation->cursorRect(cursor);
        cursor.movePosition(QTextCursor::StartOfBlock);
        const QRect first = explanation->cursorRect(cursor);
        if (!explanation->viewport()->rect().contains(first) || !explanation->viewport()->rect().contains(last))
            outside << b.text().left(40);
    }
    return outside.join(" | ");
}

void LectureFitTest::weightsStepFitsTheScreen_data() {
    QTest::addColumn<QString>("language");
    QTest::addColumn<int>("screenWidth");
    QTest::addColumn<int>("zoom");
    for (const char* language : {"en", "zh_CN"})
        for (const int width : {1280, 1920})
            for (const int zoom : {100, 150, 200})
                QTest::addRow("%s, %d×%d at %d %%", language, width, width * 9 / 16, zoom) << QString(language) << width << zoom;
}

// The 14-character coreference lesson, layer 1's weights: every cell of S and A on screen, 它 → 累
// reading 0.969 (e⁶ / (e⁶ + 13) = 403.43 / 416.43, the lesson's description works it out), and
// every line of its explanation, in tables of at least 9 points, in either interface language. Presenting hides the sentence
// and layer rows and keeps the lesson's title to one line; the explanation goes beside or below
// the equation, whichever lets the tables be larger; compact columns keep little padding.
void LectureFitTest::weightsStepFitsTheScreen() {
    QFETCH(QString, language);
    QFETCH(int, screenWidth);
    QFETCH(int, zoom);
    QVERIFY(applyLanguage(language));
    presentOn(screenWidth, zoom);
    QApplication::processEvents();
    QCOMPARE(window->geometry(), screenOf(screenWidth)->geometry());  // exactly the screen
    goToStep(Step::Weights);
    const int it = 10, tired = 12;  // 动物没有过马路，因为它太累了: 它 is the 11th token, 累 the 13th
    TraceMatrixModel& weights = *panel().resultModel();
    QCOMPARE(weights.headerData(it, Qt::Vertical, Qt::DisplayRole).toString(), QString("它"));
    QCOMPARE(weights.headerData(tired, Qt::Horizontal, Qt::DisplayRole).toString(), QString("累"));
    QCOMPARE(weights.index(it, tired).data().toString(), QString("0.969"));
    panel().selectCell(it, tired);
    QApplication::processEvents();
    QVERIFY(panel().explanationText().contains("0.969"));
    auto* scroll = panel().findChild<QScrollArea*>();
    const QString cells = cellsOutside(*scroll->viewport());
    QVERIFY2(cells.isEmpty(), qPrintable(QString("cells outside the visible area (%1 × %2 px, tables at %3 pt): %4")
                                             .arg(scroll->width()).arg(scroll->height()).arg(panel().equationPointSize()).arg(cells)));
    const QString lines = explanationLinesOutside(*window);
    QVERIFY2(lines.isEmpty(), qPrintable("explanation lines outside: " + lines));
    QVERIFY2(panel().equationPointSize() >= 9, qPrintable(QString::number(panel().equationPointSize())));
    qInfo("%s: tables at %.1f pt, explanation %d px of %d", QTest::currentDataTag(), panel().equationPointSize(),
          panel().findChild<QPlainTextEdit*>("explanation")->height(), panel().height());
}

// A new window opened on the 1280×720 screen stays inside its free area.
void LectureFitTest::defaultWindowFitsA1280x720Screen() {
    openOn(1280);
    const QRect free = screenOf(1280)->availableGeometry();
    QVERIFY2(free.contains(window->frameGeometry()),
             qPrintable(QString("window %1×%2 on %3×%4").arg(window->frameGeometry().width())
                            .arg(window->frameGeometry().height()).arg(free.width()).arg(free.height())));
}

// A zoom redraws the source's panels: the editor tab, the token strip and the side panel stay
// hidden while presenting, and come back after it.
void LectureFitTest::zoomKeepsWhatPresentingHidHidden() {
    openOn(1920);
    auto* tabs = child<QTabWidget>(*window, "tabs");
    const int editor = tabs->indexOf(child<QWidget>(*window, "lessonEditor"));
    auto* tokens = child<QWidget>(*window, "tokens");
    QVERIFY(tabs->isTabVisible(editor) && tokens->isVisible());
    presentation().setPresenting(true);
    QVERIFY(!tabs->isTabVisible(editor) && !tokens->isVisible());
    presentation().zoomIn();
    presentation().zoomIn();
    QVERIFY(!tabs->isTabVisible(editor));
    QVERIFY(!tokens->isVisible());
    QVERIFY(!child<QWidget>(*window, "description")->isVisible());
    QVERIFY(panel().fitsToArea());  // presenting fits the step, whatever the View menu says
    presentation().setPresenting(false);
    QVERIFY(tabs->isTabVisible(editor) && tokens->isVisible());
    QVERIFY(!panel().fitsToArea());
    presentation().setFitToWindow(true);  // View ▸ Fit the step to the window, outside presentation mode
    QVERIFY(panel().fitsToArea());
    presentation().setFitToWindow(false);
    QVERIFY(!panel().fitsToArea());
}

void LectureFitTest::menusTooltipsAndPopupsFollowTheZoom() {
    openOn(1920);
    for (const int zoom : {200, 100, 150}) {
        presentation().setZoom(zoom);
        const double points = Presentation::kBasePointSize * zoom / 100.0;
        for (QAction* menu : window->menuBar()->actions())
            QCOMPARE(menu->menu()->font().pointSizeF(), points);
        QCOMPARE(QToolTip::font().pointSizeF(), points);
        QCOMPARE(layerBox().view()->font().pointSizeF(), points);  // the combo box's popup list
    }
}

void LectureFitTest::layerBoxShrinksBackAfterZoomingOut() {
    openOn(1920);
    const auto sizeAt = [this](int zoom) {
        presentation().setZoom(zoom);
        QApplication::processEvents();
        return layerBox().size();
    };
    const QSize at100 = sizeAt(100);
    const QSize at200 = sizeAt(200);
    QVERIFY2(at200.width() > at100.width() && at200.height() > at100.height(),
             qPrintable(QString("%1×%2 at 200 %, %3×%4 at 100 %").arg(at200.width()).arg(at200.height())
                            .arg(at100.width()).arg(at100.height())));
    QCOMPARE(sizeAt(100), at100);
    QCOMPARE(layerBox().minimumSizeHint().width(), layerBox().sizeHint().width());  // not 200 %'s minimum
}

// The coreference lesson has two layers of 8 steps: a clicker's → (PageDown) at layer 1's last
// step opens layer 2 at its first, its ← (PageUp) goes back to layer 1's last.
void LectureFitTest::clickerCrossesLayers() {
    openOn(1920);
    const int last = static_cast<int>(navigator().steps().size()) - 1;
    navigator().setCurrentIndex(last);
    QCOMPARE(layerBox().currentIndex(), 0);
    QTest::keyClick(window.get(), Qt::Key_PageDown);
    QCOMPARE(layerBox().currentIndex(), 1);
    QCOMPARE(navigator().currentIndex(), 0);
    QCOMPARE(panel().resultModel()->layer(), 1);
    QTest::keyClick(window.get(), Qt::Key_Right);
    QCOMPARE(navigator().currentIndex(), 1);
    QTest::keyClick(window.get(), Qt::Key_Left);
    QTest::keyClick(window.get(), Qt::Key_PageUp);
    QCOMPARE(layerBox().currentIndex(), 0);
    QCOMPARE(navigator().currentIndex(), last);
    QCOMPARE(panel().resultModel()->layer(), 0);
    QCOMPARE(panel().resultModel()->step(), navigator().steps().back());
    navigator().setCurrentIndex(0);
    QTest::keyClick(window.get(), Qt::Key_PageUp);  // the very first step: nowhere to go
    QCOMPARE(layerBox().currentIndex(), 0);
    QCOMPARE(navigator().currentIndex(), 0);
}

// A click on 它's row header selects that row of A (14 cells, no other) and explains its cell in
// the current column: 它 → 累 = 0.969 when 累 was current.
void LectureFitTest::rowHeaderSelectsTheRow() {
    openOn(1920);
    goToStep(Step::Weights);
    const int first = 0, it = 10, tired = 12;
    panel().selectCell(first, tired);
    MatrixTable& table = *panel().resultView();
    QHeaderView& rows = *table.verticalHeader();
    QApplication::processEvents();
    const QPoint header(rows.width() / 2, rows.sectionViewportPosition(it) + rows.sectionSize(it) / 2);
    QTest::mouseClick(rows.viewport(), Qt::LeftButton, {}, header);
    const QModelIndexList selected = table.selectionModel()->selectedIndexes();
    QCOMPARE(selected.size(), 14);
    for (const QModelIndex& cell : selected) QCOMPARE(cell.row(), it);
    QCOMPARE(table.currentIndex(), table.model()->index(it, tired));
    QVERIFY2(panel().explanationText().contains("0.969"), qPrintable(panel().explanationText()));
}

// Outside presentation mode on 1280×720 the coreference lesson's description (its worked answer,
// about ten lines wrapped at this width) shows three lines and "More ▾"; unfolded, all of them.
void LectureFitTest::descriptionFoldsToThreeLines() {
    openOn(1280);
    auto& box = *child<FoldingText>(*window, "descriptionBox");
    QLabel& label = *box.label();
    QApplication::processEvents();
    const int line = label.fontMetrics().lineSpacing();
    const int full = label.heightForWidth(label.width());
    QVERIFY2(full > 5 * line, qPrintable(QString("the description takes %1 px, %2 px a line").arg(full).arg(line)));
    QVERIFY(box.folded() && box.toggle()->isVisible());
    QCOMPARE(label.height(), 3 * line);
    QTest::mouseClick(box.toggle(), Qt::LeftButton);
    QApplication::processEvents();
    QVERIFY(!box.folded());
    QTRY_COMPARE(label.height(), label.heightForWidth(label.width()));
    QTest::mouseClick(box.toggle(), Qt::LeftButton);
    QTRY_COMPARE(label.height(), 3 * line);
    QTRY_VERIFY2(box.height() < window->height() / 6, qPrintable(QString("%1 of %2 px").arg(box.height()).arg(window->height())));
}


// View ▸ Zoom reaches the Lab: its plots' axes, titles and cell numbers grow with the text, and
// presentation mode shows the Lab full screen on its screen, as the main window.
void LectureFitTest::labFollowsZoomAndPresentation() {
    openOn(1280);
    LabWindow* lab = openLab(window.get(), sessionOf(*window), LabWindow::MultiHead);
    QVERIFY(QTest::qWaitForWindowExposed(lab));
    const MatrixPlotBuilder& head = lab->multiHeadPanel()->headPlot(0);
    const auto fonts = [&] {
        QApplication::processEvents();
        head.plot()->replot();
        const QCPItemText* number = nullptr;  // the first printed cell number
        for (int i = 0; i < head.plot()->itemCount() && !number; ++i) number = qobject_cast<QCPItemText*>(head.plot()->item(i));
        return std::array<double, 4>{head.plot()->xAxis->tickLabelFont().pointSizeF(), titleOf(*head.plot())->font().pointSizeF(),
                                     number ? number->font().pointSizeF() : 0.0, lab->font().pointSizeF()};
    };
    const auto at100 = fonts();
    for (const int zoom : {150, 200}) {
        presentation().setZoom(zoom);
        const auto now = fonts();
        const double text = Presentation::kBasePointSize * zoom / 100.0;
        QCOMPARE(now[3], text);  // the Lab's widgets take the zoom's font
        QCOMPARE(now[0], text);  // tick labels: the plot's font
        QVERIFY2(now[1] > at100[1], qPrintable(QString("title %1 pt at %2 %").arg(now[1]).arg(zoom)));  // (shrunk to fit its plot)
        // (14 tokens are more columns than a map prints numbers for: lab_multihead_tests checks those.)
        if (at100[2] > 0) QVERIFY2(now[2] > at100[2], qPrintable(QString("cell numbers %1 pt at %2 %, %3 pt at 100 %").arg(now[2]).arg(zoom).arg(at100[2])));
        qInfo("Lab at %d %%: ticks %.1f pt (%.1f at 100 %%), title %.1f pt, cell numbers %.1f pt", zoom, now[0], at100[0], now[1], now[2]);
    }
    presentation().setZoom(100);
    QCOMPARE(fonts()[0], at100[0]);  // and back
    presentation().setPresenting(true);
    QApplication::processEvents();
    QTRY_COMPARE(lab->geometry(), screenOf(1280)->geometry());
    QVERIFY(lab->isFullScreen());
    presentation().setPresenting(false);
    QTRY_VERIFY(!lab->isFullScreen());
    QVERIFY(screenOf(1280)->availableGeometry().contains(lab->frameGeometry()));
}

// Every Lab curve's legend reads as large as its tick labels, at any zoom and after zooming back
// (each zoom there and back used to halve the entries: QCPLegend::setFont already sizes its items).
void LectureFitTest::labLegendsKeepTheTickSize() {
    openOn(1280);
    LabWindow* lab = openLab(window.get(), sessionOf(*window), LabWindow::Positional);
    QVERIFY(QTest::qWaitForWindowExposed(lab));
    const auto mismatch = [&](int zoom) -> QString {
        presentation().setZoom(zoom);
        QApplication::processEvents();
        int entries = 0;
        for (const QCustomPlot* plot : lab->findChildren<QCustomPlot*>()) {
            if (!plot->legend || !plot->legend->visible()) continue;
            const double ticks = plot->xAxis->tickLabelFont().pointSizeF();
            for (int i = 0; i < plot->legend->itemCount(); ++i, ++entries)
                if (const double entry = plot->legend->item(i)->font().pointSizeF(); std::abs(entry - ticks) > 0.01)
                    return QString("at %1 %: a legend entry of %2 pt beside %3 pt ticks").arg(zoom).arg(entry).arg(ticks);
        }
        return entries > 0 ? QString() : QString("no legend entry");
    };
    for (const int zoom : {100, 200, 100, 150, 100}) QVERIFY2(mismatch(zoom).isEmpty(), qPrintable(mismatch(zoom)));
}

// Lab ▸ Multi-head ▸ Heads that share keys, presented on the 1280×720 screen with H = 4 and H_kv = 2
// (as the screenshot tour shows it): the page needs no scrolling and every query head's card is
// whole on screen.
void LectureFitTest::groupedQueryFitsA1280x720Screen() {
    presentOn(1280, 100, "coreference");
    LabWindow* lab = openLab(window.get(), sessionOf(*window), LabWindow::MultiHead);
    QVERIFY(QTest::qWaitForWindowExposed(lab));
    QTRY_COMPARE(lab->geometry(), screenOf(1280)->geometry());
    MultiHeadPanel* panel = lab->multiHeadPanel();
    panel->inputBox()->setCurrentIndex(panel->inputBox()->findData(8));
    panel->headsBox()->setCurrentIndex(panel->headsBox()->findData(4));
    GroupedQueryBox* box = panel->groupedQuery();
    box->kvHeadsBox()->setCurrentIndex(box->kvHeadsBox()->findData(2));
    panel->showGroupedQuery();
    for (int pass = 0; pass < 10; ++pass) QTest::qWait(20);
    auto* area = qobject_cast<QScrollArea*>(lab->tabs()->currentWidget());
    QVERIFY(area);
    QVERIFY2(area->verticalScrollBar()->maximum() == 0,
             qPrintable(QString("the page scrolls: %1 px high in %2 px").arg(area->widget()->height()).arg(area->viewport()->height())));
    QCOMPARE(box->headPlotCount(), 4);
    for (int h = 0; h < box->headPlotCount(); ++h) {
        const QCustomPlot* plot = box->headPlot(h).plot();
        const QRect onScreen(plot->mapTo(lab, QPoint(0, 0)), plot->size());
        QVERIFY2(plot->isVisible() && lab->rect().contains(onScreen) && plot->visibleRegion().boundingRect() == plot->rect(),
                 qPrintable(QString("query head %1's card at %2,%3 %4×%5 px, %6 px of it shown").arg(h + 1).arg(onScreen.x())
                                .arg(onScreen.y()).arg(onScreen.width()).arg(onScreen.height())
                                .arg(plot->visibleRegion().boundingRect().height())));
    }
}

void LectureFitTest::crossStageFitsA1280x720Screen_data() { addTranslationRows(); }

// The translation lesson's cross stage in a window filling the screen, teacher forcing's table shown:
// every cell of every step's matrices on screen without scrolling (the table used to make the top
// area about 130 px taller at 1280×720, so the worked example scrolled for its last row), and the
// table itself whole.
void LectureFitTest::crossStageFitsA1280x720Screen() {
    QFETCH(QString, language);
    QFETCH(QString, lesson);
    QFETCH(int, screenWidth);
    QVERIFY(applyLanguage(language));
    openOn(screenWidth, lesson);
    window->setGeometry(screenOf(screenWidth)->availableGeometry());
    child<QComboBox>(*window, "stageChoice")->setCurrentIndex(2);  // cross-attention, output head and labels
    auto* table = child<QTableWidget>(*window, "teacherForcing");
    QTRY_VERIFY(table->isVisible());
    for (int pass = 0; pass < 10; ++pass) QTest::qWait(20);  // the table sizes itself to its rows, then the window lays out
    const QRect shown(table->mapTo(window.get(), QPoint(0, 0)), table->size());
    QVERIFY2(window->rect().contains(shown) && table->viewport()->rect().contains(table->visualRect(table->model()->index(3, 3))),
             qPrintable(QString("teacher forcing's table at %1,%2 %3×%4 px").arg(shown.x()).arg(shown.y()).arg(shown.width())
                            .arg(shown.height())));
    // Every step of the stage, Queries, Output, the residual sum and the logits (wide feature names in
    // their headers, the result used to wrap below its operands at 1280 px) as well: no cell scrolled
    // away, no scroll bar, tables at 9 points at least.
    auto* scroll = panel().findChild<QScrollArea*>();
    const std::vector<Step> steps = navigator().steps();
    QVERIFY(steps.size() >= 13);
    QStringList scrolled;
    for (const Step step : steps) {
        goToStep(step);
        panel().selectCell(0, 0);  // as a teacher explains a cell: the explanation pane takes its lines
        for (int pass = 0; pass < 5; ++pass) QTest::qWait(10);
        const QString name = navigator().list()->currentItem()->text().simplified();
        if (const QString cells = cellsOutside(*scroll->viewport()); !cells.isEmpty())
            scrolled << QString("%1: cells outside the visible %2 × %3 px: %4").arg(name).arg(scroll->viewport()->width())
                            .arg(scroll->viewport()->height()).arg(cells);
        else if (scroll->verticalScrollBar()->maximum() > 0 || scroll->horizontalScrollBar()->maximum() > 0)
            scrolled << QString("%1: a %2 × %3 px canvas in %4 × %5 px scrolls").arg(name).arg(scroll->widget()->width())
                            .arg(scroll->widget()->height()).arg(scroll->viewport()->width()).arg(scroll->viewport()->height());
        else if (panel().equationPointSize() < 9)  // legible on a projector (matrix_panel_fit.cpp's readable size)
            scrolled << QString("%1: tables at %2 pt").arg(name).arg(panel().equationPointSize());
    }
    QVERIFY2(scrolled.isEmpty(), qPrintable(scrolled.join("\n")));
}

void LectureFitTest::labPagesFitAtPresentationZoom_data() {
    QTest::addColumn<QString>("language");
    QTest::addColumn<int>("screenWidth");
    QTest::addColumn<int>("zoom");
    for (const char* language : {"en", "zh_CN"})
        for (const int width : {1280, 1920})
            for (const int zoom : {100, 150, 200})
                QTest::addRow("%s, %d×%d at %d %%", language, width, width * 9 / 16, zoom) << QString(language) << width << zoom;
}

// A plot whose rows are labelled (a sentence's tokens) keeps a line of its tick font per row, so
// the labels never print over each other; empty when every such plot has the room.
QString crowdedRowLabels(const QString& page, const QCustomPlot& plot, const QString& title) {
    const int rows = plot.property(kLabelledRows).toInt();
    if (rows <= 0) return {};
    const double line = QFontMetricsF(plot.yAxis->tickLabelFont()).height();
    const double perRow = static_cast<double>(plot.axisRect()->height()) / rows;
    if (perRow + 0.5 >= line) return {};
    return QString("%1: \"%2\" has %3 px per labelled row for %4 px labels (plot %5 px high, %6 px for its rows)")
        .arg(page, title).arg(perRow, 0, 'f', 1).arg(line, 0, 'f', 1).arg(plot.height()).arg(plot.axisRect()->height());
}

// Upright column labels (few short tokens) side by side within their columns; empty when they fit
// or slant.
QString crowdedColumnLabels(const QString& page, const QCustomPlot& plot, const QString& title) {
    const auto ticker = plot.xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    if (!ticker || plot.xAxis->tickLabelRotation() != 0 || ticker->ticks().isEmpty()) return {};
    const QFontMetricsF metrics(plot.xAxis->tickLabelFont());
    double widest = 0;
    for (const QString& label : ticker->ticks()) widest = std::max(widest, metrics.horizontalAdvance(label));
    const double perColumn = static_cast<double>(plot.axisRect()->width()) / ticker->ticks().size();
    if (widest <= perColumn) return {};
    return QString("%1: \"%2\" has %3 px per upright column label %4 px wide").arg(page, title).arg(perColumn, 0, 'f', 1).arg(widest, 0, 'f', 1);
}

// A legend whole within its plot and over none of its curves' points: below or beside the axes,
// or in a corner no point reaches; empty when so.
QString legendOverData(const QString& page, const QCustomPlot& plot, const QString& title) {
    if (!plot.legend || !plot.legend->visible() || plot.legend->itemCount() == 0) return {};
    const QRect legend = plot.legend->outerRect();
    if (!plot.rect().contains(legend))
        return QString("%1: \"%2\"'s legend at %3,%4 %5×%6 px, outside its %7×%8 px plot").arg(page, title).arg(legend.x())
            .arg(legend.y()).arg(legend.width()).arg(legend.height()).arg(plot.width()).arg(plot.height());
    if (!legend.intersects(plot.axisRect()->rect())) return {};
    int covered = 0;
    for (int g = 0; g < plot.graphCount(); ++g) {
        const QCPGraph* graph = plot.graph(g);
        for (auto point = graph->data()->constBegin(); point != graph->data()->constEnd(); ++point)
            if (legend.contains(graph->coordsToPixels(point->key, point->value).toPoint())) ++covered;
    }
    if (covered == 0) return {};
    return QString("%1: \"%2\"'s legend (%3×%4 px) covers %5 points of its curves").arg(page, title).arg(legend.width())
        .arg(legend.height()).arg(covered);
}

// At 100 %, 150 % and 200 %, presenting, in English and Chinese, every page of the Lab on the 1280×720 and
// 1920×1080 screens: no page wider than the window (it scrolls down, never sideways), every plot's
// title within its plot, every plot at least as large as its text needs, a line per labelled row,
// upright column labels within their columns, no legend over the data.
void LectureFitTest::labPagesFitAtPresentationZoom() {
    QFETCH(QString, language);
    QFETCH(int, screenWidth);
    QFETCH(int, zoom);
    QVERIFY(applyLanguage(language));
    presentOn(screenWidth, zoom, language == "en" ? "coreference" : "coreference-zh");  // as a class would
    LabWindow* lab = openLab(window.get(), sessionOf(*window), LabWindow::Positional);
    QVERIFY(QTest::qWaitForWindowExposed(lab));
    QTRY_COMPARE(lab->geometry(), screenOf(screenWidth)->geometry());
    QStringList clipped, wide;
    for (int page = 0; page < lab->tabs()->count(); ++page) {
        lab->tabs()->setCurrentIndex(page);
        QApplication::processEvents();
        auto* area = qobject_cast<QScrollArea*>(lab->tabs()->currentWidget());
        QVERIFY(area);
        // What a teacher sees once the page has settled: the plots lay themselves out (and may grow,
        // plot_font.cpp) in the events that follow; nothing here replots them.
        for (int pass = 0; pass < 10; ++pass) QTest::qWait(20);
        const QString name = lab->tabs()->tabText(page);
        if (area->widget()->width() > area->viewport()->width())
            wide << QString("%1: page %2 px wide in %3 px (%4)").arg(name).arg(area->widget()->width())
                           .arg(area->viewport()->width()).arg(widestParts(*area->widget(), area->viewport()->width()));
        for (QCustomPlot* plot : area->widget()->findChildren<QCustomPlot*>()) {
            if (!plot->isVisible()) continue;
            const QCPTextElement* title = titleOf(*plot);
            const QString crowded = crowdedRowLabels(name, *plot, title ? title->text() : QString());
            if (!crowded.isEmpty()) clipped << crowded;
            const QString crowdedColumns = crowdedColumnLabels(name, *plot, title ? title->text() : QString());
            if (!crowdedColumns.isEmpty()) clipped << crowdedColumns;
            const QString covering = legendOverData(name, *plot, title ? title->text() : QString());
            if (!covering.isEmpty()) clipped << covering;
            if (!title || title->text().isEmpty()) continue;
            // A title is drawn within its own layout cell, not the whole plot.
            const int needed = QFontMetrics(title->font()).horizontalAdvance(title->text());
            if (needed > title->outerRect().width())
                clipped << QString("%1: title \"%2\" %3 px in %4 px of a %5 px plot").arg(name, title->text()).arg(needed)
                               .arg(title->outerRect().width()).arg(plot->width());
            if (plot->axisRect()->width() < 40 || plot->axisRect()->height() < 40)
                clipped << QString("%1: \"%2\" keeps %3×%4 px for its data").arg(name, title->text())
                               .arg(plot->axisRect()->width()).arg(plot->axisRect()->height());
        }
    }
    QVERIFY2(clipped.isEmpty(), qPrintable(clipped.join("\n")));
    QVERIFY2(wide.isEmpty(), qPrintable(wide.join("\n")));
}

// View ▸ Focus the chosen row on the coreference lesson's scores: 它 → 累's cell chosen, every other
// row of S and of Q is dimmed (K, whose every row takes part, is not); the explanation starts at
// the rule and each → (or PageDown) adds one product q[它,c]·k[累,c] with the running sum, the
// sums computed here from the Q and K on screen; ← takes one back; after the last product → goes
// on to the next step.
void LectureFitTest::focusedRowStepsThroughTheProducts() {
    openOn(1920);
    presentation().setFocusRow(true);
    goToStep(Step::Scores);
    const int it = 10, tired = 12;
    panel().selectCell(it, tired);
    TraceMatrixModel& scores = *panel().resultModel();
    const std::vector<TraceMatrixModel*> operands = panel().operandModels();
    QCOMPARE(operands.size(), std::size_t(2));
    const TraceMatrixModel &q = *operands[0], &k = *operands[1];
    const auto dimmed = [](const TraceMatrixModel& m, int row) { return m.index(row, 0).data(TraceMatrixModel::DimRole).toBool(); };
    for (int row = 0; row < scores.rowCount(); ++row) {
        QCOMPARE(dimmed(scores, row), row != it);
        QCOMPARE(dimmed(q, row), row != it);
        QVERIFY(!dimmed(k, row));
    }
    const int dK = q.columnCount();
    QVERIFY(dK >= 2);
    const auto lastLine = [this] { return panel().explanationText().split('\n').last(); };
    QVERIFY2(!panel().explanationText().contains("running sum") && !panel().explanationText().contains("value ="),
             qPrintable(panel().explanationText()));
    // As the explanation prints numbers: whole ones whole, the rest to the lesson's 3 decimals.
    const auto printed = [](double v) { return v == std::round(v) ? QString::number(qint64(v)) : QString::number(v, 'f', 3); };
    double sum = 0;
    for (int c = 0; c < dK; ++c) {
        sum += q.index(it, c).data(TraceMatrixModel::ValueRole).toDouble() * k.index(tired, c).data(TraceMatrixModel::ValueRole).toDouble();
        QTest::keyClick(window.get(), c % 2 == 0 ? Qt::Key_Right : Qt::Key_PageDown);
        QCOMPARE(navigator().currentStep(), Step::Scores);
        if (c + 1 < dK) {
            const QString expected = QString("running sum of the first %1 of %2 = %3").arg(c + 1).arg(dK).arg(printed(sum));
            QCOMPARE(lastLine(), expected);
            QCOMPARE(panel().explanationText().count("·k[累,"), c + 1);
        }
    }
    // Every product shown: the whole explanation, its sum the cell's value.
    QCOMPARE(panel().explanationText().count("·k[累,"), dK);
    QVERIFY2(panel().explanationText().contains(QString("sum = %1").arg(printed(sum))), qPrintable(panel().explanationText()));
    QVERIFY(std::abs(scores.index(it, tired).data(TraceMatrixModel::ValueRole).toDouble() - sum) < 1e-9);
    QTest::keyClick(window.get(), Qt::Key_Left);
    QVERIFY2(lastLine().startsWith(QString("running sum of the first %1 of %2 = ").arg(dK - 1).arg(dK)), qPrintable(lastLine()));
    QTest::keyClick(window.get(), Qt::Key_Right);
    QTest::keyClick(window.get(), Qt::Key_Right);  // on to the next step
    QVERIFY(navigator().currentStep() != Step::Scores);
    presentation().setFocusRow(false);
    QVERIFY(!dimmed(*panel().resultModel(), 0));
}

// Beyond about 16 tokens the equation no longer fits whole: presenting the coreference lesson's
// sentence twice (28 tokens) at 150 % on 1280×720, the tables stay at a readable size (at least
// 9 points) and the chosen cell — the second 它 → the second 累 — is scrolled into view.
void LectureFitTest::longSentenceKeepsTheChosenCellReadable() {
    presentOn(1280, 150);
    child<QLineEdit>(*window, "sentence")->setText(QStringLiteral("动物没有过马路，因为它太累了动物没有过马路，因为它太累了"));
    QTRY_COMPARE(sessionOf(*window).trace().tokenCount(), 28);
    goToStep(Step::Weights);
    const int it = 24, tired = 26;  // the second 它 and 累: 14 + 10, 14 + 12
    panel().selectCell(it, tired);
    QApplication::processEvents();
    QApplication::processEvents();
    QVERIFY2(panel().equationPointSize() >= 9, qPrintable(QString::number(panel().equationPointSize())));
    MatrixTable& table = *panel().resultView();
    const QRect cell = table.visualRect(table.model()->index(it, tired));
    auto* scroll = panel().findChild<QScrollArea*>();
    QTRY_VERIFY2(table.viewport()->rect().contains(table.visualRect(table.model()->index(it, tired))) &&
                     scroll->viewport()->rect().contains(mapped(table.viewport(), table.visualRect(table.model()->index(it, tired)), scroll->viewport())),
                 qPrintable(QString("cell at %1,%2 in a %3×%4 view").arg(cell.x()).arg(cell.y()).arg(scroll->viewport()->width()).arg(scroll->viewport()->height())));
    QCOMPARE(table.model()->headerData(it, Qt::Vertical).toString(), QStringLiteral("它#25"));
    QVERIFY2(panel().explanationText().contains(QStringLiteral("它#25")), qPrintable(panel().explanationText()));
}

// Whatever a person reads counts from 1: the token strip's tooltips, the columns a matrix without
// feature names is headed with, the indices in an explanation, the Lab's plot axes and titles.
void LectureFitTest::peopleCountFromOne() {
    openOn(1920);
    const QStringList tips = child<TokenStrip>(*window, "tokens")->chipToolTips();
    QVERIFY2(tips.first().startsWith(QStringLiteral("token 1 “动”")), qPrintable(tips.first()));
    QVERIFY2(tips.last().startsWith(QStringLiteral("token 14 “了”")), qPrintable(tips.last()));
    goToStep(Step::Scores);
    panel().selectCell(10, 12);
    const TraceMatrixModel& q = *panel().operandModels().front();
    QCOMPARE(q.headerData(0, Qt::Horizontal, Qt::DisplayRole).toString(), QString("1"));  // Q's columns: no feature names
    const QString text = panel().explanationText();
    QVERIFY2(text.contains(QStringLiteral("q[它,1]·k[累,1] = ")) && !text.contains(QStringLiteral(",0]")), qPrintable(text));
    LabWindow* lab = openLab(window.get(), sessionOf(*window), LabWindow::MultiHead);
    const MultiHeadPanel& multiHead = *lab->multiHeadPanel();
    QVERIFY2(multiHead.queryPlot().title().startsWith(QStringLiteral("Q_1 = X·W_Q, columns 1–")), qPrintable(multiHead.queryPlot().title()));
    QCustomPlot* concat = multiHead.concatPlot().plot();
    concat->replot();
    const QVector<QString> ticks = concat->xAxis->tickVectorLabels();
    QVERIFY2(!ticks.isEmpty() && ticks.first() == QString("1"), qPrintable(QStringList(ticks.begin(), ticks.end()).join(' ')));
}

void LectureFitTest::everyTabIsInSight_data() {
    QTest::addColumn<QString>("language");
    QTest::addColumn<int>("screenWidth");
    QTest::addColumn<int>("zoom");  // 0: a window, not presenting
    for (const char* language : {"en", "zh_CN"})
        for (const int width : {1280, 1920})
            for (const int zoom : {0, 100, 200})
                QTest::addRow("%s, %d×%d, %s %d %%", language, width, width * 9 / 16, zoom ? "presenting at" : "window", zoom)
                    << QString(language) << width << zoom;
}

// The main tabs at 1280×720 and 1920×1080, in a window and presenting at 100 % and 200 %: every
// tab inside the bar, none behind scroll arrows (at 1280×720 "Worked example" was half hidden
// behind them, and the last tabs out of sight); a label shortened with "…" names its tab whole in
// its tool tip, unless the tab has a tool tip of its own (X → Y explains itself).
void LectureFitTest::everyTabIsInSight() {
    QFETCH(QString, language);
    QFETCH(int, screenWidth);
    QFETCH(int, zoom);
    applyLanguage(language);
    if (zoom > 0) presentOn(screenWidth, zoom, "coreference");
    else openOn(screenWidth, "coreference");
    QTest::qWait(50);
    QTabBar* bar = child<QTabWidget>(*window, "tabs")->tabBar();
    QVERIFY(!bar->usesScrollButtons());
    const TabsInSight tabs = tabsInSight(*child<QTabWidget>(*window, "tabs"));
    QVERIFY2(tabs.outside.isEmpty(), qPrintable(tabs.outside));
    QVERIFY(tabs.shown >= 8);
    const double points = bar->font().pointSizeF(), page = child<QTabWidget>(*window, "tabs")->font().pointSizeF();
    qInfo("%d tabs, %d shortened, %d in short form, the bar's font %.1f pt of the page's %.1f", tabs.shown, tabs.shortened,
          tabs.brief, points, page);
    // A label shortens only once the bar's font is at its smallest ("H…" and "C…" at 200 % had
    // the page's zoomed font); with room to spare the bar keeps the page's.
    if (points > kSmallestTabPoints) QCOMPARE(tabs.shortened, 0);
    if (screenWidth == 1920 && zoom == 0) QCOMPARE(bar->font(), child<QTabWidget>(*window, "tabs")->font());
    // Short forms ("Heatmap") keep the bar's font near the page's: at 200 % on 1280×720 the whole
    // labels took 10.8 of 24 points in English, 15.6 in Chinese.
    QVERIFY2(points >= page * 3 / 4 || points == kSmallestTabPoints, qPrintable(QString::number(points)));
}

QTEST_MAIN(LectureFitTest)
#include "test_lecture_fit.moc"
