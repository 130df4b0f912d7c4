// "Switch heads off:" in the real MainWindow (offscreen): the CLI's L:H syntax typed in the
// window reruns the lesson with those heads ablated; a bad spec keeps the shown trace and says why.
// The expected numbers come from the unablated run: an ablated head keeps its weights, its slice
// of the concatenation is zero, and the output is that concatenation times W_O (plus b_O). On the
// tiny BERT, the predictions are PyTorch's with Hugging Face's head_mask
// (tests/reference/fixtures/ablation.json, written by tests/reference/reference_ablation.py).
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QContextMenuEvent>
#include <QLabel>
#include <QMenu>
#include <QStandardPaths>
#include <QTabWidget>
#include <QLineEdit>
#include <QTest>

#include "app/language.hpp"
#include "app/main_window.hpp"
#include "ui/attention/model_view.hpp"
#include "ui/attention/head_effect_box.hpp"
#include "ui/attention/heatmap_view.hpp"
#include <QListWidget>
#include <QPushButton>
#include "ui/attention/predictions_view.hpp"
#include "ui/heads/head_stats_model.hpp"
#include "ui/heads/head_stats_table.hpp"
#include "ui/heads/heads_panel.hpp"
#include <QTableView>
#include <QSortFilterProxyModel>
#include <qcustomplot.h>
#include "window_access.hpp"

using namespace attnscope;

namespace {

const QString kSource = QStringLiteral(ATTNSCOPE_SOURCE_DIR);
constexpr int kWaitMs = 20000;

// The fixture's case for bert-tiny on "the [MASK] sat" (ids 2 17 4 42 3) with layer 1 switched off.
QJsonObject bertFixtureCase() {
    QFile file(kSource + "/tests/reference/fixtures/ablation.json");
    if (!file.open(QIODevice::ReadOnly)) qFatal("cannot read ablation.json");
    for (const QJsonValue c : QJsonDocument::fromJson(file.readAll()).object()["models"].toArray())
        if (c["ids"].toArray() == QJsonArray{2, 17, 4, 42, 3}) return c.toObject();
    qFatal("ablation.json has no bert-tiny case for ids 2 17 4 42 3");
}

// The window on the tiny BERT fixture with "the [MASK] sat" (ids 2 17 4 42 3), its run shown.
void openTinyBert(MainWindow& window) {
    window.show();
    QVERIFY(window.openBuiltInLesson("first-hand-exercise"));
    window.setSentence("the [MASK] sat");
    window.openModel(kSource + "/tests/reference/models/bert-tiny");
    QTRY_VERIFY_WITH_TIMEOUT(showsModel(window) && shownRunOf(window) != nullptr, kWaitMs);
}

}  // namespace

class AblationWindowTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }  // setLanguage saves its choice
    void cleanup() { applyLanguage("en"); }
    void switchesTheFirstHeadOff();
    void theBoxSurvivesALanguageChange();
    void aBadSpecKeepsTheTrace();
    void aBadSpecIsReportedInTheInterfaceLanguage();
    void theHeadsStayOffForTheNextSentence();
    void tinyBertPredictsAsPyTorchWithTheHeadsOff();
    void aThumbnailsMenuSwitchesItsHeadOffAndOn();
    void predictionsShowBeforeAndAfter();
    void aHeatmapsMenuSwitchesItsHead();
    void aStatisticsRowsMenuSwitchesItsHead();
    void ranksHeadsByEffectAsTorch();
};

