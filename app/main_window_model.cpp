// Model mode of the main window: a pretrained model drives every view. Loading and running
// happen on the ModelWorker's thread; this file only wires results into the views.
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QStatusBar>
#include <QTabWidget>
#include <utility>

#include "app/coref_tab.hpp"
#include "app/hub/download_dialog.hpp"
#include "app/hub/open_model_dialog.hpp"
#include "app/lab_window.hpp"
#include "app/main_window.hpp"
#include "app/model_worker.hpp"
#include "ui/attention_options.hpp"
#include "ui/head_view.hpp"
#include "ui/heads_panel.hpp"
#include "ui/heatmap_view.hpp"
#include "ui/lesson_editor.hpp"
#include "ui/matrix_panel.hpp"
#include "ui/model_view.hpp"
#include "ui/piece_strip.hpp"
#include "ui/predictions_view.hpp"
#include "ui/step_navigator.hpp"
#include "ui/token_strip.hpp"

namespace attnscope {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

// A sentence the family can answer, for a model opened with an empty sentence box.
QString defaultSentence(ModelFamily family) {
    return predictsNextToken(family) ? QStringLiteral("the cat sat") : QStringLiteral("the [MASK] sat");
}

// The head view's selection, minus heads a newly opened model does not have.
std::vector<int> validHeads(std::vector<int> heads, int headCount) {
    std::erase_if(heads, [headCount](int h) { return h < 0 || h >= headCount; });
    return heads;
}

// A folder shows as its own name, a cache id as typed.
QString displayName(const OpenedModel& model) {
    const QFileInfo info(qs(model.name));
    return info.isDir() ? QDir(info.absoluteFilePath()).dirName() : qs(model.name);
}

QLabel* controlLabel(const QString& text, QWidget* parent) {
    return new QLabel(text, parent);
}

}  // namespace

// The layer selector (model mode, and lessons with several layers) and the attention options
// (model mode only).
QWidget* MainWindow::buildModelControls(QWidget* parent) {
    modelControls_ = new QWidget(parent);
    modelControls_->setObjectName("modelControls");
    layerBox_ = new QComboBox(modelControls_);
    layerBox_->setObjectName("layer");
    attentionControls_ = new QWidget(modelControls_);
    hideSpecial_ = new QCheckBox(tr("Hide special tokens"), attentionControls_);
    aggregate_ = new QComboBox(attentionControls_);
    aggregate_->addItems({tr("Each head"), tr("Average over heads"), tr("Maximum over heads")});
    scale_ = new QComboBox(attentionControls_);
    scale_->addItems({tr("Fixed 0–1"), tr("Shared maximum"), tr("Per-head maximum")});
    renormalize_ = new QCheckBox(tr("Renormalise rows"), attentionControls_);
    renormalize_->setToolTip(tr("With special tokens hidden: divide each row by what is left, so it sums to 1."));
    auto* options = new QHBoxLayout(attentionControls_);
    options->setContentsMargins(0, 0, 0, 0);
    options->addSpacing(16);
    options->addWidget(hideSpecial_);
    options->addWidget(renormalize_);
    options->addSpacing(16);
    options->addWidget(controlLabel(tr("Heads:"), attentionControls_));
    options->addWidget(aggregate_);
    options->addWidget(controlLabel(tr("Colour scale:"), attentionControls_));
    options->addWidget(scale_);
    auto* row = new QHBoxLayout(modelControls_);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(controlLabel(tr("Layer:"), modelControls_));
    row->addWidget(layerBox_);
    row->addWidget(attentionControls_);
    row->addStretch(1);
    modelControls_->hide();
    pieces_ = new PieceStrip(parent);
    pieces_->hide();
    return modelControls_;
}

