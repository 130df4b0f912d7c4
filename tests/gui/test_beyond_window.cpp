// Issue 30 §2 in the window (offscreen): the attention views' "Weight × ‖value‖" check box and the
// "Beyond weights" tab (logit lens, direct logit attribution beside the ablation ranking), on the
// shipped example models, against tests/reference/reference_beyond_weights.py's float64 torch
// forward (fixtures/beyond_weights.json, cases example-gpt and example-bert; no Python here).
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>
#include <qcustomplot.h>

#include "app/language.hpp"
#include "app/main_window.hpp"
#include "app/norm_scale.hpp"
#include "app/tabs/beyond_tab_controller.hpp"
#include "app/tabs/heads_tab.hpp"
#include "ui/heads/head_stats_model.hpp"
#include "ui/heads/head_stats_table.hpp"
#include "ui/heads/heads_panel.hpp"
#include "ui/attention/head_view.hpp"
#include "ui/attention/heatmap_view.hpp"
#include "ui/attention/model_view.hpp"
#include "window_access.hpp"

using namespace attnscope;

namespace {

const QString kSource = QStringLiteral(ATTNSCOPE_SOURCE_DIR);
constexpr int kWaitMs = 30000;

QJsonObject fixtureCase(const QString& model) {
    QFile file(kSource + "/tests/reference/fixtures/beyond_weights.json");
    if (!file.open(QIODevice::ReadOnly)) qFatal("cannot read beyond_weights.json");
    for (const QJsonValue c : QJsonDocument::fromJson(file.readAll()).object()["cases"].toArray())
        if (c["model"].toString() == model) return c.toObject();
    qFatal("beyond_weights.json has no case %s", qPrintable(model));
}

// The window on an example model with `sentence` run; the run's ids must be the fixture's.
bool openExample(MainWindow& w, const QString& model, const QString& sentence) {
    w.resize(1280, 720);
    w.show();
    w.setSentence(sentence);
    w.openModel(kSource + "/resources/models/" + model);
    if (!QTest::qWaitFor([&] { return showsModel(w) && shownRunOf(w) != nullptr && !modelSourceOf(w)->running(); }, kWaitMs)) return false;
    QJsonArray ids;
    for (const Token& t : shownRunOf(w)->trace.tokens) ids.append(t.id);
    if (ids != fixtureCase(model)["ids"].toArray()) qWarning("the run's ids differ from the fixture's");
    return ids == fixtureCase(model)["ids"].toArray();
}

BeyondTabController* beyondOf(MainWindow& w) { return child<BeyondTabController>(w, "beyondTab"); }

void openBeyondTab(MainWindow& w) { child<QTabWidget>(w, "tabs")->setCurrentWidget(beyondOf(w)->view()); }

// The Beyond weights tab of `model` on `sentence`, once its lens is shown and nothing runs.
bool lensShown(MainWindow& w, const QString& model, const QString& sentence) {
    if (!openExample(w, model, sentence)) return false;
    openBeyondTab(w);
    BeyondTabController* beyond = beyondOf(w);
    return QTest::qWaitFor([beyond] { return !beyond->view()->grid()->table().cells.empty() && !beyond->busy(); }, kWaitMs);
}

// Largest |drawn − torch share| over the heatmap's cells of layer `layer`, head `head`: the torch
// norms ‖α_ij·f(x_j)‖ divided by their row's sum, as the colour scale shows them.
double largestShareDifference(const HeatmapView& heatmap, const QJsonObject& expected, int layer, int head) {
    const QJsonArray rows = expected["norm_weighted"].toArray()[layer].toArray()[head].toArray();
    double largest = 0;
    for (const DrawnCell& cell : heatmap.builders().at(0)->drawnCells()) {
        const QJsonArray row = rows[cell.row].toArray();
        double sum = 0;
        for (const QJsonValue v : row) sum += v.toDouble();
        largest = std::max(largest, std::abs(cell.value - row[cell.col].toDouble() / sum));
    }
    return largest;
}

// Σ over rows i ≥ 1 of the share of row i on the first token, / (T − 1), of the torch norms
// ‖α_ij·f(x_j)‖ of layer `layer`, head `head` (the fixture's own matrix, no core code).
double torchNormFirstShare(const QJsonObject& expected, int layer, int head) {
    const QJsonArray rows = expected["norm_weighted"].toArray()[layer].toArray()[head].toArray();
    double mean = 0;
    for (int i = 1; i < rows.size(); ++i) {
        double sum = 0;
        for (const QJsonValue v : rows[i].toArray()) sum += v.toDouble();
        mean += rows[i].toArray()[0].toDouble() / sum;
    }
    return mean / (rows.size() - 1);
}

// A run of one token `text` (what a NormScale job returns here, so the test can tell whose it is).
std::shared_ptr<Trace> oneToken(const std::string& text) {
    auto trace = std::make_shared<Trace>();
    trace->tokens.push_back(Token{text});
    return trace;
}

// A NormScale job the test holds: it runs until cancelled or `release`d, then returns `text`'s run.
NormScale::Job heldJob(std::atomic<bool>& started, std::atomic<bool>& release, const std::string& text) {
    return [&started, &release, text](const RunControl& control) -> Result<Trace> {
        started = true;
        while (!release && !(control.cancel && *control.cancel)) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        if (auto stop = checkCancelled(control); !stop.ok()) return stop.error();
        return *oneToken(text);
    };
}

}  // namespace

class BeyondWindowTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void cleanup() { applyLanguage("en"); }
    void normScaleCellsAreTorchsShares();
    void headsTabShowsTorchsNormSinkShare();
    void normScaleCancelsAndTheNewestRunWins();
    void lensAndAttributionMatchTorchForExampleGpt();
    void lensReadsBertsMaskAsTorch();
    void aLessonSaysWhyTheTabIsEmpty();
    void exportsWriteTheNumbersAndFigures();
    void aNewerTopKWins();
};

void BeyondWindowTest::normScaleCellsAreTorchsShares() {
    MainWindow w;
    QVERIFY(openExample(w, "example-gpt", "The LORD is my shepherd"));
    auto* heatmap = child<HeatmapView>(w, "heatmap");
    child<QTabWidget>(w, "tabs")->setCurrentWidget(heatmap);
    const QJsonObject expected = fixtureCase("example-gpt");
    QVERIFY(largestShareDifference(*heatmap, expected, 0, 0) > 1e-3);  // the weights differ from the norm shares
    child<QCheckBox>(w, "weighting")->setChecked(true);
    QTRY_VERIFY_WITH_TIMEOUT(heatmap->builders().at(0)->colourScale()->label().contains("‖value‖"), kWaitMs);
    const double first = largestShareDifference(*heatmap, expected, 0, 0);
    QVERIFY2(first < 1e-5, qPrintable(QString("layer 1 head 1: largest difference %1").arg(first)));
    child<QComboBox>(w, "layer")->setCurrentIndex(2);
    heatmap->setHead(3);
    const double other = largestShareDifference(*heatmap, expected, 2, 3);
    QVERIFY2(other < 1e-5, qPrintable(QString("layer 3 head 4: largest difference %1").arg(other)));
    child<QTabWidget>(w, "tabs")->setCurrentWidget(child<ModelView>(w, "modelView"));
    QTRY_VERIFY_WITH_TIMEOUT(child<ModelView>(w, "modelView")->caption().contains("weight × ‖value‖"), kWaitMs);
    child<QTabWidget>(w, "tabs")->setCurrentWidget(child<HeadView>(w, "headView"));
    QTRY_VERIFY(child<HeadView>(w, "headView")->caption().contains("weight × ‖value‖"));
    child<QCheckBox>(w, "weighting")->setChecked(false);  // back to the weights, and the captions say so
    QTRY_VERIFY(!child<HeadView>(w, "headView")->caption().contains("‖value‖"));
}

