#include "app/tabs/movement_tab_controller.hpp"

#include <QFileInfo>
#include <QTabWidget>
#include <qcustomplot.h>

#include "app/source/latest_request_worker.hpp"
#include "app/tabs/on_screen_refresh.hpp"
#include "ui/common/core_error_text.hpp"
#include "ui/common/core_language.hpp"
#include "ui/common/file_write.hpp"
#include "ui/common/plot_bytes.hpp"
#include "ui/common/qt_text.hpp"
#include "ui/lab/lab_plots.hpp"
#include "ui/lab/worksheet_export.hpp"
#include "ui/movement/same_word_panel.hpp"
#include "ui/common/fitting_tabs.hpp"

namespace attnscope {

namespace {

// What one request computed, handed to the GUI thread.
struct Computed {
    std::shared_ptr<const StatesRun> a, b;
    bool newA = false;
    std::optional<Result<TokenMovement>> movement;
    QString errorA, errorB;
    bool cancelled = false;
};

std::shared_ptr<const StatesRun> runShared(const StatesSentenceRunner& runner, const QString& sentence, int detail,
                                           const RunControl& control, QString& error) {
    auto run = runner(sentence.toStdString(), detail, control);
    if (!run) return error = coreErrorText(run.error()), nullptr;
    return std::make_shared<const StatesRun>(std::move(run).value());
}

QStringList qtList(const std::vector<std::string>& texts) {
    QStringList out;
    for (const std::string& t : texts) out << qs(t);
    return out;
}

}  // namespace

MovementTabController::MovementTabController(QTabWidget* tabs, QObject* parent)
    : QObject(parent), view_(new MovementView), worker_(new LatestRequestWorker("attnscope-movement", this)) {
    setObjectName("movementTab");
    tabs->addTab(view_, tr("X → Y"));
    setShortTabLabel(tabs, view_, tr("X → Y", "short tab label"));  // the Chinese label explains itself in brackets
    tabs->setTabToolTip(tabs->indexOf(view_), tr("What attention did to each word: its vector before and after, and where its new content came from"));
    onScreen_ = std::make_unique<OnScreenRefresh>(tabs, view_, this, [this] { compute(); });
    connect(view_, &MovementView::layerChosen, this, &MovementTabController::compute);
    connect(view_, &MovementView::cancelRequested, worker_, &LatestRequestWorker::cancel);
    connect(worker_, &LatestRequestWorker::progress, view_, &MovementView::showProgress);
    connect(view_->sameWord(), &SameWordPanel::tokensChosen, this, &MovementTabController::chooseTokens);
    connect(view_, &MovementView::exportRequested, this, [this](MovementExport kind, const QString& path) {
        if (auto written = exportTo(path, kind); !written) view_->showMessage(coreErrorText(written.error()));
    });
}

MovementTabController::~MovementTabController() = default;

bool MovementTabController::busy() const { return worker_->busy(); }

void MovementTabController::show(StatesSentenceRunner runner, const QString& sentence, const QString& sourceName,
                                 int layers, int decimals) {
    worker_->drop();  // results of the previous run no longer apply
    runner_ = std::move(runner);
    sentenceA_ = sentence, source_ = sourceName.toStdString(), decimals_ = decimals;
    a_.reset(), b_.reset(), movement_.reset(), curve_.reset(), tokens_.reset();
    view_->setLayerCount(layers);
    compute();
}

void MovementTabController::sourceChanged() {
    worker_->drop();
    runner_ = {};
    a_.reset(), b_.reset(), movement_.reset(), curve_.reset(), tokens_.reset();
    view_->showEmpty(tr("No run yet: type a sentence."));
}

void MovementTabController::setSentenceB(const QString& sentence) {
    if (sentence.trimmed() == sentenceB_) return;
    sentenceB_ = sentence.trimmed();
    b_.reset(), curve_.reset(), tokens_.reset();
    compute();
}

// A at the chosen layer (run again unless the last run kept that layer) and B (unless run), on the worker.
void MovementTabController::compute() {
    if (!runner_ || !onScreen_->onScreen()) return;
    const std::optional<int> layer = view_->chosenLayer();
    auto a = a_ && (!layer || aLayer_ == layer) ? a_ : nullptr;
    const QString sentenceB = sentenceB_;
    auto b = sentenceB.isEmpty() ? nullptr : b_;
    view_->showProgress(0, 0);
    worker_->submit([this, runner = runner_, sentenceA = sentenceA_, sentenceB, layer, a, b](const LatestRequestWorker::Request& request) {
        auto out = std::make_shared<Computed>();
        RunControl control;
        control.cancel = request.cancelFlag();
        control.progress = request.progress;
        out->a = a ? a : runShared(runner, sentenceA, layer.value_or(-1), control, out->errorA);
        out->newA = !a;
        if (out->a) out->movement = tokenMovement(out->a->trace, out->a->states, layer);
        out->b = b;
        if (out->a && !b && !sentenceB.isEmpty()) out->b = runShared(runner, sentenceB, -1, control, out->errorB);
        out->cancelled = request.cancelled();
        return [this, out, layer] {
            if (out->cancelled) return view_->showMessage(tr("Cancelled; what was shown stays."));
            if (!out->a) return view_->showEmpty(tr("Sentence A could not be run: %1").arg(out->errorA));
            if (out->newA) a_ = out->a, aLayer_ = layer;
            if (out->b != b_) {
                b_ = out->b, tokens_.reset();
                if (b_) view_->showSameWordPage();
            }
            if (!*out->movement) view_->showEmpty(coreErrorText(out->movement->error()));
            else movement_ = std::move(*out->movement).value(), view_->showMovement(*movement_, a_->trace, a_->output, decimals_);
            if (!out->errorB.isEmpty()) return view_->sameWord()->showMessage(tr("B could not be run: %1").arg(out->errorB));
            showCurve();
        };
    });
}

// The curve of the chosen words (by default the same word in both), on the GUI thread: L+1 cosines.
void MovementTabController::showCurve() {
    curve_.reset();
    if (!a_ || !b_)
        return view_->sameWord()->showMessage(tr("The same word in two contexts: type a second sentence (B) in the Compare "
                                                 "tab; one word of each is compared here, layer by layer."));
    if (!tokens_) tokens_ = sameWordDefault(*a_, *b_).value_or(std::make_pair(0, 0));
    view_->sameWord()->setTokens(tokenLabels(a_->trace), tokenLabels(b_->trace), tokens_->first, tokens_->second);
    auto curve = sameWordCurve(a_->trace, a_->states, tokens_->first, b_->trace, b_->states, tokens_->second);
    if (!curve) return view_->sameWord()->showMessage(coreErrorText(curve.error()));
    curve_ = std::move(curve).value();
    const QStringList states = qtList(stateNames(a_->trace.layerCount(), coreLanguage()));
    view_->sameWord()->showCurve(*curve_, states, sentenceB_, decimals_);
}

void MovementTabController::chooseTokens(int a, int b) {
    if (a < 0 || b < 0) return;
    tokens_ = std::make_pair(a, b);
    showCurve();
}

Result<void> MovementTabController::exportTo(const QString& path, MovementExport kind) const {
    const auto nothing = [&] { return Error{path.toStdString(), tr("nothing is shown yet").toStdString()}; };
    const bool curveKind = kind == MovementExport::CurvePng || kind == MovementExport::CurveSvg ||
                           kind == MovementExport::CurveCsv || kind == MovementExport::CurveJson;
    if (curveKind ? !curve_ : !movement_ || !a_) return nothing();
    if (kind == MovementExport::Worksheet) return exportWorksheet(path);
    QCustomPlot* plot = curveKind ? view_->sameWord()->builder().plot() : view_->bars().plot();
    const QSize size = plot->size().isEmpty() ? QSize(800, 500) : plot->size();
    QByteArray bytes;
    switch (kind) {
    case MovementExport::BarsPng:
    case MovementExport::CurvePng: bytes = plotFigureBytes(plot, size, QFileInfo(path).completeBaseName(), "png"); break;
    case MovementExport::BarsSvg:
    case MovementExport::CurveSvg: bytes = plotFigureBytes(plot, size, QFileInfo(path).completeBaseName(), "svg"); break;
    case MovementExport::MovementCsv: bytes = QByteArray::fromStdString(movementToCsv(*movement_, a_->trace)); break;
    case MovementExport::MovementJson: bytes = QByteArray::fromStdString(movementToJson(*movement_, a_->trace, source_)); break;
    case MovementExport::CurveCsv: bytes = QByteArray::fromStdString(sameWordToCsv(*curve_)); break;
    case MovementExport::CurveJson: bytes = QByteArray::fromStdString(sameWordToJson(*curve_, source_)); break;
    case MovementExport::Worksheet: break;  // written above
    }
    if (bytes.isEmpty()) return Error{path.toStdString(), tr("cannot draw the figure").toStdString()};
    return writeFileAtomically(path, bytes);  // never through a link
}

// The chosen word's worksheet of what is shown, with the sources the table lists.
Result<void> MovementTabController::exportWorksheet(const QString& path) const {
    const auto make = [this](WorksheetFormat format) {
        return movementWorksheet(*movement_, a_->trace, view_->chosenWord(), view_->sourcesShown(), decimals_, format,
                                 view_->sheetPhrases());
    };
    return saveWorksheetWith(make, tr("What attention did to each word"), path);
}

}  // namespace attnscope
