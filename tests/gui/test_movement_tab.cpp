// Issue 29 §5 in the window (offscreen): the X → Y tab, what attention did to each word, and the
// same word in two contexts with the Compare tab's sentence B. On the shipped example models the
// shown numbers are checked against tests/reference/reference_token_movement.py's float64 torch
// forward (fixtures/token_movement.json, no Python here); on a lesson against the Trace's own
// layer inputs, the distances and cosines worked out here with Eigen (not core's token_movement).
#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStandardPaths>
#include <array>
#include <QTableWidget>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <numeric>

#include "app/language.hpp"
#include "app/main_window.hpp"
#include "app/presentation.hpp"
#include <qcustomplot.h>
#include "app/tabs/movement_tab_controller.hpp"
#include "ui/compare/compare_view.hpp"
#include "ui/lab/lab_plots.hpp"
#include "ui/movement/movement_view.hpp"
#include "ui/movement/same_word_panel.hpp"
#include "window_access.hpp"

using namespace attnscope;

namespace {

const QString kSource = QStringLiteral(ATTNSCOPE_SOURCE_DIR);
constexpr int kWaitMs = 30000;
const char* kTired = "The animal didn't cross the street because it was too tired";
const char* kWide = "The animal didn't cross the street because it was too wide";

QJsonObject fixtureCase(const QString& model) {
    QFile file(kSource + "/tests/reference/fixtures/token_movement.json");
    if (!file.open(QIODevice::ReadOnly)) qFatal("cannot read token_movement.json");
    for (const QJsonValue c : QJsonDocument::fromJson(file.readAll()).object()["cases"].toArray())
        if (c["model"].toString() == model) return c.toObject();
    qFatal("token_movement.json has no case %s", qPrintable(model));
}

MovementTabController* movementOf(MainWindow& w) { return child<MovementTabController>(w, "movementTab"); }
MovementView* viewOf(MainWindow& w) { return movementOf(w)->view(); }

void openTab(MainWindow& w, QWidget* page) { child<QTabWidget>(w, "tabs")->setCurrentWidget(page); }

// Types B in the Compare tab, as a user does, and comes back to X → Y.
void typeB(MainWindow& w, const QString& sentence, bool comeBack = true) {
    auto* compare = child<CompareView>(w, "compareView");
    openTab(w, compare);
    compare->sentenceBox()->clear();
    QTest::keyClicks(compare->sentenceBox(), sentence);
    QTest::keyClick(compare->sentenceBox(), Qt::Key_Return);
    if (comeBack) openTab(w, viewOf(w));
}

// Chooses `index` in the layer box (0: the whole stack) and waits for its numbers.
bool showLayer(MainWindow& w, int index) {
    auto* box = child<QComboBox>(w, "movementLayer");
    box->setCurrentIndex(index);
    const QString expected = index == 0 ? QStringLiteral("the whole stack") : QStringLiteral("What layer %1 did").arg(index);
    return QTest::qWaitFor([&] { return !movementOf(w)->busy() && viewOf(w)->caption().contains(expected); }, kWaitMs);
}

double shown(const QTableWidget* table, int row, int column) { return table->item(row, column)->data(Qt::UserRole).toDouble(); }

// "word norm (share %)" · … as the table prints a row's sources.
struct ShownSource {
    QString word;
    double norm, share;
};
std::vector<ShownSource> sourcesOf(const QTableWidget* table, int row) {
    static const QRegularExpression one(QStringLiteral("^(.*) (-?[0-9.]+) \\(([0-9]+) %\\)$"));
    std::vector<ShownSource> out;
    for (const QString& part : table->item(row, 3)->text().split(QStringLiteral(" · "))) {
        const auto m = one.match(part);
        if (!m.hasMatch()) qFatal("cannot read the source “%s”", qPrintable(part));
        out.push_back({m.captured(1), m.captured(2).toDouble(), m.captured(3).toDouble()});
    }
    return out;
}

// The largest difference and its place, over everything compared.
struct Gap {
    double largest = 0;
    QString where;
    void see(double ours, double torch, const QString& at) {
        if (std::abs(ours - torch) > largest || std::isnan(ours)) largest = std::abs(ours - torch), where = at;
    }
    QString report() const { return QStringLiteral("largest difference %1 at %2").arg(largest).arg(where); }
};

// One layer's rows against torch: distance, cosine, and each row's sources in torch's order.
void checkLayer(MainWindow& w, const QJsonObject& expected, int layer, Gap& numbers, Gap& sources) {
    const QTableWidget* table = viewOf(w)->table();
    const QJsonArray distance = expected["distance"].toArray()[layer].toArray();
    const QJsonArray cosine = expected["cosine"].toArray()[layer].toArray();
    QCOMPARE(table->rowCount(), distance.size());
    const QStringList words = tokenLabels(*shownSource(w).trace());
    for (int i = 0; i < table->rowCount(); ++i) {
        const QString at = QStringLiteral("layer %1 token %2").arg(layer + 1).arg(i + 1);
        numbers.see(shown(table, i, 1), distance[i].toDouble(), at + " distance");
        numbers.see(shown(table, i, 2), cosine[i].toDouble(), at + " cosine");
        const QJsonArray norms = expected["sources"].toArray()[layer].toArray()[i].toArray();
        std::vector<int> order(static_cast<std::size_t>(norms.size()));
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return norms[a].toDouble() > norms[b].toDouble(); });
        double total = 0;
        for (const QJsonValue n : norms) total += n.toDouble();
        const auto listed = sourcesOf(table, i);
        QCOMPARE(int(listed.size()), std::min(3, int(norms.size())));  // three by default
        for (std::size_t r = 0; r < listed.size(); ++r) {
            const int j = order[r];
            QCOMPARE(listed[r].word, words[j]);
            sources.see(listed[r].norm, norms[j].toDouble(), at + QStringLiteral(" source %1").arg(j + 1));
            QVERIFY(std::abs(listed[r].share - 100 * norms[j].toDouble() / total) <= 0.5 + 1e-3);
        }
    }
}