// The Heads tab's "First ×‖v‖" column: empty until Weight × ‖value‖ is on, then every head's
// first-token share of the torch norms, beside the weights' share (which differs).
void BeyondWindowTest::headsTabShowsTorchsNormSinkShare() {
    MainWindow w;
    QVERIFY(openExample(w, "example-gpt", "The LORD is my shepherd"));
    HeadStatsModel* stats = child<HeadsTab>(w, "headsTab")->panel()->statistics()->model();
    QTRY_VERIFY_WITH_TIMEOUT(stats->rowCount() == 16, kWaitMs);  // 4 layers × 4 heads
    QCOMPARE(stats->index(0, HeadStatsModel::NormFirst).data().toString(), QStringLiteral("–"));
    child<QCheckBox>(w, "weighting")->setChecked(true);
    QTRY_VERIFY_WITH_TIMEOUT(stats->statistics().front().normFirstShare.has_value(), kWaitMs);
    const QJsonObject expected = fixtureCase("example-gpt");
    double largest = 0, weightsVsNorms = 0;
    QString where;
    for (const HeadStatistics& s : stats->statistics()) {
        QVERIFY(s.normFirstShare.has_value());
        const double torch = torchNormFirstShare(expected, s.head.layer, s.head.head);
        if (std::abs(*s.normFirstShare - torch) > largest)
            largest = std::abs(*s.normFirstShare - torch), where = QString("%1:%2").arg(s.head.layer + 1).arg(s.head.head + 1);
        weightsVsNorms = std::max(weightsVsNorms, std::abs(s.firstShare - torch));
    }
    QVERIFY2(largest < 1e-5, qPrintable(QString("largest |window − torch| %1 at head %2").arg(largest).arg(where)));
    QVERIFY(weightsVsNorms > 1e-3);  // the weights' share is another number
    const double first = *stats->statistics().front().normFirstShare;
    QCOMPARE(stats->index(0, HeadStatsModel::NormFirst).data().toString(), QString::number(first, 'f', 3));
    child<QCheckBox>(w, "weighting")->setChecked(false);  // back to the weights: the column empties
    QTRY_VERIFY_WITH_TIMEOUT(!stats->statistics().front().normFirstShare.has_value(), kWaitMs);
}

// "Weight × ‖value‖" off the GUI thread: Cancel stops the running computation (failed, cancelled:
// the check box returns to the weights) and nothing is shown; of two runs, only the newer's norms
// are ever shown, however late the older's computation ends.
void BeyondWindowTest::normScaleCancelsAndTheNewestRunWins() {
    NormScale scale;
    QSignalSpy failed(&scale, &NormScale::failed);
    scale.setOn(true);
    std::atomic<bool> startedA{false}, releaseA{false};
    const auto a = oneToken("a");
    scale.setTrace(a, heldJob(startedA, releaseA, "a"));
    QTRY_VERIFY_WITH_TIMEOUT(startedA.load(), kWaitMs);
    QVERIFY(scale.busy());
    scale.cancel();
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kWaitMs);
    QVERIFY(failed.at(0).at(1).toBool());  // cancelled, not an error
    QVERIFY(scale.shown(a, false) == nullptr);

    std::atomic<bool> startedB{false}, releaseB{false}, startedC{false}, releaseC{true};
    const auto b = oneToken("b"), c = oneToken("c");
    scale.setTrace(b, heldJob(startedB, releaseB, "b"));
    QTRY_VERIFY_WITH_TIMEOUT(startedB.load(), kWaitMs);
    scale.setTrace(c, heldJob(startedC, releaseC, "c"));  // a newer run while b's norms are computed
    releaseB = true;
    QTRY_VERIFY_WITH_TIMEOUT(scale.shown(c, false) != nullptr, kWaitMs);
    QCOMPARE(scale.shown(c, false)->tokens.at(0).text, std::string("c"));
    QTest::qWait(50);  // anything b's job still delivers arrives now
    QVERIFY(scale.shown(b, false) == nullptr);
    QCOMPARE(scale.shown(c, false)->tokens.at(0).text, std::string("c"));
    QCOMPARE(failed.count(), 1);  // b's dropped run reports nothing
}

