#include "app/source/model_trace_source.hpp"

#include <QDir>
#include <QFileInfo>
#include <utility>

#include "app/model_worker.hpp"
#include "app/sentence_runners.hpp"
#include "core/source/example_models.hpp"
#include "core/trace/ablation.hpp"
#include "ui/attention/predictions_view.hpp"
#include "ui/common/core_language.hpp"
#include "ui/common/qt_text.hpp"

namespace attnscope {

ModelTraceSource::ModelTraceSource(QObject* parent) : TraceSource(parent), worker_(new ModelWorker(this)) {
    setObjectName("modelSource");
    worker_->setObjectName("modelWorker");
    connect(worker_, &ModelWorker::modelOpened, this, [this] {
        shown_.reset();  // the previous model's run
        ablate_.clear();
        detail_.reset();
        emit opened();
    });
    connect(worker_, &ModelWorker::openFailed, this, &ModelTraceSource::openFailed);
    const JobSignals* runs = worker_->runs();
    connect(runs, &JobSignals::started, this, &TraceSource::runStarted);
    connect(runs, &JobSignals::progress, this, &TraceSource::progress);
    connect(runs, &JobSignals::finished, this, &ModelTraceSource::onRunFinished);
    connect(runs, &JobSignals::failed, this, [this](const QString& message, bool cancelled) {
        rebuildLayerLetGo();  // before the window puts the layer box on drawnLayer
        emit runFailed(cancelled ? message
                                 : tr("The sentence could not be run (%1); the previous result stays shown.").arg(message),
                       cancelled);
    });
    connect(worker_, &ModelWorker::detailReady, this, &ModelTraceSource::onDetailReady);
    connect(worker_, &ModelWorker::earlyTraceReady, this, &TraceSource::earlyTraceReady);
}

void ModelTraceSource::open(const QString& pathOrId) { worker_->openModel(pathOrId); }

std::shared_ptr<const OpenedModel> ModelTraceSource::model() const { return worker_->model(); }
int ModelTraceSource::layerCount() const { return model() ? model()->layerCount() : 0; }

// A folder shows as its own name, a cache id as typed.
QString ModelTraceSource::name() const {
    if (!model()) return {};
    const QFileInfo info(qs(model()->name));
    return info.isDir() ? QDir(info.absoluteFilePath()).dirName() : qs(model()->name);
}

QString ModelTraceSource::shortName() const { return model() ? QFileInfo(qs(model()->name)).fileName() : QString(); }

QString ModelTraceSource::description() const {
    const auto m = model();
    if (!m) return {};
    const TransformerConfig& c = m->model.config;
    return tr("%1 · %2 layers × %3 heads · d = %4 · vocabulary %5 · %6 tokenizer · %7")
        .arg(qs(familyName(c.family)))
        .arg(c.layers)
        .arg(c.heads)
        .arg(c.width)
        .arg(c.vocabSize)
        .arg(qs(m->tokenizer.kind()), place(*m));
}

// A shipped example is named, not located: its folder is where this installation keeps it.
QString ModelTraceSource::place(const OpenedModel& m) {
    const bool example = isExampleModelName(m.name) && !QFileInfo(qs(m.name)).isDir();  // a folder of that name wins
    return example ? tr("example shipped with AttnScope") : qs(m.folder);
}

// Loading remarks ("decoder tied to the embeddings") are facts, not warnings: a tooltip.
QString ModelTraceSource::descriptionToolTip() const {
    QStringList remarks;
    if (model())
        for (const std::string& n : noticeTexts(model()->notices, coreLanguage())) remarks << qs(n);
    return remarks.join("\n");
}

QString ModelTraceSource::sentencePlaceholder() const {
    return model() && predictsNextToken(model()->family())
               ? tr("Type the start of a sentence; the model predicts what comes next.")
               : tr("Type a sentence; write [MASK] where the model should fill in a word.");
}

QString ModelTraceSource::origin() const { return model() ? qs(model()->folder) : QString(); }

// What was typed, else a sentence the family can answer.
QString ModelTraceSource::openingSentence(const QString& typed) const {
    if (!typed.trimmed().isEmpty()) return typed;
    return model() && predictsNextToken(model()->family()) ? QStringLiteral("the cat sat")
                                                           : QStringLiteral("the [MASK] sat");
}

void ModelTraceSource::run(const QString& sentence, int layer) {
    if (worker_->model()) worker_->run(sentence, layer, ablate_, earlyHeads_);
}

// The sentence of the last run, with the worked example's layer.
void ModelTraceSource::setAblation(std::vector<HeadRef> heads) {
    ablate_ = std::move(heads);
    if (worker_->model()) worker_->run(worker_->lastSentence(), worker_->detailLayer(), ablate_, earlyHeads_);
}

void ModelTraceSource::cancel() { worker_->cancel(); }
bool ModelTraceSource::running() const { return worker_->running(); }

// A long run holds one rebuilt layer: the one on screen is let go before the asked one is rebuilt,
// which then takes its buffers. Holding both till the swap was the peak (1.7 × Llama-3.2-1B's
// file at 4,096 tokens) and made the first switch fault in 1.3 GB (bench/README.md, "One layer at
// a switch"). Meanwhile the views draw the asked layer from the run's digests (also when another
// switch is still rebuilding: the newest request wins).
void ModelTraceSource::showLayer(int layer) {
    if (!shown_) return;
    if (longRun() && worker_->detailTraceLayer() != layer) {
        if (detail_) letGo_ = worker_->detailTraceLayer();
        worker_->letGoOfDetail(layer);
        detail_.reset();
        emit traceChanged();
        emit workedTraceChanged();
    }
    worker_->showLayerInDetail(layer, earlyHeads_);
}

// Cancels a run still going; the views keep what they show until they are given another trace.
void ModelTraceSource::close() {
    worker_->clear();
    shown_.reset();
    detail_.reset();
}

// A long run's layers hold digests: its trace is the detail Trace, every layer with the shown one rebuilt.
std::shared_ptr<const Trace> ModelTraceSource::trace() const {
    if (longRun()) return detail_ ? detail_ : digestsOnly();
    return shown_ ? std::shared_ptr<const Trace>(shown_, &shown_->trace) : nullptr;
}

std::shared_ptr<const Trace> ModelTraceSource::workedTrace() const { return longRun() ? trace() : detail_; }

std::shared_ptr<const Trace> ModelTraceSource::earlyTrace() const { return worker_->earlyTrace(); }

std::shared_ptr<const Trace> ModelTraceSource::digestsOnly() const { return std::shared_ptr<const Trace>(shown_, &shown_->trace); }

std::shared_ptr<const Trace> ModelTraceSource::statisticsTrace() const { return longRun() ? digestsOnly() : trace(); }

std::shared_ptr<const RunDigests> ModelTraceSource::thumbnails() const {
    return longRun() ? std::shared_ptr<const RunDigests>(shown_, &shown_->digests) : nullptr;
}

// The detail Trace holds one layer, or a long run's every layer (the rebuilt one where it stands).
int ModelTraceSource::workedLayer(int /*layer*/) const { return longRun() ? worker_->detailTraceLayer() : 0; }

int ModelTraceSource::drawnLayer(int layer) const { return longRun() ? worker_->detailTraceLayer() : layer; }

SentenceRunner ModelTraceSource::sentenceRunner(std::vector<HeadRef> ablate) const {
    return model() ? modelSentenceRunner(model(), -1, std::move(ablate)) : SentenceRunner{};
}

NormSentenceRunner ModelTraceSource::normSentenceRunner(std::vector<HeadRef> ablate) const {
    return model() ? modelNormSentenceRunner(model(), std::move(ablate)) : NormSentenceRunner{};
}

StatesSentenceRunner ModelTraceSource::statesRunner(std::vector<HeadRef> ablate) const {
    return model() ? modelStatesRunner(model(), std::move(ablate)) : StatesSentenceRunner{};
}

ControlRunnerFactory ModelTraceSource::controlRunner(std::uint32_t seed) const {
    const auto opened = model();
    if (!opened) return {};
    return [opened, seed]() -> Result<SentenceRunner> {
        auto shuffled = withShuffledWeights(*opened, seed);
        if (!shuffled) return shuffled.error();
        return modelSentenceRunner(std::make_shared<const OpenedModel>(std::move(shuffled).value()));
    };
}

void ModelTraceSource::showPredictions(PredictionsView& view) const {
    const auto m = model();
    if (!m || !shown_) return view.clear();
    const auto label = [m](int id) { return m->tokenizer.label(id); };
    const auto plain = worker_->plainPredictions();
    if (ablatedHeads(shown_->trace).empty() || !plain || shown_ != worker_->lastRun())
        return view.showPredictions(*shown_, predictsNextToken(m->family()), label);
    view.showChanges(*shown_, comparePredictions(*plain, shown_->predictions), predictsNextToken(m->family()), label);
}

// A long run's switch cancelled or failed: the layer let go for it is rebuilt (once), so that
// Cancel goes back to the layer shown before, as when both were held.
void ModelTraceSource::rebuildLayerLetGo() {
    if (!longRun() || detail_ || letGo_ < 0) return;
    const int layer = std::exchange(letGo_, -1);
    worker_->letGoOfDetail(layer);  // the layer the views are about to draw again
    worker_->showLayerInDetail(layer, earlyHeads_);
}

void ModelTraceSource::onRunFinished() {
    letGo_ = -1;
    shown_ = worker_->lastRun();
    const bool newDetail = takeDetail();
    emit traceChanged();
    if (newDetail) emit workedTraceChanged();
}

void ModelTraceSource::onDetailReady() {
    if (!takeDetail()) return;
    letGo_ = -1;
    if (longRun()) emit traceChanged();  // the shown layer is part of a long run's trace
    emit workedTraceChanged();
}

// The worker's detail Trace, also none: a run whose shown layer is rebuilt after it (beyond
// 128 tokens) has none until then, and the previous sentence's must not stand for it.
bool ModelTraceSource::takeDetail() {
    const auto detail = worker_->detailTrace();
    if (detail == detail_ || (!detail && longRun())) return false;
    detail_ = detail;
    return true;
}

TraceSource::NormJob ModelTraceSource::normWeighting() const {
    const auto opened = model();
    // A long run holds no layer's weights beyond the budget; all layers' norms would break it.
    if (!opened || !shown_ || longRun()) return {};
    return [opened, run = shown_](const RunControl& control) { return normWeightedTrace(opened->model, *run, control); };
}

}  // namespace attnscope
