// The encoder–decoder lesson on a projector's 1280×720 (issue 29 §4, the window's polish): the
// translation lesson open in a window filling the screen (tests/gui/lecture_screens.json), in
// English and Chinese. The editor's rows on the cross-attention's W_Q keep their heights and never
// overlap; the cross stage's X → Y sources column shows its text whole; the Heads tab's ranking
// plot keeps its title and room for its data. Measured from widget geometry and font metrics.
// (The worked example's steps: lecture_fit_tests' crossStageFitsA1280x720Screen.)
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QTableView>
#include <QScreen>
#include <QScrollArea>
#include <QStandardPaths>
#include <QScrollBar>
#include <QStyle>
#include <QTableWidget>
#include <QTabWidget>
#include <QTest>
#include <memory>
#include <qcustomplot.h>

#include "app/language.hpp"
#include "app/main_window.hpp"
#include "app/tabs/movement_tab_controller.hpp"
#include "ui/editor/lesson_block_bar.hpp"
#include "ui/heads/heads_panel.hpp"
#include "ui/editor/lesson_editor.hpp"
#include "ui/editor/lesson_settings_bar.hpp"
#include "ui/editor/lesson_structure_bar.hpp"
#include "ui/step/matrix_table.hpp"
#include "window_access.hpp"

using namespace attnscope;

namespace {

void settle() {
    for (int pass = 0; pass < 10; ++pass) QTest::qWait(20);
}

QString describe(const QWidget* w, const QRect& r) {
    const QString text = w->property("text").toString();
    return QString("%1 “%2” at %3,%4 %5×%6").arg(w->metaObject()->className(), text.left(30)).arg(r.x()).arg(r.y())
        .arg(r.width()).arg(r.height());
}

// The widgets of `bars` in the coordinates of `area` (the viewport they scroll in): any two that
// overlap, any squeezed below the height its text needs (its minimum size hint), any cut at the
// area's right edge (it scrolls only down).
QStringList overlapsAndSqueezes(const QWidget& area, const std::vector<const QWidget*>& bars) {
    std::vector<std::pair<const QWidget*, QRect>> shown;
    QStringList found;
    for (const QWidget* bar : bars)
        for (const QWidget* w : bar->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly)) {
            if (!w->isVisible()) continue;
            const QRect r(w->mapTo(&area, QPoint(0, 0)), w->size());
            if (r.right() >= area.width()) found << QString("%1 cut at %2 px").arg(describe(w, r)).arg(area.width());
            if (w->height() < w->minimumSizeHint().height())
                found << QString("%1 squeezed below its %2 px").arg(describe(w, r)).arg(w->minimumSizeHint().height());
            for (const auto& [other, at] : shown)
                if (r.intersects(at)) found << describe(w, r) + " over " + describe(other, at);
            shown.emplace_back(w, r);
        }
    return found;
}

}  // namespace

class EncoderDecoderFitTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        if (!screenOf(1280)) QSKIP("needs the offscreen screens of tests/gui/lecture_screens.json");
    }
    void cleanup() {
        window.reset();
        applyLanguage("en");
    }
    void editorRowsDoNotOverlap_data() { addTranslationRows(); }
    void editorRowsDoNotOverlap();
    void xToYSourcesAreWhole_data() { addTranslationRows(); }
    void xToYSourcesAreWhole();
    void headsTabFitsEveryStage_data() { addTranslationRows(); }
    void headsTabFitsEveryStage();

private:
    void openOn();  // the data row's lesson, language and screen
    std::unique_ptr<MainWindow> window;
};

// The lesson in a window filling the screen's free area, on the cross stage.
void EncoderDecoderFitTest::openOn() {
    QFETCH(QString, language);
    QFETCH(QString, lesson);
    QFETCH(int, screenWidth);
    QVERIFY(applyLanguage(language));
    window = std::make_unique<MainWindow>();
    QScreen* screen = screenOf(screenWidth);
    window->setScreen(screen);
    QVERIFY(window->openBuiltInLesson(lesson));
    window->setGeometry(screen->availableGeometry());
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    child<QComboBox>(*window, "stageChoice")->setCurrentIndex(2);  // cross-attention, output head and labels
    settle();
}

// The editor on the cross-attention's W_Q (the screenshot tour's editor-cross-wq): the words,
// dimensions, block and settings rows each at the height their text needs, none over another
// (they scroll within the tab instead, at 1920×1080 not at all), and the matrix's table shows its
// four rows whole.
void EncoderDecoderFitTest::editorRowsDoNotOverlap() {
    openOn();
    LessonEditor& editor = *child<LessonEditor>(*window, "lessonEditor");
    child<QTabWidget>(*window, "tabs")->setCurrentWidget(&editor);
    QVERIFY(editor.selectMatrix(LessonMatrixKind::WQ, 0, 0, LessonLayerPart::Cross));
    settle();
    const QStringList found = overlapsAndSqueezes(*child<QScrollArea>(*window, "editorForm")->viewport(), {child<LessonStructureBar>(*window, "structureBar"),
                                                           child<LessonBlockBar>(*window, "blockBar"),
                                                           child<LessonSettingsBar>(*window, "settingsBar")});
    QVERIFY2(found.isEmpty(), qPrintable(found.join("\n")));
    QScrollArea& form = *child<QScrollArea>(*window, "editorForm");
    QFETCH(int, screenWidth);
    if (screenWidth == 1920)  // room for every row: none scrolls away
        QVERIFY2(form.verticalScrollBar()->maximum() == 0,
                 qPrintable(QString("the rows take %1 px in %2").arg(form.widget()->height()).arg(form.viewport()->height())));
    MatrixTable& table = *editor.table();
    QCOMPARE(table.model()->rowCount(), 4);  // d_model
    const int lastRow = table.rowViewportPosition(3) + table.rowHeight(3);
    QVERIFY2(lastRow <= table.viewport()->height(),
             qPrintable(QString("the table shows %1 px of its four rows' %2").arg(table.viewport()->height()).arg(lastRow)));
}

