// The Compare tab in the real MainWindow (offscreen). Sentence B typed in the tab is run by the open
// source; the maps drawn must be A's and B's weights on the aligned tokens and their difference.
// A's weights come from the window's own run, B's from running the lesson on B here with core
// (runLesson), so each map is checked against a run the tab did not make.
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <qcustomplot.h>
#include <QLineEdit>
#include <QTabWidget>
#include <QTest>

#include "app/lesson_source.hpp"
#include "app/main_window.hpp"
#include "app/source/model_trace_source.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/source/model_session.hpp"
#include "ui/compare/compare_view.hpp"
#include "ui/step/matrix_panel.hpp"
#include "ui/coref/coref_tab.hpp"
#include "ui/coref/coref_view.hpp"
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

double largest(const Mat& m) { return m.size() == 0 ? 0 : m.cwiseAbs().maxCoeff(); }

// The torch reference's ‖α_ij·f(x_j)‖ (tests/reference/reference_beyond_weights.py, float64) of
// `model` on `ids`, layer and head 0-based, each row divided by its sum: the shares that
// "Weight × ‖value‖" shows. From fixtures/beyond_weights.json's cases or second_sentences.
Mat torchNormShares(const char* model, const QJsonArray& ids, int layer, int head) {
    QFile file(kSource + "/tests/reference/fixtures/beyond_weights.json");
    if (!file.open(QIODevice::ReadOnly)) qFatal("cannot read beyond_weights.json");
    const QJsonObject doc = QJsonDocument::fromJson(file.readAll()).object();
    for (const char* list : {"cases", "second_sentences"})
        for (const QJsonValue c : doc[list].toArray()) {
            if (c["model"].toString() != model || c["ids"].toArray() != ids) continue;
            const QJsonArray rows = c["norm_weighted"].toArray()[layer].toArray()[head].toArray();
            Mat shares(rows.size(), rows.size());
            for (int i = 0; i < rows.size(); ++i) {
                double sum = 0;
                for (const QJsonValue v : rows[i].toArray()) sum += v.toDouble();
                for (int j = 0; j < rows.size(); ++j) shares(i, j) = rows[i].toArray()[j].toDouble() / sum;
            }
            return shares;
        }
    qFatal("beyond_weights.json has no %s case with these ids", model);
}

QJsonArray idsOf(const std::vector<Token>& tokens) {
    QJsonArray ids;
    for (const Token& t : tokens) ids.append(t.id);
    return ids;
}

// The widest line of a plot's title, in pixels of its font, past the width of the title's
// element as laid out (0: it fits; the title is drawn centred in that element).
int titleOverflow(const MatrixPlotBuilder& builder) {
    for (QCPLayoutElement* e : builder.plot()->plotLayout()->elements(true))
        if (auto* text = qobject_cast<QCPTextElement*>(e); text && text->text() == builder.title()) {
            int widest = 0;
            for (const QString& line : text->text().split('\n')) widest = std::max(widest, QFontMetrics(text->font()).horizontalAdvance(line));
            return std::max(0, widest - text->outerRect().width());
        }
    return 1 << 20;  // no such title
}

// "row r col c: drawn x, torch y" for the first cells apart by more than `tolerance`.
QString mismatches(const Mat& drawn, const Mat& torch, double tolerance) {
    QStringList out;
    for (Eigen::Index r = 0; r < torch.rows() && out.size() < 3; ++r)
        for (Eigen::Index c = 0; c < torch.cols() && out.size() < 3; ++c)
            if (std::abs(drawn(r, c) - torch(r, c)) > tolerance)
                out << QString("row %1 col %2: drawn %3, torch %4").arg(r).arg(c).arg(drawn(r, c)).arg(torch(r, c));
    return QString("largest difference %1; %2").arg(largest(drawn - torch)).arg(out.join("; "));
}

}  // namespace

