// The open TraceSource and what it shows: opening lessons and models, running the sentence box,
// handing each new Trace to the labels, the tabs and the source's own panels. Nothing here asks
// which kind of source is open: the source answers offers() and fills what only it understands.
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include "app/lab_window.hpp"
#include "app/lesson_document.hpp"
#include "app/recent_files.hpp"
#include "app/lesson_source.hpp"
#include "app/loading_cover.hpp"
#include "app/presentation.hpp"
#include "app/main_window.hpp"
#include "app/main_window_parts.hpp"
#include "app/source/lesson_trace_source.hpp"
#include "app/source/model_trace_source.hpp"
#include "app/tabs/compare_tab_controller.hpp"
#include "ui/compare/compare_view.hpp"
#include "app/tabs/coref_tab_controller.hpp"
#include "app/tabs/heads_tab.hpp"
#include "app/tabs/qk_tab_controller.hpp"
#include "app/norm_scale.hpp"
#include "app/tabs/beyond_tab_controller.hpp"
#include "app/tabs/movement_tab_controller.hpp"
#include "app/word_level_switch.hpp"
#include "core/trace/ablation.hpp"
#include "ui/common/core_language.hpp"
#include "ui/attention/attention_controls.hpp"
#include "ui/common/folding_text.hpp"
#include "ui/common/job_progress.hpp"
#include "ui/attention/trace_tab.hpp"
#include "ui/attention/head_view.hpp"
#include "ui/attention/heatmap_view.hpp"
#include "ui/editor/lesson_editor.hpp"
#include "ui/step/matrix_panel.hpp"
#include "ui/attention/model_view.hpp"
#include "ui/attention/piece_strip.hpp"
#include "app/tabs/head_effect_controller.hpp"
#include "ui/attention/head_effect_box.hpp"
#include "ui/heads/heads_panel.hpp"
#include "ui/attention/predictions_view.hpp"
#include "ui/step/worked_example.hpp"
#include "ui/step/stage_bar.hpp"
#include "ui/step/step_navigator.hpp"
#include "ui/step/token_strip.hpp"
#include "ui/common/core_error_text.hpp"

