// The window on a real full filesystem and a read-only one (a small tmpfs; root only, otherwise
// this executable says why and exits 77, which ctest reports as skipped): File ▸ Save shows the
// OS's reason, the file on disk stays as it was and the edited lesson stays in the window.
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QMessageBox>
#include <QStatusBar>
#include <QTest>
#include <cstdio>
#include <memory>
#include <qcustomplot.h>

#include <QTabWidget>

#include "app/lab_window.hpp"
#include "app/main_window.hpp"
#include "tests/full_disk/tmpfs_mount.hpp"
#include "tests/gui/window_access.hpp"
#include "ui/common/file_write.hpp"
#include "ui/coref/coref_tab.hpp"
#include "ui/lab/exercise_panel.hpp"
#include "ui/lab/figure_export.hpp"
#include "ui/editor/lesson_editor.hpp"

using namespace attnscope;
using attnscope::testing::TmpfsMount;

namespace {

QString pathIn(const TmpfsMount& disk, const char* name) {
    return QString::fromStdString((disk.path() / name).string());
}

QByteArray contentOf(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(unreadable)");
}

QStringList namesIn(const TmpfsMount& disk) {
    return QDir(QString::fromStdString(disk.path().string())).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

QAction* saveAction(MainWindow& window) {
    for (QAction* action : window.findChildren<QAction*>())
        if (action->text() == QObject::tr("&Save lesson")) return action;
    return nullptr;
}

}  // namespace

class FullDiskTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { initResources(); }
    void saveOnAFullDiskKeepsTheOldFileAndTheEdit();
    void saveOnAReadOnlyFolderSaysSo();
    void figureExportsOnAFullDiskSayWhy();
    void coreferenceExportsOnAFullDiskSayWhy();
    void worksheetExportsOnAFullDiskSayWhy();

private:
    // A window on the first built-in lesson saved as `path` (whose bytes go to `saved`), then edited.
    void openEditedLesson(MainWindow& window, const QString& path, QByteArray& saved);
};

void FullDiskTest::openEditedLesson(MainWindow& window, const QString& path, QByteArray& saved) {
    QVERIFY(window.openBuiltInLesson("first-hand-exercise"));
    QVERIFY2(window.saveLessonTo(path), qPrintable(window.lastError()));  // now File ▸ Save goes there
    saved = contentOf(path);
    QVERIFY(saved.startsWith("{"));
    window.show();
    auto* model = child<LessonEditor>(window, "lessonEditor")->model();
    QVERIFY(model->setData(model->index(0, 0), "3"));
    QCOMPARE(sessionOf(window).lesson().embeddings[0].second(0, 0), 3.0);
}

void FullDiskTest::saveOnAFullDiskKeepsTheOldFileAndTheEdit() {
    TmpfsMount disk;
    QVERIFY(disk.mounted());
    const QString path = pathIn(disk, "lesson.json");
    auto window = std::make_unique<MainWindow>();
    QByteArray saved;
    openEditedLesson(*window, path, saved);
    if (QTest::currentTestFailed()) return;
    QVERIFY(disk.fillUp());
    QAction* save = saveAction(*window);
    QVERIFY(save);
    save->trigger();  // File ▸ Save: the lesson has a path, so no dialog
    QVERIFY2(window->lastError().contains(path + ": could not be written: No space left on device"),
             qPrintable(window->lastError()));
    auto* box = window->findChild<QMessageBox*>();
    QVERIFY(box);
    QVERIFY2(box->text().contains("No space left on device"), qPrintable(box->text()));
    QVERIFY(!window->statusBar()->currentMessage().startsWith("Saved"));
    QCOMPARE(contentOf(path), saved);                                     // the old file, whole
    QCOMPARE(namesIn(disk), (QStringList{"fill", "lesson.json"}));        // no temporary left
    QCOMPARE(sessionOf(*window).lesson().embeddings[0].second(0, 0), 3.0);  // the edit is still there
    box->close();
    // Space again: the same Save writes the edited lesson.
    QVERIFY(QFile::remove(pathIn(disk, "fill")));
    save->trigger();
    QVERIFY(window->statusBar()->currentMessage().startsWith("Saved"));
    MainWindow reopened;
    QVERIFY2(reopened.openLessonFile(path), qPrintable(reopened.lastError()));
    QCOMPARE(sessionOf(reopened).lesson().embeddings[0].second(0, 0), 3.0);
}

