#pragma once
// What the window shows: a source that produces a Trace for the sentence box. Lessons and models
// today; cross-attention pairs, ablated runs or compared sentences tomorrow. A slow source runs
// off the GUI thread (a LatestRequestWorker) with progress and cancel; a fast one answers at once.
// The window never asks which kind of source it holds: it reacts to the signals, asks offers()
// which panels to show, and lets the source fill the panels only it understands.
#include <QObject>
#include <QString>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "app/sentence_runners.hpp"
#include "core/analysis/coref_eval.hpp"
#include "core/analysis/norm_attention.hpp"
#include "core/lesson/run_encoder_decoder.hpp"
#include "core/trace/head_digest.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

class PredictionsView;
class StageBar;

class TraceSource : public QObject {
    Q_OBJECT
public:
    // Panels and controls beyond the ones every source has (steps, heatmap, coreference, heads).
    enum class Offer {
        LessonEditor,      // the Edit lesson tab (the source's weights can be edited in place)
        ModelViews,        // the Model view and Head view tabs
        Predictions,       // the predictions panel beside the tabs
        AttentionOptions,  // hide special tokens, renormalise, aggregate heads, colour scale
        WordPieces,        // tokens shown as word pieces (PieceStrip) instead of token chips
        Stages,            // an encoder–decoder's stage choice and teacher-forcing table (StageBar)
    };

    using QObject::QObject;

    virtual bool offers(Offer offer) const = 0;
    virtual QString kindName() const = 0;     // "lesson", "model": for "the previous … stays open"
    virtual QString name() const = 0;         // for the window title
    virtual QString shortName() const = 0;    // for analyses ("bert-tiny on english.jsonl")
    virtual QString title() const = 0;        // the heading above the sentence box
    virtual QString description() const = 0;
    virtual QString descriptionToolTip() const { return {}; }
    virtual QString origin() const = 0;       // where it was opened from, for "Opened …"
    virtual QString sentencePlaceholder() const = 0;
    // The sentence box once the source opens, given what was typed there.
    virtual QString openingSentence(const QString& typed) const = 0;
    virtual int decimals() const = 0;         // digits the views print

    // Runs `sentence`, with `layer` (0-based) shown in the worked example.
    // → runStarted, progress… (earlyTraceReady), then traceChanged (and workedTraceChanged) or runFailed.
    virtual void run(const QString& sentence, int layer) = 0;
    // Runs the last sentence again with these heads switched off (0-based, heads that exist; empty:
    // none) and keeps them for the next runs → as run(). Opening another lesson or model: none.
    virtual void setAblation(std::vector<HeadRef> heads) = 0;
    virtual void cancel() {}
    virtual bool running() const { return false; }
    // Another layer in the worked example → workedTraceChanged (at once or later).
    virtual void showLayer(int layer) = 0;
    // Called when the source stops being shown: stop work, let go of big results.
    virtual void close() {}

    // Every layer of the last good run; null before the first one.
    virtual std::shared_ptr<const Trace> trace() const = 0;
    // What the worked example walks, and which of its layers shows window layer `layer`.
    virtual std::shared_ptr<const Trace> workedTrace() const = 0;
    virtual int workedLayer(int layer) const = 0;
    // The layer of trace() the attention views draw for window layer `layer`: itself, except in a
    // long run, whose trace holds the weights of one layer at most: the one asked for last (without
    // weights until it is rebuilt; after a cancelled switch, the layer shown before, rebuilt again).
    virtual int drawnLayer(int layer) const { return layer; }
    // A run still going, as far as the layer `layer` of earlyTraceReady(layer): every other layer
    // without weights; or a long run's layer switch with the early heads alone rebuilt. The
    // heatmap draws it first; the other views wait for trace().
    virtual std::shared_ptr<const Trace> earlyTrace() const { return nullptr; }
    // The heads (0-based) the heatmap draws, for the next runs and layer switches: all a run can
    // afford to hand over early of a shown layer too large to copy, and what a long run's switch
    // rebuilds first (empty: none of it).
    virtual void setEarlyHeads(std::vector<int> /*heads*/) {}
    // A long run's thumbnails and statistics' sums of the heads trace() holds no weights of
    // (core/model/long_run.hpp); null for every other run.
    virtual std::shared_ptr<const RunDigests> thumbnails() const { return nullptr; }
    // What the Heads tab's statistics read: trace(), but a long run's without the layer rebuilt
    // in it (the digests hold every head's sums). A statistics job still running at a layer
    // switch held that layer, so the next one was rebuilt in fresh pages beside it: 3.7 s and
    // 1.60 × the file for Llama-3.2-1B at 4,096 tokens, against 0.8 s and 1.06 ×.
    virtual std::shared_ptr<const Trace> statisticsTrace() const { return trace(); }
    // True when every view may follow each run at once; false: views off screen catch up when
    // their tab opens (at 512 tokens each rebuild of a multi-head view costs more than a frame).
    virtual bool cheapToShow() const = 0;

    // Runs any sentence the way run() does, for coreference evaluation on a worker thread;
    // `ablate`: with these heads switched off (the Compare tab's B follows A's ablation).
    virtual SentenceRunner sentenceRunner(std::vector<HeadRef> ablate = {}) const = 0;
    // The same sentence's norm-weighted Trace (the Compare tab's B under "weight × ‖value‖").
    virtual NormSentenceRunner normSentenceRunner(std::vector<HeadRef> ablate = {}) const = 0;
    // The same sentence's Trace and residual states (the X → Y tab's sentences A and B).
    virtual StatesSentenceRunner statesRunner(std::vector<HeadRef> ablate = {}) const = 0;
    // The random-weights control's runner: the model with its weights shuffled (seed `seed`). Empty
    // for sources without weights to shuffle (lessons). Call it on a worker thread: it copies the weights.
    virtual ControlRunnerFactory controlRunner(std::uint32_t /*seed*/) const { return {}; }
    // How to make the last run's norm-weighted Trace (the views' "weight × ‖value‖"), called on a
    // worker thread. By default from trace() itself, which then keeps every layer in full detail
    // (a lesson's does); a model recomputes the layers its run kept as weights only.
    using NormJob = std::function<Result<Trace>(const RunControl&)>;
    virtual NormJob normWeighting() const {
        auto shown = trace();
        if (!shown) return {};
        return [shown](const RunControl&) { return normWeightedTrace(*shown); };
    }
    // Sources that offer Predictions fill the panel from their last run.
    virtual void showPredictions(PredictionsView& /*view*/) const {}
    // Sources that offer Stages fill the bar from their last run, and show another stage's Trace
    // on setStage (→ traceChanged and workedTraceChanged, or runFailed with the state kept).
    virtual void showStages(StageBar& /*bar*/) const {}
    virtual void setStage(EncoderDecoderStage /*stage*/) {}
    // Why the Compare tab's sentence B cannot change what is shown (the tab's tooltip while it is
    // disabled); empty: it can.
    virtual QString compareUnavailable() const { return {}; }
    // Why the Heads tab cannot rank heads on a coreference set here (Evaluate's tooltip while it is
    // disabled); empty: it can.
    virtual QString corefEvaluationUnavailable() const { return {}; }

signals:
    void runStarted();
    void progress(int done, int total);
    void traceChanged();
    void workedTraceChanged();
    void earlyTraceReady(int layer);  // a run still going has computed `layer` (earlyTrace)
    void runFailed(const QString& message, bool cancelled);  // message: ready for the user
};

}  // namespace attnscope