// The cross stage's X → Y at layer 1 (the screenshot tour's cross-x-to-y): each decoder word's
// three sources (“i 1.263（84%）· who 0.120（8%）· am 0.120（8%）” in Chinese, wider than the column
// at 1280 px) wrapped within the column's text width, every line of it inside its row.
void EncoderDecoderFitTest::xToYSourcesAreWhole() {
    openOn();
    auto* movement = child<MovementTabController>(*window, "movementTab");
    child<QTabWidget>(*window, "tabs")->setCurrentWidget(movement->view());
    child<QComboBox>(*window, "movementLayer")->setCurrentIndex(1);
    QTRY_VERIFY_WITH_TIMEOUT(!movement->busy(), 20000);
    settle();
    QTableWidget& table = *child<QTableWidget>(*window, "movementTable");
    const int sources = table.columnCount() - 1;
    QVERIFY(!table.isColumnHidden(sources));
    QCOMPARE(table.rowCount(), 4);  // <s> who am i
    // QStyledItemDelegate's text keeps the focus frame's margin and a pixel on either side.
    const int margin = table.style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, &table) + 1;
    const int room = table.columnWidth(sources) - 2 * margin;
    const QFontMetrics metrics(table.font());
    QStringList cut;
    for (int row = 0; row < table.rowCount(); ++row) {
        const QString text = table.item(row, sources)->text();
        QVERIFY2(text.count(QStringLiteral(" · ")) == 2, qPrintable(text));  // three sources shown
        const QRect needed = metrics.boundingRect(QRect(0, 0, room, 100000), Qt::TextWordWrap, text);
        if (needed.width() > room || needed.height() > table.rowHeight(row))
            cut << QString("row %1 “%2”: %3×%4 px in a %5×%6 px cell").arg(row + 1).arg(text).arg(needed.width())
                       .arg(needed.height()).arg(room).arg(table.rowHeight(row));
    }
    QVERIFY2(cut.isEmpty(), qPrintable(cut.join("\n")));
    const QRect shown(table.mapTo(window.get(), QPoint(0, 0)), table.size());
    QVERIFY(window->rect().contains(shown));
    QVERIFY2(table.verticalScrollBar()->maximum() == 0, "the four rows scroll");
}

// The Heads tab on each stage (the screenshot tour's cross-heads): on the encoder the ranking plot
// whole on screen, its title within its width and room for its cells; on the decoder's stages,
// where no coreference set applies, no ranking but the reason, whole; the statistics table and
// its rows whole on every stage.
void EncoderDecoderFitTest::headsTabFitsEveryStage() {
    openOn();
    auto* tabs = child<QTabWidget>(*window, "tabs");
    tabs->setCurrentWidget(child<HeadsPanel>(*window, "headsPanel"));
    QCustomPlot& plot = *child<QCustomPlot>(*window, "headRanking");
    QLabel& reason = *child<QLabel>(*window, "evaluationUnavailable");
    QTableView& stats = *child<QTableView>(*window, "headStats");
    const auto whole = [](const QWidget& w) { return w.isVisible() && w.visibleRegion().boundingRect() == w.rect(); };
    QStringList found;
    for (const int stage : {0, 1, 2}) {
        child<QComboBox>(*window, "stageChoice")->setCurrentIndex(stage);
        QTRY_VERIFY(stats.model()->rowCount() > 0);
        settle();
        plot.replot();
        const QString at = QString("stage %1: ").arg(stage + 1);
        if (stage == 0) {
            const QCPTextElement& title = *qobject_cast<QCPTextElement*>(plot.plotLayout()->element(0, 0));
            const int needed = QFontMetrics(title.font()).boundingRect(QRect(), 0, title.text()).width();
            if (!whole(plot)) found << at + QString("the ranking shows %1 px of its %2 px").arg(plot.visibleRegion().boundingRect().height()).arg(plot.height());
            if (needed > title.outerRect().width()) found << at + QString("title “%1” %2 px in %3 px").arg(title.text()).arg(needed).arg(title.outerRect().width());
            if (plot.axisRect()->height() < 40) found << at + QString("%1 px high for the cells").arg(plot.axisRect()->height());
        } else {
            if (plot.isVisible()) found << at + "a ranking no set can fill";
            if (!whole(reason) || reason.text().isEmpty()) found << at + "the reason is not shown whole";
            const int lines = reason.heightForWidth(reason.width());
            if (lines > reason.height()) found << at + QString("the reason takes %1 px in %2").arg(lines).arg(reason.height());
        }
        const int lastRow = stats.rowViewportPosition(stats.model()->rowCount() - 1) + stats.rowHeight(stats.model()->rowCount() - 1);
        if (!whole(stats) || lastRow > stats.viewport()->height()) found << at + "the statistics table is cut";
    }
    QVERIFY2(found.isEmpty(), qPrintable(found.join("\n")));
}

QTEST_MAIN(EncoderDecoderFitTest)
#include "test_encoder_decoder_fit.moc"