void AblationWindowTest::switchesTheFirstHeadOff() {
    MainWindow window;
    QVERIFY(window.openBuiltInLesson("two-heads"));
    const auto before = shownSource(window).trace();
    QVERIFY(before);
    QCOMPARE(before->headCount(), 2);
    typeAblation(window, "1:1");
    const auto after = shownSource(window).trace();
    QVERIFY(after && after != before);
    const LayerTrace& layer = after->layers[0];
    const LayerTrace& intact = before->layers[0];
    QVERIFY(layer.heads[0].ablated);
    QVERIFY(!layer.heads[1].ablated);
    QVERIFY(!intact.heads[0].ablated);
    // Its weights are still the ones it computed; its output is zero.
    QVERIFY(layer.heads[0].weights.toMat().isApprox(intact.heads[0].weights.toMat(), 1e-12));
    const Eigen::Index dv = layer.heads[0].weightedSum.cols();
    QCOMPARE(layer.concat.leftCols(dv).cwiseAbs().maxCoeff(), 0.0);
    QVERIFY(intact.concat.leftCols(dv).cwiseAbs().maxCoeff() > 0.1);
    QVERIFY(layer.concat.rightCols(dv).isApprox(intact.concat.rightCols(dv), 1e-12));
    Mat expected = intact.concat;
    expected.leftCols(dv).setZero();
    Mat output = expected * intact.wo;
    if (intact.bo.size() > 0) output.rowwise() += intact.bo;
    QVERIFY(layer.output.isApprox(output, 1e-9));
    QVERIFY(!layer.output.isApprox(intact.output, 1e-6));
    QVERIFY(child<QLabel>(window, "error")->text().isEmpty());
    // An empty box switches every head on again.
    typeAblation(window, "");
    QVERIFY(!shownSource(window).trace()->layers[0].heads[0].ablated);
    QVERIFY(shownSource(window).trace()->layers[0].output.isApprox(intact.output, 1e-12));
}

// Every widget is rebuilt in the new language; the box shows the heads the run still has off.
void AblationWindowTest::theBoxSurvivesALanguageChange() {
    MainWindow window;
    QVERIFY(window.openBuiltInLesson("two-heads"));
    typeAblation(window, "1:2");
    window.setLanguage("zh_CN");
    QCOMPARE(child<QLineEdit>(window, "ablateEdit")->text(), QStringLiteral("1:2"));
    QVERIFY(shownSource(window).trace()->layers[0].heads[1].ablated);
    window.setLanguage("en");
}

void AblationWindowTest::aBadSpecKeepsTheTrace() {
    MainWindow window;
    window.show();
    QVERIFY(window.openBuiltInLesson("two-heads"));
    typeAblation(window, "1:2");
    const auto shown = shownSource(window).trace();
    QVERIFY(shown->layers[0].heads[1].ablated);
    auto* error = child<QLabel>(window, "error");
    for (const QString& bad : {QStringLiteral("9:9"), QStringLiteral("1:"), QStringLiteral("x")}) {
        typeAblation(window, bad);
        QCOMPARE(shownSource(window).trace(), shown);  // the same run, untouched
        QVERIFY2(error->isVisible() && error->text().contains("previous result stays"), qPrintable(error->text()));
    }
    typeAblation(window, "9:9");
    QVERIFY2(error->text().contains("9:9") && error->text().contains("1 layer"), qPrintable(error->text()));
    typeAblation(window, "1:1");
    QVERIFY(!error->isVisible());
    QVERIFY(shownSource(window).trace()->layers[0].heads[0].ablated);
    QVERIFY(!shownSource(window).trace()->layers[0].heads[1].ablated);
}

// core's error in the error line is worded in the interface language (core/text/error_messages.hpp).
void AblationWindowTest::aBadSpecIsReportedInTheInterfaceLanguage() {
    MainWindow window;
    window.show();
    QVERIFY(window.openBuiltInLesson("two-heads"));
    window.setLanguage("zh_CN");
    typeAblation(window, "9:9");
    const QString chinese = child<QLabel>(window, "error")->text();
    QVERIFY2(chinese.contains(QStringLiteral("无法关闭头 9:9：只有 1 层")), qPrintable(chinese));
    window.setLanguage("en");
    typeAblation(window, "9:8");
    const QString english = child<QLabel>(window, "error")->text();
    QVERIFY2(english.contains("cannot ablate head 9:8: there is 1 layer"), qPrintable(english));
}

void AblationWindowTest::theHeadsStayOffForTheNextSentence() {
    MainWindow window;
    QVERIFY(window.openBuiltInLesson("two-heads"));
    typeAblation(window, "1:1");
    window.setSentence("mice chase cats");
    const auto trace = shownSource(window).trace();
    QCOMPARE(trace->tokens.size(), std::size_t{3});
    QVERIFY(trace->layers[0].heads[0].ablated);
    QCOMPARE(trace->layers[0].concat.leftCols(2).cwiseAbs().maxCoeff(), 0.0);
    // Another lesson starts with every head on, and the box says so.
    QVERIFY(window.openBuiltInLesson("two-layers"));
    QVERIFY(child<QLineEdit>(window, "ablateEdit")->text().isEmpty());
    for (const LayerTrace& layer : shownSource(window).trace()->layers)
        for (const HeadTrace& head : layer.heads) QVERIFY(!head.ablated);
}