void BeyondWindowTest::lensAndAttributionMatchTorchForExampleGpt() {
    MainWindow w;
    QVERIFY(lensShown(w, "example-gpt", "The LORD is my shepherd"));
    BeyondTabController* beyond = beyondOf(w);
    const QJsonObject expected = fixtureCase("example-gpt");
    const LensTable& table = beyond->view()->grid()->table();
    const auto opened = modelSourceOf(w)->model();
    const QJsonArray lens = expected["lens"].toArray();
    QCOMPARE(table.cells.size(), std::size_t(lens.size()));  // embeddings + 4 layers
    double largest = 0;
    for (int l = 0; l < lens.size(); ++l)
        for (int i = 0; i < lens[l].toArray().size(); ++i) {
            const QJsonArray top = lens[l].toArray()[i].toArray();
            const LensCell& cell = table.cells[std::size_t(l)][std::size_t(i)];
            QCOMPARE(cell.probabilities.size(), std::size_t(top.size()));
            for (int r = 0; r < top.size(); ++r) {
                const int id = top[r].toArray()[0].toInt();
                QCOMPARE(cell.tokens[r], QString::fromStdString(opened->tokenizer.label(id)));
                largest = std::max(largest, std::abs(cell.probabilities[std::size_t(r)] - top[r].toArray()[1].toDouble()));
            }
        }
    QVERIFY2(largest < 1e-5, qPrintable(QString("lens: largest probability difference %1").arg(largest)));
    // Direct logit attribution of the last position's prediction, every head against torch.
    QTableWidget* dla = beyond->view()->attributionTable();
    QCOMPARE(dla->rowCount(), 16);
    const QJsonArray heads = expected["attribution"].toObject()["heads"].toArray();
    double dlaLargest = 0;
    for (int r = 0; r < dla->rowCount(); ++r) {
        const QStringList lh = dla->item(r, 0)->text().split(':');
        const double torch = heads[lh[0].toInt() - 1].toArray()[lh[1].toInt() - 1].toDouble();
        dlaLargest = std::max(dlaLargest, std::abs(dla->item(r, 1)->data(Qt::UserRole).toDouble() - torch));
    }
    QVERIFY2(dlaLargest < 1e-4, qPrintable(QString("attribution: largest difference %1").arg(dlaLargest)));
    // The ablation ranking beside it: every head gets its switched-off numbers.
    QVERIFY(dla->item(0, 2)->text().isEmpty());
    beyond->view()->rankButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(!beyond->busy() && !dla->item(0, 2)->text().isEmpty(), kWaitMs);
}

void BeyondWindowTest::lensReadsBertsMaskAsTorch() {
    MainWindow w;
    QVERIFY(lensShown(w, "example-bert", "The LORD is my [MASK]."));
    BeyondTabController* beyond = beyondOf(w);
    const QJsonObject expected = fixtureCase("example-bert");
    const LensTable& table = beyond->view()->grid()->table();
    QCOMPARE(table.columns.size(), 1);  // the one [MASK]
    QVERIFY(table.columns[0].startsWith("6 "));
    const QJsonArray lens = expected["lens"].toArray();
    for (int l = 0; l < lens.size(); ++l) {
        const QJsonArray top = lens[l].toArray()[0].toArray();
        const LensCell& cell = table.cells[std::size_t(l)][0];
        for (int r = 0; r < top.size(); ++r)
            QVERIFY2(std::abs(cell.probabilities[std::size_t(r)] - top[r].toArray()[1].toDouble()) < 1e-5,
                     qPrintable(QString("row %1 rank %2: %3 vs torch %4").arg(l).arg(r).arg(cell.probabilities[std::size_t(r)])
                                    .arg(top[r].toArray()[1].toDouble())));
    }
}

