// The Heads tab's "Corpus" page in the real MainWindow (offscreen): a text file run through the
// tiny BERT off the GUI thread, with progress, time left and Cancel; the three panels' points
// and bars against core's runCorpus on the same file and against the committed torch reference
// (tests/reference/fixtures/corpus_stats.json, written by reference_corpus_stats.py); a newer file
// replacing a running one; a bad file keeping the last result; the exports.
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QComboBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <atomic>
#include <chrono>
#include <thread>

#include "app/main_window.hpp"
#include "app/sentence_runners.hpp"
#include "app/source/latest_request_worker.hpp"
#include "app/source/lesson_trace_source.hpp"
#include "app/tabs/corpus_controller.hpp"
#include "core/analysis/corpus_stats.hpp"
#include "core/source/model_session.hpp"
#include "ui/common/core_language.hpp"
#include "ui/heads/corpus_panel.hpp"
#include "ui/heads/corpus_plots.hpp"
#include "ui/heads/heads_panel.hpp"
#include "window_access.hpp"
#include <qcustomplot.h>

using namespace attnscope;

namespace {

const QString kSource = QStringLiteral(ATTNSCOPE_SOURCE_DIR);
const QString kBert = kSource + "/tests/reference/models/bert-tiny";
const QString kFixtures = kSource + "/tests/reference/fixtures";
constexpr int kWaitMs = 30000;
constexpr double kModelTolerance = 1e-5;  // core runs float32, the reference float64 (as test_corpus_stats)

QByteArray readAll(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
    return file.readAll();
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
    file.write(bytes);
    return path;
}

// core on its own, with the runner the CLI uses.
CorpusStats coreStats(const QString& path) {
    auto model = openModel(kBert.toStdString());
    if (!model) qFatal("%s", model.error().text().c_str());
    auto corpus = readCorpus(path.toStdString());
    if (!corpus) qFatal("%s", corpus.error().text().c_str());
    auto stats = runCorpus(corpus.value(), modelSentenceRunner(std::make_shared<const OpenedModel>(std::move(model).value())));
    if (!stats) qFatal("%s", stats.error().text().c_str());
    return std::move(stats).value();
}

// The torch reference's heads for the tiny BERT.
QJsonArray referenceHeads() {
    const QJsonObject fixture = QJsonDocument::fromJson(readAll(kFixtures + "/corpus_stats.json")).object();
    for (const QJsonValue& model : fixture["models"].toArray())
        if (model["model"].toString() == "bert-tiny") return model["heads"].toArray();
    qFatal("no bert-tiny in corpus_stats.json");
    return {};
}

// A source built by the test for the window's CorpusController: the tiny BERT's sentence runner
// (as the model source gives it), wrapped so the test can watch or hold each sentence on the
// worker thread. The rest of a source is a lesson's; the controller only asks for the runner.
class WatchedSource : public LessonTraceSource {
public:
    using Watch = std::function<void(int sentence)>;  // before sentence n (1-based) runs
    explicit WatchedSource(Watch watch) : watch_(std::move(watch)) {
        auto model = openModel(kBert.toStdString());
        if (!model) qFatal("%s", model.error().text().c_str());
        run_ = modelSentenceRunner(std::make_shared<const OpenedModel>(std::move(model).value()));
    }
    SentenceRunner sentenceRunner(std::vector<HeadRef> /*ablate*/ = {}) const override {
        return [this, count = std::make_shared<std::atomic<int>>(0)](const std::string& sentence) {
            watch_(++*count);
            return run_(sentence);
        };
    }

private:
    Watch watch_;
    SentenceRunner run_;
};

// Holds the first run that reaches sentence `holdAt` on its thread, before that sentence, until
// `release` (or 10 s); `begun` counts the sentences begun by every run.
WatchedSource::Watch holdingWatch(int holdAt, std::atomic<bool>& reached, std::atomic<bool>& release,
                                  std::atomic<int>& begun) {
    return [holdAt, &reached, &release, &begun](int sentence) {
        ++begun;
        if (sentence != holdAt || reached.exchange(true)) return;
        for (int i = 0; i < 1000 && !release; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    };
}

const char* const kReferenceKeys[kCorpusStatisticCount] = {"first", "last", "punctuation", nullptr, nullptr, nullptr,
                                                           "same_token"};

}  // namespace

class CorpusWindowTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<MainWindow> window_;
    std::unique_ptr<WatchedSource> watched_;  // handed to the window's controller by some tests
    QTemporaryDir dir_;
    QString corpus_;  // corpus-tiny.txt (9 sentences), copied into the temp dir