namespace attnscope {

using Offer = TraceSource::Offer;

// Signals of a source that is not on screen (a model still loading, a lesson underneath) are
// ignored: only source_ reaches the views.
void MainWindow::connectSource(TraceSource* source) {
    const auto shown = [this, source] { return source == source_; };
    connect(source, &TraceSource::runStarted, this, [this, shown] {
        if (shown()) setRunning(true);
    });
    connect(source, &TraceSource::progress, this, [this, shown](int done, int count) {
        if (!shown()) return;
        ui_->progress->setProgress(done, count);
    });
    connect(source, &TraceSource::traceChanged, this, [this, shown] {
        if (shown()) onTraceChanged();
    });
    connect(source, &TraceSource::workedTraceChanged, this, [this, shown] {
        if (shown()) onWorkedTraceChanged();
    });
    connect(source, &TraceSource::earlyTraceReady, this, [this, shown](int layer) {
        if (shown()) onEarlyTrace(layer);
    });
    connect(source, &TraceSource::runFailed, this, [this, shown](const QString& message, bool cancelled) {
        if (shown()) onRunFailed(message, cancelled);
    });
}

bool MainWindow::openBuiltInLesson(const QString& name) {
    const QString path = ":/lessons/" + name + ".json";
    return openLesson(loadLessonFile(path), path);
}

bool MainWindow::openLessonFile(const QString& path) { return openLesson(loadLessonFile(path), path); }

bool MainWindow::openLesson(Result<Lesson> lesson, const QString& path) {
    if (lesson && !document_->maybeKeepChanges(false)) return false;
    Result<void> error = lesson ? lesson_->open(std::move(lesson).value()) : lesson.error();
    if (!error.ok()) {
        showError(tr("The lesson could not be opened"),
                  tr("%1\n\nThe previous lesson stays open.").arg(coreErrorText(error.error())));
        return false;
    }
    lessonPath_ = path;
    document_->opened();
    if (!path.isEmpty() && !path.startsWith(":/")) addRecentFile(path);
    ui_->editor->setLesson(&lesson_->session().lesson());
    setLabModel(this, QString(), std::nullopt);  // the lab's positional panel back to formulas
    enterSource(lesson_);
    return true;
}

void MainWindow::openModel(const QString& pathOrId) {
    if (!document_->maybeKeepChanges(true)) return;
    statusBar()->showMessage(tr("Opening %1…").arg(pathOrId));
    ui_->loading->cover(tr("Opening %1…").arg(pathOrId));  // not the previous lesson's views
    setRunning(true);
    model_->open(pathOrId);
}

void MainWindow::onModelOpened() {
    if (const auto model = model_->model()) setLabModel(this, model_->name(), model->model);  // its learned positions
    if (QFileInfo(model_->origin()).isDir()) addRecentFile(model_->origin());
    enterSource(model_);
    if (const auto restore = std::exchange(ui_->whenModelOpens, {})) restore();
}

void MainWindow::onModelOpenFailed(const QString& message) {
    setRunning(false);
    ui_->whenModelOpens = {};  // a session's model: nothing of the session is applied
    ui_->loading->uncover();  // what was open stays, and shows again
    showError(tr("The model could not be opened"),
              tr("%1\n\nThe previous %2 stays open.").arg(message, source_->kindName()));
}

// `next` is ready (a lesson run on its sentence, or a model loaded): every view switches to it.
void MainWindow::enterSource(TraceSource* next) {
    if (next != source_) source_->close();
    source_ = next;
    lastError_.clear();
    setErrorText(QString());
    setRunning(false);
    sentenceTimer_.stop();
    {
        const QSignalBlocker blocker(ui_->sentence);
        ui_->sentence->setText(source_->openingSentence(ui_->sentence->text()));
    }
    ui_->sentence->setPlaceholderText(source_->sentencePlaceholder());
    ui_->ablate->clear();  // a new lesson or model runs with every head
    ui_->controls->resetLayer();
    ui_->navigator->setCurrentHead(0);
    ui_->worked->forgetSelection();
    workedLayer_ = -1;
    ui_->heads->setSource(source_);
    ui_->compare->sourceChanged();
    ui_->movement->sourceChanged();
    ui_->predictions->clear();
    showSourcePanels();
    // A model opens on its attention: the worked example of layer 1 starts at a T×768 embedding.
    QWidget* tab = ui_->tabs->currentWidget();
    if (source_->offers(Offer::ModelViews) && (tab == ui_->matrixPanel || tab == ui_->editor)) ui_->tabs->setCurrentWidget(ui_->heatmap);
    refreshLabels();
    setWindowTitle(tr("AttnScope — %1").arg(source_->name()) + "[*]");  // [*]: the lesson's unsaved changes
    statusBar()->showMessage(tr("Opened %1").arg(source_->name()), 5000);
    if (!source_->trace()) return applySentence();
    onTraceChanged();
    onWorkedTraceChanged();
    ui_->navigator->setCurrentIndex(0);
}

// The panels and controls the source offers; the rest hides.
void MainWindow::showSourcePanels() {
    const auto offers = [this](Offer offer) { return source_->offers(offer); };
    ui_->tabs->setTabVisible(ui_->tabs->indexOf(ui_->editor), offers(Offer::LessonEditor));
    ui_->tabs->setTabVisible(ui_->tabs->indexOf(ui_->modelView), offers(Offer::ModelViews));
    ui_->tabs->setTabVisible(ui_->tabs->indexOf(ui_->headView), offers(Offer::ModelViews));
    ui_->predictionsArea->setVisible(offers(Offer::Predictions));
    ui_->stages->setVisible(offers(Offer::Stages));
    const QString noCompare = source_->compareUnavailable();
    const int compareTab = ui_->tabs->indexOf(ui_->compare->view());
    ui_->tabs->setTabEnabled(compareTab, noCompare.isEmpty());
    ui_->tabs->setTabToolTip(compareTab, noCompare);
    ui_->heads->panel()->setEvaluationUnavailable(source_->corefEvaluationUnavailable());
    ui_->controls->showOptions(offers(Offer::AttentionOptions));
    // Sources with several layers share the layer selector, even without attention options.
    const auto trace = source_->trace();
    ui_->controls->setVisible(offers(Offer::AttentionOptions) || (trace && trace->layerCount() > 1));
    ui_->pieces->setVisible(offers(Offer::WordPieces));
    ui_->tokens->setVisible(!offers(Offer::WordPieces));
    ui_->presentation->keepHiddenForClass();  // a zoom or a new trace while presenting
}

void MainWindow::applySentence() {
    source_->setEarlyHeads(ui_->heatmap->headsDrawnAlone());
    source_->run(ui_->sentence->text(), ui_->controls->layer());
}

// "Switch heads off:" the command line's L:H list, checked against the trace on screen; a bad
// one is reported and changes nothing (the source never sees it).
void MainWindow::applyAblation() {
    const auto trace = source_->trace();
    if (!trace) return;
    const std::string spec = ui_->ablate->text().trimmed().toStdString();
    auto heads = spec.empty() ? Result<std::vector<HeadRef>>(std::vector<HeadRef>{}) : parseHeadSpec(spec);
    Result<void> exists = heads ? checkHeadsExist(heads.value(), trace->layerCount(), trace->headCount(), "ablate")
                                : Result<void>(heads.error());
    if (!exists.ok())
        return setErrorText(tr("Switch heads off: %1; the previous result stays shown.")
                                .arg(coreErrorText(exists.error())));
    if (heads.value() == ablatedHeads(*trace)) return setErrorText(QString());
    source_->setAblation(std::move(heads).value());
}

void MainWindow::setSentence(const QString& sentence) {
    {
        const QSignalBlocker blocker(ui_->sentence);
        ui_->sentence->setText(sentence);
    }
    sentenceTimer_.stop();
    applySentence();
}

// A new run: every view switches to it. The views still showing the previous trace keep it
// alive (TraceTab) until they draw the new one.
void MainWindow::onTraceChanged() {
    const auto trace = source_->trace();
    if (!trace) return;
    ui_->loading->uncover();  // a model's first trace arrived: the views show it
    ui_->earlyShown = false;
    setRunning(false);
    setErrorText(QString());
    ui_->controls->setLayerCount(trace->layerCount());
    showSourcePanels();
    refreshLabels();
    words_->setTrace(trace);
    norms_->setTrace(trace, source_->normWeighting());
    if (source_->offers(Offer::WordPieces)) ui_->pieces->setTokens(trace->tokens, words_->groupsShown(*trace));
    else ui_->tokens->setTokens(trace->tokens);
    ui_->navigator->setHeadCount(trace->headCount());
    showOnTabs(source_->cheapToShow());
    if (source_->offers(Offer::Stages)) source_->showStages(*ui_->stages);
    if (source_->offers(Offer::Predictions)) {
        source_->showPredictions(*ui_->predictions);
        ui_->headEffects->showRun();
    }
    ui_->beyond->showRun(source_->offers(Offer::Predictions));  // after the predictions: it lists them
    ui_->movement->show(source_->statesRunner(ablatedHeads(*trace)), ui_->sentence->text(), source_->shortName(),
                        trace->layerCount(), source_->decimals());
    if (source_->offers(Offer::LessonEditor)) ui_->editor->refresh();
    ui_->heads->requestStatistics(source_->statisticsTrace(), ui_->sentence->text());
    ui_->coref->show(words_->shown(trace), source_->drawnLayer(ui_->controls->layer()), ui_->navigator->currentHead());
    if (const auto restore = std::exchange(ui_->onFirstTrace, {})) restore();
}

// A run still going has computed the layer on screen: the heatmap in front draws it now (Llama-3.2-1B
// at 512 tokens: after 1 of its 16 layers), the other views once the run ends. Words and
// weight × ‖value‖ are made from the whole run: those wait too.
void MainWindow::onEarlyTrace(int layer) {
    const auto early = source_->earlyTrace();
    if (!early || layer != ui_->controls->layer() || ui_->tabs->currentWidget() != ui_->heatmap || words_->on() || norms_->on())
        return;
    TraceOnScreen shown{early, layer, source_->decimals(), {}, nullptr};
    if (source_->offers(Offer::AttentionOptions)) shown.options = ui_->controls->options();
    for (const auto& tab : ui_->traceTabs)
        if (tab->page() == ui_->heatmap) tab->show(shown, true);
    ui_->loading->uncover();
    ui_->earlyShown = true;
}

// The worked example: the source's worked trace at the chosen layer.
void MainWindow::onWorkedTraceChanged() {
    const int layer = ui_->controls->layer();
    ui_->worked->show(source_->workedTrace(), source_->workedLayer(layer), source_->decimals(), layer == workedLayer_);
    ui_->qk->show(source_->workedTrace(), source_->workedLayer(layer), layer, ui_->navigator->currentHead());
    workedLayer_ = layer;
    if (enterLayerAt_ != 0) ui_->navigator->setCurrentIndex(enterLayerAt_ > 0 ? 0 : static_cast<int>(ui_->navigator->steps().size()) - 1);
    enterLayerAt_ = 0;
}

// The clicker: → past a layer's last step opens the next layer at its first step, ← before the
// first step the previous layer at its last.
// Past the layer's last step (or before its first) the clicker opens the next (previous) layer
// at its first (last) step.
void MainWindow::step(int by) {
    if (ui_->worked->stepProducts(by)) return;  // focusing: the chosen cell's next product first
    StepNavigator& steps = *ui_->navigator;
    const auto trace = source_->trace();
    const int layer = ui_->controls->layer();
    if (by > 0) {
        const bool last = steps.currentIndex() + 1 >= static_cast<int>(steps.steps().size());
        if (!last || !trace || layer + 1 >= trace->layerCount()) return steps.next();
    } else if (steps.currentIndex() > 0 || layer == 0) {
        return steps.previous();
    }
    enterLayerAt_ = by;
    ui_->controls->setLayer(layer + by);
}

void MainWindow::onRunFailed(const QString& message, bool cancelled) {
    setRunning(false);
    if (std::exchange(ui_->earlyShown, false) && source_->trace()) showOnTabs(source_->cheapToShow());  // not the run that failed
    if (source_->trace()) {  // a long run's layer not rebuilt: the box shows the layer the views draw
        const QSignalBlocker quiet(ui_->controls);
        ui_->controls->setLayer(source_->drawnLayer(ui_->controls->layer()));
    }
    ui_->loading->uncover();
    if (cancelled) return statusBar()->showMessage(tr("Run cancelled; the previous result stays shown."), 5000);
    setErrorText(message);
}

void MainWindow::setRunning(bool running) {
    ui_->progress->setRunning(running);
}

void MainWindow::refreshLabels() {
    ui_->title->setText(source_->title());
    ui_->description->setText(source_->description());
    ui_->description->label()->setToolTip(source_->descriptionToolTip());
    const auto trace = source_->trace();
    QStringList notices;
    if (trace)
        for (const std::string& n : noticeTexts(trace->notices, coreLanguage())) notices << QString::fromStdString(n);
    ui_->notices->setText(notices.isEmpty() ? QString() : "⚠ " + notices.join("\n⚠ "));
    ui_->notices->setVisible(!notices.isEmpty());
    const bool rounded = trace && trace->handRounding;
    ui_->rounding->setText(rounded ? tr("Hand rounding: every intermediate is rounded to %1 decimals").arg(*trace->handRounding)
                               : QString());
    ui_->rounding->setVisible(rounded);
}

TraceOnScreen MainWindow::onScreen() const {
    TraceOnScreen shown;
    shown.trace = words_->shown(source_->trace());
    shown.layer = source_->drawnLayer(ui_->controls->layer());
    shown.decimals = source_->decimals();
    if (source_->offers(Offer::AttentionOptions)) shown.options = ui_->controls->options();
    shown.options.words = shown.trace != source_->trace();  // View ▸ Attention between words
    // Weight × ‖value‖ once computed; until then (or off) the weights, and the views say which.
    const auto norms = norms_->shown(source_->trace(), shown.options.words);
    if (norms) shown.trace = norms;
    // A token-level run's thumbnails are of weights: not beside a norm-weighted layer.
    if (!shown.options.words && !norms) shown.thumbnails = source_->thumbnails();
    shown.options.weighting = norms ? AttentionViewOptions::Norms : AttentionViewOptions::Weights;
    return shown;
}

// Every trace tab gets what is on screen; the one in front draws now, the others now or when
// they open (a tab the source does not offer never draws its trace).
void MainWindow::showOnTabs(bool now) {
    const TraceOnScreen shown = onScreen();
    for (const auto& tab : ui_->traceTabs) {
        const bool offered = ui_->tabs->isTabVisible(ui_->tabs->indexOf(tab->page()));
        tab->show(shown, (now && offered) || tab->page() == ui_->tabs->currentWidget());
    }
    const auto pieces = source_->trace();  // Compare lines up pieces (or words) itself
    const std::vector<HeadRef> off = pieces ? ablatedHeads(*pieces) : std::vector<HeadRef>{};
    const CompareNorms norms{norms_->on(), norms_->shown(pieces, false), source_->normSentenceRunner(off)};
    ui_->compare->show(pieces, source_->sentenceRunner(off), shown.layer, ui_->navigator->currentHead(), shown.decimals, norms);
}

// A long run's source lets go of the layer on screen and hands the views the asked one without
// weights (they say so) until it is rebuilt, the heatmap's head first; other sources' are all there.
void MainWindow::showLayer() {
    if (!source_->trace()) return;
    const int layer = ui_->controls->layer();
    if (source_->drawnLayer(layer) == layer) {
        showOnTabs(source_->cheapToShow());
        ui_->coref->show(words_->shown(source_->trace()), layer, ui_->navigator->currentHead());  // "all heads of layer N"
    }
    source_->setEarlyHeads(ui_->heatmap->headsDrawnAlone());  // a long run rebuilds them first
    source_->showLayer(layer);
}

void MainWindow::showWordsOrPieces() {
    const auto trace = source_->trace();
    if (!trace) return;
    if (source_->offers(Offer::WordPieces)) ui_->pieces->setTokens(trace->tokens, words_->groupsShown(*trace));
    showOnTabs(source_->cheapToShow());
    ui_->coref->show(words_->shown(trace), source_->drawnLayer(ui_->controls->layer()), ui_->navigator->currentHead());
}

// What only some sources fill: the predictions panel, the run's progress and its Cancel button.
void MainWindow::buildSourcePanels() {
    ui_->predictions = new PredictionsView;
    ui_->predictions->setObjectName("predictions");
    ui_->headEffectBox = new HeadEffectBox;
    auto* column = new QWidget;
    auto* columnLayout = new QVBoxLayout(column);
    columnLayout->setContentsMargins(0, 0, 0, 0);
    columnLayout->addWidget(ui_->predictions);
    columnLayout->addWidget(ui_->headEffectBox, 1);
    ui_->predictionsArea = new QScrollArea;
    ui_->predictionsArea->setObjectName("sidePanels");
    ui_->predictionsArea->setWidgetResizable(true);
    ui_->predictionsArea->setWidget(column);
    ui_->predictionsArea->setMinimumWidth(260);
    ui_->beyond = new BeyondTabController(ui_->tabs, model_, ui_->predictions, ui_->tabs);
    ui_->movement = new MovementTabController(ui_->tabs, ui_->tabs);  // the last tab; B is the Compare tab's
    connect(ui_->compare, &CompareTabController::sentenceBChanged, ui_->movement, &MovementTabController::setSentenceB);
    ui_->progress = new JobProgress(tr("layer %v of %m"), "runProgress", "cancelRun");
    statusBar()->addPermanentWidget(ui_->progress);
    statusBar()->addPermanentWidget(ui_->controls->weightingProgress());  // Weight × ‖value‖'s, off the controls' row
    ui_->controls->weightingProgress()->setRunning(false);
}

}  // namespace attnscope