bool openExample(MainWindow& w, const QString& model) {
    w.resize(1280, 720);
    w.show();
    w.setSentence(fixtureCase(model)["sentence_a"].toString());
    w.openModel(kSource + "/resources/models/" + model);
    if (!QTest::qWaitFor([&] { return showsModel(w) && shownRunOf(w) != nullptr && !modelSourceOf(w)->running(); }, kWaitMs)) return false;
    QJsonArray ids;
    for (const Token& t : shownRunOf(w)->trace.tokens) ids.append(t.id);
    return ids == fixtureCase(model)["ids_a"].toArray();
}

// cos(a, b) of two rows, worked out here.
double cosine(const Mat& a, int i, const Mat& b, int j) {
    return a.row(i).dot(b.row(j)) / (a.row(i).norm() * b.row(j).norm());
}

// A lesson's states as its Trace keeps them: each layer's input, then the last input + output.
std::vector<Mat> statesOf(const Trace& t) {
    std::vector<Mat> states;
    for (const LayerTrace& l : t.layers) states.push_back(l.input);
    states.push_back(t.residual ? Mat(t.layers.back().input + t.layers.back().output) : t.layers.back().output);
    return states;
}

// The coreference lesson on "… too tired", the X → Y tab in front.
bool openLesson(MainWindow& w) {
    w.resize(1280, 720);
    w.show();
    if (!w.openBuiltInLesson("coreference")) return false;
    w.setSentence(kTired);
    openTab(w, viewOf(w));
    return true;
}

}  // namespace

class MovementTabTest : public QObject {
    Q_OBJECT
private slots:
    void gptAgainstTorch() { againstTorch("example-gpt"); }
    void bertAgainstTorch() { againstTorch("example-bert"); }
    void worksForALesson();
    void aChangedSentenceBUpdatesTheCurve();
    void exportsWriteCoresNumbersAndRefuseALink();
    void worksheetOfTheSelectedWord();
    void followsTheZoom();
    void theCaptionSaysWhatYIs();
    void everyWordInSightAt1280x720();
    void chineseSourcesOnOneLineAt1280x720();

private:
    void againstTorch(const QString& model);
};