    CorpusController& controller() { return *child<CorpusController>(*window_, "corpusController"); }
    CorpusPanel& panel() { return *child<CorpusPanel>(*window_, "corpusPanel"); }
    const CorpusPlotsBuilder& plots() { return panel().plots(); }

    void runToTheEnd(const QString& path) {
        controller().run(path);
        QTRY_VERIFY_WITH_TIMEOUT(!controller().busy(), kWaitMs);
    }

private slots:
    void initTestCase() { corpus_ = writeFile(dir_, "corpus-tiny.txt", readAll(kFixtures + "/corpus-tiny.txt")); }

    void init() {
        window_ = std::make_unique<MainWindow>();
        window_->setSentence("the cat sat on the mat");
        window_->openModel(kBert);
        QTRY_VERIFY_WITH_TIMEOUT(showsModel(*window_) && shownRunOf(*window_) != nullptr, kWaitMs);
        auto* heads = child<HeadsPanel>(*window_, "headsPanel");
        child<QTabWidget>(*window_, "tabs")->setCurrentWidget(heads);
        heads->sections()->setCurrentWidget(&panel());
        window_->resize(1400, 900);
        window_->show();
    }
    void cleanup() {
        window_.reset();
        watched_.reset();
    }

    // The window's controller now runs sentences through `watch`ed runners of the tiny BERT.
    void watchRuns(WatchedSource::Watch watch) {
        watched_ = std::make_unique<WatchedSource>(std::move(watch));
        controller().setSource(watched_.get());
    }

    void pointsEqualCoreAndTheTorchReference() {
        std::atomic<bool> offGuiThread{true};
        QThread* gui = QThread::currentThread();
        watchRuns([&](int) {
            if (QThread::currentThread() == gui) offGuiThread = false;
        });
        QSignalSpy progress(controller().jobs(), &JobSignals::progress);
        runToTheEnd(corpus_);
        QVERIFY2(panel().stats() != nullptr, qPrintable(panel().messageText()));
        QVERIFY(offGuiThread.load());
        QCOMPARE(progress.count(), 9);  // one report per sentence of the 9
        QCOMPARE(progress.last().at(0).toInt(), 9);
        QCOMPARE(progress.last().at(1).toInt(), 9);

        const CorpusStats expected = coreStats(corpus_);
        const QJsonArray reference = referenceHeads();
        QCOMPARE(reference.size(), 8);
        QCOMPARE(panel().stats()->sentences, 9);
        // BERT: first and last are its special tokens, and (not causal) "next token" is offered.
        QCOMPARE(panel().statisticBox()->itemText(0), QStringLiteral("first token ([CLS])"));
        QCOMPARE(panel().statisticBox()->itemText(1), QStringLiteral("last token ([SEP])"));
        QCOMPARE(panel().statisticBox()->count(), kCorpusStatisticCount);
        for (int s = 0; s < kCorpusStatisticCount; ++s) {
            panel().statisticBox()->setCurrentIndex(s);
            const auto& points = plots().scatterPoints();
            QCOMPARE(points.size(), std::size_t{8});  // L·H = 2 × 4
            for (std::size_t i = 0; i < points.size(); ++i) {
                QCOMPARE(points[i].head, expected.heads[i].head);
                QCOMPARE(points[i].y, corpusStatisticOf(expected.heads[i], CorpusStatistic(s)));
                QVERIFY(std::abs(points[i].x - (points[i].head.layer + 1)) <= 0.3 + 1e-9);  // within its layer's band
                const QJsonObject ref = reference[static_cast<int>(i)].toObject();
                const double want = kReferenceKeys[s] ? ref[kReferenceKeys[s]].toDouble()
                                                      : ref["offsets"].toArray()[kCorpusMaxOffset + s - 4].toDouble();
                QVERIFY2(std::abs(points[i].y - want) <= kModelTolerance, qPrintable(QString::number(points[i].y - want)));
            }
        }
        const auto& entropy = plots().entropyPoints();
        QCOMPARE(entropy.size(), std::size_t{8});
        for (std::size_t i = 0; i < entropy.size(); ++i) {
            QCOMPARE(entropy[i].y, expected.heads[i].entropy);
            QVERIFY(std::abs(entropy[i].y - reference[static_cast<int>(i)].toObject()["entropy"].toDouble()) <= kModelTolerance);
        }
        QCOMPARE(plots().baselines().size(), std::size_t{2});  // one mark per layer
        for (double b : plots().baselines())
            QVERIFY(std::abs(b - reference[0].toObject()["uniform_entropy"].toDouble()) <= kModelTolerance);
        // Panel (c) starts on head 1:1.
        QCOMPARE(plots().selectedHead(), std::optional<HeadRef>(HeadRef{0, 0}));
        QCOMPARE(plots().offsetBars(), expected.heads[0].offsets);
    }

