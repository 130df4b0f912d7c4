// View ▸ Attention between words in the real MainWindow (offscreen): a Chinese sentence through a
// Qwen-style byte-level tokenizer (qwen2-tiny's weights, tests/reference/fixtures/tokenizer-zh-tiny.json
// whose ids transformers.js confirms: 马 路 很 E5AE BD ， 它 很 长 。) read as ICU's words
// 马路|很|宽|，|它|很|长|。 in the heatmap's axes, the head view's lines, the token strip's brackets
// and the Coreference tab's arcs. Every expected weight is summed by hand below from the pieces'
// weights of the run on screen (to a word: the sum over its pieces; from a word: the mean).
#include <QAction>
#include <QFile>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <memory>
#include <qcustomplot.h>

#include "app/main_window.hpp"
#include "app/tabs/coref_tab_controller.hpp"
#include "app/word_level_switch.hpp"
#include "ui/attention/head_view.hpp"
#include "ui/attention/heatmap_builder.hpp"
#include "ui/attention/heatmap_view.hpp"
#include "ui/attention/piece_strip.hpp"
#include "ui/coref/coref_tab.hpp"
#include "ui/coref/coref_view.hpp"
#include "window_access.hpp"

using namespace attnscope;

namespace {

const QString kSource = QStringLiteral(ATTNSCOPE_SOURCE_DIR);
const QString kSentence = QStringLiteral("马路很宽，它很长。");
const QStringList kPieces{"马", "路", "很", "◌", "宽", "，", "它", "很", "长", "。"};
const QStringList kWords{"马路", "很", "宽", "，", "它", "很", "长", "。"};
constexpr int kWaitMs = 20000;

// qwen2-tiny's config and weights with the Chinese tokenizer, in `dir`.
bool writeChineseQwen(const QString& dir) {
    const QString models = kSource + "/tests/reference/models/qwen2-tiny/";
    return QFile::copy(models + "config.json", dir + "/config.json") &&
           QFile::copy(models + "model.safetensors", dir + "/model.safetensors") &&
           QFile::copy(kSource + "/tests/reference/fixtures/tokenizer-zh-tiny.json", dir + "/tokenizer.json");
}

QAction* wordsAction(const MainWindow& w) { return child<QAction>(w, "wordLevel"); }

}  // namespace

class WordLevelTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<MainWindow> window;
    QTemporaryDir model;

    const HeatmapBuilder& heatmap() const { return *child<HeatmapView>(*window, "heatmap")->builders().front(); }
    const AttentionWeights& pieceWeights(int layer, int head) const {
        return shownRunOf(*window)->trace.layers.at(static_cast<std::size_t>(layer)).heads.at(static_cast<std::size_t>(head)).weights;
    }
    void openChineseModel() {
        window->setSentence(kSentence);
        window->openModel(model.path());
        QTRY_VERIFY_WITH_TIMEOUT(showsModel(*window) && shownRunOf(*window) != nullptr, kWaitMs);
        QVERIFY(waitForModel(*window, kWaitMs));
    }
    void show(QWidget* tab) { child<QTabWidget>(*window, "tabs")->setCurrentWidget(tab); }

