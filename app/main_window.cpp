#include "app/main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include "app/file_menu.hpp"
#include "app/lab_window.hpp"
#include "app/lesson_source.hpp"
#include "app/source/lesson_trace_source.hpp"
#include "app/source/model_trace_source.hpp"
#include "app/tabs/coref_tab_controller.hpp"
#include "app/tabs/heads_tab.hpp"
#include "ui/attention/attention_controls.hpp"
#include "ui/attention/trace_tab.hpp"
#include "ui/head_view.hpp"
#include "ui/heatmap_view.hpp"
#include "ui/lesson_editor.hpp"
#include "ui/matrix_panel.hpp"
#include "ui/model_view.hpp"
#include "ui/piece_strip.hpp"
#include "ui/predictions_view.hpp"
#include "ui/step/worked_example.hpp"
#include "ui/step_navigator.hpp"
#include "ui/token_strip.hpp"

// Q_INIT_RESOURCE cannot be used inside a namespace.
static void initAttnScopeResources() { Q_INIT_RESOURCE(resources); }

namespace attnscope {

void initResources() { initAttnScopeResources(); }

namespace {

constexpr int kSentenceDelayMs = 150;
constexpr double kNormalPointSize = 12;  // projector-friendly by default
constexpr double kLargerPointSize = 16;

// Latin text in DejaVu, Chinese and Japanese from WenQuanYi: both must render on a projector.
QFont appFont(double pointSize) {
    QFont f;
    f.setFamilies({"DejaVu Sans", "WenQuanYi Micro Hei", "Noto Sans CJK SC"});
    f.setPointSizeF(pointSize);
    return f;
}

QFont monoFont(double pointSize) {
    QFont f;
    f.setFamilies({"DejaVu Sans Mono", "WenQuanYi Micro Hei Mono", "Noto Sans Mono"});
    f.setStyleHint(QFont::Monospace);
    f.setPointSizeF(pointSize);
    return f;
}

QLabel* statusLabel(const char* name, const char* style, QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setObjectName(name);
    label->setWordWrap(true);
    label->setStyleSheet(style);
    return label;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle("AttnScope");
    setFont(appFont(kNormalPointSize));
    lesson_ = new LessonTraceSource(this);
    model_ = new ModelTraceSource(this);
    source_ = lesson_;
    setCentralWidget(buildCentralWidget());
    buildMenus();
    connectViews();
    connectSource(lesson_);
    connectSource(model_);
    showSourcePanels();
    setRunning(false);
    setLargerText(false);
    sentenceTimer_.setSingleShot(true);
    sentenceTimer_.setInterval(kSentenceDelayMs);
    connect(&sentenceTimer_, &QTimer::timeout, this, &MainWindow::applySentence);
    resize(1560, 960);
}

// The views point into the sources' traces: delete the views first (an open cell editor still
// commits into a live lesson).
MainWindow::~MainWindow() {
    traceTabs_.clear();
    delete takeCentralWidget();
}

QWidget* MainWindow::buildCentralWidget() {
    auto* central = new QWidget(this);
    title_ = new QLabel(central);
    title_->setObjectName("lessonTitle");
    description_ = new QLabel(central);
    description_->setObjectName("description");
    description_->setWordWrap(true);
    sentence_ = new QLineEdit(central);
    sentence_->setObjectName("sentence");
    sentence_->setPlaceholderText(lesson_->sentencePlaceholder());
    tokens_ = new TokenStrip(central);
    tokens_->setObjectName("tokens");
    pieces_ = new PieceStrip(central);
    pieces_->setObjectName("pieces");
    notices_ = statusLabel("notices", "QLabel { background: #fff3cd; color: #664d03; border: 1px solid #e0c36a;"
                                      " padding: 4px; }", central);
    rounding_ = statusLabel("rounding", "QLabel { color: #1d4e89; font-weight: bold; }", central);
    rounding_->setWordWrap(false);
    error_ = statusLabel("error", "QLabel { color: #9b1c1c; font-weight: bold; }", central);
    error_->hide();
    controls_ = new AttentionControls(central);
    navigator_ = new StepNavigator(central);
    navigator_->setObjectName("navigator");
    auto* splitter = new QSplitter(Qt::Horizontal, central);
    splitter->addWidget(navigator_);
    splitter->addWidget(buildTabs(central));
    buildSourcePanels();
    splitter->addWidget(predictionsArea_);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({250, 1000, 330});

    auto* sentenceRow = new QHBoxLayout;
    sentenceRow->addWidget(new QLabel(tr("Sentence:"), central));
    sentenceRow->addWidget(sentence_, 1);
    auto* statusRow = new QHBoxLayout;
    statusRow->addWidget(rounding_);
    statusRow->addWidget(error_, 1);
    auto* layout = new QVBoxLayout(central);
    for (QWidget* w : std::initializer_list<QWidget*>{title_, description_}) layout->addWidget(w);
    layout->addLayout(sentenceRow);
    for (QWidget* w : std::initializer_list<QWidget*>{controls_, tokens_, pieces_, notices_}) layout->addWidget(w);
    layout->addLayout(statusRow);
    layout->addWidget(splitter, 1);
    return central;
}

// Every tab with its controller: the worked example, heatmap, lesson editor, model view, head
// view, coreference and heads. A new view: a page and a TraceTab in traceTabs_ (ui/attention/trace_tab.hpp).
QWidget* MainWindow::buildTabs(QWidget* parent) {
    tabs_ = new QTabWidget(parent);
    tabs_->setObjectName("tabs");
    matrixPanel_ = new MatrixPanel(tabs_);
    matrixPanel_->setObjectName("matrixPanel");
    heatmap_ = new HeatmapView(tabs_);
    heatmap_->setObjectName("heatmap");
    editor_ = new LessonEditor(tabs_);
    editor_->setObjectName("lessonEditor");
    modelView_ = new ModelView(tabs_);
    modelView_->setObjectName("modelView");
    headView_ = new HeadView(tabs_);
    headView_->setObjectName("headView");
    tabs_->addTab(matrixPanel_, tr("Worked example"));
    tabs_->addTab(heatmap_, tr("Attention heatmap"));
    tabs_->addTab(editor_, tr("Edit lesson"));
    tabs_->addTab(modelView_, tr("Model view"));
    tabs_->addTab(headView_, tr("Head view"));
    worked_ = new WorkedExample(navigator_, matrixPanel_, this);
    traceTabs_.push_back(std::make_unique<HeatmapTab>(heatmap_));
    traceTabs_.push_back(std::make_unique<ModelViewTab>(modelView_));
    traceTabs_.push_back(std::make_unique<HeadViewTab>(headView_));
    coref_ = new CorefTabController(tabs_, this);
    heads_ = new HeadsTab(tabs_, modelView_, this);
    return tabs_;
}

// What only some sources fill: the predictions panel, the run's progress and its Cancel button.
void MainWindow::buildSourcePanels() {
    predictions_ = new PredictionsView;
    predictions_->setObjectName("predictions");
    predictionsArea_ = new QScrollArea;
    predictionsArea_->setWidgetResizable(true);
    predictionsArea_->setWidget(predictions_);
    predictionsArea_->setMinimumWidth(260);
    progress_ = new QProgressBar;
    progress_->setObjectName("runProgress");
    progress_->setMaximumWidth(240);
    progress_->setFormat(tr("layer %v of %m"));
    cancel_ = new QPushButton(tr("Cancel"));
    cancel_->setObjectName("cancelRun");
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
}

void MainWindow::buildMenus() {
    auto* files = new FileMenu(*this, *worked_, *navigator_, *heatmap_);
    files->fill(menuBar()->addMenu(tr("&File")));
    connect(files, &FileMenu::failed, this, &MainWindow::showError);
    connect(files, &FileMenu::status, this, [this](const QString& text) { statusBar()->showMessage(text, 5000); });

    QMenu* lessons = menuBar()->addMenu(tr("&Lessons"));
    for (const BuiltInLesson& lesson : builtInLessons())
        lessons->addAction(lesson.title, this, [this, name = lesson.name] { openBuiltInLesson(name); });
    addLabMenu(menuBar()->addMenu(tr("L&ab")), this, lesson_->session());  // the teaching lab (issue 5)

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* larger = view->addAction(tr("&Larger text"), this, &MainWindow::setLargerText);
    larger->setCheckable(true);
    larger->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Plus));
    QAction* shading = view->addAction(tr("&Colour shading of cells"), matrixPanel_, &MatrixPanel::setShading);
    shading->setCheckable(true);
    shading->setChecked(true);
    QAction* allHeads = view->addAction(tr("&All heads side by side"), heatmap_, &HeatmapView::setAllHeads);
    allHeads->setCheckable(true);
    connect(heatmap_->allHeadsBox(), &QCheckBox::toggled, allHeads, &QAction::setChecked);
}