    void clickingAPointShowsThatHeadsOffsets() {
        runToTheEnd(corpus_);
        const CorpusStats expected = coreStats(corpus_);
        const HeadRef target{1, 2};
        const QPoint at = plots().scatterPixelOf(target).toPoint();
        QCOMPARE(plots().headAt(at), std::optional<HeadRef>(target));
        QCOMPARE(plots().hoverText(at), QStringLiteral("2:3  %1").arg(expected.heads[6].first, 0, 'f', 3));
        QTest::mouseClick(panel().plot(), Qt::LeftButton, {}, at);
        QCOMPARE(plots().selectedHead(), std::optional<HeadRef>(target));
        QCOMPARE(plots().offsetBars(), expected.heads[6].offsets);
        const QJsonArray refOffsets = referenceHeads()[6].toObject()["offsets"].toArray();
        for (int o = 0; o < refOffsets.size(); ++o)
            QVERIFY(std::abs(plots().offsetBars()[static_cast<std::size_t>(o)] - refOffsets[o].toDouble()) <= kModelTolerance);
        // The entropy panel selects too, and its hover names the baseline.
        const QPoint entropyAt = plots().entropyPixelOf(HeadRef{0, 3}).toPoint();
        QVERIFY(plots().hoverText(entropyAt).startsWith("1:4  "));
        QVERIFY(plots().hoverText(entropyAt).contains("uniform"));
        QTest::mouseClick(panel().plot(), Qt::LeftButton, {}, entropyAt);
        QCOMPARE(plots().selectedHead(), std::optional<HeadRef>(HeadRef{0, 3}));
        QCOMPARE(plots().offsetBars(), expected.heads[3].offsets);
        QVERIFY(plots().hoverText(QPointF(2, 2)).isEmpty());  // off every point
    }