void BeyondWindowTest::aLessonSaysWhyTheTabIsEmpty() {
    MainWindow w;
    w.show();
    QVERIFY(w.openBuiltInLesson("first-hand-exercise"));
    openBeyondTab(w);
    QVERIFY(beyondOf(w)->view()->caption().contains("no output head"));
    QVERIFY(beyondOf(w)->view()->grid()->table().cells.empty());
    w.setLanguage("zh_CN");
    openBeyondTab(w);
    const QString chinese = beyondOf(w)->view()->caption();
    QVERIFY2(chinese.contains(QStringLiteral("输出")), qPrintable(chinese));
}

void BeyondWindowTest::exportsWriteTheNumbersAndFigures() {
    MainWindow w;
    QVERIFY(lensShown(w, "example-gpt", "The LORD is my shepherd"));
    BeyondTabController* beyond = beyondOf(w);
    QTemporaryDir dir;
    const auto read = [](const QString& path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    };
    QVERIFY(beyond->exportTo(dir.filePath("lens.csv"), BeyondExport::LensCsv).ok());
    // The CSV's row for the output layer, position 5, rank 1 is torch's top token and probability.
    const QJsonArray top = fixtureCase("example-gpt")["lens"].toArray()[4].toArray()[4].toArray()[0].toArray();
    bool found = false;
    for (const QByteArray& line : read(dir.filePath("lens.csv")).split('\n')) {
        const QList<QByteArray> f = line.split(',');
        if (f.size() < 8 || f[0] != "4" || f[1] != "5" || f[3] != "1") continue;
        found = true;
        QCOMPARE(f[4].toInt(), top[0].toInt());
        QVERIFY(std::abs(f[f.size() - 2].toDouble() - top[1].toDouble()) < 1e-5);  // the label may be a quoted ","
    }
    QVERIFY(found);
    QVERIFY(beyond->exportTo(dir.filePath("lens.json"), BeyondExport::LensJson).ok());
    QVERIFY(QJsonDocument::fromJson(read(dir.filePath("lens.json"))).isObject());
    QVERIFY(beyond->exportTo(dir.filePath("dla.csv"), BeyondExport::AttributionCsv).ok());
    QCOMPARE(read(dir.filePath("dla.csv")).count('\n'), 17);  // header + 16 heads
    QVERIFY(beyond->exportTo(dir.filePath("dla.json"), BeyondExport::AttributionJson).ok());
    QVERIFY(beyond->exportTo(dir.filePath("lens.png"), BeyondExport::LensPng).ok());
    QVERIFY(read(dir.filePath("lens.png")).startsWith("\x89PNG"));
    QVERIFY(beyond->exportTo(dir.filePath("lens.svg"), BeyondExport::LensSvg).ok());
    QVERIFY(read(dir.filePath("lens.svg")).contains("<svg"));
    // Never through a link: the link's target keeps its bytes, and the error says why.
    QFile target(dir.filePath("target.csv"));
    QVERIFY(target.open(QIODevice::WriteOnly));
    target.write("keep");
    target.close();
    QVERIFY(QFile::link(dir.filePath("target.csv"), dir.filePath("link.csv")));
    QVERIFY(!beyond->exportTo(dir.filePath("link.csv"), BeyondExport::LensCsv).ok());
    QCOMPARE(read(dir.filePath("target.csv")), QByteArray("keep"));
}

// Two top-k changes in a row: the grid shows the second (the first request is dropped).
void BeyondWindowTest::aNewerTopKWins() {
    MainWindow w;
    QVERIFY(lensShown(w, "example-gpt", "The LORD is my shepherd"));
    BeyondTabController* beyond = beyondOf(w);
    auto* topK = beyond->view()->findChild<QSpinBox*>("lensTopK");
    topK->setValue(7);
    topK->setValue(2);
    QTRY_VERIFY_WITH_TIMEOUT(!beyond->busy(), kWaitMs);
    QCOMPARE(beyond->view()->grid()->table().cells[0][0].probabilities.size(), std::size_t(2));
}

QTEST_MAIN(BeyondWindowTest)
#include "test_beyond_window.moc"