void MainWindow::connectViews() {
    connect(sentence_, &QLineEdit::textChanged, this, [this] { sentenceTimer_.start(); });
    connect(navigator_, &StepNavigator::headChanged, this, [this](int head) {
        heatmap_->setHead(head);
        worked_->showCurrentStep();
    });
    connect(heatmap_, &HeatmapView::headChanged, navigator_, &StepNavigator::setCurrentHead);
    connect(editor_, &LessonEditor::lessonEdited, this, [this] {
        heads_->setSource(source_);  // the ranking was of the weights before the edit
        if (lesson_->rerun()) statusBar()->showMessage(tr("Recomputed with the edited weights."), 4000);
    });
    connect(model_, &ModelTraceSource::opened, this, &MainWindow::onModelOpened);
    connect(model_, &ModelTraceSource::openFailed, this, &MainWindow::onModelOpenFailed);
    connect(cancel_, &QPushButton::clicked, this, [this] { source_->cancel(); });
    connect(editor_, &LessonEditor::editRejected, this,
            [this](const QString& text) { statusBar()->showMessage(text, 10000); });
    connect(controls_, &AttentionControls::layerChanged, this, &MainWindow::showLayer);
    connect(controls_, &AttentionControls::optionsChanged, this, [this] { showOnTabs(false); });
    connect(tabs_, &QTabWidget::currentChanged, this, [this] {
        for (const auto& tab : traceTabs_)
            if (tab->page() == tabs_->currentWidget()) tab->drawIfStale();
    });
    connect(modelView_, &ModelView::headActivated, this, [this](int layer, int head) {
        controls_->setLayer(layer);
        heatmap_->setHead(head);
        navigator_->setCurrentHead(head);
        tabs_->setCurrentWidget(heatmap_);
    });
    connect(heads_, &HeadsTab::useHeadsForCoreference, this, &MainWindow::setCoreferenceHeads);
    connect(heads_, &HeadsTab::failed, this, &MainWindow::showError);
    connect(heads_, &HeadsTab::wrote, this, [this](const QString& path) { statusBar()->showMessage(tr("Wrote %1").arg(path), 5000); });
    // Text fields and matrix tables claim the arrows (ShortcutOverride) for their own cursor.
    auto* next = new QShortcut(QKeySequence(Qt::Key_Right), this);
    auto* previous = new QShortcut(QKeySequence(Qt::Key_Left), this);
    connect(next, &QShortcut::activated, navigator_, &StepNavigator::next);
    connect(previous, &QShortcut::activated, navigator_, &StepNavigator::previous);
}