// Every layer, the whole stack and the same word in two contexts (B typed in the Compare tab).
void MovementTabTest::againstTorch(const QString& model) {
    MainWindow w;
    QVERIFY2(openExample(w, model), "the run's ids differ from the fixture's");
    const QJsonObject expected = fixtureCase(model);
    openTab(w, viewOf(w));
    Gap numbers, sources, curve;
    const int layers = shownSource(w).trace()->layerCount();
    for (int l = 0; l < layers; ++l) {
        QVERIFY2(showLayer(w, l + 1), qPrintable(viewOf(w)->caption()));
        QVERIFY2(viewOf(w)->caption().contains(QStringLiteral("(y = the layer's hidden state: x after the layer's attention and "
                                                              "its feed-forward network")),
                 qPrintable(viewOf(w)->caption()));  // not "x plus the attention output": the MLP is in it too
        checkLayer(w, expected, l, numbers, sources);
        if (QTest::currentTestFailed()) return;
    }
    QVERIFY(showLayer(w, 0));
    const QTableWidget* table = viewOf(w)->table();
    QVERIFY(table->isColumnHidden(3));  // the whole stack has no sources
    for (int i = 0; i < table->rowCount(); ++i) {
        numbers.see(shown(table, i, 1), expected["stack_distance"].toArray()[i].toDouble(), QStringLiteral("stack distance %1").arg(i + 1));
        numbers.see(shown(table, i, 2), expected["stack_cosine"].toArray()[i].toDouble(), QStringLiteral("stack cosine %1").arg(i + 1));
        QCOMPARE(viewOf(w)->bars().series().front().y[std::size_t(i)], shown(table, i, 1));  // the bars are the table's
    }
    typeB(w, expected["sentence_b"].toString());
    SameWordPanel* panel = viewOf(w)->sameWord();
    QVERIFY(QTest::qWaitFor([&] { return !movementOf(w)->busy() && !panel->builder().series().empty(); }, kWaitMs));
    // The default is the same word in both, the one the reference compares.
    QCOMPARE(panel->chosenA(), expected["token_a"].toInt());
    QCOMPARE(panel->chosenB(), expected["token_b"].toInt());
    const std::vector<double>& drawn = panel->builder().series().front().y;
    QCOMPARE(int(drawn.size()), expected["same_word"].toArray().size());
    for (std::size_t l = 0; l < drawn.size(); ++l)
        curve.see(drawn[l], expected["same_word"].toArray()[int(l)].toDouble(), QStringLiteral("state %1").arg(l));
    // Float32 runs against float64 torch; the sources are read as printed (3 decimals).
    QVERIFY2(numbers.largest < 1e-4, qPrintable(numbers.report()));
    QVERIFY2(sources.largest < 5e-4 + 1e-4, qPrintable(sources.report()));
    QVERIFY2(curve.largest < 1e-5, qPrintable(curve.report()));
}

// A lesson's Trace: layer 1 against its own input and output rows, and "it" of A and of B.
void MovementTabTest::worksForALesson() {
    MainWindow w;
    QVERIFY(openLesson(w));
    QVERIFY2(showLayer(w, 1), qPrintable(viewOf(w)->caption()));
    const Trace a = lessonRun("coreference", kTired);
    const std::vector<Mat> states = statesOf(a);
    const QTableWidget* table = viewOf(w)->table();
    QCOMPARE(table->rowCount(), a.tokenCount());
    Gap gap;
    for (int i = 0; i < a.tokenCount(); ++i) {
        gap.see(shown(table, i, 1), (states[1].row(i) - states[0].row(i)).norm(), QStringLiteral("distance %1").arg(i + 1));
        gap.see(shown(table, i, 2), cosine(states[0], i, states[1], i), QStringLiteral("cosine %1").arg(i + 1));
    }
    QVERIFY2(gap.largest < 1e-12, qPrintable(gap.report()));
    QVERIFY(!table->isColumnHidden(3));
    typeB(w, kWide);
    SameWordPanel* panel = viewOf(w)->sameWord();
    QVERIFY(QTest::qWaitFor([&] { return !movementOf(w)->busy() && !panel->builder().series().empty(); }, kWaitMs));
    // The longest word in both ("because", token 7, 7 letters) by default; then "it" (token 8) by hand.
    QCOMPARE(panel->chosenA(), 6);
    QCOMPARE(panel->chosenB(), 6);
    child<QComboBox>(w, "sameWordTokenA")->setCurrentIndex(7);
    child<QComboBox>(w, "sameWordTokenB")->setCurrentIndex(7);
    const std::vector<Mat> b = statesOf(lessonRun("coreference", kWide));
    const std::vector<double>& drawn = panel->builder().series().front().y;
    QCOMPARE(drawn.size(), states.size());
    for (std::size_t l = 0; l < drawn.size(); ++l) QVERIFY(std::abs(drawn[l] - cosine(states[l], 7, b[l], 7)) < 1e-12);
    QCOMPARE(drawn.front(), 1.0);  // the same word and position enter layer 1 alike
    QVERIFY(panel->caption().contains(QStringLiteral("“it” of A, “it” of B")));
    // Two different words (tired, wide: token 11) differ from the start.
    child<QComboBox>(w, "sameWordTokenA")->setCurrentIndex(10);
    child<QComboBox>(w, "sameWordTokenB")->setCurrentIndex(10);
    const std::vector<double>& other = panel->builder().series().front().y;
    for (std::size_t l = 0; l < other.size(); ++l) QVERIFY(std::abs(other[l] - cosine(states[l], 10, b[l], 10)) < 1e-12);
    QCOMPARE(other.front(), 0.0);  // one-hot features "tired" and "wide": orthogonal
    QVERIFY(panel->caption().contains(QStringLiteral("“tired” of A, “wide” of B")));
}

