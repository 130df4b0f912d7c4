// The Coreference tab of the real MainWindow on the offscreen platform, in lesson mode (the
// built-in "coreference" lesson) and in model mode (the tiny random BERT): what the view drew
// (arcs, words, markers) is compared with core's resolveSentence on the same Trace.
#include <QCheckBox>
#include <QDir>
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>

#include "app/tabs/coref_tab_controller.hpp"
#include "ui/coref/coref_tab.hpp"
#include "app/main_window.hpp"
#include "window_access.hpp"
#include "app/model_worker.hpp"
#include "ui/attention/heatmap_view.hpp"
#include "ui/common/core_language.hpp"
#include "ui/coref/coref_view.hpp"

using namespace attnscope;

namespace {

const QString kSource = QStringLiteral(ATTNSCOPE_SOURCE_DIR);
const QString kBert = kSource + "/tests/reference/models/bert-tiny";
constexpr int kWaitMs = 20000;

Resolution coreResolution(const Trace& trace, const Scoring& scoring, bool cataphora = false) {
    auto resolved = resolveSentence(trace, {scoring, cataphora, std::nullopt});
    if (!resolved || resolved.value().mentions.empty()) return {};
    return resolved.value().mentions.front();
}

const DrawnArc* arcTo(const CorefView& view, const QString& word) {
    for (const DrawnArc& a : view.drawnArcs())
        if (view.resolution().words[static_cast<std::size_t>(a.toWord)].text == word.toStdString()) return &a;
    return nullptr;
}

const DrawnWord* drawnWord(const CorefView& view, const QString& text) {
    for (const DrawnWord& w : view.drawnWords())
        if (w.text == text) return &w;
    return nullptr;
}

QStringList markerWords(const CorefView& view, DrawnMarker::Kind kind) {
    QStringList out;
    for (const DrawnMarker& m : view.drawnMarkers())
        if (m.kind == kind) out << QString::fromStdString(view.resolution().words[static_cast<std::size_t>(m.word)].text);
    return out;
}

// The shortest text that reads back to the same double, as the CSV writes it.
QString exactText(double v) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, v).ptr;
    return QString::fromLatin1(text, static_cast<int>(end - text));
}

// Every arc is one (mention, candidate) pair of the resolution, with core's score and choice.
void verifyArcsMatch(const CorefView& view, const SentenceResolution& expected) {
    std::size_t candidates = 0;
    for (const Resolution& r : expected.mentions) candidates += r.candidates.size();
    QCOMPARE(view.drawnArcs().size(), candidates);
    for (const DrawnArc& a : view.drawnArcs()) {
        const Resolution& r = expected.mentions.at(static_cast<std::size_t>(a.mention));
        QCOMPARE(a.toWord, r.candidates.at(static_cast<std::size_t>(a.candidate)));
        QCOMPARE(a.fromWord, r.mention.firstWord);
        QCOMPARE(a.score, r.scores(a.candidate));
        QCOMPARE(a.chosen, a.candidate == r.chosen);
    }
}

// `tokens` tokens of "the animal did not cross the street because it was too tired ." over and
// over between [CLS] and [SEP], 2 layers × 2 heads. Every row spreads half its weight evenly; an
// "it" gives the other half to the nearest `target` before it, any other token to itself.
Trace repeatedSentenceTrace(int tokens, const std::string& target) {
    const std::vector<std::string> sentence{"the", "animal", "did", "not", "cross", "the", "street",
                                            "because", "it", "was", "too", "tired", "."};
    Trace t;
    t.tokens.push_back({"[CLS]", true, -1, -1, true});
    for (int i = 1; i + 1 < tokens; ++i) t.tokens.push_back({sentence[static_cast<std::size_t>(i - 1) % sentence.size()]});
    t.tokens.push_back({"[SEP]", true, -1, -1, true});
    Mat w = Mat::Constant(tokens, tokens, 0.5 / tokens);
    int lastTarget = 0;
    for (int r = 0; r < tokens; ++r) {
        const std::string& text = t.tokens[static_cast<std::size_t>(r)].text;
        w(r, text == "it" ? lastTarget : r) += 0.5;
        if (text == target) lastTarget = r;
    }
    for (int l = 0; l < 2; ++l) {
        LayerTrace layer;
        layer.heads.resize(2);
        for (HeadTrace& head : layer.heads) head.weights = w;
        t.layers.push_back(std::move(layer));
    }
    return t;
}