class CompareTabTest : public QObject {
    Q_OBJECT
private slots:
    void tiredAgainstWideByPosition();
    void aShorterSentenceIsAlignedByWord();
    void followsTheHead();
    void tinyBertRunsBOffTheGuiThread();
    void bHonoursTheHeadsSwitchedOff();
    void exportsTheMapsAndTheNumbers();
    void coreferenceDrawsBothSentences();
    void workedExampleExplainsBoth();
    void followsWeightTimesValueNorm();
};

void CompareTabTest::tiredAgainstWideByPosition() {
    MainWindow window;
    window.show();
    QVERIFY(window.openBuiltInLesson("coreference"));
    window.setSentence(kTired);
    child<QTabWidget>(window, "tabs")->setCurrentWidget(compareView(window));
    // Before B is typed the tab says what to do and shows no empty axes.
    for (const MatrixPlotBuilder* b : compareView(window)->builders()) QVERIFY(!b->plot()->isVisible());
    child<StepNavigator>(window, "navigator")->setCurrentHead(1);  // head 2 reads tired / wide
    typeB(window, kWide);
    QTRY_VERIFY_WITH_TIMEOUT(compareView(window)->builders()[2]->drawn().size() > 0, kWaitMs);
    const auto drawn = compareView(window)->builders();
    for (const MatrixPlotBuilder* b : drawn) QVERIFY(b->plot()->isVisible());
    const Mat a = shownSource(window).trace()->layers[0].heads[1].weights.toMat();
    const Mat b = lessonRun("coreference", kWide).layers[0].heads[1].weights.toMat();
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
    const Mat a = shownSource(window).trace()->layers[0].heads[0].weights.toMat();
    const Mat b = lessonRun("coreference", "the animal was too tired").layers[0].heads[0].weights.toMat();
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
    const Mat b1 = lessonRun("two-heads", "cats chase mice").layers[0].heads[1].weights.toMat();
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
    const Mat expected = b.value().trace.layers[0].heads[0].weights.toMat();
    QCOMPARE(compareView(window)->builders()[1]->drawn().rows(), expected.rows());
    QVERIFY(largest(compareView(window)->builders()[1]->drawn() - expected) < 1e-6);
}

// "Switch heads off: 1:1" with B already shown: B runs again with layer 1's head off, so layer 2's
// B map is core's run of B with that head off (and differs from the intact run: the test can fail).
void CompareTabTest::bHonoursTheHeadsSwitchedOff() {
    MainWindow window;
    window.show();
    QVERIFY(window.openBuiltInLesson("two-layers"));
    window.setSentence(kTired);
    child<QComboBox>(window, "layer")->setCurrentIndex(1);
    typeB(window, kWide);
    auto loaded = loadLesson("two-layers");
    QVERIFY(loaded.ok());
    const Mat intact = runLesson(loaded.value(), kWide).value().layers[1].heads[0].weights.toMat();
    QTRY_VERIFY_WITH_TIMEOUT(compareView(window)->builders()[1]->drawn().rows() == intact.rows() &&
                                 largest(compareView(window)->builders()[1]->drawn() - intact) < 1e-12, kWaitMs);
    typeAblation(window, "1:1");
    RunSettings off;
    off.ablate = {HeadRef{0, 0}};
    const Mat ablated = runLesson(loaded.value(), kWide, off).value().layers[1].heads[0].weights.toMat();
    QVERIFY(largest(ablated - intact) > 1e-3);
    QTRY_VERIFY_WITH_TIMEOUT(compareView(window)->builders()[1]->drawn().rows() == ablated.rows() &&
                                 largest(compareView(window)->builders()[1]->drawn() - ablated) < 1e-12, kWaitMs);
    const Mat a = shownSource(window).trace()->layers[1].heads[0].weights.toMat();
    QVERIFY(shownSource(window).trace()->layers[0].heads[0].ablated);
    QVERIFY(largest(compareView(window)->builders()[2]->drawn() - (a - ablated)) < 1e-12);
}

