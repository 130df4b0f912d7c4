#include "app/tabs/corpus_controller.hpp"

#include <QFileDialog>
#include <QFileInfo>
#include <QStringList>

#include "app/source/latest_request_worker.hpp"
#include "app/source/trace_source.hpp"
#include "core/analysis/corpus_export.hpp"
#include "ui/common/core_error_text.hpp"
#include "ui/common/core_language.hpp"
#include "ui/common/file_write.hpp"
#include "ui/common/qt_text.hpp"
#include "ui/heads/corpus_panel.hpp"
#include "ui/heads/corpus_plots.hpp"

namespace attnscope {

struct CorpusController::Delivery {
    std::shared_ptr<const CorpusStats> stats;  // null on failure
    QString fileName;  // of the corpus, for the description
    QString error;
    bool cancelled = false;
};

CorpusController::CorpusController(CorpusPanel* panel, QObject* parent)
    : ReportingPart(parent), panel_(panel), worker_(new LatestRequestWorker("attnscope-corpus-stats", this)),
      jobs_(new JobSignals(this)) {
    connect(worker_, &LatestRequestWorker::progress, jobs_, &JobSignals::progress);
    connect(panel_, &CorpusPanel::runRequested, this, &CorpusController::run);
    connect(panel_, &CorpusPanel::cancelRequested, this, &CorpusController::cancel);
    connect(panel_, &CorpusPanel::exportRequested, this, &CorpusController::exportDialog);
    connect(jobs_, &JobSignals::started, panel_, [this] { panel_->setRunning(true); });
    connect(jobs_, &JobSignals::progress, panel_, [this](int done, int total) {
        panel_->setProgress(done, total, secondsLeft_ ? secondsLeft_->load() : 0.0);
    });
    connect(jobs_, &JobSignals::failed, panel_, [this](const QString& message, bool cancelled) {
        panel_->setRunning(false);
        panel_->showMessage(cancelled ? tr("Cancelled; the previous statistics stay shown.")
                                      : tr("The corpus statistics failed: %1").arg(message));
    });
    connect(jobs_, &JobSignals::finished, panel_, [this] { panel_->setRunning(false); });
}

void CorpusController::setSource(const TraceSource* source) {
    source_ = source;
    const bool wasRunning = worker_->busy();
    worker_->drop();
    if (wasRunning) emit jobs_->failed(tr("Stopped: the model or lesson changed."), true);
    description_.clear();
    fileName_.clear();
    panel_->clear(tr("Press “Corpus statistics…” to run a text file through %1.").arg(source_->shortName()));
}

// The file is read on the worker thread too: a large corpus never blocks the window.
void CorpusController::run(const QString& path) {
    SentenceRunner runner = source_ ? source_->sentenceRunner() : SentenceRunner{};
    if (!runner) return panel_->showMessage(tr("Open a lesson or a model first."));
    const QString fileName = QFileInfo(path).fileName();
    auto secondsLeft = std::make_shared<std::atomic<double>>(0.0);
    secondsLeft_ = secondsLeft;
    worker_->submit([this, path, runner = std::move(runner), fileName, secondsLeft](
                        const LatestRequestWorker::Request& request) -> LatestRequestWorker::Delivery {
        Delivery delivery{nullptr, fileName, QString(), false};
        auto corpus = readCorpus(path.toStdString());
        if (!corpus) {
            delivery.error = coreErrorText(corpus.error());
            return [this, delivery] { deliver(delivery); };
        }
        CorpusControl control;
        control.cancel = request.cancelFlag();
        control.progress = [&request, &secondsLeft](const CorpusProgress& p) {
            secondsLeft->store(p.etaSeconds);
            request.progress(p.done, p.total);
        };
        auto stats = runCorpus(corpus.value(), runner, control);
        if (stats) delivery.stats = std::make_shared<const CorpusStats>(std::move(stats).value());
        else delivery.error = coreErrorText(stats.error()), delivery.cancelled = request.cancelled();
        return [this, delivery] { deliver(delivery); };
    });
    emit jobs_->started();
}

void CorpusController::deliver(const Delivery& delivery) {
    if (!delivery.stats) return emit jobs_->failed(delivery.error, delivery.cancelled);
    show({delivery.stats, delivery.fileName});
    emit jobs_->finished();
}

CorpusController::Shown CorpusController::shown() const { return {panel_->stats(), fileName_}; }

void CorpusController::show(const Shown& shown) {
    if (!shown.stats || !source_) return;
    fileName_ = shown.fileName;
    description_ = tr("%1 on %2").arg(source_->shortName(), fileName_);
    const CorpusStats& stats = *shown.stats;
    panel_->showStats(shown.stats, tr("What every head attends to over %1 sentences (%2 tokens)\n%3")
                                          .arg(stats.sentences)
                                          .arg(stats.queries)
                                          .arg(description_));
    QStringList lines{tr("Ran %1 sentences (%2 tokens): %3. Click a point to see that head's offsets.")
                          .arg(stats.sentences)
                          .arg(stats.queries)
                          .arg(description_)};
    for (const std::string& notice : corpusNoticeTexts(stats.notices, coreLanguage())) lines << qs(notice);
    panel_->showMessage(lines.join('\n'));
}

void CorpusController::cancel() { worker_->cancel(); }
bool CorpusController::busy() const { return worker_->busy(); }

QByteArray CorpusController::exportBytes(const QString& format) const {
    const CorpusStats& stats = *panel_->stats();
    if (format == "png" || format == "svg" || format == "pdf") return panel_->plots().figureBytes(format);
    if (format == "csv") return QByteArray::fromStdString(corpusStatsToCsv(stats));
    if (format == "json") return QByteArray::fromStdString(corpusStatsToJson(stats, description_.toStdString()));
    return {};
}

bool CorpusController::exportTo(const QString& path, const QString& format) {
    if (!panel_->stats()) {
        emit failed(tr("Nothing to export"), tr("Run corpus statistics first."));
        return false;
    }
    return writeReported(path, exportBytes(format), format);
}

void CorpusController::exportDialog(const QString& format) {
    const QString path = QFileDialog::getSaveFileName(panel_, tr("Export corpus statistics"),
                                                      "corpus-statistics." + format, exportFilter(format));
    if (!path.isEmpty()) exportTo(path, format);
}

}  // namespace attnscope