void MainWindow::buildModelTabs() {
    modelView_ = new ModelView(tabs_);
    headView_ = new HeadView(tabs_);
    tabs_->addTab(modelView_, tr("Model view"));
    tabs_->addTab(headView_, tr("Head view"));
    predictions_ = new PredictionsView;
    predictionsArea_ = new QScrollArea;
    predictionsArea_->setWidgetResizable(true);
    predictionsArea_->setWidget(predictions_);
    predictionsArea_->setMinimumWidth(260);
    predictionsArea_->hide();
    progress_ = new QProgressBar;
    progress_->setObjectName("runProgress");
    progress_->setMaximumWidth(240);
    progress_->setFormat(tr("layer %v of %m"));
    cancel_ = new QPushButton(tr("Cancel"));
    cancel_->setObjectName("cancelRun");
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
    setModelRunning(false);
}

// Called once every widget exists: starts in lesson mode.
void MainWindow::connectModelWorker() {
    updateLessonTabs();
    connect(worker_, &ModelWorker::modelOpened, this, &MainWindow::enterModelMode);
    connect(worker_, &ModelWorker::openFailed, this, [this](const QString& message) {
        setModelRunning(false);
        showError(tr("The model could not be opened"),
                  tr("%1\n\nThe previous %2 stays open.").arg(message, modelMode_ ? tr("model") : tr("lesson")));
    });
    connect(worker_, &ModelWorker::runStarted, this, [this] { setModelRunning(true); });
    connect(worker_, &ModelWorker::progress, this, [this](int done, int count) {
        progress_->setRange(0, count);
        progress_->setValue(done);
    });
    connect(worker_, &ModelWorker::runFinished, this, &MainWindow::onModelRunFinished);
    connect(worker_, &ModelWorker::runFailed, this, &MainWindow::onModelRunFailed);
    connect(worker_, &ModelWorker::detailReady, this, &MainWindow::showModelDetail);
    connect(cancel_, &QPushButton::clicked, worker_, &ModelWorker::cancel);
    connect(layerBox_, &QComboBox::currentIndexChanged, this, [this] {
        if (modelMode_) showModelLayer();
        else showLessonLayer();
    });
    connect(hideSpecial_, &QCheckBox::toggled, this, &MainWindow::applyAttentionOptions);
    connect(renormalize_, &QCheckBox::toggled, this, &MainWindow::applyAttentionOptions);
    connect(aggregate_, &QComboBox::currentIndexChanged, this, &MainWindow::applyAttentionOptions);
    connect(scale_, &QComboBox::currentIndexChanged, this, &MainWindow::applyAttentionOptions);
    connect(tabs_, &QTabWidget::currentChanged, this, [this] { refreshModelTab(tabs_->currentWidget()); });
    connect(modelView_, &ModelView::headActivated, this, [this](int layer, int head) {
        layerBox_->setCurrentIndex(layer);
        heatmap_->setHead(head);
        navigator_->setCurrentHead(head);
        tabs_->setCurrentWidget(heatmap_);
    });
}

void MainWindow::openModel(const QString& pathOrId) {
    statusBar()->showMessage(tr("Opening %1…").arg(pathOrId));
    setModelRunning(true);
    worker_->openModel(pathOrId);
}

void MainWindow::openModelDialog() {
    if (const auto chosen = OpenModelDialog::choose(this)) openModel(*chosen);
}

void MainWindow::downloadModelDialog() {
    if (const auto snapshot = DownloadDialog::download(this)) openModel(*snapshot);
}

// The model is loaded (worker_->model()): switch every view over and run the sentence box.
void MainWindow::enterModelMode() {
    const auto model = worker_->model();
    modelMode_ = true;
    lastError_.clear();
    setErrorText(QString());
    {
        const QSignalBlocker blocker(layerBox_);
        layerBox_->clear();
        for (int layer = 1; layer <= model->layerCount(); ++layer) layerBox_->addItem(tr("%1").arg(layer));
        layerBox_->setCurrentIndex(0);
    }
    if (sentence_->text().trimmed().isEmpty()) {
        const QSignalBlocker blocker(sentence_);
        sentence_->setText(defaultSentence(model->family()));
    }
    sentence_->setPlaceholderText(predictsNextToken(model->family())
                                      ? tr("Type the start of a sentence; the model predicts what comes next.")
                                      : tr("Type a sentence; write [MASK] where the model should fill in a word."));
    navigator_->setCurrentHead(0);
    updateLessonTabs();
    resetHeadAnalysis();
    // A model opens on its attention: the worked example of layer 1 starts at a T×768 embedding.
    QWidget* tab = tabs_->currentWidget();
    if (tab != modelView_ && tab != headView_ && tab != coref_ && tab != headsPanel_) tabs_->setCurrentWidget(heatmap_);
    refreshModelLabels();
    setWindowTitle(tr("AttnScope — %1").arg(displayName(*model)));
    statusBar()->showMessage(tr("Opened %1").arg(qs(model->folder)), 5000);
    sentenceTimer_.stop();
    requestModelRun();
}

