// The Heads tab of the main window: coreference ranking of every head on a set and the head
// statistics of the sentence on screen, for lessons and models alike. The HeadAnalysisWorker
// computes (off the GUI thread); this file wires its results into the HeadsPanel and the model
// view's thumbnail badges, and writes the exports.
#include <QApplication>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QStatusBar>
#include <QTabWidget>

#include "app/head_analysis_worker.hpp"
#include "app/lesson_source.hpp"
#include "app/main_window.hpp"
#include "app/model_worker.hpp"
#include "app/sentence_runners.hpp"
#include "core/analysis/coref_export.hpp"
#include "ui/head_ranking_builder.hpp"
#include "ui/heads_panel.hpp"
#include "ui/model_view.hpp"

namespace attnscope {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

// The badge on a model-view thumbnail: the pattern label, short, plus "coref" when it applies.
QString badgeText(const HeadStatistics& s) {
    static const std::pair<const char*, const char*> shortNames[] = {
        {"delimiter sink", "sink"}, {"previous-token", "prev"}, {"next-token", "next"},
        {"self", "self"},           {"broad", "broad"},         {"coreference", "coref"}};
    QStringList parts;
    for (const std::string& label : s.labels)
        for (const auto& [name, shortName] : shortNames)
            if (label == name) parts << QString::fromLatin1(shortName);  // "mixed" gets no badge
    return parts.join(" · ");
}

std::vector<ThumbnailBadge> badgesOf(const std::vector<HeadStatistics>& stats) {
    std::vector<ThumbnailBadge> badges;
    for (const HeadStatistics& s : stats) {
        QStringList labels;
        for (const std::string& l : s.labels) labels << qs(l);
        badges.push_back({s.head.layer, s.head.head, badgeText(s),
                          QObject::tr("%1 · entropy %2 bits").arg(labels.join(", ")).arg(s.entropy, 0, 'f', 2)});
    }
    return badges;
}

QString setLabel(const QString& source) { return QFileInfo(source).fileName(); }

// The plot's title, so that an exported figure carries the baselines it is to be read against.
QString rankingTitle(const CorefEvaluation& e, const QString& description) {
    const auto percent = [](double share) { return QString::number(100 * share, 'f', 0) + "%"; };
    return QObject::tr("Antecedent accuracy per head\n%1, %2 evaluated\nbaselines: nearest %3, rule %4; rollout %5")
        .arg(description)
        .arg(e.evaluated)
        .arg(percent(e.nearestAccuracy()), percent(e.ruleAccuracy()), percent(e.rolloutAccuracy()));
}

// Why examples were left out (the tooltip of the baselines): the first few, then how many more.
QString skippedText(const CorefEvaluation& evaluation, const CorefSet& set) {
    constexpr int kListed = 15;
    QStringList lines;
    for (const ExampleOutcome& o : evaluation.outcomes) {
        if (o.evaluated) continue;
        if (lines.size() == kListed) {
            lines << QObject::tr("… and %1 more (attnscope heads lists them all)").arg(evaluation.skipped() - kListed);
            break;
        }
        lines << qs(exampleLabel(set, set.examples[static_cast<std::size_t>(o.index)]) + ": " + o.skipReason);
    }
    return lines.isEmpty() ? QString() : QObject::tr("Skipped:\n") + lines.join('\n');
}

}  // namespace

void MainWindow::buildHeadsTab() {
    headWorker_ = new HeadAnalysisWorker(this);
    headsPanel_ = new HeadsPanel(tabs_);
    headsPanel_->setObjectName("headsPanel");
    headsPanel_->addSetSource(tr("English (built-in, 160 sentences)"), builtInCorefSets().at(0));
    headsPanel_->addSetSource(tr("Chinese (built-in, 56 sentences)"), builtInCorefSets().at(1));
    headsPanel_->chooseSetSource(builtInCorefSets().at(0));
    tabs_->addTab(headsPanel_, tr("Heads"));
}

void MainWindow::connectHeadsPanel() {
    connect(headsPanel_, &HeadsPanel::evaluateRequested, this, &MainWindow::evaluateHeads);
    connect(headsPanel_, &HeadsPanel::cancelRequested, headWorker_, &HeadAnalysisWorker::cancelEvaluation);
    connect(headsPanel_, &HeadsPanel::exportRequested, this, &MainWindow::exportHeadRankingDialog);
    connect(headsPanel_, &HeadsPanel::useHeadsForCoreference, this, &MainWindow::setCoreferenceHeads);
    connect(headWorker_, &HeadAnalysisWorker::evaluationStarted, this, [this] { headsPanel_->setEvaluating(true); });
    connect(headWorker_, &HeadAnalysisWorker::evaluationProgress, headsPanel_, &HeadsPanel::setProgress);
    connect(headWorker_, &HeadAnalysisWorker::evaluationFinished, this, &MainWindow::onHeadEvaluationFinished);
    connect(headWorker_, &HeadAnalysisWorker::evaluationFailed, this, [this](const QString& message, bool cancelled) {
        headsPanel_->setEvaluating(false);
        headsPanel_->showMessage(cancelled ? tr("Cancelled; the previous ranking stays shown.")
                                           : tr("The evaluation failed: %1").arg(message));
    });
    connect(headWorker_, &HeadAnalysisWorker::statisticsReady, this, &MainWindow::onHeadStatisticsReady);
}

