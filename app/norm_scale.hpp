#pragma once
// The attention views' "Weight × ‖value‖" check box (ui/attention/attention_controls.hpp): the
// run's Trace with every head's weights replaced by its norm-based shares (core's
// normWeightedTrace; a model's layers are recomputed in full detail one by one), made on a
// LatestRequestWorker with progress per layer and cancel; a newer run drops an older one's. Until it
// is ready the views keep the weights (and say so). With View ▸ Attention between words on, its
// word-level Trace is made on the same thread.
#include <QObject>
#include <functional>
#include <memory>

#include "core/base/result.hpp"
#include "core/model/transformer.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

class AttentionControls;
class LatestRequestWorker;

class NormScale : public QObject {
    Q_OBJECT
public:
    // Computes the norm-weighted Trace of the run on screen (on the worker; cancel and progress
    // through the RunControl). Empty: the source has none to offer.
    using Job = std::function<Result<Trace>(const RunControl&)>;

    explicit NormScale(QObject* parent = nullptr);

    // The controls' check box switches this on and off, shows its progress and Cancel, and returns
    // to the weights when it fails or is cancelled; a rebuilt row (a language switch) shows the choice kept.
    void attach(AttentionControls* controls);
    void setOn(bool on);
    bool on() const { return on_; }
    // A new run (`weights`, every layer) and how to make its norm-weighted Trace.
    void setTrace(std::shared_ptr<const Trace> weights, Job job);
    // The norm-weighted Trace of `weights` (between words when `words`) when on and ready; else null.
    std::shared_ptr<const Trace> shown(const std::shared_ptr<const Trace>& weights, bool words) const;
    void cancel();
    bool busy() const;

signals:
    void started();
    void progress(int done, int total);
    void changed();                        // ready (or dropped): the views draw again
    void failed(const QString& message, bool cancelled);

private:
    void compute();

    bool on_ = false;
    LatestRequestWorker* worker_ = nullptr;
    std::shared_ptr<const Trace> weights_;
    Job job_;
    std::shared_ptr<const Trace> norms_, words_;  // weights_'s, once ready (words_: null without multi-piece words)
};

}  // namespace attnscope