void MainWindow::leaveModelMode() {
    modelMode_ = false;
    worker_->clear();  // cancels a run still going; the views keep shownRun_ until refreshed
    setModelRunning(false);
    predictions_->clear();
    heatmapShows_ = {};  // the heatmap goes back to the lesson's trace
    setLabModel(this, QString(), std::nullopt);
    description_->setToolTip(QString());
    sentence_->setPlaceholderText(tr("Type a sentence; every matrix below follows it."));
    updateLessonTabs();
}

// Lesson tabs and model tabs, lesson token chips and model piece chips: one set at a time.
void MainWindow::updateLessonTabs() {
    tabs_->setTabVisible(tabs_->indexOf(editor_), !modelMode_);
    tabs_->setTabVisible(tabs_->indexOf(modelView_), modelMode_);
    tabs_->setTabVisible(tabs_->indexOf(headView_), modelMode_);
    // Lessons with several layers share the model's layer selector, not its attention options.
    const bool severalLessonLayers = !modelMode_ && session_.hasLesson() && session_.trace().layerCount() > 1;
    modelControls_->setVisible(modelMode_ || severalLessonLayers);
    attentionControls_->setVisible(modelMode_);
    predictionsArea_->setVisible(modelMode_);
    pieces_->setVisible(modelMode_);
    tokens_->setVisible(!modelMode_);
    rounding_->setVisible(!modelMode_ && !rounding_->text().isEmpty());
}

void MainWindow::requestModelRun() {
    if (!worker_->model()) return;
    worker_->run(sentence_->text(), currentModelLayer());
}

void MainWindow::setModelRunning(bool running) {
    progress_->setVisible(running);
    cancel_->setVisible(running);
    if (running) progress_->setRange(0, 0);  // busy until the first layer reports
}

void MainWindow::onModelRunFinished() {
    setModelRunning(false);
    setErrorText(QString());
    refreshModelViews();
}

void MainWindow::onModelRunFailed(const QString& message, bool cancelled) {
    setModelRunning(false);
    if (cancelled) {
        statusBar()->showMessage(tr("Run cancelled; the previous result stays shown."), 5000);
        return;
    }
    setErrorText(tr("The sentence could not be run (%1); the previous result stays shown.").arg(message));
}

int MainWindow::currentModelLayer() const { return std::max(0, layerBox_->currentIndex()); }

AttentionViewOptions MainWindow::attentionOptions() const {
    AttentionViewOptions options;
    options.hideSpecial = hideSpecial_->isChecked();
    options.renormalize = renormalize_->isChecked();
    options.aggregate = static_cast<AttentionViewOptions::Aggregate>(aggregate_->currentIndex());
    options.scale = static_cast<AttentionViewOptions::Scale>(scale_->currentIndex());
    return options;
}