// What evaluations and statistics run on: the open model, else the lesson (copied, so edits
// made while an evaluation runs do not reach into it).
SentenceRunner MainWindow::currentSentenceRunner() const {
    if (modelMode_ && worker_->model()) return modelSentenceRunner(worker_->model());
    if (!modelMode_ && session_.hasLesson()) return lessonSentenceRunner(std::make_shared<const Lesson>(session_.lesson()));
    return {};
}

QString MainWindow::analysedName() const {
    if (modelMode_ && worker_->model()) return QFileInfo(qs(worker_->model()->name)).fileName();
    return qs(session_.lesson().title);
}

void MainWindow::evaluateHeads(const QString& setSource) {
    if (setSource.isEmpty()) return headsPanel_->showMessage(tr("Choose a coreference set first."));
    SentenceRunner run = currentSentenceRunner();
    if (!run) return headsPanel_->showMessage(tr("Open a lesson or a model first."));
    auto set = loadCorefSet(setSource);
    if (!set) return headsPanel_->showMessage(tr("The set could not be read: %1").arg(qs(set.error().text())));
    const QString description = tr("%1 on %2").arg(analysedName(), setLabel(setSource));
    headWorker_->evaluate(std::make_shared<const CorefSet>(std::move(set).value()), std::move(run), description);
}

void MainWindow::onHeadEvaluationFinished() {
    headsPanel_->setEvaluating(false);
    const auto evaluation = headWorker_->evaluation();
    headsPanel_->showEvaluation(evaluation, rankingTitle(*evaluation, headWorker_->evaluationDescription()));
    headsPanel_->showMessage(tr("Evaluated %1 of %2 sentences.").arg(evaluation->evaluated).arg(evaluation->outcomes.size()));
    headsPanel_->baselinesLabel()->setToolTip(skippedText(*evaluation, *headWorker_->evaluatedSet()));
}

// A new model, lesson or edit: the ranking was of other heads.
void MainWindow::resetHeadAnalysis() {
    headWorker_->clearEvaluation();
    headsPanel_->clearEvaluation(tr("Press Evaluate to rank the heads of %1.").arg(analysedName()));
    modelView_->setBadges({});
}

// The trace on screen: the lesson's (copied: lesson traces are small) or the model run's.
void MainWindow::requestHeadStatistics() {
    if (modelMode_ && shownRun_) headWorker_->computeStatistics(std::shared_ptr<const Trace>(shownRun_, &shownRun_->trace));
    else if (!modelMode_ && session_.hasLesson()) headWorker_->computeStatistics(std::make_shared<const Trace>(session_.trace()));
}

void MainWindow::onHeadStatisticsReady() {
    const auto stats = headWorker_->statistics();
    const Trace* trace = headWorker_->statisticsTrace();
    if (!stats || !trace) return;
    headsPanel_->showStatistics(*stats, tr("What every head does on “%1” (%2 tokens). Labels: thresholds in "
                                           "docs/coreference.md; “coreference” when a head beats both baselines "
                                           "on the evaluated set. Click a column to sort.")
                                            .arg(sentence_->text())
                                            .arg(trace->tokenCount()));
    modelView_->setBadges(modelMode_ ? badgesOf(*stats) : std::vector<ThumbnailBadge>{});
}

bool MainWindow::exportHeadRanking(const QString& path, const QString& format) {
    const auto evaluation = headWorker_->evaluation();
    const auto set = headWorker_->evaluatedSet();
    if (!evaluation || !set) {
        showError(tr("Nothing to export"), tr("Evaluate a coreference set first."));
        return false;
    }
    const HeadRankingBuilder& builder = headsPanel_->rankingBuilder();
    QByteArray bytes;
    if (format == "png") bytes = builder.toPng();
    else if (format == "svg") bytes = builder.toSvg();
    else if (format == "pdf") bytes = builder.toPdf();
    else if (format == "csv") bytes = QByteArray::fromStdString(evaluationToCsv(*evaluation));
    else if (format == "json") bytes = QByteArray::fromStdString(evaluationToJson(*evaluation, *set));
    else {
        showError(tr("Unknown export format"), format);
        return false;
    }
    if (auto error = writeFileAtomically(path, bytes)) {
        showError(tr("The file could not be written"), qs(error->text()));
        return false;
    }
    statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
    return true;
}

void MainWindow::exportHeadRankingDialog(const QString& format) {
    const QString filter = format == "csv"    ? tr("CSV (*.csv)")
                           : format == "json" ? tr("JSON (*.json)")
                                              : tr("%1 files (*.%2)").arg(format.toUpper(), format);
    const QString path = QFileDialog::getSaveFileName(this, tr("Export head ranking"), "head-ranking." + format, filter);
    if (!path.isEmpty()) exportHeadRanking(path, format);
}

bool MainWindow::waitForHeadAnalysis(int timeoutMs) {
    QElapsedTimer timer;
    timer.start();
    const auto busy = [this] { return headWorker_->evaluating() || headWorker_->computingStatistics(); };
    while (busy() && timer.elapsed() < timeoutMs) QApplication::processEvents(QEventLoop::AllEvents, 20);
    QApplication::processEvents();
    return !busy();
}

}  // namespace attnscope
