#include "app/tabs/beyond_tab_controller.hpp"

#include <QFileInfo>
#include <QTabWidget>

#include "app/cli_support.hpp"
#include "app/source/latest_request_worker.hpp"
#include "app/source/model_trace_source.hpp"
#include "app/tabs/on_screen_refresh.hpp"
#include "ui/attention/predictions_view.hpp"
#include "ui/common/core_error_text.hpp"
#include "core/io/atomic_file.hpp"
#include "ui/common/qt_text.hpp"
#include "ui/common/fitting_tabs.hpp"

namespace attnscope {

namespace {

struct Computed {
    Result<LogitLens> lens = Error{"", ""};
    Result<LogitAttribution> attribution = Error{"", ""};
    bool cancelled = false;
};

QString positionName(const Trace& trace, int position) {
    return QStringLiteral("%1 %2").arg(position + 1).arg(qs(trace.tokens.at(static_cast<std::size_t>(position)).text));
}

// The grid the view paints: rows "embeddings", "layer 1", …; the labels in the tokenizer's spelling.
LensTable tableOf(const LogitLens& lens, const Trace& trace, const OpenedModel& opened) {
    LensTable t;
    const int layers = static_cast<int>(lens.rows.size()) - 1;
    t.title = (lens.nextToken ? QObject::tr("Logit lens of %1: the tokens each layer's residual stream would predict next "
                                            "at each position, read through the final norm and the output head.")
                              : QObject::tr("Logit lens of %1: what each layer's residual stream would fill in at each "
                                            "[MASK], read through the masked-LM head."))
                  .arg(qs(opened.name));
    for (int l = 0; l <= layers; ++l)
        t.rows << (l == 0 ? QObject::tr("embeddings") : l == layers ? QObject::tr("layer %1 (output)").arg(l) : QObject::tr("layer %1").arg(l));
    for (const int p : lens.positions) t.columns << positionName(trace, p);
    for (const auto& row : lens.rows) {
        std::vector<LensCell> cells;
        for (const auto& scores : row) {
            LensCell cell;
            for (const TokenScore& s : scores) {
                cell.tokens << qs(opened.tokenizer.label(s.id));
                cell.probabilities.push_back(s.probability);
            }
            cells.push_back(std::move(cell));
        }
        t.cells.push_back(std::move(cells));
    }
    return t;
}

}  // namespace

BeyondTabController::BeyondTabController(QTabWidget* tabs, const ModelTraceSource* model,
                                         const PredictionsView* predictions, QObject* parent)
    : QObject(parent), view_(new BeyondView), model_(model), predictions_(predictions),
      worker_(new LatestRequestWorker("attnscope-lens", this)), ranker_(new LatestRequestWorker("attnscope-dla-ablation", this)) {
    setObjectName("beyondTab");
    tabs->addTab(view_, tr("Beyond weights"));
    setShortTabLabel(tabs, view_, tr("Beyond", "short tab label"));
    onScreen_ = std::make_unique<OnScreenRefresh>(tabs, view_, this, [this] { compute(); });
    connect(view_, &BeyondView::requestChanged, this, [this] {
        if (onScreen_->onScreen()) compute();
    });
    connect(view_, &BeyondView::cancelRequested, worker_, &LatestRequestWorker::cancel);
    connect(worker_, &LatestRequestWorker::progress, view_, &BeyondView::showProgress);
    connect(view_, &BeyondView::rankRequested, this, &BeyondTabController::rank);
    connect(view_, &BeyondView::cancelRankingRequested, ranker_, &LatestRequestWorker::cancel);
    connect(ranker_, &LatestRequestWorker::progress, view_, &BeyondView::showRankingProgress);
    connect(view_, &BeyondView::exportRequested, this, [this](BeyondExport kind, const QString& path) {
        if (auto written = exportTo(path, kind); !written) view_->showRankingMessage(coreErrorText(written.error()));
    });
}

BeyondTabController::~BeyondTabController() = default;

bool BeyondTabController::busy() const { return worker_->busy() || ranker_->busy(); }

void BeyondTabController::showRun(bool modelShown) {
    modelShown_ = modelShown;
    worker_->drop();  // results of the previous run no longer apply
    ranker_->drop();
    lens_.reset(), attribution_.reset(), effects_.reset();
    opened_ = modelShown ? model_->model() : nullptr;
    run_ = modelShown ? model_->lastRun() : nullptr;
    if (!opened_ || !run_)
        return view_->showEmpty(modelShown ? tr("No run yet: type a sentence.")
                                           : tr("A lesson has no output head, so there is no vocabulary to read its layers "
                                                "through: the logit lens and direct logit attribution need a model. Open "
                                                "one from Model ▸ Example models."));
    QStringList headings;
    for (const PredictionsView::Group& g : predictions_->groups()) headings << g.heading;
    view_->setPredictions(headings);
    if (onScreen_->onScreen()) compute();
}

// The lens at the view's top-k and the attribution of its chosen prediction, on the worker.
void BeyondTabController::compute() {
    if (!opened_ || !run_) return;
    view_->showProgress(0, 2);
    worker_->submit([this, opened = opened_, run = run_, k = view_->topK(),
                     prediction = view_->chosenPrediction()](const LatestRequestWorker::Request& request) {
        auto out = std::make_shared<Computed>();
        out->lens = logitLens(opened->model, *run, k);
        request.progress(1, 2);
        if (!request.cancelled()) out->attribution = attributeLogit(opened->model, *run, prediction);
        request.progress(2, 2);
        out->cancelled = request.cancelled();
        return [this, run, out] {
            if (run != run_) return;
            if (out->cancelled) return view_->showCancelled(tr("Cancelled; what was shown stays."));
            if (!out->lens) return view_->showEmpty(coreErrorText(out->lens.error()));
            lens_ = std::move(out->lens).value();
            view_->showLens(tableOf(*lens_, run->trace, *opened_));
            effects_.reset();
            attribution_.reset();
            if (!out->attribution) return view_->showAttributionError(coreErrorText(out->attribution.error()));
            attribution_ = std::move(out->attribution).value();
            showAttribution();
        };
    });
}

void BeyondTabController::showAttribution() {
    if (!attribution_) return;
    const auto opened = opened_;
    view_->showAttribution(*attribution_, effects_ ? &*effects_ : nullptr, [opened](int id) { return opened->tokenizer.label(id); });
}

// The ablation ranking of the attributed prediction, beside the attribution.
void BeyondTabController::rank() {
    if (!opened_ || !run_ || !attribution_) return;
    view_->showRankingProgress(0, opened_->layerCount() * opened_->headCount());
    const int prediction = view_->chosenPrediction();
    ranker_->submit([this, opened = opened_, run = run_, prediction](const LatestRequestWorker::Request& request) {
        RunControl control;
        control.cancel = request.cancelFlag();
        control.progress = request.progress;
        auto effects = std::make_shared<Result<HeadEffects>>(rankHeadsByEffect(opened->model, *run, prediction, control));
        return [this, run, effects, cancelled = request.cancelled()] {
            if (run != run_) return;
            if (!*effects) return view_->showRankingMessage(cancelled ? tr("Cancelled.") : coreErrorText(effects->error()));
            effects_ = std::move(*effects).value();
            showAttribution();
        };
    });
}

Result<void> BeyondTabController::exportTo(const QString& path, BeyondExport kind) const {
    const auto nothing = [&] { return Error{path.toStdString(), tr("nothing is shown yet").toStdString()}; };
    if (!opened_ || !run_ || !lens_) return nothing();
    const auto opened = opened_;
    const IdLabel label = [opened](int id) { return opened->tokenizer.label(id); };
    const std::string source = modelShapeText(*opened, Language::English);
    std::string text;
    switch (kind) {
    case BeyondExport::LensPng:
    case BeyondExport::LensSvg: {
        const QByteArray bytes = view_->grid()->figureBytes(kind == BeyondExport::LensPng ? "png" : "svg");
        if (bytes.isEmpty()) return Error{path.toStdString(), tr("cannot draw the figure").toStdString()};
        return writeRegularFileAtomically(path.toStdString(), std::string_view(bytes.constData(), std::size_t(bytes.size())));
    }
    case BeyondExport::LensCsv: text = lensToCsv(*lens_, run_->trace, label); break;
    case BeyondExport::LensJson: text = lensToJson(*lens_, run_->trace, label, source); break;
    case BeyondExport::AttributionCsv:
    case BeyondExport::AttributionJson:
        if (!attribution_) return nothing();
        text = kind == BeyondExport::AttributionCsv ? attributionToCsv(*attribution_, effects_ ? &*effects_ : nullptr)
                                                    : attributionToJson(*attribution_, effects_ ? &*effects_ : nullptr, label, source);
        break;
    }
    return writeRegularFileAtomically(path.toStdString(), text);  // never through a link
}

}  // namespace attnscope
