// An encoder–decoder lesson in the window (issue 29 §4): the teacher chooses a stage (encoder,
// decoder masked self-attention, cross-attention) and every view shows it; the cross stage's titles
// say where queries, keys and values come from; teacher forcing's table beside it; a failed run
// keeps the stage and its numbers; the choice survives View ▸ Language.
//
// The numbers are the built-in `translation` lesson's (我 是 谁 → <s> who am i), worked by hand
// here (and in tests/core/test_encoder_decoder.cpp, checked there against the numpy reference
// tests/reference/reference_encoder_decoder.py):
//   encoder: one-hot rows, W = I, scores X·Xᵀ/√4 = 0.5 on the diagonal, 0 elsewhere:
//            weight(我, 我) = e^0.5 / (e^0.5 + 2) = 1.648721 / 3.648721 = 0.451863
//   decoder: causal; who sees <s> (score 0) and itself (0.5): e^0.5 / (1 + e^0.5) = 0.622459, am 0
//   cross:   q[<s>] = Y₁[<s>]·W_Q = [0,0,0,2]·W_Q = [0,0,4,0]; scores with M = 1.096274, 1.096274,
//            5.807453, ÷2; e^(0.548137 − 2.903726) = e^−2.355589 = 0.094838, so
//            the weight on 谁 = 1 / (1 + 2·0.094838) = 0.840565
//   labels:  logit(who) = 2 + 0.840565·1.451863 + 2·0.079717·0.274068 = 3.264082, so p(who | <s>) =
//            e^3.264082 / (e^3.264082 + 2·e^0.367963 + 1) = 26.1561 / 30.0457 = 0.870544, −ln = 0.138636
// The lesson prints 3 decimals: 0.452, 0.622, 0.841, 0.871, 0.139.
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <memory>

#include "app/file_menu.hpp"
#include "app/language.hpp"
#include "app/main_window.hpp"
#include "ui/attention/heatmap_view.hpp"
#include "ui/heads/head_stats_model.hpp"
#include "ui/heads/head_stats_table.hpp"
#include "ui/heads/heads_panel.hpp"
#include "ui/step/matrix_panel.hpp"
#include "ui/step/stage_bar.hpp"
#include "ui/step/step_navigator.hpp"
#include "ui/step/token_strip.hpp"
#include "window_access.hpp"

using namespace attnscope;

// Within 1e-6 of the hand-worked value (6 decimals), with both numbers and their difference on failure.
#define QCOMPARE_NEAR(found, expected)                                                                    \
    do {                                                                                                  \
        const double f_ = (found), e_ = (expected);                                                       \
        QVERIFY2(std::abs(f_ - e_) < 1e-6, qPrintable(QStringLiteral("found %1, expected %2, difference %3") \
                                                          .arg(f_, 0, 'g', 10).arg(e_, 0, 'g', 10).arg(std::abs(f_ - e_)))); \
    } while (false)

namespace {

QString stepTitle(const MainWindow& w, int index) { return child<StepNavigator>(w, "navigator")->list()->item(index)->text(); }

// Shows `step` in the worked example; false when the stage has no such step.
bool showStep(const MainWindow& w, Step step) {
    StepNavigator* nav = child<StepNavigator>(w, "navigator");
    const auto& steps = nav->steps();
    for (std::size_t i = 0; i < steps.size(); ++i)
        if (steps[i] == step) {
            nav->setCurrentIndex(static_cast<int>(i));
            return true;
        }
    return false;
}

double shownValue(const MainWindow& w, int row, int col) {
    const TraceMatrixModel* result = child<MatrixPanel>(w, "matrixPanel")->resultModel();
    return result->data(result->index(row, col), TraceMatrixModel::ValueRole).toDouble();
}

QString shownText(const MainWindow& w, int row, int col) {
    const TraceMatrixModel* result = child<MatrixPanel>(w, "matrixPanel")->resultModel();
    return result->data(result->index(row, col), Qt::DisplayRole).toString();
}

// As a user does: the stage box's item `index` (0 encoder, 1 decoder, 2 cross).
void chooseStage(const MainWindow& w, int index) { child<QComboBox>(w, "stageChoice")->setCurrentIndex(index); }

QString tableCell(const MainWindow& w, int row, int col) {
    const QTableWidgetItem* item = child<QTableWidget>(w, "teacherForcing")->item(row, col);
    return item ? item->text() : QString();
}

}  // namespace

class EncoderDecoderWindowTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);  // View ▸ Language's choice goes to a test folder
        applyLanguage("en");
        initResources();
    }
    void init() {
        window = std::make_unique<MainWindow>();
        QVERIFY(window->openBuiltInLesson("translation"));
        window->show();
    }
    void cleanup() {
        window.reset();
        applyLanguage("en");
    }

    void otherLessonsHaveNoStages();
    void eachStageShowsItsOwnNumbers();
    void theCrossStageSaysWhereQueriesKeysAndValuesComeFrom();
    void teacherForcingBesideTheCrossStage();
    void aFailedRunKeepsTheStageAndItsNumbers();
    void theStageSurvivesALanguageSwitch();
    void theWorksheetHasEveryStage();
    void theHeadsTabShowsTheCrossHeads();

private:
    std::unique_ptr<MainWindow> window;
};

void EncoderDecoderWindowTest::otherLessonsHaveNoStages() {
    // The description names the token <s>: plain text, not a rich-text strike-out that hides it.
    const auto* description = child<QLabel>(*window, "description");
    QCOMPARE(description->textFormat(), Qt::PlainText);
    QVERIFY(description->text().contains(QStringLiteral("Y₁[<s>] = [0, 0, 0, 1]")));
    QVERIFY(child<StageBar>(*window, "stageBar")->isVisible());
    QVERIFY(window->openBuiltInLesson("first-hand-exercise"));
    QVERIFY(!child<StageBar>(*window, "stageBar")->isVisible());
    QVERIFY(window->openBuiltInLesson("translation"));  // back: from the encoder again
    QVERIFY(child<StageBar>(*window, "stageBar")->isVisible());
    QCOMPARE(child<QComboBox>(*window, "stageChoice")->currentIndex(), 0);
}