// Every export writes a file that parses: PNG and PDF by their headers and size, SVG as XML, and
// the CSV and JSON numbers are the maps drawn (core's comparisonToCsv / ToJson, as the CLI).
void CompareTabTest::exportsTheMapsAndTheNumbers() {
    MainWindow window;
    window.show();
    QVERIFY(window.openBuiltInLesson("coreference"));
    window.setSentence(kTired);
    CompareView* view = compareView(window);
    QTemporaryDir dir;
    QVERIFY(!view->exportTo(dir.filePath("early.csv"), CompareExport::Csv).ok());  // nothing compared yet
    QVERIFY(!QFile::exists(dir.filePath("early.csv")));
    typeB(window, kWide);
    QTRY_VERIFY_WITH_TIMEOUT(view->builders()[2]->drawn().size() > 0, kWaitMs);
    for (const auto& [name, kind] : {std::pair{"c.png", CompareExport::Png}, {"c.svg", CompareExport::Svg},
                                     {"c.pdf", CompareExport::Pdf}, {"c.csv", CompareExport::Csv},
                                     {"c.json", CompareExport::Json}})
        QVERIFY2(view->exportTo(dir.filePath(name), kind).ok(), name);
    const QImage png(dir.filePath("c.png"));
    QVERIFY(!png.isNull());
    QCOMPARE(png.width(), 2 * (view->builders()[0]->plot()->width() + view->builders()[1]->plot()->width() +
                               view->builders()[2]->plot()->width()));
    QFile pdf(dir.filePath("c.pdf"));
    QVERIFY(pdf.open(QIODevice::ReadOnly) && pdf.read(5) == "%PDF-");
    QVERIFY(QSvgRenderer(dir.filePath("c.svg")).isValid());
    const Mat& diff = view->builders()[2]->drawn();
    QFile csv(dir.filePath("c.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 1 + diff.rows() * diff.cols());
    const QList<QByteArray> last = lines.last().split(',');  // tired | wide → tired | wide
    QCOMPARE(last[4], QByteArray("tired | wide"));
    QVERIFY(std::abs(last[8].toDouble() - diff(diff.rows() - 1, diff.cols() - 1)) < 1e-12);
    QCOMPARE(last[9], QByteArray("weights"));  // the scale, as the JSON's "shading"
    QFile json(dir.filePath("c.json"));
    QVERIFY(json.open(QIODevice::ReadOnly));
    const QJsonObject doc = QJsonDocument::fromJson(json.readAll()).object();
    QCOMPARE(doc["alignment"].toString(), QStringLiteral("position"));
    const QJsonArray head = doc["heads"].toArray()[0].toObject()["difference"].toArray();
    QCOMPARE(head.size(), diff.rows());
    for (int r = 0; r < diff.rows(); ++r)
        for (int c = 0; c < diff.cols(); ++c) QVERIFY(std::abs(head[r].toArray()[c].toDouble() - diff(r, c)) < 1e-12);
}

// With B set in the Compare tab the Coreference tab draws B's arcs under A's, dashed and in its
// own colours, each legend naming its sentence; B's arcs are core's resolution of B (run here).
// The two-layer lesson's rollout reads the last word: it → animal (tired), it → street (wide).
void CompareTabTest::coreferenceDrawsBothSentences() {
    MainWindow window;
    window.show();
    QVERIFY(window.openBuiltInLesson("two-layers"));
    window.setSentence(kTired);
    typeB(window, kWide);
    QTRY_VERIFY_WITH_TIMEOUT(compareView(window)->builders()[1]->drawn().size() > 0, kWaitMs);
    auto* tab = child<CorefTab>(window, "corefTab");
    QCOMPARE(tab->scoringBox()->currentIndex(), int(CorefTab::Rollout));
    child<QTabWidget>(window, "tabs")->setCurrentWidget(tab);
    CorefView* a = tab->view();
    CorefView* b = tab->secondView();
    QTRY_VERIFY_WITH_TIMEOUT(b->isVisible() && !b->drawnArcs().empty() && !a->drawnArcs().empty(), kWaitMs);
    QVERIFY(b->legendText().startsWith("B: the animal didn't cross the street because it was too wide"));
    QVERIFY(a->legendText().startsWith("A: the animal didn't cross the street because it was too tired"));
    QVERIFY(b->secondSentence() && !a->secondSentence());
    QVERIFY(b->arcPenStyle() == Qt::DashLine && a->arcPenStyle() == Qt::SolidLine);
    QVERIFY(b->chosenArcColour() != a->chosenArcColour() && b->otherArcColour() != a->otherArcColour());
    const Trace wide = lessonRun("two-layers", kWide);
    auto expected = resolveSentence(wide, ResolveOptions{Scoring::rollout(), false, std::nullopt});
    QVERIFY(expected.ok());
    const Resolution& it = expected.value().mentions.front();
    QCOMPARE(b->drawnArcs().size(), it.candidates.size());
    for (const DrawnArc& arc : b->drawnArcs())
        QVERIFY(std::abs(arc.score - it.scores(arc.candidate)) < 1e-12);
    const auto chosenWord = [](const CorefView* v) {
        for (const DrawnArc& arc : v->drawnArcs())
            if (arc.chosen) return v->resolution().words[static_cast<std::size_t>(arc.toWord)].text;
        return std::string();
    };
    QCOMPARE(chosenWord(a), std::string("animal"));  // it → animal when tired
    QCOMPARE(chosenWord(b), std::string("street"));  // it → street when wide
    // Another source: B is gone, and so is its view.
    QVERIFY(window.openBuiltInLesson("two-heads"));
    QTRY_VERIFY(!b->isVisible());
}

// A weights cell clicked in the worked example is explained for A and, under it, for B's aligned
// cell: B's lines are core's explainCell of the lesson run on B (here), so they hold B's numbers.
void CompareTabTest::workedExampleExplainsBoth() {
    MainWindow window;
    window.show();
    QVERIFY(window.openBuiltInLesson("coreference"));
    window.setSentence(kTired);
    typeB(window, "The animal didn't cross the street because it was wide");  // one word fewer: by word
    QTRY_VERIFY_WITH_TIMEOUT(compareView(window)->builders()[1]->drawn().size() > 0, kWaitMs);
    auto* navigator = child<StepNavigator>(window, "navigator");
    const std::vector<Step> steps = navigator->steps();
    const auto weights = std::find(steps.begin(), steps.end(), Step::Weights);
    QVERIFY(weights != steps.end());
    navigator->setCurrentIndex(static_cast<int>(weights - steps.begin()));
    navigator->setCurrentHead(1);
    auto* panel = child<MatrixPanel>(window, "matrixPanel");
    panel->selectCell(7, 1);  // it → animal: token 7 → 1 in A and in B
    const Trace b = lessonRun("coreference", "The animal didn't cross the street because it was wide");
    auto expected = explainCell(b, CellRef{Step::Weights, 0, 1, 7, 1}, shownSource(window).decimals());
    QVERIFY(expected.ok());
    const QString text = panel->explanationText();
    QVERIFY2(text.contains("B: the animal didn't cross the street because it was wide"), qPrintable(text));
    for (const std::string& line : expected.value().lines) QVERIFY2(text.contains(QString::fromStdString(line)), line.c_str());
    QVERIFY(text.indexOf("A: ") < text.indexOf("B: "));
    // B's weight differs from A's: the test reads B's own numbers.
    QVERIFY(std::abs(expected.value().value - shownSource(window).trace()->layers[0].heads[1].weights(7, 1)) > 1e-4);
    // "tired" (token 10) is left out of B: B's part says so.
    panel->selectCell(10, 1);
    QVERIFY(panel->explanationText().contains("no partner in B"));
}

// "Weight × ‖value‖" on: A's and B's maps are the torch reference's norm-weighted shares of the
// example GPT model on "The LORD is my shepherd" and "The LORD is my light" (same length: aligned
// by position), and A − B their difference; B's are made by the tab off the GUI thread. Off again:
// the weights. Layer 2, head 3, whose shares differ from its weights (the test can fail).
void CompareTabTest::followsWeightTimesValueNorm() {
    MainWindow window;
    window.resize(1280, 720);
    window.show();
    window.setSentence("The LORD is my shepherd");
    window.openModel(kSource + "/resources/models/example-gpt");
    QTRY_VERIFY_WITH_TIMEOUT(showsModel(window) && shownRunOf(window) != nullptr && !modelSourceOf(window)->running(), kWaitMs);
    child<QComboBox>(window, "layer")->setCurrentIndex(1);
    child<StepNavigator>(window, "navigator")->setCurrentHead(2);
    typeB(window, "The LORD is my light");
    CompareView* view = compareView(window);
    QTRY_VERIFY_WITH_TIMEOUT(view->builders()[1]->drawn().size() > 0 && view->caption().contains("position"), kWaitMs);
    const QJsonArray idsA = idsOf(shownRunOf(window)->trace.tokens);
    const QJsonArray idsB{449, 340, 335, 377, 1045};  // the fixture's tokens of B; checked below against a run
    RunControl control;
    auto runB = runSentence(*modelSourceOf(window)->model(), "The LORD is my light", control);
    QVERIFY(runB.ok());
    QCOMPARE(idsOf(runB.value().trace.tokens), idsB);
    const Mat a = torchNormShares("example-gpt", idsA, 1, 2), b = torchNormShares("example-gpt", idsB, 1, 2);
    QVERIFY(largest(view->builders()[0]->drawn() - a) > 1e-3);  // the weights are shown yet: not the shares
    child<QCheckBox>(window, "weighting")->setChecked(true);
    QTRY_VERIFY_WITH_TIMEOUT(view->caption().contains("Shown: weight × ‖value‖"), kWaitMs);
    QVERIFY(!view->caption().contains("until"));
    const auto drawn = view->builders();
    QCOMPARE(drawn[0]->drawn().rows(), a.rows());
    QVERIFY2(largest(drawn[0]->drawn() - a) < 1e-5, qPrintable("A: " + mismatches(drawn[0]->drawn(), a, 1e-5)));
    QVERIFY2(largest(drawn[1]->drawn() - b) < 1e-5, qPrintable("B: " + mismatches(drawn[1]->drawn(), b, 1e-5)));
    QVERIFY2(largest(drawn[2]->drawn() - (a - b)) < 2e-5, qPrintable("A − B: " + mismatches(drawn[2]->drawn(), a - b, 2e-5)));
    QVERIFY(largest(a - b) > 1e-3);  // the last word changes the shares
    for (const MatrixPlotBuilder* m : drawn) QVERIFY2(titleOverflow(*m) == 0, qPrintable(m->title()));  // none cut at 1280 px
    // The exported numbers say what they are, and are the torch shares.
    QTemporaryDir dir;
    QVERIFY(view->exportTo(dir.filePath("norms.json"), CompareExport::Json).ok());
    QFile json(dir.filePath("norms.json"));
    QVERIFY(json.open(QIODevice::ReadOnly));
    const QJsonObject doc = QJsonDocument::fromJson(json.readAll()).object();
    QCOMPARE(doc["shading"].toString(), QStringLiteral("norms"));
    const QJsonArray exportedB = doc["heads"].toArray()[0].toObject()["b"].toArray();
    for (int r = 0; r < b.rows(); ++r)
        for (int c = 0; c < b.cols(); ++c) QVERIFY(std::abs(exportedB[r].toArray()[c].toDouble() - b(r, c)) < 1e-5);
    QVERIFY(view->exportTo(dir.filePath("norms.csv"), CompareExport::Csv).ok());
    QFile csv(dir.filePath("norms.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 1 + b.rows() * b.cols());
    for (const QByteArray& line : lines.mid(1)) QCOMPARE(line.split(',').last(), QByteArray("norms"));
    child<QCheckBox>(window, "weighting")->setChecked(false);
    const Mat weights = shownRunOf(window)->trace.layers[1].heads[2].weights.toMat();
    QTRY_VERIFY_WITH_TIMEOUT(largest(view->builders()[0]->drawn() - weights) < 1e-12, kWaitMs);
    QVERIFY(!view->caption().contains("weight × ‖value‖"));
}

QTEST_MAIN(CompareTabTest)
#include "test_compare_tab.moc"