// B typed twice in a row: the second one's curve is shown, whatever order the runs end in.
void MovementTabTest::aChangedSentenceBUpdatesTheCurve() {
    MainWindow w;
    QVERIFY(openLesson(w));
    typeB(w, "the animal was too wide");
    typeB(w, kWide);  // at once, while the first may still run
    SameWordPanel* panel = viewOf(w)->sameWord();
    QVERIFY(QTest::qWaitFor([&] { return !movementOf(w)->busy() && panel->toolTipOfCaption().contains(QString::fromLatin1(kWide)); }, kWaitMs));
    const std::vector<Mat> a = statesOf(lessonRun("coreference", kTired));
    const std::vector<Mat> b = statesOf(lessonRun("coreference", kWide));
    const std::vector<double>& drawn = panel->builder().series().front().y;
    QCOMPARE(drawn.size(), a.size());
    for (std::size_t l = 0; l < drawn.size(); ++l) QVERIFY(std::abs(drawn[l] - cosine(a[l], 6, b[l], 6)) < 1e-12);
    QCOMPARE(child<QComboBox>(w, "sameWordTokenB")->count(), 11);  // B's tokens, not the first B's 5
}

// The exports are core's writers' text of what is shown; a link is refused and its target kept.
void MovementTabTest::exportsWriteCoresNumbersAndRefuseALink() {
    MainWindow w;
    QVERIFY(openLesson(w));
    QVERIFY(showLayer(w, 1));
    QTemporaryDir dir;
    const auto early = movementOf(w)->exportTo(dir.filePath("early.csv"), MovementExport::CurveCsv);
    QVERIFY(!early.ok() && early.error().text().find("nothing is shown yet") != std::string::npos);  // no B yet
    QVERIFY(!QFileInfo::exists(dir.filePath("early.csv")));
    typeB(w, kWide);
    QVERIFY(QTest::qWaitFor([&] { return !movementOf(w)->busy() && !viewOf(w)->sameWord()->builder().series().empty(); }, kWaitMs));
    for (const auto& [name, kind] : std::vector<std::pair<QString, MovementExport>>{
             {"m.png", MovementExport::BarsPng}, {"m.svg", MovementExport::BarsSvg}, {"m.csv", MovementExport::MovementCsv},
             {"m.json", MovementExport::MovementJson}, {"c.png", MovementExport::CurvePng}, {"c.svg", MovementExport::CurveSvg},
             {"c.csv", MovementExport::CurveCsv}, {"c.json", MovementExport::CurveJson}}) {
        const auto written = movementOf(w)->exportTo(dir.filePath(name), kind);
        QVERIFY2(written.ok(), written.ok() ? "" : written.error().text().c_str());
        QVERIFY2(QFileInfo(dir.filePath(name)).size() > 40, qPrintable(name));  // the curve's CSV: 2 states
    }
    QFile json(dir.filePath("m.json"));
    QVERIFY(json.open(QIODevice::ReadOnly));
    const QJsonArray tokens = QJsonDocument::fromJson(json.readAll()).object()["tokens"].toArray();
    QCOMPARE(tokens.size(), viewOf(w)->table()->rowCount());
    for (int i = 0; i < tokens.size(); ++i) QCOMPARE(tokens[i]["distance"].toDouble(), shown(viewOf(w)->table(), i, 1));
    QFile target(dir.filePath("target.txt"));
    QVERIFY(target.open(QIODevice::WriteOnly) && target.write("kept") == 4);
    target.close();
    QVERIFY(QFile::link(dir.filePath("target.txt"), dir.filePath("link.csv")));
    QVERIFY(!movementOf(w)->exportTo(dir.filePath("link.csv"), MovementExport::MovementCsv).ok());
    QVERIFY(target.open(QIODevice::ReadOnly));
    QCOMPARE(target.readAll(), QByteArray("kept"));
}

