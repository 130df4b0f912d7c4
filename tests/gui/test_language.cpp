// The interface language (issue 12): View ▸ Language switches the whole window at once, keeping
// what the reader was looking at, and remembers the choice; a window in Chinese at 1366×768 has no
// clipped label or button.
#include <algorithm>

#include <QAbstractButton>
#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenuBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>

#include "app/lab_window.hpp"
#include "app/language.hpp"
#include "app/main_window.hpp"
#include "ui/common/job_progress.hpp"
#include "ui/step/step_navigator.hpp"
#include "window_access.hpp"

using namespace attnscope;

namespace {

QStringList menuTitles(const MainWindow& window) {
    QStringList titles;
    for (QAction* action : window.menuBar()->actions()) titles << action->text();
    return titles;
}

QStringList tabTitles(const MainWindow& window) {
    auto* tabs = child<QTabWidget>(window, "tabs");
    QStringList titles;
    for (int i = 0; i < tabs->count(); ++i) titles << tabs->tabText(i);
    return titles;
}

// A visible label or button whose text needs more width than it has: "Name “text” needs N px, has M".
// Word-wrapped labels need their height for their width instead.
QStringList clippedTexts(const QWidget& root) {
    QStringList clipped;
    const auto describe = [](const QWidget* w, const QString& text, int need, int have) {
        return QStringLiteral("%1 %2 “%3” needs %4 px, has %5")
            .arg(QString::fromLatin1(w->metaObject()->className()), w->objectName(), text.left(40))
            .arg(need)
            .arg(have);
    };
    for (const QLabel* label : root.findChildren<QLabel*>()) {
        if (!label->isVisibleTo(&root) || label->text().isEmpty() || label->pixmap().cacheKey() != 0) continue;
        if (label->wordWrap()) {
            const int need = label->heightForWidth(label->width());
            if (need > label->height() + 1) clipped << describe(label, label->text(), need, label->height()) + " (height)";
        } else if (label->minimumSizeHint().width() > label->width() + 1) {
            clipped << describe(label, label->text(), label->minimumSizeHint().width(), label->width());
        }
    }
    for (const QAbstractButton* button : root.findChildren<QAbstractButton*>()) {
        if (!button->isVisibleTo(&root) || button->text().isEmpty()) continue;
        if (button->sizeHint().width() > button->width() + 1)
            clipped << describe(button, button->text(), button->sizeHint().width(), button->width());
    }
    return clipped;
}

}  // namespace

namespace {

bool noJobRunning(const QWidget& window) {
    const auto jobs = window.findChildren<JobProgress*>();
    return std::none_of(jobs.begin(), jobs.end(), [](const JobProgress* job) { return job->isVisible(); });
}

}  // namespace

class LanguageTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);  // the saved choice goes to a test folder
        applyLanguage("en");
    }
    void cleanup() { applyLanguage("en"); }

    void theChineseCatalogueIsBuiltIn() {
        QVERIFY(applyLanguage("zh_CN"));
        QCOMPARE(currentLanguage(), QStringLiteral("zh_CN"));
        QCOMPARE(QLocale().name(), QStringLiteral("zh_CN"));  // texts read at display time follow
        QCOMPARE(QCoreApplication::translate("attnscope::MainWindow", "&File"), QStringLiteral("文件(&F)"));
        QCOMPARE(QCoreApplication::translate("cli", "List the built-in lessons."), QStringLiteral("列出内置课程。"));
        if (!qtTranslationLoaded()) qWarning("Qt's own qtbase_zh_CN.qm is not installed: Qt's dialogs stay English");
        else QCOMPARE(QCoreApplication::translate("QPlatformTheme", "Cancel"), QStringLiteral("取消"));
        QVERIFY(applyLanguage("en"));
        QCOMPARE(QCoreApplication::translate("attnscope::MainWindow", "&File"), QStringLiteral("&File"));
    }

    void localesChooseTheLanguage() {
        QCOMPARE(languageForLocale("zh_CN"), QStringLiteral("zh_CN"));
        QCOMPARE(languageForLocale("zh_TW"), QStringLiteral("zh_CN"));  // the only Chinese we have
        QCOMPARE(languageForLocale("en_GB"), QStringLiteral("en"));
        QCOMPARE(languageForLocale("de_DE"), QStringLiteral("en"));
        QCOMPARE(languageForLocale("C"), QStringLiteral("en"));
    }

    // The menu switches every text at once and keeps the sentence, step, head and tab.
    void viewLanguageSwitchesAtOnceAndKeepsTheState() {
        MainWindow window;
        QVERIFY(window.openBuiltInLesson("first-hand-exercise"));
        window.setSentence("the cat sat");
        auto* tabs = child<QTabWidget>(window, "tabs");
        tabs->setCurrentIndex(1);
        child<StepNavigator>(window, "navigator")->setCurrentIndex(3);
        QCOMPARE(menuTitles(window).first(), QStringLiteral("&File"));

        window.findChild<QAction*>("language:zh_CN")->trigger();
        QCOMPARE(menuTitles(window).first(), QStringLiteral("文件(&F)"));
        QVERIFY(menuTitles(window).contains(QStringLiteral("视图(&V)")));
        QVERIFY2(tabTitles(window).contains(QStringLiteral("逐步演算")), qPrintable(tabTitles(window).join(", ")));
        QCOMPARE(child<QLineEdit>(window, "sentence")->text(), QStringLiteral("the cat sat"));
        QCOMPARE(child<QTabWidget>(window, "tabs")->currentIndex(), 1);
        QCOMPARE(child<StepNavigator>(window, "navigator")->currentIndex(), 3);
        QCOMPARE(tokenCount(window), 3);
        QCOMPARE(savedLanguage(), QStringLiteral("zh_CN"));  // remembered for the next start
        QVERIFY(window.findChild<QAction*>("language:zh_CN")->isChecked());

        window.findChild<QAction*>("language:en")->trigger();
        QCOMPARE(menuTitles(window).first(), QStringLiteral("&File"));
        QVERIFY(tabTitles(window).contains(QStringLiteral("Worked example")));
        QCOMPARE(savedLanguage(), QStringLiteral("en"));
        QCOMPARE(child<StepNavigator>(window, "navigator")->currentIndex(), 3);
    }

    // An open lab window comes back in the new language, on the page it showed.
    void anOpenLabFollowsTheLanguage() {
        MainWindow window;
        QVERIFY(window.openBuiltInLesson("first-hand-exercise"));
        openLab(&window, sessionOf(window), LabWindow::Masks);
        window.setLanguage("zh_CN");
        const auto labs = window.findChildren<LabWindow*>(QString(), Qt::FindDirectChildrenOnly);
        QCOMPARE(labs.size(), 1);  // the old one is gone, not hidden
        QVERIFY(labs.front()->isVisible());
        QCOMPARE(labs.front()->tabs()->currentIndex(), static_cast<int>(LabWindow::Masks));
        QCOMPARE(labs.front()->tabs()->tabText(0), QStringLiteral("位置编码"));
        QCOMPARE(labs.front()->windowTitle(), QStringLiteral("AttnScope — 实验室"));
    }

    // The check itself: a label narrower than its text, and a button, are reported; one that fits is not.
    void clippingCheckFindsAClippedLabel() {
        QWidget root;
        auto* clipped = new QLabel(QStringLiteral("注意力热力图"), &root);
        clipped->setFixedWidth(20);
        auto* fits = new QLabel(QStringLiteral("头"), &root);
        fits->move(0, 40);
        fits->resize(fits->sizeHint());
        auto* button = new QPushButton(QStringLiteral("导出练习单…"), &root);
        button->setGeometry(0, 80, 15, 30);
        root.show();
        QVERIFY(QTest::qWaitForWindowExposed(&root));
        const QStringList found = clippedTexts(root);
        QCOMPARE(found.size(), 2);
        QVERIFY2(found[0].contains(QStringLiteral("注意力热力图")) && found[0].contains("has 20"), qPrintable(found.join("\n")));
        QVERIFY(found[1].contains(QStringLiteral("导出练习单")));
    }

    // Every label and button of the window in Chinese at 1366×768 has the width its text needs:
    // on a lesson, and on a model (attention options, layer box, predictions, head and model views).
    void chineseWindowHasNoClippedText_data() {
        QTest::addColumn<QString>("model");
        QTest::newRow("lesson") << QString();
        QTest::newRow("bert-tiny") << QStringLiteral(ATTNSCOPE_SOURCE_DIR "/tests/reference/models/bert-tiny");
    }
    void chineseWindowHasNoClippedText() {
        QFETCH(QString, model);
        QVERIFY(applyLanguage("zh_CN"));
        MainWindow window;
        QVERIFY(window.openBuiltInLesson("first-hand-exercise"));
        if (!model.isEmpty()) {
            window.setSentence("the [MASK] sat");
            window.openModel(model);
            QVERIFY(waitForModel(window));
            QVERIFY(showsModel(window));
        }
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.width(), 1366);
        const auto* tabs = child<QTabWidget>(window, "tabs");
        QStringList clipped;
        for (int i = 0; i < tabs->count(); ++i) {
            if (!tabs->isTabVisible(i)) continue;
            child<QTabWidget>(window, "tabs")->setCurrentIndex(i);
            // A tab may start work on being shown (Beyond weights): check the layout its result
            // settles into, not the one a caption's new text has not reached yet.
            QTRY_VERIFY_WITH_TIMEOUT(noJobRunning(window), 30000);
            for (int pass = 0; pass < 5; ++pass) QApplication::processEvents();  // a layout request per parent level
            for (const QString& c : clippedTexts(window)) clipped << tabs->tabText(i) + ": " + c;
            // The layout fits the screen: a wider minimum would grow the window off a 1366 px screen.
            const QSize minimum = window.minimumSizeHint();
            if (minimum.width() > 1366 || minimum.height() > 768)
                clipped << QStringLiteral("%1: the window needs at least %2×%3").arg(tabs->tabText(i)).arg(minimum.width()).arg(minimum.height());
        }
        clipped.removeDuplicates();
        QVERIFY2(clipped.isEmpty(), qPrintable("clipped at 1366×768 in Chinese:\n" + clipped.join("\n")));
        QVERIFY(window.findChildren<QLabel*>().size() > 10);  // the check looked at a real window
    }

    // The same for every page of the teaching lab.
    void chineseLabHasNoClippedText() {
        QVERIFY(applyLanguage("zh_CN"));
        MainWindow window;
        QVERIFY(window.openBuiltInLesson("first-hand-exercise"));
        LabWindow* lab = openLab(&window, sessionOf(window), LabWindow::Positional);
        lab->resize(1366, 768);
        QVERIFY(QTest::qWaitForWindowExposed(lab));
        QStringList clipped;
        for (int i = 0; i < lab->tabs()->count(); ++i) {
            lab->tabs()->setCurrentIndex(i);
            QApplication::processEvents();
            for (const QString& c : clippedTexts(*lab)) clipped << lab->tabs()->tabText(i) + ": " + c;
            const QSize minimum = lab->minimumSizeHint();
            if (minimum.width() > 1366 || minimum.height() > 768)
                clipped << QStringLiteral("%1: the lab needs at least %2×%3").arg(lab->tabs()->tabText(i)).arg(minimum.width()).arg(minimum.height());
        }
        clipped.removeDuplicates();
        QVERIFY2(clipped.isEmpty(), qPrintable("clipped at 1366×768 in Chinese:\n" + clipped.join("\n")));
    }

private:
    static int tokenCount(MainWindow& window) {
        const auto trace = shownSource(window).trace();
        return trace ? static_cast<int>(trace->tokens.size()) : -1;
    }
};

QTEST_MAIN(LanguageTest)
#include "test_language.moc"