void EncoderDecoderWindowTest::eachStageShowsItsOwnNumbers() {
    const MainWindow& w = *window;
    // 1. The encoder over the source.
    QCOMPARE(child<TokenStrip>(w, "tokens")->chipTexts(), (QStringList{"我", "是", "谁"}));
    QVERIFY(!child<QTableWidget>(w, "teacherForcing")->isVisible());
    QVERIFY(showStep(w, Step::Weights));
    QCOMPARE_NEAR(shownValue(w, 0, 0), 0.451863);
    QCOMPARE(shownText(w, 0, 0), QStringLiteral("0.452"));
    QVERIFY(!showStep(w, Step::Masked));  // no mask in the encoder
    // 2. The decoder's masked self-attention over <s> who am i: who sees <s> and itself, never am.
    chooseStage(w, 1);
    QCOMPARE(child<TokenStrip>(w, "tokens")->chipTexts(), (QStringList{"<s>", "who", "am", "i"}));
    QVERIFY(showStep(w, Step::Masked));
    QVERIFY(showStep(w, Step::Weights));
    QCOMPARE(shownText(w, 1, 1), QStringLiteral("0.622"));
    QCOMPARE_NEAR(shownValue(w, 1, 1), 0.622459);
    QCOMPARE(shownValue(w, 1, 2), 0.0);
    QCOMPARE(sessionOf(w).stage(), EncoderDecoderStage::DecoderSelf);
    // 3. Cross-attention: <s> looks at 谁; then the output head's p(who).
    chooseStage(w, 2);
    QCOMPARE(child<TokenStrip>(w, "tokens")->chipTexts(), (QStringList{"<s>", "who", "am", "i"}));
    QVERIFY(showStep(w, Step::Weights));
    QCOMPARE_NEAR(shownValue(w, 0, 2), 0.840565);
    QCOMPARE(shownText(w, 0, 2), QStringLiteral("0.841"));
    const TraceMatrixModel* result = child<MatrixPanel>(w, "matrixPanel")->resultModel();
    QCOMPARE(result->columnCount(), 3);  // the source's words are the columns
    QCOMPARE(result->headerData(2, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("谁"));
    QVERIFY(showStep(w, Step::Probabilities));
    QCOMPARE_NEAR(shownValue(w, 0, 0), 0.870544);
    // The heatmap follows: 4 decoder rows × 3 source columns.
    const Trace& shown = sessionOf(w).trace();
    QCOMPARE(shown.tokenCount(), 4);
    QCOMPARE(shown.keyCount(), 3);
    // Back to the encoder: its numbers again.
    chooseStage(w, 0);
    QVERIFY(showStep(w, Step::Weights));
    QCOMPARE_NEAR(shownValue(w, 0, 0), 0.451863);
}

void EncoderDecoderWindowTest::theCrossStageSaysWhereQueriesKeysAndValuesComeFrom() {
    const MainWindow& w = *window;
    QCOMPARE(stepTitle(w, 0), QStringLiteral("1. Embedding: each token's vector"));  // the encoder's own
    chooseStage(w, 2);
    QCOMPARE(stepTitle(w, 0), QStringLiteral("1. Decoder state Y₁ (after masked self-attention): the queries come from it"));
    QCOMPARE(stepTitle(w, 1), QStringLiteral("2. Encoder output M (a row per source word): keys and values come from it"));
    // The worked example's caption and a cell's explanation say it too: Y₁[<s>] = [0, 0, 0, 2].
    QVERIFY(showStep(w, Step::Embedding));
    QCOMPARE(shownValue(w, 0, 3), 2.0);
    MatrixPanel* panel = child<MatrixPanel>(w, "matrixPanel");
    panel->selectCell(0, 3);
    QVERIFY2(panel->explanationText().contains(QStringLiteral("Y₁[<s>] = Y₀ + attention")), qPrintable(panel->explanationText()));
    QVERIFY(showStep(w, Step::SourceInput));
    QCOMPARE_NEAR(shownValue(w, 0, 0), 1.451863);  // M[我] = 1 + 0.451863
    QVERIFY(showStep(w, Step::AddAttention));
    QVERIFY(child<StepNavigator>(w, "navigator")->list()->currentItem()->text().contains(QStringLiteral("Y₂ = Y₁ + cross-attention output")));
}

void EncoderDecoderWindowTest::teacherForcingBesideTheCrossStage() {
    const MainWindow& w = *window;
    chooseStage(w, 2);
    auto* table = child<QTableWidget>(w, "teacherForcing");
    QVERIFY(table->isVisible());
    QCOMPARE(table->columnCount(), 4);  // a column per decoder position
    QCOMPARE(table->verticalHeaderItem(2)->text(), QStringLiteral("p(label)"));
    const QStringList inputs{"<s>", "who", "am", "i"}, labels{"who", "am", "i", "</s>"};
    for (int c = 0; c < 4; ++c) {
        QCOMPARE(tableCell(w, 0, c), inputs[c]);
        QCOMPARE(tableCell(w, 1, c), labels[c]);
    }
    QCOMPARE(tableCell(w, 2, 0), QStringLiteral("0.871"));
    QCOMPARE(tableCell(w, 3, 0), QStringLiteral("0.139"));
    // The mean loss is the mean of the row above it (each shown to 3 decimals: within 0.0005).
    double sum = 0;
    for (int c = 0; c < 4; ++c) sum += tableCell(w, 3, c).toDouble();
    const QString mean = child<QLabel>(w, "meanLoss")->text();
    QVERIFY2(mean.startsWith(QStringLiteral("mean loss (cross-entropy over the 4 labels) = ")), qPrintable(mean));
    QVERIFY2(std::abs(mean.section(QStringLiteral("= "), 1).toDouble() - sum / 4) < 0.0006, qPrintable(mean));
    // Each label's p is its row of the Probabilities step, in the label's column.
    QVERIFY(showStep(w, Step::Probabilities));
    for (int r = 0; r < 4; ++r) QCOMPARE(shownText(w, r, r), tableCell(w, 2, r));
    chooseStage(w, 1);
    QVERIFY(!table->isVisible());
}

// An empty source is refused: the error is shown, the stage and every number stay.
void EncoderDecoderWindowTest::aFailedRunKeepsTheStageAndItsNumbers() {
    MainWindow& w = *window;
    chooseStage(w, 2);
    QVERIFY(showStep(w, Step::Weights));
    w.setSentence(QStringLiteral("   "));
    auto* error = child<QLabel>(w, "error");
    QVERIFY(error->isVisible());
    QVERIFY2(error->text().contains(QStringLiteral("previous result stays shown")), qPrintable(error->text()));
    QCOMPARE(child<QComboBox>(w, "stageChoice")->currentIndex(), 2);
    QCOMPARE(child<StepNavigator>(w, "navigator")->currentStep(), Step::Weights);
    QCOMPARE_NEAR(shownValue(w, 0, 2), 0.840565);
    QCOMPARE(tableCell(w, 2, 0), QStringLiteral("0.871"));
    // A good source runs every stage and stays on cross-attention: 谁 是 谁 as keys.
    w.setSentence(QStringLiteral("谁 是 谁"));
    QVERIFY(!error->isVisible());
    QCOMPARE(child<QComboBox>(w, "stageChoice")->currentIndex(), 2);
    const TraceMatrixModel* result = child<MatrixPanel>(w, "matrixPanel")->resultModel();
    QCOMPARE(result->headerData(0, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("谁#1"));  // the first of two
}

void EncoderDecoderWindowTest::theStageSurvivesALanguageSwitch() {
    chooseStage(*window, 2);
    window->setLanguage("zh_CN");
    const MainWindow& w = *window;
    QCOMPARE(child<QComboBox>(w, "stageChoice")->currentIndex(), 2);
    QCOMPARE(child<QComboBox>(w, "stageChoice")->currentText(), QStringLiteral("3. 解码器：对 M 的交叉注意力、输出头与标签"));
    QCOMPARE(stepTitle(w, 0), QStringLiteral("1. 解码器状态 Y₁（掩码自注意力之后）：查询来自它"));
    QCOMPARE(child<QTableWidget>(w, "teacherForcing")->verticalHeaderItem(2)->text(), QStringLiteral("p(标签)"));
    QCOMPARE(tableCell(w, 2, 0), QStringLiteral("0.871"));
    window->setLanguage("en");
}

// File ▸ Export worksheet, whichever stage is shown: every stage with its cells explained, then the labels.
void EncoderDecoderWindowTest::theWorksheetHasEveryStage() {
    QTemporaryDir dir;
    const QString path = dir.filePath("worksheet.md");
    auto* files = window->findChild<FileMenu*>();
    QVERIFY(files);
    chooseStage(*window, 1);
    QVERIFY(files->exportWorksheetTo(path));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    for (const QString& part : {QStringLiteral("## Encoder: self-attention over the source 我 是 谁"),
                                QStringLiteral("## Decoder, masked self-attention over the decoder input <s> who am i"),
                                QStringLiteral("## Decoder, cross-attention: queries from the decoder's Y₁"),
                                QStringLiteral("Decoder state Y₁ (after masked self-attention): the queries come from it"),
                                QStringLiteral("Y₁[<s>] = Y₀ + attention"),  // a cell's explanation
                                QStringLiteral("| **1** | <s> | who | 0.871 | 0.139 |")})
        QVERIFY2(text.contains(part), qPrintable(part));
    QVERIFY(text.indexOf(QStringLiteral("## Encoder")) < text.indexOf(QStringLiteral("## Decoder, masked")));
}

// The Heads tab on the cross stage: its one head over 4 decoder rows × 3 source columns, not an
// empty table (it used to expect 4×4 weights). Mean row entropy by hand (tests/core/
// test_encoder_decoder.cpp): rows 0.792390 (<s>: 0.840565 on 谁, 0.079717 twice), 1.113259,
// 1.251227 and log₂ 3 = 1.584963 (i, uniform), mean 1.185460 → "1.19"; normalised by log₂ 3: 0.748.
void EncoderDecoderWindowTest::theHeadsTabShowsTheCrossHeads() {
    MainWindow& w = *window;
    chooseStage(w, 2);
    auto* heads = child<HeadsPanel>(w, "headsPanel");
    child<QTabWidget>(w, "tabs")->setCurrentWidget(heads);
    QVERIFY(waitForHeadAnalysis(w));
    const HeadStatsModel& model = *heads->statistics()->model();
    QTRY_COMPARE(model.rowCount(), 1);
    const auto cell = [&](int column) { return model.index(0, column).data().toString(); };
    QCOMPARE(cell(HeadStatsModel::Entropy), QStringLiteral("1.19"));
    QVERIFY2(std::abs(model.statistics()[0].normalizedEntropy - 1.185460 / std::log2(3.0)) < 1e-6,
             qPrintable(QString::number(model.statistics()[0].normalizedEntropy, 'g', 10)));
    QCOMPARE(cell(HeadStatsModel::Delimiter), QStringLiteral("0.000"));
    for (const int column : {HeadStatsModel::Previous, HeadStatsModel::Next, HeadStatsModel::Self, HeadStatsModel::First})
        QCOMPARE(cell(column), QStringLiteral("–"));  // row i and column i are different sentences
    QCOMPARE(cell(HeadStatsModel::Label), QStringLiteral("mixed"));  // 0.748 < 0.85: not "broad"
    QCOMPARE(heads->statistics()->caption()->textFormat(), Qt::PlainText);  // <s> shown, not a strike-out
    const QString caption = heads->statistics()->caption()->text();
    QVERIFY2(caption.contains(QStringLiteral("decoder's 4 tokens “<s> who am i”")) &&
                 caption.contains(QStringLiteral("source's 3 tokens “我 是 谁”")),
             qPrintable(caption));
    // Back on the encoder: self-attention over 3 tokens, its self share 0.451863 (我 on 我, each row alike).
    chooseStage(w, 0);
    QVERIFY(waitForHeadAnalysis(w));
    QTRY_COMPARE(cell(HeadStatsModel::Self), QStringLiteral("0.452"));
}

QTEST_MAIN(EncoderDecoderWindowTest)
#include "test_encoder_decoder_window.moc"
