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
#include <QTabWidget>
#include <QTest>
#include <QTextBlock>
#include <memory>

#include "app/presentation.hpp"
#include "ui/common/folding_text.hpp"
#include "ui/step/matrix_panel.hpp"
#include "ui/step/matrix_table.hpp"
#include "ui/step/step_navigator.hpp"
#include "window_access.hpp"

using namespace attnscope;

namespace {

QScreen* screenOf(int width) {
    for (QScreen* s : QGuiApplication::screens())
        if (s->geometry().width() == width) return s;
    return nullptr;
}

// `inner` in the coordinates of `outer`'s widget.
QRect mapped(const QWidget* from, const QRect& r, const QWidget* to) {
    return QRect(from->mapTo(to, r.topLeft()), r.size());
}

}  // namespace

class LectureFitTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanup() { window.reset(); }

    void weightsStepFitsTheScreen_data();
    void weightsStepFitsTheScreen();
    void defaultWindowFitsA1280x720Screen();
    void zoomKeepsWhatPresentingHidHidden();
    void menusTooltipsAndPopupsFollowTheZoom();
    void layerBoxShrinksBackAfterZoomingOut();
    void clickerCrossesLayers();
    void rowHeaderSelectsTheRow();
    void descriptionFoldsToThreeLines();

private:
    void openOn(int screenWidth);
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

void LectureFitTest::openOn(int screenWidth) {
    window = std::make_unique<MainWindow>();
    QScreen* screen = screenOf(screenWidth);
    window->setScreen(screen);
    window->move(screen->geometry().topLeft());
    QVERIFY(window->openBuiltInLesson("coreference-zh"));
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
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
    QTest::addColumn<int>("screenWidth");
    QTest::addColumn<int>("zoom");
    for (const int width : {1280, 1920})
        for (const int zoom : {100, 150, 200})
            QTest::addRow("%d×%d at %d %%", width, width * 9 / 16, zoom) << width << zoom;
}

// The 14-character coreference lesson, layer 1's weights: every cell of S and A on screen, 它 → 累
// reading 0.969 (e⁶ / (e⁶ + 13) = 403.43 / 416.43, the lesson's description works it out), and
// every line of its explanation, in tables of at least 9 points. Presenting hides the sentence
// and layer rows and keeps the lesson's title to one line; the explanation goes beside or below
// the equation, whichever lets the tables be larger; compact columns keep little padding.
void LectureFitTest::weightsStepFitsTheScreen() {
    QFETCH(int, screenWidth);
    QFETCH(int, zoom);
    openOn(screenWidth);
    presentation().setZoom(zoom);
    presentation().setPresenting(true);
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

QTEST_MAIN(LectureFitTest)
#include "test_lecture_fit.moc"
