// The Heads tab of the real MainWindow (offscreen): coreference ranking of every head on a set
// written by the test, in the worker thread, with progress and cancel; the heatmap's cells, the
// "use best heads" signal, the statistics table and the exports are checked against core's own
// evaluateCorefSet / bestHeads / headStatistics on the same lesson or tiny model.
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSvgRenderer>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <atomic>
#include <chrono>
#include <thread>

#include "tests/tiny_coref_set.hpp"
#include "ui/coref/coref_tab.hpp"
#include "app/head_analysis_worker.hpp"
#include "app/lesson_source.hpp"
#include "app/main_window.hpp"
#include "window_access.hpp"
#include "core/source/model_session.hpp"
#include "app/sentence_runners.hpp"
#include "core/analysis/head_stats.hpp"
#include "core/lesson/lesson.hpp"
#include "ui/heads/head_ranking_builder.hpp"
#include "ui/heads/head_stats_model.hpp"
#include "ui/heads/coref_set_row.hpp"
#include "ui/heads/head_ranking_box.hpp"
#include "ui/heads/head_stats_table.hpp"
#include "ui/heads/heads_panel.hpp"
#include "ui/attention/model_view.hpp"
#include "ui/attention/model_view_bar.hpp"
#include "core/analysis/head_order.hpp"
#include "ui/attention/heatmap_view.hpp"
#include <QComboBox>
#include <qcustomplot.h>

using namespace attnscope;

namespace {

const QString kSource = QStringLiteral(ATTNSCOPE_SOURCE_DIR);
const QString kBert = kSource + "/tests/reference/models/bert-tiny";
constexpr int kWaitMs = 30000;

// For the coreference lesson (1 layer × 2 heads): two evaluated sentences, one skipped.
const char* const kLessonSet =
    R"({"sentence": "The animal didn't cross the street because it was too tired", "mention": "it", "antecedent": "animal"})" "\n"
    R"({"sentence": "The animal didn't cross the street because it was too wide", "mention": "it", "antecedent": "street"})" "\n"
    R"({"sentence": "The animal didn't cross the street because it was too wide", "mention": "was", "antecedent": "too"})" "\n";

// For the tiny BERT (2 layers × 4 heads): 5 evaluated, nearest 2/5 and rule 3/5 worked out by
// hand in tests/core/test_coreference.cpp.
const char* const kBertSet = kTinyCorefSet;

QString writeFile(const QTemporaryDir& dir, const QString& name, const char* text) {
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return {};
    file.write(text);
    return path;
}

// What core computes on its own, with the runners the CLI uses.
CorefEvaluation coreEvaluation(const QString& setPath, const SentenceRunner& run) {
    auto set = loadCorefSet(setPath);
    if (!set) qFatal("%s", set.error().text().c_str());
    auto evaluation = evaluateCorefSet(set.value(), run);
    if (!evaluation) qFatal("%s", evaluation.error().text().c_str());
    return std::move(evaluation).value();
}

SentenceRunner lessonRunner(const char* name) {
    auto lesson = loadLesson(QString::fromLatin1(name));
    if (!lesson) qFatal("%s", lesson.error().text().c_str());
    return lessonSentenceRunner(std::make_shared<const Lesson>(std::move(lesson).value()));
}

SentenceRunner bertRunner() {
    auto model = openModel(kBert.toStdString());
    if (!model) qFatal("%s", model.error().text().c_str());
    return modelSentenceRunner(std::make_shared<const OpenedModel>(std::move(model).value()));
}

// The drawn cells, cell for cell, equal core's accuracy matrix.
bool cellsEqual(const HeadRankingBuilder& builder, const CorefEvaluation& e) {
    const auto& cells = builder.drawnCells();
    if (static_cast<Eigen::Index>(cells.size()) != e.accuracy.size() || builder.layers() != e.layers) return false;
    for (const DrawnCell& c : cells)
        if (c.value != e.accuracy(c.row, c.col)) return false;
    return true;
}

}  // namespace

class HeadsTabTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<MainWindow> window_;
    QTemporaryDir dir_;

    HeadsPanel& panel() { return *child<HeadsPanel>(*window_, "headsPanel"); }

    void evaluate(const QString& setPath) {
        panel().chooseSetSource(setPath);
        QTest::mouseClick(panel().setRow()->evaluateButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!child<HeadAnalysisWorker>(*window_, "headAnalysisWorker")->evaluating(), kWaitMs);
        QVERIFY2(panel().evaluation() != nullptr, qPrintable(panel().messageText()));
    }

    // `setPath` evaluated by the window's worker with `run`, a runner the test built (the lesson's,
    // wrapped to watch or hold it on the worker thread), as the Heads tab's Evaluate does.
    void evaluateWith(const QString& setPath, SentenceRunner run) {
        auto set = loadCorefSet(setPath);
        QVERIFY(set.ok());
        child<HeadAnalysisWorker>(*window_, "headAnalysisWorker")
            ->evaluate(std::make_shared<const CorefSet>(std::move(set).value()), std::move(run), "coreference on the set");
    }

    void openBert() {
        window_->setSentence("the cat sat on the mat and it ran");
        window_->openModel(kBert);
        QTRY_VERIFY_WITH_TIMEOUT(showsModel(*window_) && shownRunOf(*window_) != nullptr, kWaitMs);
        QVERIFY(waitForHeadAnalysis(*window_, kWaitMs));
    }