// Export ▸ Worksheet: the selected word's x and y, ‖y − x‖ and cos(x, y) as the Trace's own rows give
// them (worked out here with Eigen), the top sources as the table lists them; .md, .tex and .pdf.
void MovementTabTest::worksheetOfTheSelectedWord() {
    MainWindow w;
    QVERIFY(openLesson(w));
    QVERIFY(showLayer(w, 1));
    QTableWidget* table = viewOf(w)->table();
    table->setCurrentCell(7, 0);  // "it", token 8
    QTemporaryDir dir;
    const auto written = movementOf(w)->exportTo(dir.filePath("it.md"), MovementExport::Worksheet);
    QVERIFY2(written.ok(), written.ok() ? "" : written.error().text().c_str());
    const auto read = [&](const QString& name) {
        QFile file(dir.filePath(name));
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    };
    const QString questions = read("it.md"), answers = read("it-answers.md");
    const std::vector<Mat> states = statesOf(lessonRun("coreference", kTired));
    const RowVec x = states[0].row(7), y = states[1].row(7);
    const int decimals = int(table->item(7, 1)->text().section('.', 1).size());  // the lesson's, as the table prints
    QVERIFY(decimals > 0);
    const auto n = [decimals](double v) {  // as core prints: no sign on a zero
        const QString text = QString::number(v, 'f', decimals);
        return text.contains(QRegularExpression("^-[0.]+$")) ? text.mid(1) : text;
    };
    QVERIFY2(questions.contains(QStringLiteral("What layer 1 did to “it” (token 8)")), qPrintable(questions));
    QVERIFY(questions.contains(QStringLiteral("| **k = 1** | %1 | %2 | ____ |").arg(n(x(0)), n(y(0)))));
    QVERIFY(!questions.contains(QStringLiteral("= %1\n").arg(n((y - x).norm()))));
    QVERIFY2(answers.contains(QStringLiteral("‖y − x‖ = √(Σ_k (y_k − x_k)²) = %1").arg(n((y - x).norm()))), qPrintable(answers));
    QVERIFY(answers.contains(QStringLiteral("cos(x, y) = Σ_k x_k·y_k / (‖x‖·‖y‖) = %1").arg(n(x.dot(y) / (x.norm() * y.norm())))));
    QVERIFY(answers.contains(QStringLiteral("x·y = ")));
    // The three sources the table lists, with their shares worked out (a word twice in the sentence
    // is "the#1" there, "the" in the table: the norms tell them apart).
    const auto listed = sourcesOf(table, 7);
    QCOMPARE(int(listed.size()), 3);
    for (const ShownSource& s : listed)
        QVERIFY2(answers.contains(QStringLiteral(": %1 / ").arg(n(s.norm))), qPrintable(s.word));
    QVERIFY(movementOf(w)->exportTo(dir.filePath("it.tex"), MovementExport::Worksheet).ok());
    QVERIFY(read("it-answers.tex").startsWith(QStringLiteral("\\documentclass")));
    QVERIFY(movementOf(w)->exportTo(dir.filePath("it.pdf"), MovementExport::Worksheet).ok());
    QVERIFY(read("it.pdf").startsWith(QStringLiteral("%PDF")));
    QVERIFY(!movementOf(w)->exportTo(dir.filePath("it.txt"), MovementExport::Worksheet).ok());  // .md, .tex or .pdf
}

// View ▸ Zoom at 200 %: the table's words and both plots' tick labels twice as large (a projector).
void MovementTabTest::followsTheZoom() {
    QStandardPaths::setTestModeEnabled(true);  // the remembered zoom goes to a test folder
    MainWindow w;
    QVERIFY(openLesson(w));
    QVERIFY(showLayer(w, 1));
    typeB(w, kWide);
    QVERIFY(QTest::qWaitFor([&] { return !movementOf(w)->busy() && !viewOf(w)->sameWord()->builder().series().empty(); }, kWaitMs));
    const auto sizes = [&] {
        return std::array<double, 3>{viewOf(w)->table()->font().pointSizeF(),
                                     viewOf(w)->bars().plot()->xAxis->tickLabelFont().pointSizeF(),
                                     viewOf(w)->sameWord()->builder().plot()->yAxis->tickLabelFont().pointSizeF()};
    };
    auto* presentation = w.findChild<Presentation*>();
    QVERIFY(presentation);
    presentation->setZoom(150);  // a change: the application font is set at 100 % too
    presentation->setZoom(100);
    QApplication::processEvents();
    const auto at100 = sizes();
    presentation->setZoom(200);
    QApplication::processEvents();
    const auto at200 = sizes();
    for (std::size_t i = 0; i < at100.size(); ++i)
        QVERIFY2(std::abs(at200[i] - 2 * at100[i]) < 0.51, qPrintable(QStringLiteral("font %1: %2 → %3").arg(i).arg(at100[i]).arg(at200[i])));
    presentation->setZoom(100);
}