    void cancelStopsTheRunAndKeepsThePreviousResult() {
        std::atomic<bool> reached{true}, release{false};  // nothing held until `reached` is reset
        std::atomic<int> begun{0};
        watchRuns(holdingWatch(3, reached, release, begun));
        runToTheEnd(corpus_);
        const auto before = panel().stats();
        QVERIFY(before != nullptr);
        reached = false;
        begun = 0;
        QSignalSpy failed(controller().jobs(), &JobSignals::failed);
        controller().run(corpus_);
        QTRY_VERIFY_WITH_TIMEOUT(reached.load(), kWaitMs);
        // The first report is on screen: sentences done of total and the time left.
        QTRY_VERIFY_WITH_TIMEOUT(panel().timeLeft().endsWith(" left"), kWaitMs);
        auto* cancel = panel().findChild<QPushButton*>("cancelCorpus");
        QVERIFY(cancel->isVisible());
        QTest::mouseClick(cancel, Qt::LeftButton);
        release = true;
        QTRY_VERIFY_WITH_TIMEOUT(!controller().busy(), kWaitMs);
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.first().at(1).toBool(), true);  // cancelled
        QCOMPARE(begun.load(), 3);                       // the held one ends; none after the cancel
        QCOMPARE(panel().stats(), before);
        QCOMPARE(plots().scatterPoints().size(), std::size_t{8});
        QVERIFY(panel().messageText().contains("Cancelled"));
        QVERIFY(!cancel->isVisible());
        QVERIFY(panel().timeLeft().isEmpty());
    }

    void aSecondFileReplacesTheRunningOne() {
        const QString two = writeFile(dir_, "two.txt", "the cat sat.\nthe dog ran.\n");
        std::atomic<bool> reached{false}, release{false};
        std::atomic<int> begun{0};
        watchRuns(holdingWatch(2, reached, release, begun));
        QSignalSpy finished(controller().jobs(), &JobSignals::finished);
        controller().run(corpus_);
        QTRY_VERIFY_WITH_TIMEOUT(reached.load(), kWaitMs);
        controller().run(two);  // while the first holds after sentence 1
        release = true;
        QTRY_VERIFY_WITH_TIMEOUT(!controller().busy(), kWaitMs);
        QCOMPARE(finished.count(), 1);  // only the second delivered
        QVERIFY(panel().stats() != nullptr);
        QCOMPARE(panel().stats()->sentences, 2);
        QCOMPARE(begun.load(), 2 + 2);  // the first stopped at its cancel after its held sentence 2; both of two.txt
        QVERIFY(controller().description().endsWith("two.txt"));
        const CorpusStats expected = coreStats(two);
        for (std::size_t i = 0; i < expected.heads.size(); ++i) QCOMPARE(plots().scatterPoints()[i].y, expected.heads[i].first);
    }

    void aBadFileShowsAnErrorAndKeepsTheLastResult() {
        runToTheEnd(corpus_);
        const auto before = panel().stats();
        const std::vector<DrawnCorpusPoint> drawn = plots().scatterPoints();
        const struct {
            QString path;
            const char* says;
        } bad[] = {{dir_.filePath("missing.txt"), "missing.txt"},
                   {writeFile(dir_, "blank.txt", "  \n\n\t\n"), "at least one sentence"},
                   {writeFile(dir_, "latin1.txt", "the cat\ncaf\xe9 au lait\n"), "line 2"}};
        for (const auto& b : bad) {
            runToTheEnd(b.path);
            QVERIFY2(panel().messageText().contains("failed"), qPrintable(panel().messageText()));
            QVERIFY2(panel().messageText().contains(b.says), qPrintable(panel().messageText()));
            QCOMPARE(panel().stats(), before);
            QCOMPARE(plots().scatterPoints().size(), drawn.size());
            for (std::size_t i = 0; i < drawn.size(); ++i) QCOMPARE(plots().scatterPoints()[i].y, drawn[i].y);
        }
    }

    // The tiny BERT has 32 positions: a 40-word line is cut, and the page says so by line.
    void aSentenceTooLongForTheModelIsNamedInTheMessage() {
        QByteArray longLine;
        for (int i = 0; i < 40; ++i) longLine += "cat ";
        const QString path = writeFile(dir_, "long.txt", "the cat sat.\n" + longLine + "\n");
        runToTheEnd(path);
        QVERIFY2(panel().stats() != nullptr, qPrintable(panel().messageText()));
        QCOMPARE(panel().stats()->sentences, 2);
        QCOMPARE(panel().stats()->notices, coreStats(path).notices);
        QCOMPARE(panel().stats()->notices.size(), std::size_t{1});
        QVERIFY2(panel().messageText().contains("long.txt: line 2: "), qPrintable(panel().messageText()));
        QVERIFY(panel().messageText().contains(
            QString::fromStdString(corpusNoticeTexts(panel().stats()->notices, coreLanguage()).at(0))));
    }

    void exportsWriteParseableFilesAndNothingOnFailure() {
        QVERIFY(!controller().exportTo(dir_.filePath("early.csv"), "csv"));  // nothing computed yet
        QVERIFY(!QFile::exists(dir_.filePath("early.csv")));
        runToTheEnd(corpus_);
        const CorpusStats expected = coreStats(corpus_);
        QVERIFY(controller().exportTo(dir_.filePath("c.png"), "png"));
        QVERIFY(controller().exportTo(dir_.filePath("c.svg"), "svg"));
        QVERIFY(controller().exportTo(dir_.filePath("c.pdf"), "pdf"));
        QVERIFY(controller().exportTo(dir_.filePath("c.csv"), "csv"));
        QVERIFY(controller().exportTo(dir_.filePath("c.json"), "json"));
        const QImage png(dir_.filePath("c.png"));
        QVERIFY(!png.isNull());
        QVERIFY(png.width() >= 960);
        QVERIFY(QSvgRenderer(dir_.filePath("c.svg")).isValid());
        QVERIFY(readAll(dir_.filePath("c.pdf")).startsWith("%PDF"));
        const QList<QByteArray> rows = readAll(dir_.filePath("c.csv")).trimmed().split('\n');
        QCOMPARE(rows.size(), 1 + 8);  // header, one row per head
        const QJsonObject json = QJsonDocument::fromJson(readAll(dir_.filePath("c.json"))).object();
        QCOMPARE(json["format"].toString(), QStringLiteral("attnscope-corpus-stats"));
        QCOMPARE(json["sentences"].toInt(), 9);
        const QJsonArray heads = json["heads"].toArray();
        QCOMPARE(heads.size(), 8);
        for (int i = 0; i < heads.size(); ++i)
            QVERIFY(std::abs(heads[i].toObject()["first"].toDouble() - expected.heads[static_cast<std::size_t>(i)].first) <= 1e-12);
        // A folder that does not exist: refused, nothing written.
        QVERIFY(!controller().exportTo(dir_.filePath("no/such/dir/c.csv"), "csv"));
        QVERIFY(!QFile::exists(dir_.filePath("no/such/dir/c.csv")));
    }

    // Decoders: the statistics are named for the model that ran, never [CLS] / [SEP]. The tiny
    // Llama's tokenizer.json puts its BOS before every sentence (its post_processor, read here):
    // "first token (<s>)"; its last token is a word: "last token". The tiny GPT-2 adds nothing:
    // "first token", "last token". Neither attends ahead, so "next token" is not offered.
    void aDecoderNamesItsOwnFirstAndLastToken() {
        QFile tokenizer(kSource + "/tests/reference/models/llama-tiny/tokenizer.json");
        QVERIFY(tokenizer.open(QIODevice::ReadOnly));
        const QJsonObject single = QJsonDocument::fromJson(tokenizer.readAll())
                                       .object()["post_processor"].toObject()["single"].toArray()[0].toObject();
        const QString bos = single["SpecialToken"].toObject()["id"].toString();
        QCOMPARE(bos, QStringLiteral("<s>"));
        for (const auto& [model, first] : {std::pair{QStringLiteral("llama-tiny"), QStringLiteral("first token (%1)").arg(bos)},
                                           std::pair{QStringLiteral("gpt2-tiny"), QStringLiteral("first token")}}) {
            window_->openModel(kSource + "/tests/reference/models/" + model);
            const auto opened = [&] {
                const auto m = modelSourceOf(*window_)->model();
                return m && QString::fromStdString(m->folder).endsWith(model) && !modelSourceOf(*window_)->running() &&
                       shownRunOf(*window_) != nullptr;
            };
            QTRY_VERIFY_WITH_TIMEOUT(opened(), kWaitMs);
            runToTheEnd(corpus_);
            QVERIFY2(panel().stats() != nullptr && panel().stats()->causal, qPrintable(panel().messageText()));
            QStringList items;
            for (int i = 0; i < panel().statisticBox()->count(); ++i) items << panel().statisticBox()->itemText(i);
            QVERIFY2(items.value(0) == first && items.value(1) == QStringLiteral("last token"), qPrintable(model + ": " + items.join(" | ")));
            QCOMPARE(items.size(), kCorpusStatisticCount - 1);
            QVERIFY2(!items.join(' ').contains("next token"), qPrintable(items.join(" | ")));
            QVERIFY(!items.join(' ').contains("[CLS]") && !items.join(' ').contains("[SEP]"));
        }
    }

    void aNewSourceClearsTheResult() {
        runToTheEnd(corpus_);
        QVERIFY(panel().stats() != nullptr);
        window_->openBuiltInLesson("coreference");
        QVERIFY(panel().stats() == nullptr);
        QVERIFY(plots().scatterPoints().empty());
        QVERIFY(!panel().exportButton()->isEnabled());
    }

    // A teacher switching to Chinese after a long corpus run keeps it, worded in Chinese.
    void aLanguageSwitchKeepsTheResult() {
        runToTheEnd(corpus_);
        const auto before = panel().stats();
        QVERIFY(before != nullptr);
        const std::size_t points = plots().scatterPoints().size();
        window_->setLanguage("zh_CN");
        QCOMPARE(panel().stats(), before);  // the same result, nothing recomputed
        QCOMPARE(plots().scatterPoints().size(), points);
        QVERIFY2(controller().description().contains(QStringLiteral("corpus-tiny.txt")), qPrintable(controller().description()));
        QVERIFY(panel().exportButton()->isEnabled());
        window_->setLanguage("en");
    }

    void timeLeftReadsInMinutesAndSeconds() {
        QCOMPARE(timeLeftText(80), QStringLiteral("about 1 min 20 s left"));
        QCOMPARE(timeLeftText(4.2), QStringLiteral("about 5 s left"));
        QCOMPARE(timeLeftText(3725), QStringLiteral("about 1 h 2 min left"));
        QCOMPARE(timeLeftText(0.4), QStringLiteral("less than a second left"));
    }
};

QTEST_MAIN(CorpusWindowTest)
#include "test_corpus_window.moc"