private slots:
    void init() {
        window_ = std::make_unique<MainWindow>();
        window_->openBuiltInLesson("coreference");
        child<QTabWidget>(*window_, "tabs")->setCurrentWidget(child<HeadsPanel>(*window_, "headsPanel"));
        window_->show();
    }
    void cleanup() { window_.reset(); }

    void lessonEvaluationRunsOffTheGuiThreadToTheEnd() {
        const QString set = writeFile(dir_, "lesson-set.jsonl", kLessonSet);
        std::atomic<bool> offGuiThread{true};
        QThread* gui = QThread::currentThread();
        const SentenceRunner watched = [&, run = lessonRunner("coreference")](const std::string& sentence) {
            if (QThread::currentThread() == gui) offGuiThread = false;
            return run(sentence);
        };
        QSignalSpy progress(child<HeadAnalysisWorker>(*window_, "headAnalysisWorker")->evaluations(), &JobSignals::progress);
        evaluateWith(set, watched);
        QTRY_VERIFY_WITH_TIMEOUT(!child<HeadAnalysisWorker>(*window_, "headAnalysisWorker")->evaluating(), kWaitMs);
        QVERIFY2(panel().evaluation() != nullptr, qPrintable(panel().messageText()));
        QVERIFY(offGuiThread.load());
        QCOMPARE(progress.count(), 3);
        QCOMPARE(progress.last().at(0).toInt(), 3);
        QCOMPARE(progress.last().at(1).toInt(), 3);
        QCOMPARE(panel().setRow()->findChild<QProgressBar*>("evaluationProgress")->value(), panel().setRow()->findChild<QProgressBar*>("evaluationProgress")->maximum());
        QVERIFY(!panel().setRow()->findChild<QPushButton*>("cancelEvaluation")->isVisible());

        const CorefEvaluation expected = coreEvaluation(set, lessonRunner("coreference"));
        const HeadRankingBuilder& builder = panel().rankingBuilder();
        QCOMPARE(builder.layers(), 1);
        QCOMPARE(builder.heads(), 2);
        QVERIFY(cellsEqual(builder, expected));
        QCOMPARE(builder.drawnCells()[0].value, 0.5);
        QCOMPARE(builder.drawnCells()[1].value, 0.5);
        // The lone layer really is painted (QCPColorMap draws a one-row map zero pixels tall).
        const QImage picture = panel().ranking()->plot()->toPixmap(0, 0, 1.0).toImage();
        for (const DrawnCell& c : builder.drawnCells()) {
            const QPoint beside = builder.pixelOf(HeadRef{c.row, c.col}).toPoint() + QPoint(-30, -20);  // off the label
            QVERIFY2(picture.pixelColor(beside) != QColor(Qt::white), "cell not painted");
        }
        QVERIFY(panel().ranking()->baselinesLabel()->text().contains("2 of 3 examples evaluated"));
        const QString baselines = panel().ranking()->baselinesLabel()->text();
        QVERIFY2(baselines.contains(QRegularExpression(R"(Nearest mention: 50\.0% \[[0-9.]+%, [0-9.]+%\] \(1/2\))")),
                 qPrintable(baselines));
        QVERIFY2(baselines.contains("1000 resamples, seed 1"), qPrintable(baselines));
    }

    // The random-weights control: the window's worker shuffles the tiny BERT with the seed chosen
    // beside it (7; heads --seed on the command line) and evaluates it too; the best control head
    // shown is the one core finds on its own copy shuffled with 7, and the intervals say seed 7. A
    // lesson has no weights to shuffle: a message, no evaluation.
    void randomWeightsControlEqualsCore() {
        const QString set = writeFile(dir_, "bert-set.jsonl", kBertSet);
        QCOMPARE(panel().setRow()->seedBox()->value(), 1);  // as the command line's default
        panel().setRow()->seedBox()->setValue(7);
        panel().setRow()->controlBox()->setChecked(true);
        panel().chooseSetSource(set);
        QTest::mouseClick(panel().setRow()->evaluateButton(), Qt::LeftButton);
        QVERIFY2(panel().messageText().contains("needs a model"), qPrintable(panel().messageText()));
        openBert();
        evaluate(set);
        auto model = openModel(kBert.toStdString());
        QVERIFY(model.ok());
        auto shuffled = withShuffledWeights(model.value(), 7);
        QVERIFY(shuffled.ok());
        const CorefEvaluation trained = coreEvaluation(set, bertRunner());
        const CorefEvaluation control =
            coreEvaluation(set, modelSentenceRunner(std::make_shared<const OpenedModel>(std::move(shuffled).value())));
        const ControlComparison expected = compareWithControl(trained, control, 7);
        const QString baselines = panel().ranking()->baselinesLabel()->text();
        QVERIFY2(baselines.contains("1000 resamples, seed 7"), qPrintable(baselines));
        const QString line = QStringLiteral("(weights shuffled, seed 7): best head layer %1 · head %2 — ")
                                 .arg(expected.best.head.layer + 1)
                                 .arg(expected.best.head.head + 1);
        QVERIFY2(baselines.contains(line), qPrintable(line + " not in " + baselines));
        QVERIFY2(baselines.contains(QStringLiteral("would rank %1 among").arg(expected.trainedAbove + 1)), qPrintable(baselines));
    }

    void tinyBertEvaluationEqualsCore() {
        openBert();
        const QString set = writeFile(dir_, "bert-set.jsonl", kBertSet);
        evaluate(set);
        const CorefEvaluation expected = coreEvaluation(set, bertRunner());
        const HeadRankingBuilder& builder = panel().rankingBuilder();
        QCOMPARE(builder.layers(), 2);
        QCOMPARE(builder.heads(), 4);
        QCOMPARE(builder.drawnCells().size(), std::size_t{8});
        QVERIFY(cellsEqual(builder, expected));
        for (const DrawnCell& c : builder.drawnCells())  // every accuracy is a multiple of 1/5
            QCOMPARE(std::round(c.value * 5) / 5, c.value);
        const QString baselines = panel().ranking()->baselinesLabel()->text();
        // The core's numbers with their intervals (random 1.75/5 and first 3/5 worked by hand in
        // tests/core/test_coreference.cpp).
        const auto shown = [&](const char* label, const char* share, const Interval& i, const char* count) {
            const auto percent = [](double v) { return QString::number(100 * v, 'f', 1) + "%"; };
            return QStringLiteral("%1: %2 [%3, %4] (%5)").arg(label, share, percent(i.low), percent(i.high), count);
        };
        for (const QString& line : {shown("Random candidate (expected)", "35.0%", expected.random.interval, "1.75/5"),
                                    shown("First candidate", "60.0%", expected.first.interval, "3/5"),
                                    shown("Nearest mention", "40.0%", expected.nearest.interval, "2/5"),
                                    shown("Rule-based", "60.0%", expected.rule.interval, "3/5")})
            QVERIFY2(baselines.contains(line), qPrintable(line + " not in " + baselines));
        QCOMPARE(panel().ranking()->topHeadsList()->count(), 8);
        const HeadRef best = expected.ranking.front().head;
        QVERIFY(panel().ranking()->topHeadsList()->item(0)->text().contains(
            QStringLiteral("layer %1 · head %2").arg(best.layer + 1).arg(best.head + 1)));
    }

    void cancelStopsTheRunAndKeepsThePreviousRanking() {
        const QString set = writeFile(dir_, "lesson-set.jsonl", kLessonSet);
        evaluate(set);
        const auto before = panel().evaluation();
        const std::vector<DrawnCell> drawn = panel().rankingBuilder().drawnCells();
        std::atomic<bool> reached{false}, release{false};
        std::atomic<int> sentences{0};
        // On the evaluation thread, after sentence 1: hold the run until Cancel is pressed.
        const SentenceRunner held = [&, run = lessonRunner("coreference")](const std::string& sentence) {
            if (++sentences == 2) {
                reached = true;
                for (int i = 0; i < 1000 && !release; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
            return run(sentence);
        };
        QSignalSpy failed(child<HeadAnalysisWorker>(*window_, "headAnalysisWorker")->evaluations(), &JobSignals::failed);
        evaluateWith(set, held);
        QTRY_VERIFY_WITH_TIMEOUT(reached.load(), kWaitMs);
        QVERIFY(panel().setRow()->findChild<QPushButton*>("cancelEvaluation")->isVisible());
        QVERIFY(!panel().setRow()->evaluateButton()->isEnabled());
        QTest::mouseClick(panel().setRow()->findChild<QPushButton*>("cancelEvaluation"), Qt::LeftButton);
        release = true;
        QTRY_VERIFY_WITH_TIMEOUT(!child<HeadAnalysisWorker>(*window_, "headAnalysisWorker")->evaluating(), kWaitMs);
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.first().at(1).toBool(), true);  // cancelled
        QCOMPARE(sentences.load(), 2);                    // the one held ends; none after the cancel
        QCOMPARE(panel().evaluation(), before);
        QCOMPARE(child<HeadAnalysisWorker>(*window_, "headAnalysisWorker")->evaluation(), before);
        QCOMPARE(panel().rankingBuilder().drawnCells().size(), drawn.size());
        for (std::size_t i = 0; i < drawn.size(); ++i) QCOMPARE(panel().rankingBuilder().drawnCells()[i].value, drawn[i].value);
        QVERIFY(panel().messageText().contains("Cancelled"));
        QVERIFY(!panel().setRow()->findChild<QPushButton*>("cancelEvaluation")->isVisible());
        QVERIFY(panel().setRow()->evaluateButton()->isEnabled());
    }

    void clickingACellSelectsThatHead() {
        openBert();
        evaluate(writeFile(dir_, "bert-set.jsonl", kBertSet));
        QSignalSpy selected(&panel(), &HeadsPanel::headSelected);
        const HeadRef target{1, 2};
        QTest::mouseClick(panel().ranking()->plot(), Qt::LeftButton, {}, panel().rankingBuilder().pixelOf(target).toPoint());
        QCOMPARE(panel().selectedHead(), std::optional<HeadRef>(target));
        QCOMPARE(selected.count(), 1);
        // The statistics table follows.
        const QModelIndex current = panel().statistics()->table()->currentIndex();
        const int row = panel().statistics()->proxy()->mapToSource(current).row();
        QVERIFY(row >= 0);
        QCOMPARE(panel().statistics()->model()->statistics()[static_cast<std::size_t>(row)].head, target);
    }

    void useBestHeadsCarriesCoresBestHeads() {
        openBert();
        const QString set = writeFile(dir_, "bert-set.jsonl", kBertSet);
        evaluate(set);
        const CorefEvaluation expected = coreEvaluation(set, bertRunner());
        std::vector<std::vector<HeadRef>> received;
        connect(&panel(), &HeadsPanel::useHeadsForCoreference, this,
                [&](std::vector<HeadRef> heads) { received.push_back(std::move(heads)); });
        QVERIFY(panel().ranking()->bestHeadsRow()->useButton()->isEnabled());
        QCOMPARE(panel().ranking()->bestHeadsRow()->countBox()->maximum(), 8);
        QTest::mouseClick(panel().ranking()->bestHeadsRow()->useButton(), Qt::LeftButton);
        panel().ranking()->bestHeadsRow()->countBox()->setValue(3);
        QTest::mouseClick(panel().ranking()->bestHeadsRow()->useButton(), Qt::LeftButton);
        QCOMPARE(received.size(), std::size_t{2});
        QCOMPARE(received[0], bestHeads(expected, 1));
        QCOMPARE(received[1], bestHeads(expected, 3));
        QCOMPARE(received[1].size(), std::size_t{3});
        // The window hands them to the Coreference tab, which now scores with exactly those heads.
        QCOMPARE(child<QTabWidget>(*window_, "tabs")->currentWidget(), static_cast<QWidget*>(child<CorefTab>(*window_, "corefTab")));
        QCOMPARE(child<CorefTab>(*window_, "corefTab")->scoringBox()->currentIndex(), int(CorefTab::Heads));
        QString expectedText;
        for (const HeadRef& h : received[1])
            expectedText += (expectedText.isEmpty() ? "" : ", ") + QString("%1:%2").arg(h.layer + 1).arg(h.head + 1);
        QCOMPARE(child<CorefTab>(*window_, "corefTab")->headsEdit()->text(), expectedText);
    }

    void statisticsTableSortsByAColumn() {
        openBert();
        auto* proxy = panel().statistics()->proxy();
        QCOMPARE(proxy->rowCount(), 8);
        // Equal to core's statistics of the run on screen.
        auto expected = headStatistics(shownRunOf(*window_)->trace);
        QVERIFY(expected.ok());
        const auto& shown = panel().statistics()->model()->statistics();
        QCOMPARE(shown.size(), expected.value().size());
        for (std::size_t i = 0; i < shown.size(); ++i) {
            QCOMPARE(shown[i].entropy, expected.value()[i].entropy);
            QCOMPARE(shown[i].labels, expected.value()[i].labels);
        }
        panel().statistics()->table()->sortByColumn(HeadStatsModel::Entropy, Qt::DescendingOrder);
        double previous = 1e9;
        for (int r = 0; r < proxy->rowCount(); ++r) {
            const double entropy = proxy->index(r, HeadStatsModel::Entropy).data(HeadStatsModel::kSortRole).toDouble();
            QVERIFY(entropy <= previous);
            previous = entropy;
        }
        double maxEntropy = 0;
        for (const HeadStatistics& s : expected.value()) maxEntropy = std::max(maxEntropy, s.entropy);
        QCOMPARE(proxy->index(0, HeadStatsModel::Entropy).data(HeadStatsModel::kSortRole).toDouble(), maxEntropy);
        QCOMPARE(proxy->index(0, HeadStatsModel::Entropy).data().toString(), QString::number(maxEntropy, 'f', 2));
        panel().statistics()->table()->sortByColumn(HeadStatsModel::Layer, Qt::AscendingOrder);
        QCOMPARE(proxy->index(0, HeadStatsModel::Layer).data().toString(), QStringLiteral("1"));
        QCOMPARE(proxy->index(7, HeadStatsModel::Layer).data().toString(), QStringLiteral("2"));
    }

    // A 512-word sentence is quoted by its start and end (80 characters at most), the whole in the
    // caption's tooltip; a short one is quoted whole, with no tooltip.
    void theCaptionNeverQuotesALongSentenceInFull() {
        openBert();
        QString sentence = "first";
        for (int i = 0; i < 510; ++i) sentence += i % 2 ? " cat" : " sat";
        sentence += " last";
        window_->setSentence(sentence);  // the run, then its statistics: the caption follows
        QLabel* caption = panel().statistics()->caption();
        QTRY_VERIFY_WITH_TIMEOUT(caption->toolTip() == sentence, kWaitMs);
        const QString quoted = caption->text().section(QStringLiteral("“"), 1).section(QStringLiteral("”"), 0, 0);
        QVERIFY2(quoted.size() <= 80 + 2 && quoted.startsWith("first sat cat") && quoted.endsWith("sat cat last") &&
                     quoted.contains(QStringLiteral(" … ")),
                 qPrintable(quoted));
        window_->setSentence("the cat sat");
        QTRY_VERIFY_WITH_TIMEOUT(caption->text().contains(QStringLiteral("“the cat sat”")), kWaitMs);
        QVERIFY(caption->toolTip().isEmpty());
    }

    void statisticsFollowTheLessonSentence() {
        QVERIFY(waitForHeadAnalysis(*window_, kWaitMs));
        QCOMPARE(panel().statistics()->proxy()->rowCount(), 2);  // 1 layer × 2 heads
        window_->setSentence("the cat sat");
        QVERIFY(waitForHeadAnalysis(*window_, kWaitMs));
        auto expected = headStatistics(sessionOf(*window_).trace());
        QVERIFY(expected.ok());
        QCOMPARE(panel().statistics()->model()->statistics()[1].selfShare, expected.value()[1].selfShare);
    }

    void modelViewShowsTheLabelsAsBadges() {
        openBert();
        const auto& badges = child<ModelView>(*window_, "modelView")->badges();
        QCOMPARE(badges.size(), std::size_t{8});
        auto expected = headStatistics(shownRunOf(*window_)->trace);
        QVERIFY(expected.ok());
        for (const HeadStatistics& s : expected.value()) {
            const ThumbnailBadge* badge = child<ModelView>(*window_, "modelView")->badgeFor(s.head.layer, s.head.head);
            QVERIFY(badge != nullptr);
            QVERIFY2(badge->tooltip.startsWith(QString::fromStdString(s.labels.front())), qPrintable(badge->tooltip));
        }
        window_->openBuiltInLesson("two-heads");  // a lesson: no model view, no badges
        QVERIFY(child<ModelView>(*window_, "modelView")->badges().empty());
    }

    // "Order heads by" in the model view: the Heads tab orders with core's headOrderBy on the
    // statistics of the trace shown, again when the sentence changes; a click opens that head.
    void modelViewOrdersHeadsByTheChosenStatistic() {
        openBert();
        auto* model = child<ModelView>(*window_, "modelView");
        child<QTabWidget>(*window_, "tabs")->setCurrentWidget(model);
        const auto drawnOrder = [&] {
            std::vector<DrawnThumbnail> thumbs = model->drawnThumbnails();
            std::sort(thumbs.begin(), thumbs.end(), [](const auto& a, const auto& b) { return a.rect.left() < b.rect.left(); });
            std::vector<std::vector<int>> order(static_cast<std::size_t>(shownRunOf(*window_)->trace.layerCount()));
            for (const DrawnThumbnail& t : thumbs) order[static_cast<std::size_t>(t.layer)].push_back(t.head);
            return order;
        };
        const auto expected = [&] {
            auto stats = headStatistics(shownRunOf(*window_)->trace);
            return stats.ok() ? headOrderBy(stats.value(), HeadSortKey::Entropy) : std::vector<std::vector<int>>{};
        };
        model->bar()->orderBox()->setCurrentIndex(1 + static_cast<int>(HeadSortKey::Entropy));
        QCOMPARE(drawnOrder(), expected());
        QVERIFY(drawnOrder() != (std::vector<std::vector<int>>{{0, 1, 2, 3}, {0, 1, 2, 3}}));  // the order says something
        const auto* before = shownRunOf(*window_);
        window_->setSentence("a dog barked at the man");
        QTRY_VERIFY_WITH_TIMEOUT(shownRunOf(*window_) && shownRunOf(*window_) != before && shownRunOf(*window_)->trace.tokens.at(1).text == "a", kWaitMs);
        QVERIFY(waitForHeadAnalysis(*window_, kWaitMs));
        QCOMPARE(drawnOrder(), expected());
        const int first = drawnOrder()[1].front();
        QRect rect;
        for (const DrawnThumbnail& t : model->drawnThumbnails())
            if (t.layer == 1 && t.head == first) rect = t.rect;
        QTest::mouseClick(model->canvas(), Qt::LeftButton, {}, rect.center());
        QCOMPARE(child<HeatmapView>(*window_, "heatmap")->head(), first);
    }

    void exportsWriteFilesThatParseWithTheRightNumbers() {
        openBert();
        const QString set = writeFile(dir_, "bert-set.jsonl", kBertSet);
        evaluate(set);
        const CorefEvaluation expected = coreEvaluation(set, bertRunner());
        for (const QString format : {"png", "svg", "pdf", "csv", "json"})
            QVERIFY(headsTabOf(*window_)->exportRanking(dir_.filePath("ranking." + format), format));

        QImage png(dir_.filePath("ranking.png"));
        QVERIFY(!png.isNull());
        QVERIFY(png.width() >= 640);
        QSvgRenderer svg(dir_.filePath("ranking.svg"));
        QVERIFY(svg.isValid());
        QFile svgFile(dir_.filePath("ranking.svg"));
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        const QByteArray svgText = svgFile.readAll();
        QVERIFY(svgText.contains("baselines: random 35%, first 60%, nearest 40%, rule 60%"));  // the title carries the baselines
        QFile pdf(dir_.filePath("ranking.pdf"));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        const QByteArray pdfBytes = pdf.readAll();
        QVERIFY(pdfBytes.startsWith("%PDF-"));
        QVERIFY(pdfBytes.trimmed().endsWith("%%EOF"));

        QFile csv(dir_.filePath("ranking.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly | QIODevice::Text));
        const QStringList lines = QString::fromUtf8(csv.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + 5 + 8);
        QVERIFY2(lines[1].startsWith("random,,,1.75,5,0.35,"), qPrintable(lines[1]));
        QVERIFY2(lines[2].startsWith("first,,,3,5,0.6,"), qPrintable(lines[2]));
        QVERIFY2(lines[3].startsWith("nearest,,,2,5,0.4,"), qPrintable(lines[3]));
        QVERIFY2(lines[4].startsWith("rule,,,3,5,0.6,"), qPrintable(lines[4]));
        for (int i = 0; i < 8; ++i) {
            const QStringList cells = lines[6 + i].split(',');
            const HeadAccuracy& h = expected.ranking[static_cast<std::size_t>(i)];
            QCOMPARE(cells[1].toInt(), h.head.layer + 1);
            QCOMPARE(cells[2].toInt(), h.head.head + 1);
            QCOMPARE(cells[5].toDouble(), h.accuracy);
        }

        QFile json(dir_.filePath("ranking.json"));
        QVERIFY(json.open(QIODevice::ReadOnly));
        const QJsonObject doc = QJsonDocument::fromJson(json.readAll()).object();
        QCOMPARE(doc["format"].toString(), QStringLiteral("attnscope-coref-evaluation"));
        QCOMPARE(doc["evaluated"].toInt(), 5);
        const QJsonArray accuracy = doc["accuracy"].toArray();
        QCOMPARE(accuracy.size(), 2);
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < 4; ++h) QCOMPARE(accuracy[l].toArray()[h].toDouble(), expected.accuracy(l, h));
        QCOMPARE(QDir(dir_.path()).entryList(QDir::Files).filter("ranking").size(), 5);  // no temporaries left
    }
};

QTEST_MAIN(HeadsTabTest)
#include "test_heads_tab.moc"
