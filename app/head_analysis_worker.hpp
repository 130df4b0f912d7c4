#pragma once
// The Heads tab's long work, off the GUI thread: evaluating a coreference set (one sentence run
// per example, minutes on a large model) and the head statistics of the sentence on screen.
// Two LatestRequestWorkers (two threads), so the statistics of a newly typed sentence do not
// wait behind an evaluation. Results are re-emitted as signals on the GUI thread; a newer
// request drops what the older one still delivers; a cancelled or failed evaluation leaves the
// last good one in place.
#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "app/sentence_runners.hpp"
#include "core/analysis/coref_eval.hpp"
#include "app/source/latest_request_worker.hpp"
#include "core/analysis/head_stats.hpp"

namespace attnscope {

class HeadAnalysisWorker : public QObject {
    Q_OBJECT
public:
    explicit HeadAnalysisWorker(QObject* parent = nullptr);

    // → evaluations()' progress…, then finished or failed. `description` names
    // what was evaluated ("bert-tiny on english.jsonl") for the view.
    // With `control`: then the same set on the random-weights control it makes (on the worker).
    // `bootstrap`: the intervals' resamples and seed (the control's seed too).
    void evaluate(std::shared_ptr<const CorefSet> set, SentenceRunner run, const QString& description,
                  ControlRunnerFactory control = {}, BootstrapSettings bootstrap = {});
    void cancelEvaluation();  // the running evaluation; the last good one stays
    // Forgets the evaluation (a new model or lesson: its heads are not these) and cancels a run.
    void clearEvaluation();
    bool evaluating() const { return evaluator_->busy(); }
    const JobSignals* evaluations() const { return evaluations_; }  // progress: sentences done
    std::shared_ptr<const CorefEvaluation> evaluation() const { return evaluation_; }
    std::shared_ptr<const CorefSet> evaluatedSet() const { return set_; }  // what evaluation() ran on
    QString evaluationDescription() const { return description_; }
    // The random-weights control of the last evaluation, when one was asked for.
    std::optional<ControlComparison> control() const { return control_; }

    // Head statistics of `trace` (kept alive until done), with the "coreference" label when the
    // last evaluation has the trace's shape. → statisticsReady (only for the latest request).
    // `digests`: a long run's, for the heads `trace` holds no weights of (TraceSource::thumbnails).
    // `norms`: the run's norm-weighted Trace (NormScale) when ready: the first-token share by
    // weight × ‖value‖ too (core's addNormFirstShares).
    void computeStatistics(std::shared_ptr<const Trace> trace, std::shared_ptr<const RunDigests> digests = nullptr,
                           std::shared_ptr<const Trace> norms = nullptr);
    bool computingStatistics() const { return statistician_->busy(); }
    std::shared_ptr<const std::vector<HeadStatistics>> statistics() const { return stats_; }
    // What they were computed on: its size and, under cross-attention, both token lists. Not its
    // Trace, which would stay alive with them (a long run's rebuilt layer, 0.6–1.5 GB at 4,096
    // tokens, that the next layer switch could no longer reuse).
    struct Subject {
        int tokenCount = 0;
        bool crossAttention = false;
        std::vector<Token> tokens, keyTokens;  // cross-attention only
    };
    const Subject* statisticsSubject() const { return statsSubject_.get(); }

signals:
    void statisticsReady();

private:
    struct Delivery;
    void deliverEvaluation(const Delivery& delivery);

    // Children: destroyed with this, each cancels what it runs and waits for its thread.
    LatestRequestWorker* evaluator_ = nullptr;
    LatestRequestWorker* statistician_ = nullptr;
    JobSignals* evaluations_ = nullptr;

    std::shared_ptr<const CorefEvaluation> evaluation_;
    std::shared_ptr<const CorefSet> set_;
    std::optional<ControlComparison> control_;
    QString description_;
    std::shared_ptr<const Trace> requestedTrace_;  // the latest request
    std::shared_ptr<const RunDigests> requestedDigests_;
    std::shared_ptr<const Trace> requestedNorms_;
    std::shared_ptr<const Subject> statsSubject_;  // what stats_ describe
    std::shared_ptr<const std::vector<HeadStatistics>> stats_;
};

}  // namespace attnscope
