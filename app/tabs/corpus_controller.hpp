#pragma once
// The Heads tab's corpus statistics (issue 14 §3): runs every sentence of a text file through
// the open source (lesson or model: its sentence runner) on a LatestRequestWorker, reading the
// file there too; tells the CorpusPanel its progress, the time left (core's estimate from the
// rate so far), the result or the error. A new file drops the running one; a failed or cancelled
// run leaves the last good result on screen. Exports the figure (png, svg, pdf) and the
// statistics (csv, json: core's corpusStatsToCsv / Json), atomically.
#include <QString>
#include <atomic>
#include <functional>
#include <memory>

#include "app/reporting_part.hpp"
#include "core/analysis/corpus_stats.hpp"

namespace attnscope {

class CorpusPanel;
class JobSignals;
class LatestRequestWorker;
class TraceSource;

class CorpusController : public ReportingPart {
    Q_OBJECT
public:
    CorpusController(CorpusPanel* panel, QObject* parent = nullptr);

    void setSource(const TraceSource* source);  // a new lesson, model or edit: drops the run and the result
    void run(const QString& path);              // a text file, one sentence a line
    void cancel();                              // the running one; the last result stays
    bool exportTo(const QString& path, const QString& format);  // "png", "svg", "pdf", "csv", "json"
    bool busy() const;
    const JobSignals* jobs() const { return jobs_; }  // progress: sentences done of total
    QString description() const { return description_; }  // of the result shown

    // The result shown and the file it came from. View ▸ Language rebuilds the window: the new
    // controller shows the old one's result, worded in the new language, instead of dropping it.
    struct Shown {
        std::shared_ptr<const CorpusStats> stats;
        QString fileName;
    };
    Shown shown() const;
    void show(const Shown& shown);  // nothing when shown.stats is null

private:
    struct Delivery;
    void deliver(const Delivery& delivery);
    void exportDialog(const QString& format);
    QByteArray exportBytes(const QString& format) const;

    CorpusPanel* panel_;
    const TraceSource* source_ = nullptr;
    LatestRequestWorker* worker_;
    JobSignals* jobs_;
    std::shared_ptr<std::atomic<double>> secondsLeft_;  // the latest request's estimate
    QString description_;                               // "bert-tiny on corpus.txt", of the result shown
    QString fileName_;                                  // "corpus.txt", of the result shown
};

}  // namespace attnscope
