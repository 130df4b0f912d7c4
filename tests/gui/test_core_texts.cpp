// core's texts in the window (issue 12): the worked example explains a cell in the interface
// language and the run's notices follow View ▸ Language; the words come from core's catalogue,
// the numbers are the same.
#include <QLabel>
#include <QLineEdit>
#include <QStandardPaths>
#include <QTest>

#include "app/language.hpp"
#include "app/main_window.hpp"
#include "ui/step/matrix_panel.hpp"
#include "ui/step/step_navigator.hpp"
#include "window_access.hpp"

using namespace attnscope;

namespace {

// Shows `step` in the worked example and clicks its cell (row, col); the explanation's text.
QString explainInWindow(MainWindow& window, Step step, int row, int col) {
    auto* nav = child<StepNavigator>(window, "navigator");
    const auto& steps = nav->steps();
    const auto at = std::find(steps.begin(), steps.end(), step);
    if (at == steps.end()) return QStringLiteral("(no such step)");
    nav->setCurrentIndex(static_cast<int>(at - steps.begin()));
    auto* panel = child<MatrixPanel>(window, "matrixPanel");
    panel->selectCell(row, col);
    return panel->explanationText();
}

}  // namespace

class CoreTextsTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);  // setLanguage saves its choice
        applyLanguage("en");
    }
    void cleanup() { applyLanguage("en"); }

    // S[cats, mice] of the first lesson = 1·1 + 0·1 + 1·0 + 0·1 + 0·0 = 1, in either language.
    void workedExampleExplainsInTheInterfaceLanguage() {
        MainWindow window;
        QVERIFY(window.openBuiltInLesson("first-hand-exercise"));
        window.setSentence("cats chase mice");
        const QString english = explainInWindow(window, Step::Scores, 0, 2);
        QVERIFY2(english.contains("how well cats's query matches mice's key"), qPrintable(english));
        QVERIFY2(english.contains("value = 1\n") || english.endsWith("value = 1"), qPrintable(english));

        window.setLanguage("zh_CN");
        window.setSentence("cats chase mice");
        const QString chinese = explainInWindow(window, Step::Scores, 0, 2);
        QVERIFY2(chinese.contains(QStringLiteral("分数 S = Q·Kᵀ")), qPrintable(chinese));
        QVERIFY2(chinese.contains(QStringLiteral("（cats 的查询与 mice 的键有多匹配）")), qPrintable(chinese));
        QVERIFY2(chinese.contains(QStringLiteral("q[cats,1]·k[mice,1] = 1 × 1 = 1")), qPrintable(chinese));
        QVERIFY2(chinese.contains(QStringLiteral("和 = 1\n")), qPrintable(chinese));
        QVERIFY2(chinese.contains(QStringLiteral("值 = 1")), qPrintable(chinese));
        QVERIFY2(!chinese.contains("how well") && !chinese.contains("value ="), qPrintable(chinese));
        QCOMPARE(chinese.count('\n'), english.count('\n'));  // line for line
    }

    // The ablated run's notice, rendered where it is shown: in Chinese, then English again.
    void theNoticeFollowsTheLanguage() {
        MainWindow window;
        window.show();
        QVERIFY(window.openBuiltInLesson("two-heads"));
        window.setLanguage("zh_CN");
        typeAblation(window, "1:2");
        auto notices = [&] { return child<QLabel>(window, "notices")->text(); };
        QVERIFY2(notices().contains(QStringLiteral("已关闭的头（层:头）：1:2；其注意力权重按计算结果显示，输出为零")),
                 qPrintable(notices()));
        QVERIFY2(!notices().contains("switched off"), qPrintable(notices()));
        window.setLanguage("en");
        QVERIFY2(notices().contains("heads switched off (layer:head): 1:2; their weights are shown as computed"),
                 qPrintable(notices()));
    }
};

QTEST_MAIN(CoreTextsTest)
#include "test_core_texts.moc"
