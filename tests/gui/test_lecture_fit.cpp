// A lecture on a projector (issue 28 §1): in presentation mode (and with View ▸ Fit the step to
// the window) the worked example's equation fills the screen, every cell of the current step and
// every line of the explanation inside the visible area, at 1280×720 and 1920×1080 (two offscreen
// screens, tests/gui/lecture_screens.json). Measured from widget geometry, not pixels.
#include <QApplication>
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

private:
    void openOn(int screenWidth);
    void goToStep(Step step);
    MatrixPanel& panel() { return *child<MatrixPanel>(*window, "matrixPanel"); }
    Presentation& presentation() { return *window->findChild<Presentation*>(); }
    QString cellsOutside(const QWidget& area, const std::vector<std::pair<int, int>>& only = {});
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
// With `only`, just those cells of the result.
QString LectureFitTest::cellsOutside(const QWidget& area, const std::vector<std::pair<int, int>>& only) {
    QStringList outside;
    for (const MatrixTable* table : panel().findChildren<MatrixTable*>()) {
        if (!table->isVisible() || (!only.empty() && table != panel().resultView())) continue;
        const QAbstractItemModel* m = table->model();
        for (int r = 0; r < m->rowCount(); ++r)
            for (int c = 0; c < m->columnCount(); ++c) {
                if (!only.empty() && std::find(only.begin(), only.end(), std::make_pair(r, c)) == only.end()) continue;
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
    QTest::addColumn<bool>("everyCell");  // else 它's row from 为 to 累, the lesson's point
    QTest::newRow("1280×720 at 100 %") << 1280 << 100 << false;
    QTest::newRow("1280×720 at 150 %") << 1280 << 150 << false;
    QTest::newRow("1280×720 at 200 %") << 1280 << 200 << false;
    QTest::newRow("1920×1080 at 150 %") << 1920 << 150 << true;
    QTest::newRow("1920×1080 at 200 %") << 1920 << 200 << true;
}

// The 14-character coreference lesson, layer 1's weights: the 为 column is on screen and 它 → 累
// reads 0.969 (e⁶ / (e⁶ + 13) = 403.43 / 416.43, the lesson's description works it out).
void LectureFitTest::weightsStepFitsTheScreen() {
    QFETCH(int, screenWidth);
    QFETCH(int, zoom);
    QFETCH(bool, everyCell);
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
    window->grab().save(QString("/tmp/fit-%1-%2.png").arg(screenWidth).arg(zoom));
    const int because = 9;  // 为
    const QString cells = everyCell ? cellsOutside(*scroll->viewport())
                                    : cellsOutside(*scroll->viewport(), {{it, because}, {it, it}, {it, tired - 1}, {it, tired}});
    QVERIFY2(cells.isEmpty(), qPrintable(QString("cells outside the visible area (%1 × %2 px, tables at %3 pt): %4")
                                             .arg(scroll->width()).arg(scroll->height()).arg(panel().equationPointSize()).arg(cells)));
    const QString lines = explanationLinesOutside(*window);
    QVERIFY2(lines.isEmpty(), qPrintable("explanation lines outside: " + lines));
    QVERIFY2(panel().equationPointSize() >= 9, qPrintable(QString::number(panel().equationPointSize())));
    qInfo("%s: tables at %.1f pt, explanation %d px of %d", QTest::currentDataTag(), panel().equationPointSize(),
          panel().findChild<QPlainTextEdit*>("explanation")->height(), panel().height());
}

QTEST_MAIN(LectureFitTest)
#include "test_lecture_fit.moc"