private slots:
    void initTestCase() {
        initResources();
        QVERIFY(model.isValid());
        QVERIFY(writeChineseQwen(model.path()));
    }
    void init() {
        window = std::make_unique<MainWindow>();
        window->show();
        openChineseModel();
    }
    void cleanup() { window.reset(); }

    void heatmapAxesAreWordsAndItsCellsSumThePieces() {
        show(child<HeatmapView>(*window, "heatmap"));
        QCOMPARE(heatmap().keyLabels(), kPieces);  // off: one label per piece, 宽's first piece marked ◌
        wordsAction(*window)->trigger();
        QVERIFY(wordsAction(*window)->isChecked());
        QCOMPARE(heatmap().keyLabels(), kWords);
        QCOMPARE(heatmap().queryLabels(), kWords);
        QCustomPlot* plot = child<HeatmapView>(*window, "heatmap")->firstPlot();
        QCOMPARE(plot->xAxis->label(), QStringLiteral("attended-to word (key)"));
        QCOMPARE(plot->yAxis->label(), QStringLiteral("query word"));
        // Layer 2, head 1: row 它 (piece 6), column 马路 (pieces 0, 1);
        // row 宽 (pieces 3, 4), column 很 (piece 2).
        const AttentionWeights& a = pieceWeights(1, 0);
        const Trace& words = *child<WordLevelSwitch>(*window, "wordLevelSwitch")->shown(modelSourceOf(*window)->trace());
        QCOMPARE(words.tokenCount(), 8);
        const AttentionWeights& w = words.layers[1].heads[0].weights;
        QVERIFY(qAbs(w(4, 0) - (a(6, 0) + a(6, 1))) < 1e-6);
        QVERIFY(qAbs(w(2, 1) - (a(3, 2) + a(4, 2)) / 2) < 1e-6);
        wordsAction(*window)->trigger();  // off again: the pieces come back
        QCOMPARE(heatmap().keyLabels(), kPieces);
        QCOMPARE(child<HeatmapView>(*window, "heatmap")->firstPlot()->xAxis->label(), QStringLiteral("attended-to token (key)"));
    }

    void tokenStripBracketsWords() {
        auto* strip = child<PieceStrip>(*window, "pieces");
        QCOMPARE(strip->chipTexts(), kPieces);
        wordsAction(*window)->trigger();
        // 马路 one bracket, 宽's two byte pieces one, every other character its own.
        QCOMPARE(strip->groups(), (std::vector<int>{0, 0, 1, 2, 2, 3, 4, 5, 6, 7}));
    }

    void headViewDrawsLinesBetweenWords() {
        wordsAction(*window)->trigger();
        auto* view = child<HeadView>(*window, "headView");
        view->setLineFilter(LineFilter{0.0, 0});  // every line with a weight above 0
        show(view);
        QTRY_VERIFY_WITH_TIMEOUT(!view->drawnLines().empty(), kWaitMs);
        const AttentionWeights& a = pieceWeights(view->layer(), 0);  // the layer box's layer
        bool found = false;
        for (const DrawnLine& line : view->drawnLines()) {
            QVERIFY(line.from < 8 && line.to < 8);  // word indices, never piece indices
            if (line.head == 0 && line.from == 4 && line.to == 0) {
                found = true;
                QVERIFY(qAbs(line.weight - (a(6, 0) + a(6, 1))) < 1e-6);  // 它 → 马路
            }
        }
        QVERIFY(found);
    }

    void corefArcGoesFromItToTheRoadWord() {
        wordsAction(*window)->trigger();
        auto* tab = child<CorefTab>(*window, "corefTab");
        show(tab);
        child<CorefTabController>(*window, "corefController")->setHeads({{1, 0}});
        const CorefView& view = *tab->view();
        QTRY_VERIFY_WITH_TIMEOUT(!view.drawnArcs().empty(), kWaitMs);
        const SentenceResolution& r = view.resolution();
        QCOMPARE(QString::fromStdString(r.words.at(0).text), QStringLiteral("马路"));
        QCOMPARE(view.drawnArcs().size(), std::size_t{2});  // 它 → 马路 and 它 → 宽
        const AttentionWeights& a = pieceWeights(1, 0);
        const double toRoad = a(6, 0) + a(6, 1), toWide = a(6, 3) + a(6, 4);
        for (const DrawnArc& arc : view.drawnArcs()) {
            QCOMPARE(QString::fromStdString(r.words.at(static_cast<std::size_t>(arc.fromWord)).text), QStringLiteral("它"));
            const QString to = QString::fromStdString(r.words.at(static_cast<std::size_t>(arc.toWord)).text);
            QVERIFY2(to == "马路" || to == "宽", qPrintable(to));
            const double expected = (to == "马路" ? toRoad : toWide) / (toRoad + toWide);
            QVERIFY2(qAbs(arc.score - expected) < 1e-6, qPrintable(QString("%1: %2 vs %3").arg(to).arg(arc.score).arg(expected)));
        }
    }

    void longSentencesConvertOffTheGuiThread() {
        auto* words = child<WordLevelSwitch>(*window, "wordLevelSwitch");
        words->setInlineTokenLimit(0);
        show(child<HeatmapView>(*window, "heatmap"));
        wordsAction(*window)->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!words->busy() && heatmap().keyLabels() == kWords, kWaitMs);
        window->setSentence(kSentence + kSentence);  // a newer run: its words arrive for it
        QVERIFY(waitForModel(*window, kWaitMs));
        QTRY_COMPARE_WITH_TIMEOUT(heatmap().keyLabels(), kWords + kWords, kWaitMs);
    }

    void theChoiceIsRemembered() {
        WordLevelSwitch::rememberChoice(true);  // the test's settings folder (attnscope_isolate_settings)
        wordsAction(*window)->trigger();
        window = std::make_unique<MainWindow>();
        QVERIFY(wordsAction(*window)->isChecked());
        wordsAction(*window)->trigger();
        window = std::make_unique<MainWindow>();
        QVERIFY(!wordsAction(*window)->isChecked());
        WordLevelSwitch::rememberChoice(false);
    }
};

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    WordLevelTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_word_level.moc"
