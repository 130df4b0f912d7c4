// The Compare tab in the real MainWindow (offscreen). Sentence B typed in the tab is run by the open
// source; the maps drawn must be A's and B's weights on the aligned tokens and their difference.
// A's weights come from the window's own run, B's from running the lesson on B here with core
// (runLesson), so each map is checked against a run the tab did not make.
#include <QLineEdit>
#include <QTabWidget>
#include <QTest>

#include "app/lesson_source.hpp"
#include "app/main_window.hpp"
#include "app/source/model_trace_source.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/source/model_session.hpp"
#include "ui/compare/compare_view.hpp"
#include "ui/lab/lab_plots.hpp"
#include "ui/step/step_navigator.hpp"
#include "window_access.hpp"

using namespace attnscope;

namespace {

const QString kSource = QStringLiteral(ATTNSCOPE_SOURCE_DIR);
constexpr int kWaitMs = 20000;
const char* kTired = "The animal didn't cross the street because it was too tired";
const char* kWide = "The animal didn't cross the street because it was too wide";

CompareView* compareView(MainWindow& window) { return child<CompareView>(window, "compareView"); }

// Opens the Compare tab (it draws only on screen) and types B, as a user does.
void typeB(MainWindow& window, const QString& sentence) {
    child<QTabWidget>(window, "tabs")->setCurrentWidget(compareView(window));
    QLineEdit* box = compareView(window)->sentenceBox();
    box->clear();
    QTest::keyClicks(box, sentence);
    QTest::keyClick(box, Qt::Key_Return);
}

Trace lessonRun(const char* lesson, const std::string& sentence) {
    auto loaded = loadLesson(QString::fromLatin1(lesson));
    if (!loaded) qFatal("%s", loaded.error().text().c_str());
    auto trace = runLesson(loaded.value(), sentence);
    if (!trace) qFatal("%s", trace.error().text().c_str());
    return std::move(trace).value();
}

double largest(const Mat& m) { return m.size() == 0 ? 0 : m.cwiseAbs().maxCoeff(); }

}  // namespace

class CompareTabTest : public QObject {
    Q_OBJECT
private slots:
    void tiredAgainstWideByPosition();
    void aShorterSentenceIsAlignedByWord();
    void followsTheHead();
    void tinyBertRunsBOffTheGuiThread();
};

void CompareTabTest::tiredAgainstWideByPosition() {
    MainWindow window;
    window.show();
    QVERIFY(window.openBuiltInLesson("coreference"));
    window.setSentence(kTired);
    child<QTabWidget>(window, "tabs")->setCurrentWidget(compareView(window));
    child<StepNavigator>(window, "navigator")->setCurrentHead(1);  // head 2 reads tired / wide
    typeB(window, kWide);
    QTRY_VERIFY_WITH_TIMEOUT(compareView(window)->builders()[2]->drawn().size() > 0, kWaitMs);
    const auto drawn = compareView(window)->builders();
    const Mat a = window.source().trace()->layers[0].heads[1].weights;
    const Mat b = lessonRun("coreference", kWide).layers[0].heads[1].weights;
    QCOMPARE(drawn[0]->drawn().rows(), a.rows());
    QVERIFY2(largest(drawn[0]->drawn() - a) == 0, "A is not the window's run");
    QVERIFY2(largest(drawn[1]->drawn() - b) < 1e-12, "B is not the lesson run on B");
    QVERIFY(largest(drawn[2]->drawn() - (a - b)) < 1e-12);
    QVERIFY(largest(a - b) > 1e-3);  // the last word changes what the layer computes
    QCOMPARE(drawn[2]->rowLabels().last(), QStringLiteral("tired | wide"));
    QVERIFY(compareView(window)->caption().contains("position"));
}

void CompareTabTest::aShorterSentenceIsAlignedByWord() {
    MainWindow window;
    window.show();
    QVERIFY(window.openBuiltInLesson("coreference"));
    window.setSentence(kTired);
    typeB(window, "the animal was too tired");
    QTRY_VERIFY_WITH_TIMEOUT(compareView(window)->caption().contains("by word"), kWaitMs);
    // Common words in order: the, animal, was, too, tired (5 units); A's others are named.
    const MatrixPlotBuilder* diff = compareView(window)->builders()[2];
    QCOMPARE(diff->rowLabels(), (QStringList{"the", "animal", "was", "too", "tired"}));
    QVERIFY2(compareView(window)->caption().contains("Only in A: didn't, cross, the, street, because, it"),
             qPrintable(compareView(window)->caption()));
    // Cell (animal → the): A's weight from "animal" (token 1) to "the" (token 0) minus B's.
    const Mat a = window.source().trace()->layers[0].heads[0].weights;
    const Mat b = lessonRun("coreference", "the animal was too tired").layers[0].heads[0].weights;
    QVERIFY(std::abs(diff->drawn()(1, 0) - (a(1, 0) - b(1, 0))) < 1e-12);
    // (tired → was): tokens 10 → 8 in A, 4 → 2 in B.
    QVERIFY(std::abs(diff->drawn()(4, 2) - (a(10, 8) - b(4, 2))) < 1e-12);
}

void CompareTabTest::followsTheHead() {
    MainWindow window;
    window.show();
    QVERIFY(window.openBuiltInLesson("two-heads"));
    typeB(window, "cats chase mice");
    QTRY_VERIFY_WITH_TIMEOUT(compareView(window)->builders()[1]->drawn().size() > 0, kWaitMs);
    child<StepNavigator>(window, "navigator")->setCurrentHead(1);  // the step list's head box
    const Mat b1 = lessonRun("two-heads", "cats chase mice").layers[0].heads[1].weights;
    QTRY_VERIFY(largest(compareView(window)->builders()[1]->drawn() - b1) < 1e-12);
}

// Tiny BERT: B runs on the tab's worker; the B map is core's runSentence of B (in the test).
void CompareTabTest::tinyBertRunsBOffTheGuiThread() {
    MainWindow window;
    window.show();
    QVERIFY(window.openBuiltInLesson("first-hand-exercise"));
    window.setSentence("the cat sat");
    window.openModel(kSource + "/tests/reference/models/bert-tiny");
    QTRY_VERIFY_WITH_TIMEOUT(showsModel(window) && shownRunOf(window) != nullptr, kWaitMs);
    typeB(window, "the dog sat");
    QTRY_VERIFY_WITH_TIMEOUT(compareView(window)->builders()[1]->drawn().size() > 0, kWaitMs);
    const auto model = modelSourceOf(window)->model();
    RunControl control;
    auto b = runSentence(*model, "the dog sat", control);
    QVERIFY(b.ok());
    const Mat& expected = b.value().trace.layers[0].heads[0].weights;
    QCOMPARE(compareView(window)->builders()[1]->drawn().rows(), expected.rows());
    QVERIFY(largest(compareView(window)->builders()[1]->drawn() - expected) < 1e-6);
}

QTEST_MAIN(CompareTabTest)
#include "test_compare_tab.moc"