void AblationWindowTest::tinyBertPredictsAsPyTorchWithTheHeadsOff() {
    MainWindow window;
    openTinyBert(window);
    if (QTest::currentTestFailed()) return;
    const std::shared_ptr<const ModelRun> intact = modelSourceOf(window)->lastRun();  // kept alive
    const QJsonObject expected = bertFixtureCase();
    QCOMPARE(expected["ablate"].toArray().size(), 4);  // [1,1] … [1,4]: the whole first layer
    typeAblation(window, "1:1,1:2,1:3,1:4");
    QTRY_VERIFY_WITH_TIMEOUT(shownRunOf(window) != intact.get() && !shownSource(window).running(), kWaitMs);
    const ModelRun& run = *shownRunOf(window);
    for (int h = 0; h < 4; ++h) QVERIFY(run.trace.layers[0].heads[std::size_t(h)].ablated);
    for (const HeadTrace& head : run.trace.layers[1].heads) QVERIFY(!head.ablated);
    const QJsonArray top = expected["predictions"].toArray()[0].toObject()["top"].toArray();
    QCOMPARE(run.predictions.at(0).position, 2);
    for (int k = 0; k < top.size(); ++k) {
        const QJsonArray idAndProbability = top[k].toArray();
        QCOMPARE(run.predictions[0].top.at(std::size_t(k)).id, idAndProbability[0].toInt());
        QVERIFY(std::abs(run.predictions[0].top[std::size_t(k)].probability - idAndProbability[1].toDouble()) < 1e-4);
    }
    // Switching the layer off changed the prediction, so the numbers above are the ablated run's.
    QVERIFY(std::abs(intact->predictions[0].top[0].probability - top[0].toArray()[1].toDouble()) > 1e-3);
    // A head bert-tiny does not have: said in the error line, the run on screen stays.
    typeAblation(window, "3:1");
    QCOMPARE(shownRunOf(window), &run);
    QVERIFY(!shownSource(window).running());
    QVERIFY(child<QLabel>(window, "error")->text().contains("3:1"));
}

namespace {

// Right-clicks point `at` of `target` and triggers the menu's one action; its text ("" when no
// menu opened).
QString switchVia(MainWindow& window, QWidget* target, QPoint at) {
    QContextMenuEvent event(QContextMenuEvent::Mouse, at, target->mapToGlobal(at));
    QApplication::sendEvent(target, &event);
    auto* menu = window.findChild<QMenu*>("headSwitchMenu");
    if (!menu || menu->actions().size() != 1) return {};
    const QString text = menu->actions()[0]->text();
    menu->actions()[0]->trigger();
    menu->close();  // deleted on close: the next right-click finds its own menu
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    return text;
}

// Right-clicks the thumbnail of (layer, head).
QString switchFromThumbnail(MainWindow& window, int layer, int head) {
    auto* view = child<ModelView>(window, "modelView");
    QRect rect;
    for (const DrawnThumbnail& t : view->drawnThumbnails())
        if (t.layer == layer && t.head == head) rect = t.rect;
    if (rect.isNull()) return {};
    return switchVia(window, view->canvas(), rect.center());
}

}  // namespace

