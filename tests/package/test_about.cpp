// Help ▸ About AttnScope and what the desktop reads from the running application: name, version
// (CMake's project version, passed to this test separately), desktop file name, window icon.
#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QtTest>

#include "app/app_identity.hpp"
#include "app/main_window.hpp"

using namespace attnscope;

namespace {

QAction* menuAction(QMenuBar* bar, const QString& menuText, const QString& actionText) {
    for (QAction* menu : bar->actions()) {
        if (menu->text() != menuText || !menu->menu()) continue;
        for (QAction* action : menu->menu()->actions())
            if (action->text() == actionText) return action;
    }
    return nullptr;
}

}  // namespace

class AboutTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        applyApplicationIdentity();
        initResources();
    }

    void identityIsWhatTheDesktopExpects() {
        QCOMPARE(QApplication::applicationName(), QStringLiteral("AttnScope"));
        QCOMPARE(QApplication::applicationVersion(), QStringLiteral(ATTNSCOPE_EXPECTED_VERSION));
        QCOMPARE(versionLine(), QStringLiteral("AttnScope " ATTNSCOPE_EXPECTED_VERSION));
        // The desktop entry packaging/io.github.attnscope.AttnScope.desktop.
        QCOMPARE(QGuiApplication::desktopFileName(), QStringLiteral("io.github.attnscope.AttnScope"));
    }

    void windowIconIsTheRenderedSvg() {
        const QImage icon = QApplication::windowIcon().pixmap(64, 64).toImage();
        QVERIFY(!icon.isNull());
        QCOMPARE(icon.size(), QSize(64, 64));
        // The SVG's rounded square leaves the corner transparent and fills the middle.
        QCOMPARE(qAlpha(icon.pixel(0, 0)), 0);
        QCOMPARE(qAlpha(icon.pixel(32, 32)), 255);
    }

    void helpMenuShowsTheAboutBox() {
        MainWindow window;
        window.show();
        QVERIFY(window.windowTitle().startsWith("AttnScope"));
        QAction* about = menuAction(window.menuBar(), "&Help", "&About AttnScope");
        QVERIFY2(about, "no Help ▸ About AttnScope");
        about->trigger();
        auto* box = window.findChild<QMessageBox*>("aboutBox");
        QVERIFY(box);
        QVERIFY(box->isVisible());
        const QString text = box->text();
        QVERIFY2(text.contains("AttnScope " ATTNSCOPE_EXPECTED_VERSION), qPrintable(text));
        QVERIFY(text.contains("GPL-3.0-or-later"));
        QVERIFY(text.contains("Where the numbers come from"));
        QVERIFY(text.contains("double precision") && text.contains("single precision"));
        QVERIFY(text.contains(QString::fromLatin1(qVersion())));
        box->close();
        QVERIFY(menuAction(window.menuBar(), "&Help", "About &Qt"));
    }

    void installedDataSitsBesideTheBinary() {
        // <prefix>/bin/attnscope reads <prefix>/share/attnscope.
        QDir prefix = QFileInfo(QApplication::applicationFilePath()).dir();
        QVERIFY(prefix.cdUp());
        QCOMPARE(installedDataDir(), prefix.absolutePath() + "/share/attnscope");
    }
};

QTEST_MAIN(AboutTest)
#include "test_about.moc"