std::vector<std::string> chosenWords(const SentenceResolution& resolved) {
    std::vector<std::string> out;
    for (const Resolution& r : resolved.mentions)
        out.push_back(resolved.words.at(static_cast<std::size_t>(r.candidates.at(static_cast<std::size_t>(r.chosen)))).text);
    return out;
}

}  // namespace

class CorefTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<MainWindow> window;
    QTemporaryDir tmp;

    CorefView& view() const { return *child<CorefTab>(*window, "corefTab")->view(); }
    const Trace& trace() const { return sessionOf(*window).trace(); }

private slots:
    void initTestCase() { initResources(); }
    void init() {
        window = std::make_unique<MainWindow>();
        QVERIFY(window->openBuiltInLesson("coreference"));
        window->show();
        child<QTabWidget>(*window, "tabs")->setCurrentWidget(child<CorefTab>(*window, "corefTab"));
    }
    void cleanup() { window.reset(); }

    void lessonDrawsItToAnimalChosenWithCoresScore() {
        const Resolution expected = coreResolution(trace(), Scoring::rollout());
        QCOMPARE(view().drawnArcs().size(), expected.candidates.size());
        QCOMPARE(view().drawnArcs().size(), std::size_t{3});  // animal, cross, street
        const DrawnArc* animal = arcTo(view(), "animal");
        QVERIFY(animal);
        QVERIFY(animal->chosen);
        QCOMPARE(animal->score, expected.scores(0));
        QVERIFY(std::abs(animal->score - 0.7967538060) < 1e-9);  // docs/coreference.md, rollout
        QCOMPARE(view().resolution().words[static_cast<std::size_t>(animal->fromWord)].text, std::string("it"));
        for (const DrawnArc& a : view().drawnArcs())
            if (&a != animal) QVERIFY(!a.chosen && a.score < animal->score && a.width <= animal->width);
        verifyArcsMatch(view(), resolveSentence(trace(), {Scoring::rollout(), false, std::nullopt}).value());
        QVERIFY(view().legendText().contains("attention rollout"));
        // The scores are renormalised over the candidates: the legend says so with the share the
        // candidates got, each arc's tooltip gives its raw attention (core's numbers).
        const Resolution& r = expected;
        const QString share = QStringLiteral("it %1%").arg(100 * r.rawScores.sum(), 0, 'f', 1);
        QVERIFY2(view().legendText().section('\n', 0, 0).contains("renormalised over the candidates, which received " + share),
                 qPrintable(view().legendText()));
        // The scores are of the weights whatever the attention views' colour scale: the legend says so.
        QVERIFY(view().legendText().section('\n', 0, 0).contains("from the attention weights, not weight × ‖value‖"));
        const int animalIndex = static_cast<int>(animal - view().drawnArcs().data());
        QVERIFY2(view().arcToolTip(animalIndex).contains(QStringLiteral("raw attention %1").arg(QString::number(r.rawScores(0), 'f', 3))),
                 qPrintable(view().arcToolTip(animalIndex)));
    }

    void twoLayerLessonFlipsWithTheStateWord() {
        // Lesson 5, layer 2's head: e^s/(e^s + 2) = 0.961 for the noun that fits the state word
        // (tests/core/test_coreference.cpp); typing "wide" instead of "tired" moves the arc.
        QVERIFY(window->openBuiltInLesson("two-layers"));
        child<QTabWidget>(*window, "tabs")->setCurrentWidget(child<CorefTab>(*window, "corefTab"));
        child<CorefTabController>(*window, "corefController")->setHeads({{1, 0}});
        const QString base = "The animal didn't cross the street because it was too ";
        for (const auto& [state, fitting] : {std::pair{"tired", "animal"}, std::pair{"wide", "street"}}) {
            window->setSentence(base + state);
            QTRY_VERIFY(arcTo(view(), fitting) && arcTo(view(), fitting)->chosen);
            QVERIFY2(std::abs(arcTo(view(), fitting)->score - 0.9612) < 1e-4, state);
        }
    }

    // Long sentences are resolved on the controller's worker: the arcs on screen stay until the
    // new ones arrive, then they are core's for the new sentence ("wide" moves the arc to street).
    void aLongSentenceIsResolvedOffTheGuiThread() {
        QVERIFY(window->openBuiltInLesson("two-layers"));
        auto* tabs = child<QTabWidget>(*window, "tabs");
        tabs->setCurrentWidget(child<CorefTab>(*window, "corefTab"));
        child<CorefTabController>(*window, "corefController")->setHeads({{1, 0}});
        const QString base = "The animal didn't cross the street because it was too ";
        window->setSentence(base + "tired");
        QVERIFY(arcTo(view(), "animal") && arcTo(view(), "animal")->chosen);  // short: resolved at once
        auto* controller = child<CorefTabController>(*window, "corefController");
        controller->setInlineTokenLimit(0);  // every sentence is long now
        window->setSentence(base + "wide");
        QVERIFY(controller->busy());
        QVERIFY(arcTo(view(), "animal")->chosen);  // the previous drawing until the worker answers
        QTRY_VERIFY(!controller->busy());
        QVERIFY(arcTo(view(), "street") && arcTo(view(), "street")->chosen);
        verifyArcsMatch(view(), resolveSentence(trace(), {Scoring::headSet({{1, 0}}), false, std::nullopt}).value());
    }

    // Issue 16: at 512 tokens rollout (the default scoring) runs on the controller's worker at the
    // default inline limit. show() returns before anything is drawn (the result can only come
    // through the event loop), and of two requests in a row only the newer one is drawn.
    void rolloutAt512TokensRunsOffTheGuiThreadAndTheNewestWins() {
        QTabWidget tabs;
        CorefTabController controller(&tabs);
        tabs.resize(1000, 700);
        tabs.show();
        tabs.setCurrentWidget(controller.tab());
        const auto older = std::make_shared<const Trace>(repeatedSentenceTrace(512, "animal"));
        const auto newer = std::make_shared<const Trace>(repeatedSentenceTrace(512, "street"));
        const auto olderResolved = resolveSentence(*older, {Scoring::rollout(), false, std::nullopt});
        const auto newerResolved = resolveSentence(*newer, {Scoring::rollout(), false, std::nullopt});
        QVERIFY(olderResolved && newerResolved);
        QCOMPARE(newerResolved.value().mentions.size(), std::size_t{39});  // one "it" per 13 tokens of 510
        QCOMPARE(chosenWords(olderResolved.value()).front(), std::string("animal"));
        QCOMPARE(chosenWords(newerResolved.value()).front(), std::string("street"));
        const CorefView& drawn = *controller.tab()->view();
        controller.show(older, 0, 0);
        QVERIFY(controller.busy());
        QVERIFY(drawn.drawnArcs().empty());  // back on the GUI thread before the result
        controller.show(newer, 0, 0);
        QVERIFY(controller.busy());
        QVERIFY(drawn.drawnArcs().empty());
        QTRY_VERIFY_WITH_TIMEOUT(!controller.busy(), kWaitMs);
        verifyArcsMatch(drawn, newerResolved.value());
        QCOMPARE(drawn.resolution().words.size(), newerResolved.value().words.size());
    }

    void baselinesAreMarkedUnderTheirWords() {
        QCOMPARE(markerWords(view(), DrawnMarker::Nearest), QStringList{"street"});
        QCOMPARE(markerWords(view(), DrawnMarker::Rule), QStringList{"street"});
        const DrawnWord* street = drawnWord(view(), "street");
        QVERIFY(street);
        for (const DrawnMarker& m : view().drawnMarkers()) {
            QVERIFY(m.rect.top() >= street->rect.bottom());  // under the word, not over it
            QVERIFY(!m.label.isEmpty());
        }
    }

    void headAndLayerScoringMatchCore() {
        CorefTab& tab = *child<CorefTab>(*window, "corefTab");
        tab.scoringBox()->setCurrentIndex(CorefTab::Heads);  // defaults to the current head, 1:1
        QCOMPARE(tab.headsEdit()->text(), QString("1:1"));
        QCOMPARE(arcTo(view(), "animal")->score, coreResolution(trace(), Scoring::oneHead(0, 0)).scores(0));
        QVERIFY(std::abs(arcTo(view(), "animal")->score - 0.9315537677) < 1e-9);
        tab.scoringBox()->setCurrentIndex(CorefTab::Layer);
        const Resolution layer = coreResolution(trace(), Scoring::wholeLayer(0));
        verifyArcsMatch(view(), resolveSentence(trace(), {Scoring::wholeLayer(0), false, std::nullopt}).value());
        QVERIFY(view().legendText().contains(QString::fromStdString(scoringText(layer, coreLanguage()))));
        // The panel lists both heads' own scores for the chosen candidate.
        const QTableWidget& table = *view().contributionsTable();
        QCOMPARE(table.rowCount(), 2);
        for (int k = 0; k < 2; ++k)
            QCOMPARE(table.item(k, 1)->data(Qt::UserRole).toDouble(), layer.headScores(k, 0));
    }

    void badHeadsShowAnErrorAndNoArcs() {
        CorefTab& tab = *child<CorefTab>(*window, "corefTab");
        tab.scoringBox()->setCurrentIndex(CorefTab::Heads);
        tab.headsEdit()->setText("1:9");
        emit tab.headsEdit()->editingFinished();
        QVERIFY(tab.errorText().contains("heads 1 to 2"));
        QVERIFY(view().drawnArcs().empty());
        tab.headsEdit()->setText("1:2");
        emit tab.headsEdit()->editingFinished();
        QVERIFY(tab.errorText().isEmpty());
        QCOMPARE(view().drawnArcs().size(), std::size_t{3});
    }

    void hoverAndClickAnArcShowItsNumbers() {
        child<CorefTab>(*window, "corefTab")->scoringBox()->setCurrentIndex(CorefTab::Layer);
        const auto& arcs = view().drawnArcs();
        const auto street = std::find_if(arcs.begin(), arcs.end(), [this](const DrawnArc& a) {
            return view().resolution().words[static_cast<std::size_t>(a.toWord)].text == "street";
        });
        QVERIFY(street != arcs.end());
        const int index = static_cast<int>(street - arcs.begin());
        // A point of the street arc that no stronger arc covers (they all leave from "it").
        QPointF onArc;
        for (double t = 0.5; t < 0.95 && onArc.isNull(); t += 0.05)
            if (view().arcAt(street->path.pointAtPercent(t)) == std::optional<int>(index)) onArc = street->path.pointAtPercent(t);
        QVERIFY(!onArc.isNull());
        const QString tip = view().arcToolTip(index);
        QVERIFY(tip.contains("it → street"));
        QVERIFY(tip.contains(QString("rank %1 of 3").arg(street->rank)));
        QVERIFY(tip.contains("nearest"));
        QVERIFY(tip.contains("1:1") && tip.contains("1:2"));
        QTest::mouseClick(view().canvas(), Qt::LeftButton, {}, onArc.toPoint());
        QCOMPARE(view().selectedArc(), std::optional<int>(index));
        QVERIFY(view().detailText().startsWith("it → street"));
        QCOMPARE(view().contributionsTable()->rowCount(), 2);
        const Resolution layer = coreResolution(trace(), Scoring::wholeLayer(0));
        QCOMPARE(view().contributionsTable()->item(0, 1)->data(Qt::UserRole).toDouble(), layer.headScores(0, 2));
    }

    void clickingAWordMakesItTheMention() {
        const DrawnWord* street = drawnWord(view(), "street");
        QVERIFY(street);
        const int streetWord = street->word;
        QTest::mouseClick(view().canvas(), Qt::LeftButton, {}, street->rect.center().toPoint());
        QCOMPARE(child<CorefTab>(*window, "corefTab")->mentionWord(), std::optional<int>(streetWord));
        QCOMPARE(view().resolution().mentions.size(), std::size_t{1});
        QCOMPARE(view().resolution().mentions[0].mention.text, std::string("street"));
        for (const DrawnArc& a : view().drawnArcs()) QCOMPARE(a.fromWord, streetWord);
        const auto expected = resolveSentence(trace(), {Scoring::rollout(), false, streetWord});
        verifyArcsMatch(view(), expected.value());
        window->setSentence("The dog didn't cross the road because it was too tired");  // a new sentence: every pronoun again
        QVERIFY(!child<CorefTab>(*window, "corefTab")->mentionWord());
        QCOMPARE(view().resolution().mentions[0].mention.text, std::string("it"));
    }

    void cataphoraAddsTheWordsAfter() {
        const std::size_t before = view().drawnArcs().size();
        child<QCheckBox>(*window, "corefCataphora")->setChecked(true);
        const Resolution expected = coreResolution(trace(), Scoring::rollout(), true);
        QVERIFY(expected.candidates.size() > before);  // "tired" after "it"
        QCOMPARE(view().drawnArcs().size(), expected.candidates.size());
        QVERIFY(arcTo(view(), "tired"));
    }

    void setCoreferenceHeadsShowsTheTabWithThoseHeads() {
        child<QTabWidget>(*window, "tabs")->setCurrentWidget(child<HeatmapView>(*window, "heatmap"));
        child<CorefTabController>(*window, "corefController")->setHeads({{0, 1}, {0, 0}});
        QCOMPARE(child<QTabWidget>(*window, "tabs")->currentWidget(), static_cast<QWidget*>(child<CorefTab>(*window, "corefTab")));
        QCOMPARE(child<CorefTab>(*window, "corefTab")->scoringBox()->currentIndex(), int(CorefTab::Heads));
        QCOMPARE(child<CorefTab>(*window, "corefTab")->headsEdit()->text(), QString("1:2, 1:1"));
        const Resolution expected = coreResolution(trace(), Scoring::headSet({{0, 1}, {0, 0}}));
        QCOMPARE(arcTo(view(), "animal")->score, expected.scores(0));
        QVERIFY(view().legendText().contains(QString::fromStdString(scoringText(expected, coreLanguage()))));
    }

    void exportsWriteFilesThatParse() {
        CorefTab& tab = *child<CorefTab>(*window, "corefTab");
        const double score = arcTo(view(), "animal")->score;
        const QString png = tmp.filePath("coref.png"), svg = tmp.filePath("coref.svg"), pdf = tmp.filePath("coref.pdf");
        const QString csv = tmp.filePath("coref.csv"), json = tmp.filePath("coref.json");
        QVERIFY((tab.exportTo(png, CorefTab::Export::Png, 2)).ok());
        QVERIFY((tab.exportTo(svg, CorefTab::Export::Svg)).ok());
        QVERIFY((tab.exportTo(pdf, CorefTab::Export::Pdf)).ok());
        QVERIFY((tab.exportTo(csv, CorefTab::Export::Csv)).ok());
        QVERIFY((tab.exportTo(json, CorefTab::Export::Json)).ok());

        const QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), view().figureSize() * 2);

        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        const QByteArray svgBytes = svgFile.readAll();
        QXmlStreamReader xml(svgBytes);
        while (!xml.atEnd()) xml.readNext();
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        for (const char* word : {"animal", "street", "tired", "nearest", "rule"}) QVERIFY(svgBytes.contains(word));

        QFile pdfFile(pdf);
        QVERIFY(pdfFile.open(QIODevice::ReadOnly));
        QVERIFY(pdfFile.readAll().startsWith("%PDF"));

        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        const QString csvText = QString::fromUtf8(csvFile.readAll());
        QVERIFY(csvText.startsWith("mention,mention_word,candidate,candidate_word,"));
        QVERIFY(csvText.contains("it,8,animal,2,,," + exactText(score) + ",1,0,0,"));

        QFile jsonFile(json);
        QVERIFY(jsonFile.open(QIODevice::ReadOnly));
        const QJsonObject doc = QJsonDocument::fromJson(jsonFile.readAll()).object();
        QCOMPARE(doc["format"].toString(), QString("attnscope-coref"));
        const QJsonObject candidate = doc["mentions"].toArray()[0].toObject()["candidates"].toArray()[0].toObject();
        QCOMPARE(candidate["text"].toString(), QString("animal"));
        QCOMPARE(candidate["score"].toDouble(), score);
        QVERIFY(tmp.path().isEmpty() == false);
        QCOMPARE(QDir(tmp.path()).entryList(QDir::Files).size(), 5);  // no temporary files left behind
    }

    void largerTextEnlargesTheWords() {
        const double before = drawnWord(view(), "animal")->rect.height();
        presentationOf(*window)->setZoom(150);
        QVERIFY(drawnWord(view(), "animal")->rect.height() > before);
        QCOMPARE(view().drawnArcs().size(), std::size_t{3});
        presentationOf(*window)->setZoom(100);
    }

    void longTextWrapsOntoSeveralLines() {
        QString sentence;
        for (int i = 0; i < 20; ++i) sentence += "The animal didn't cross the street because it was too tired ";
        window->setSentence(sentence.trimmed());
        // 20 × 11 words, under the lesson's 256 tokens; a sentence this long resolves off the GUI thread
        QTRY_COMPARE(view().drawnWords().size(), std::size_t{220});
        int lines = 0;
        for (const DrawnWord& w : view().drawnWords()) lines = std::max(lines, w.line + 1);
        QVERIFY(lines > 5);
        for (const DrawnWord& w : view().drawnWords()) QVERIFY(w.rect.right() <= view().canvas()->width());
        verifyArcsMatch(view(), resolveSentence(trace(), {Scoring::rollout(), false, std::nullopt}).value());
    }

    void modelModeDrawsCoresScoresForTinyBert() {
        MainWindow& w = *window;
        w.setSentence("the dog ran to the house and it was cold .");
        w.openModel(kBert);
        QTRY_VERIFY_WITH_TIMEOUT(showsModel(w) && shownRunOf(w) != nullptr, kWaitMs);
        QVERIFY(waitForModel(w, kWaitMs));
        child<QTabWidget>(w, "tabs")->setCurrentWidget(child<CorefTab>(w, "corefTab"));
        const Trace& run = shownRunOf(w)->trace;
        verifyArcsMatch(view(), resolveSentence(run, {Scoring::rollout(), false, std::nullopt}).value());
        QVERIFY(!view().drawnArcs().empty());
        child<CorefTab>(w, "corefTab")->scoringBox()->setCurrentIndex(CorefTab::Layer);
        child<QComboBox>(w, "layer")->setCurrentIndex(1);
        verifyArcsMatch(view(), resolveSentence(run, {Scoring::wholeLayer(1), false, std::nullopt}).value());
        child<CorefTabController>(w, "corefController")->setHeads({{1, 3}, {0, 2}});
        verifyArcsMatch(view(), resolveSentence(run, {Scoring::headSet({{1, 3}, {0, 2}}), false, std::nullopt}).value());
        QCOMPARE(view().contributionsTable()->rowCount(), 2);
    }
};

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    CorefTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_coref.moc"