void AblationWindowTest::aThumbnailsMenuSwitchesItsHeadOffAndOn() {
    MainWindow window;
    openTinyBert(window);
    if (QTest::currentTestFailed()) return;
    child<QTabWidget>(window, "tabs")->setCurrentWidget(child<ModelView>(window, "modelView"));
    QTRY_VERIFY_WITH_TIMEOUT(!child<ModelView>(window, "modelView")->drawnThumbnails().empty(), kWaitMs);
    const auto before = modelSourceOf(window)->lastRun();
    QCOMPARE(switchFromThumbnail(window, 1, 2), QStringLiteral("Switch head 2:3 off"));
    QCOMPARE(child<QLineEdit>(window, "ablateEdit")->text(), QStringLiteral("2:3"));
    QTRY_VERIFY_WITH_TIMEOUT(shownRunOf(window) != before.get() && !shownSource(window).running(), kWaitMs);
    QVERIFY(shownRunOf(window)->trace.layers[1].heads[2].ablated);
    QCOMPARE(std::count_if(shownRunOf(window)->trace.layers[1].heads.begin(), shownRunOf(window)->trace.layers[1].heads.end(),
                           [](const HeadTrace& h) { return h.ablated; }),
             1);
    const auto off = modelSourceOf(window)->lastRun();
    QTRY_VERIFY_WITH_TIMEOUT(!child<ModelView>(window, "modelView")->drawnThumbnails().empty(), kWaitMs);
    QCOMPARE(switchFromThumbnail(window, 1, 2), QStringLiteral("Switch head 2:3 back on"));
    QVERIFY(child<QLineEdit>(window, "ablateEdit")->text().isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(shownRunOf(window) != off.get() && !shownSource(window).running(), kWaitMs);
    QVERIFY(!shownRunOf(window)->trace.layers[1].heads[2].ablated);
}

// With 2:2 off, torch's head_effects say the [MASK]'s top token 79 falls from 0.298 to 0.015 and
// token 25 leads; the panel shows each after-token with its probability before.
void AblationWindowTest::predictionsShowBeforeAndAfter() {
    MainWindow window;
    openTinyBert(window);
    if (QTest::currentTestFailed()) return;
    auto* view = child<PredictionsView>(window, "predictions");
    QVERIFY(!view->hasChanges());
    const std::shared_ptr<const ModelRun> intact = modelSourceOf(window)->lastRun();
    typeAblation(window, "2:2");
    QTRY_VERIFY_WITH_TIMEOUT(shownRunOf(window) != intact.get() && !shownSource(window).running(), kWaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(view->hasChanges(), kWaitMs);
    QCOMPARE(view->groups().size(), std::size_t{1});
    const auto& rows = view->groups()[0].rows;
    QCOMPARE(rows.at(0).id, 25);
    bool saw79 = false;
    for (const PredictionsView::Row& row : rows) {
        for (const TokenScore& s : intact->predictions[0].top)  // where the intact run's top-k has it
            if (s.id == row.id) QVERIFY2(std::abs(row.before - s.probability) < 1e-5, qPrintable(row.token));
        if (row.id != 79) continue;
        saw79 = true;
        QVERIFY(std::abs(row.before - 0.2982193921) < 1e-5);
        QVERIFY(std::abs(row.probability - 0.01511021251) < 1e-5);
    }
    QVERIFY(saw79);
    typeAblation(window, "");  // every head on: plain bars again
    QTRY_VERIFY_WITH_TIMEOUT(!view->hasChanges() && !shownSource(window).running(), kWaitMs);
    QCOMPARE(view->itemCount(), static_cast<int>(intact->predictions[0].top.size()));
}

// The heatmap of head 2 (two-heads lesson): a right-click on its plot reaches the view, which
// names the head drawn there.
void AblationWindowTest::aHeatmapsMenuSwitchesItsHead() {
    MainWindow window;
    window.show();
    QVERIFY(window.openBuiltInLesson("two-heads"));
    auto* heatmap = child<HeatmapView>(window, "heatmap");
    child<QTabWidget>(window, "tabs")->setCurrentWidget(heatmap);
    heatmap->setHead(1);
    QTRY_VERIFY(heatmap->firstPlot() != nullptr && heatmap->firstPlot()->isVisible());
    QWidget* plot = heatmap->firstPlot();
    QCOMPARE(switchVia(window, plot, plot->rect().center()), QStringLiteral("Switch head 1:2 off"));
    QCOMPARE(child<QLineEdit>(window, "ablateEdit")->text(), QStringLiteral("1:2"));
    QVERIFY(shownSource(window).trace()->layers[0].heads[1].ablated);
    QVERIFY(!shownSource(window).trace()->layers[0].heads[0].ablated);
    QTRY_VERIFY(heatmap->firstPlot()->isVisible());  // rebuilt with the new run
    plot = heatmap->firstPlot();
    QCOMPARE(switchVia(window, plot, plot->rect().center()), QStringLiteral("Switch head 1:2 back on"));
    QVERIFY(!shownSource(window).trace()->layers[0].heads[1].ablated);
}

// The Heads tab's statistics table: a right-click on head 1:1's row, wherever sorting put it.
void AblationWindowTest::aStatisticsRowsMenuSwitchesItsHead() {
    MainWindow window;
    window.show();
    QVERIFY(window.openBuiltInLesson("two-heads"));
    child<QTabWidget>(window, "tabs")->setCurrentWidget(child<HeadsPanel>(window, "headsPanel"));
    QVERIFY(waitForHeadAnalysis(window, kWaitMs));
    const HeadStatsTable* stats = child<HeadsPanel>(window, "headsPanel")->statistics();
    QTRY_COMPARE(stats->model()->rowCount(), 2);
    stats->table()->sortByColumn(HeadStatsModel::Head, Qt::DescendingOrder);  // head 2 on top
    const QModelIndex first = stats->proxy()->mapFromSource(stats->model()->index(stats->model()->rowOf({0, 0}), 0));
    QCOMPARE(first.row(), 1);
    const QPoint at = stats->table()->visualRect(first).center();
    QCOMPARE(switchVia(window, stats->table()->viewport(), at), QStringLiteral("Switch head 1:1 off"));
    QVERIFY(shownSource(window).trace()->layers[0].heads[0].ablated);
    QCOMPARE(child<QLineEdit>(window, "ablateEdit")->text(), QStringLiteral("1:1"));
}

// "Most important heads" on tiny BERT's [MASK] (ids 2 17 4 42 3): the ranking torch's head_effects
// give (reference_ablation.py): 1:3 moves token 79 most (0.298 → 0.760), then 2:2 (→ 0.015), then
// 1:2 (→ 0.047). Double-clicking the first entry switches 1:3 off.
void AblationWindowTest::ranksHeadsByEffectAsTorch() {
    MainWindow window;
    openTinyBert(window);
    if (QTest::currentTestFailed()) return;
    auto* box = child<HeadEffectBox>(window, "headEffects");
    QTRY_VERIFY(box->rankButton()->isEnabled());
    QTest::mouseClick(box->rankButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(box->entries().size(), std::size_t{8}, kWaitMs);
    QFile file(kSource + "/tests/reference/fixtures/ablation.json");
    QVERIFY(file.open(QIODevice::ReadOnly));
    QJsonObject bert;
    for (const QJsonValue e : QJsonDocument::fromJson(file.readAll()).object()["head_effects"].toArray())
        if (e["model"] == QStringLiteral("bert-tiny")) bert = e.toObject();
    for (const QJsonValue e : bert["effects"].toArray()) {
        const HeadRef head{e["head"][0].toInt() - 1, e["head"][1].toInt() - 1};
        const auto listed = std::find_if(box->entries().begin(), box->entries().end(),
                                         [&](const HeadEffectBox::Entry& x) { return x.head == head; });
        QVERIFY(listed != box->entries().end());
        QVERIFY2(std::abs(listed->after - e["after"].toDouble()) < 1e-5, qPrintable(listed->text));
    }
    QCOMPARE(box->entries()[0].head, (HeadRef{0, 2}));
    QCOMPARE(box->entries()[1].head, (HeadRef{1, 1}));
    QVERIFY2(box->entries()[0].text.startsWith("1:3   p 0.298 → 0.760 (+0.462), logit "), qPrintable(box->entries()[0].text));
    const auto before = modelSourceOf(window)->lastRun();
    QListWidgetItem* first = box->list()->item(0);
    emit box->list()->itemDoubleClicked(first);
    QCOMPARE(child<QLineEdit>(window, "ablateEdit")->text(), QStringLiteral("1:3"));
    QTRY_VERIFY_WITH_TIMEOUT(shownRunOf(window) != before.get() && !shownSource(window).running(), kWaitMs);
    QVERIFY(shownRunOf(window)->trace.layers[0].heads[2].ablated);
    QVERIFY(box->entries().empty());  // a new run: the ranking was of the old one
}

QTEST_MAIN(AblationWindowTest)
#include "test_ablation_window.moc"