void MainWindow::showError(const QString& title, const QString& text) {
    lastError_ = text;
    statusBar()->showMessage(text.section('\n', 0, 0), 10000);
    // Non-blocking: the class keeps running (and tests keep going) while the box is open.
    auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

bool MainWindow::saveLessonTo(const QString& path) {
    if (auto error = saveLessonFile(lesson_->session().lesson(), path)) {
        showError(tr("The lesson could not be saved"), QString::fromStdString(error->text()));
        return false;
    }
    lessonPath_ = path;
    statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    return true;
}

void MainWindow::setErrorText(const QString& text) {
    error_->setText(text);
    error_->setVisible(!text.isEmpty());
}

void MainWindow::setLargerText(bool larger) {
    const double size = larger ? kLargerPointSize : kNormalPointSize;
    setFont(appFont(size));
    QFont titleFont = appFont(size * 1.35);
    titleFont.setBold(true);
    title_->setFont(titleFont);
    matrixPanel_->setExplanationFont(monoFont(size));
    if (source_->trace()) onTraceChanged();  // tables and plots resize to the new font
}

void MainWindow::setCoreferenceHeads(const std::vector<HeadRef>& heads) { coref_->setHeads(heads); }
void MainWindow::evaluateHeads(const QString& setSource) { heads_->evaluate(setSource); }
bool MainWindow::exportHeadRanking(const QString& path, const QString& format) { return heads_->exportRanking(path, format); }
bool MainWindow::waitForHeadAnalysis(int timeoutMs) { return heads_->waitUntilIdle(timeoutMs); }

bool MainWindow::waitForModel(int timeoutMs) {
    QElapsedTimer timer;
    timer.start();
    while (model_->running() && timer.elapsed() < timeoutMs) QApplication::processEvents(QEventLoop::AllEvents, 20);
    QApplication::processEvents();  // deliver what the last result queued
    return !model_->running();
}

}  // namespace attnscope