void MainWindow::refreshModelLabels() {
    const auto model = worker_->model();
    if (!model) return;
    const TransformerConfig& c = model->model.config;
    title_->setText(tr("Model: %1").arg(displayName(*model)));
    description_->setText(tr("%1 · %2 layers × %3 heads · d = %4 · vocabulary %5 · %6 tokenizer · %7")
                              .arg(qs(familyName(c.family)))
                              .arg(c.layers)
                              .arg(c.heads)
                              .arg(c.width)
                              .arg(c.vocabSize)
                              .arg(qs(model->tokenizer.kind()), qs(model->folder)));
    // Loading remarks ("decoder tied to the embeddings") are facts, not warnings: a tooltip.
    QStringList remarks;
    for (const std::string& n : model->notices) remarks << qs(n);
    description_->setToolTip(remarks.join("\n"));
    QStringList notices;
    if (shownRun_)
        for (const std::string& n : shownRun_->trace.notices) notices << qs(n);
    notices_->setText(notices.isEmpty() ? QString() : "⚠ " + notices.join("\n⚠ "));
    notices_->setVisible(!notices.isEmpty());
}

// A new run: every view switches to it. The previous run stays alive until the views let go.
void MainWindow::refreshModelViews() {
    const auto run = worker_->lastRun();
    const auto model = worker_->model();
    if (!modelMode_ || !run || !model) return;
    shownRun_ = run;  // the views still showing the previous run keep it alive (ShownBy)
    setLabModel(this, displayName(*model), model->model);  // its learned position table in the lab
    const Trace& trace = run->trace;
    pieces_->setTokens(trace.tokens);
    refreshModelLabels();
    navigator_->setHeadCount(trace.headCount());
    refreshModelTab(tabs_->currentWidget());
    predictions_->showPredictions(*run, predictsNextToken(model->family()),
                                  [model](int id) { return model->tokenizer.label(id); });
    requestHeadStatistics();
    showModelDetail();
    refreshCoref();
}

// The worked example: the worker's one-layer Trace for the selected layer.
void MainWindow::showModelDetail() {
    const auto detail = worker_->detailTrace();
    if (!modelMode_ || !detail || detail == detailTrace_) return;
    const auto previous = std::exchange(detailTrace_, detail);
    selectedCell_.reset();
    {
        const QSignalBlocker blocker(navigator_);
        navigator_->setSteps(stepsOf(*detailTrace_));
    }
    if (navigator_->currentIndex() < 0) navigator_->setCurrentIndex(0);
    showCurrentStep();
}

// Brings the multi-head view on `tab` up to date with the latest run, layer and options.
void MainWindow::refreshModelTab(QWidget* tab) {
    if (!modelMode_ || !shownRun_) return;
    const Trace& trace = shownRun_->trace;
    const int layer = currentModelLayer();
    if (tab == heatmap_ && heatmapShows_.needs(shownRun_)) {
        heatmap_->setOptions(attentionOptions());
        heatmap_->showTrace(trace, layer, workedDecimals());
        heatmapShows_ = {shownRun_, false};
    } else if (tab == modelView_ && modelViewShows_.needs(shownRun_)) {
        modelView_->showTrace(trace, attentionOptions());
        modelViewShows_ = {shownRun_, false};
    } else if (tab == headView_ && headViewShows_.needs(shownRun_)) {
        headView_->showTrace(trace, layer, validHeads(headView_->heads(), trace.headCount()), attentionOptions());
        headViewShows_ = {shownRun_, false};
    }
}

void MainWindow::showModelLayer() {
    if (!modelMode_ || !shownRun_) return;
    heatmapShows_.stale = headViewShows_.stale = true;
    refreshModelTab(tabs_->currentWidget());
    refreshCoref();  // "all heads of layer N" follows the layer box
    worker_->showLayerInDetail(currentModelLayer());
}

void MainWindow::applyAttentionOptions() {
    if (!modelMode_ || !shownRun_) return;
    heatmapShows_.stale = modelViewShows_.stale = headViewShows_.stale = true;
    refreshModelTab(tabs_->currentWidget());
}

bool MainWindow::waitForModel(int timeoutMs) {
    QElapsedTimer timer;
    timer.start();
    while (worker_->running() && timer.elapsed() < timeoutMs) QApplication::processEvents(QEventLoop::AllEvents, 20);
    QApplication::processEvents();  // deliver what the last result queued
    return !worker_->running();
}

}  // namespace attnscope