// The caption says what y is for the lesson on screen: the coreference lesson has one layer and no
// residual connection, so its y is the attention output itself and "it" moved ‖output − x‖, worked
// out here from its Trace; two-layers' layers are joined by residual connections (y = x + output).
void MovementTabTest::theCaptionSaysWhatYIs() {
    MainWindow w;
    QVERIFY(openLesson(w));
    QVERIFY2(showLayer(w, 1), qPrintable(viewOf(w)->caption()));
    const QString caption = viewOf(w)->caption();
    QVERIFY2(caption.contains(QStringLiteral("(y = the attention output alone: this lesson has no residual connection, so x is "
                                             "not added to it)")) && !caption.contains(QStringLiteral("x plus")),
             qPrintable(caption));
    const Trace plain = lessonRun("coreference", kTired);
    QVERIFY(!plain.residual);
    const int it = 7;  // The animal didn't cross the street because it …: "it" is token 8
    const double moved = (plain.layers[0].output.row(it) - plain.layers[0].input.row(it)).norm();
    QVERIFY2(std::abs(shown(viewOf(w)->table(), it, 1) - moved) < 1e-12,
             qPrintable(QString("shown %1, ‖output − x‖ %2").arg(shown(viewOf(w)->table(), it, 1), 0, 'g', 12).arg(moved, 0, 'g', 12)));
    QVERIFY(w.openBuiltInLesson("two-layers"));
    child<QComboBox>(w, "movementLayer")->setCurrentIndex(1);
    const QString residual = QStringLiteral("(y = x + the attention output: the residual connection)");
    QVERIFY2(QTest::qWaitFor([&] { return !movementOf(w)->busy() && viewOf(w)->caption().contains(residual); }, kWaitMs),
             qPrintable(viewOf(w)->caption()));
}

QTEST_MAIN(MovementTabTest)
// A class reads every word's row without scrolling: at 1280×720 the sources wrapped beside the
// plots and 8 of the lesson's 11 words were in sight. Each row one line, the last one inside.
void MovementTabTest::everyWordInSightAt1280x720() {
    MainWindow w;
    QVERIFY(openLesson(w));
    QVERIFY(showLayer(w, 1));
    const QTableWidget* table = viewOf(w)->table();
    QCOMPARE(table->rowCount(), 11);
    const int oneLine = 2 * table->fontMetrics().lineSpacing();
    for (int row = 0; row < table->rowCount(); ++row)
        QVERIFY2(table->rowHeight(row) < oneLine, qPrintable(QStringLiteral("row %1: %2 px").arg(row + 1).arg(table->rowHeight(row))));
    const int last = table->rowCount() - 1;
    QVERIFY2(table->rowViewportPosition(last) + table->rowHeight(last) <= table->viewport()->height(),
             qPrintable(QStringLiteral("the last row ends at %1 px, the table shows %2")
                            .arg(table->rowViewportPosition(last) + table->rowHeight(last))
                            .arg(table->viewport()->height())));
    QVERIFY(viewOf(w)->findChild<QWidget*>("movementPlots")->width() >= 250);  // the plot beside it stays readable
}

// The Chinese lesson's sources (full-width brackets) on one line too; its 14 rows are more than
// 1280×720 has room for below its two-line description.
void MovementTabTest::chineseSourcesOnOneLineAt1280x720() {
    applyLanguage("zh_CN");
    MainWindow w;
    w.resize(1280, 720);
    w.show();
    QVERIFY(w.openBuiltInLesson("coreference-zh"));
    openTab(w, viewOf(w));
    child<QComboBox>(w, "movementLayer")->setCurrentIndex(1);
    QVERIFY(QTest::qWaitFor([&] { return !movementOf(w)->busy() && viewOf(w)->caption().contains(QStringLiteral("第 1 层")); }, kWaitMs));
    const QTableWidget* table = viewOf(w)->table();
    const int oneLine = 2 * table->fontMetrics().lineSpacing();
    for (int row = 0; row < table->rowCount(); ++row)
        QVERIFY2(table->rowHeight(row) < oneLine, qPrintable(QStringLiteral("row %1: %2 px").arg(row + 1).arg(table->rowHeight(row))));
    applyLanguage("en");
}

#include "test_movement_tab.moc"
