#pragma once
// A pretrained model as a TraceSource: opened and run off the GUI thread by a ModelWorker
// (latest request wins, progress per layer, cancel). The worked example walks one layer, rebuilt
// in full detail by the worker; the model's views, predictions and attention options are offered.
#include "app/source/trace_source.hpp"
#include "core/source/model_session.hpp"

namespace attnscope {

class ModelWorker;

class ModelTraceSource : public TraceSource {
    Q_OBJECT
public:
    explicit ModelTraceSource(QObject* parent = nullptr);

    // → opened (the model is ready, nothing run yet) or openFailed; the previous model stays
    // until then.
    void open(const QString& pathOrId);
    ModelWorker* worker() const { return worker_; }
    std::shared_ptr<const OpenedModel> model() const;
    std::shared_ptr<const ModelRun> lastRun() const { return shown_; }
    int layerCount() const;

    bool offers(Offer offer) const override { return offer != Offer::LessonEditor && offer != Offer::Stages; }
    QString kindName() const override { return tr("model"); }
    QString name() const override;
    QString shortName() const override;
    QString title() const override { return tr("Model: %1").arg(name()); }
    QString description() const override;
    QString descriptionToolTip() const override;
    QString origin() const override;
    QString sentencePlaceholder() const override;
    QString openingSentence(const QString& typed) const override;
    int decimals() const override { return 3; }
    void run(const QString& sentence, int layer) override;
    void setAblation(std::vector<HeadRef> heads) override;
    void cancel() override;
    bool running() const override;
    void showLayer(int layer) override;
    void close() override;
    std::shared_ptr<const Trace> trace() const override;
    std::shared_ptr<const Trace> workedTrace() const override;
    std::shared_ptr<const Trace> earlyTrace() const override;
    void setEarlyHeads(std::vector<int> heads) override { earlyHeads_ = std::move(heads); }
    int workedLayer(int layer) const override;
    int drawnLayer(int layer) const override;
    std::shared_ptr<const RunDigests> thumbnails() const override;
    std::shared_ptr<const Trace> statisticsTrace() const override;
    bool cheapToShow() const override { return false; }
    SentenceRunner sentenceRunner(std::vector<HeadRef> ablate = {}) const override;
    NormSentenceRunner normSentenceRunner(std::vector<HeadRef> ablate = {}) const override;
    StatesSentenceRunner statesRunner(std::vector<HeadRef> ablate = {}) const override;
    ControlRunnerFactory controlRunner(std::uint32_t seed) const override;
    void showPredictions(PredictionsView& view) const override;
    NormJob normWeighting() const override;

signals:
    void opened();
    void openFailed(const QString& message);

private:
    static QString place(const OpenedModel& m);  // the folder, or "example shipped with AttnScope"
    void onRunFinished();
    void onDetailReady();
    bool takeDetail();  // the worker's newer detail Trace, if any
    void rebuildLayerLetGo();
    bool longRun() const { return shown_ && shown_->isLong(); }
    std::shared_ptr<const Trace> digestsOnly() const;  // a long run's layers without weights

    ModelWorker* worker_ = nullptr;
    // Kept alive while views point into them; replaced only once a newer result is shown.
    std::shared_ptr<const ModelRun> shown_;
    std::shared_ptr<const Trace> detail_;
    std::vector<HeadRef> ablate_;  // for every run until another model opens
    std::vector<int> earlyHeads_;
    int letGo_ = -1;  // a long run's layer let go for a switch not yet in (-1: none)
};

}  // namespace attnscope