void FullDiskTest::saveOnAReadOnlyFolderSaysSo() {
    TmpfsMount disk;
    QVERIFY(disk.mounted());
    const QString path = pathIn(disk, "lesson.json");
    auto window = std::make_unique<MainWindow>();
    QByteArray saved;
    openEditedLesson(*window, path, saved);
    if (QTest::currentTestFailed()) return;
    QVERIFY(disk.remountReadOnly());
    QVERIFY(!window->saveLessonTo(path));
    QVERIFY2(window->lastError().contains("Read-only file system"), qPrintable(window->lastError()));
    QCOMPARE(contentOf(path), saved);
    QCOMPARE(namesIn(disk), QStringList{"lesson.json"});
}

void FullDiskTest::figureExportsOnAFullDiskSayWhy() {
    TmpfsMount disk;
    QVERIFY(disk.mounted());
    QVERIFY(disk.fillUp());
    QCustomPlot plot;
    plot.resize(300, 200);
    const Mat m = Mat::Identity(2, 2);
    for (const auto& [name, error] : {std::pair{"m.png", errorText(savePlotPng(&plot, pathIn(disk, "m.png"), 96))},
                                      std::pair{"m.svg", errorText(savePlotSvg(&plot, pathIn(disk, "m.svg")))},
                                      std::pair{"m.pdf", errorText(savePlotPdf(&plot, pathIn(disk, "m.pdf")))},
                                      std::pair{"m.csv", errorText(saveMatrixCsv(m, pathIn(disk, "m.csv")))},
                                      std::pair{"m.npy", errorText(saveMatrixNpy(m, pathIn(disk, "m.npy")))}})
        QVERIFY2(error == pathIn(disk, name) + ": could not be written: No space left on device", qPrintable(error));
    QCOMPARE(namesIn(disk), QStringList{"fill"});
}

void FullDiskTest::coreferenceExportsOnAFullDiskSayWhy() {
    MainWindow window;
    QVERIFY(window.openBuiltInLesson("coreference"));
    window.show();
    child<QTabWidget>(window, "tabs")->setCurrentWidget(child<CorefTab>(window, "corefTab"));
    TmpfsMount disk;
    QVERIFY(disk.mounted());
    const QString old = pathIn(disk, "coref.csv");
    QVERIFY(child<CorefTab>(window, "corefTab")->exportTo(old, CorefTab::Export::Csv).ok());  // a first export that fits
    const QByteArray saved = contentOf(old);
    QVERIFY(saved.contains("animal"));
    QVERIFY(disk.fillUp());
    using Kind = CorefTab::Export;
    for (const auto& [name, kind] : {std::pair{"coref.png", Kind::Png}, std::pair{"coref.svg", Kind::Svg},
                                     std::pair{"coref.pdf", Kind::Pdf}, std::pair{"coref.csv", Kind::Csv},
                                     std::pair{"coref.json", Kind::Json}}) {
        const auto error = child<CorefTab>(window, "corefTab")->exportTo(pathIn(disk, name), kind, 2);
        QVERIFY2(!error.ok(), name);
        QCOMPARE(QString::fromStdString(error.error().text()), pathIn(disk, name) + ": could not be written: No space left on device");
    }
    QCOMPARE(contentOf(old), saved);
    QCOMPARE(namesIn(disk), (QStringList{"coref.csv", "fill"}));
}

void FullDiskTest::worksheetExportsOnAFullDiskSayWhy() {
    MainWindow window;
    QVERIFY(window.openBuiltInLesson("first-hand-exercise"));
    ExercisePanel* panel = openLab(&window, sessionOf(window), LabWindow::Exercises)->exercisePanel();
    TmpfsMount disk;
    QVERIFY(disk.mounted());
    QVERIFY(disk.fillUp());
    for (const char* name : {"sheet.md", "sheet.tex", "sheet.pdf"})
        QCOMPARE(errorText(panel->exportWorksheetTo(pathIn(disk, name))), pathIn(disk, name) + ": could not be written: No space left on device");
    QCOMPARE(namesIn(disk), QStringList{"fill"});
}

int main(int argc, char** argv) {
    const std::string reason = attnscope::testing::tmpfsUnavailableReason();
    if (!reason.empty()) {
        std::printf("SKIPPED (full-disk window tests): %s\n", reason.c_str());
        return 77;
    }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    FullDiskTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_save_full_disk.moc"
