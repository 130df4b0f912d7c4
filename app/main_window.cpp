#include "app/main_window.hpp"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QShortcut>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "app/lab_window.hpp"
#include "app/lesson_source.hpp"
#include "app/model_worker.hpp"
#include "core/export.hpp"
#include "ui/heatmap_view.hpp"
#include "ui/lesson_editor.hpp"
#include "ui/matrix_panel.hpp"
#include "ui/piece_strip.hpp"
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

QString qs(const std::string& s) { return QString::fromStdString(s); }

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

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle("AttnScope");
    setFont(appFont(kNormalPointSize));
    worker_ = new ModelWorker(this);
    setCentralWidget(buildCentralWidget());
    buildMenus();
    connectViews();
    connectModelWorker();
    connectHeadsPanel();
    setLargerText(false);
    sentenceTimer_.setSingleShot(true);
    sentenceTimer_.setInterval(kSentenceDelayMs);
    connect(&sentenceTimer_, &QTimer::timeout, this, &MainWindow::applySentence);
    resize(1560, 960);
}

// The views point into session_, a member destroyed before QObject deletes the children:
// delete the views first (an open cell editor still commits into a live lesson).
MainWindow::~MainWindow() { delete takeCentralWidget(); }

QWidget* MainWindow::buildCentralWidget() {
    auto* central = new QWidget(this);
    title_ = new QLabel(central);
    title_->setObjectName("lessonTitle");
    description_ = new QLabel(central);
    description_->setWordWrap(true);
    sentence_ = new QLineEdit(central);
    sentence_->setObjectName("sentence");
    sentence_->setPlaceholderText(tr("Type a sentence; every matrix below follows it."));
    tokens_ = new TokenStrip(central);
    notices_ = new QLabel(central);
    notices_->setObjectName("notices");
    notices_->setWordWrap(true);
    notices_->setStyleSheet("QLabel { background: #fff3cd; color: #664d03; border: 1px solid #e0c36a;"
                            " padding: 4px; }");
    rounding_ = new QLabel(central);
    rounding_->setObjectName("rounding");
    rounding_->setStyleSheet("QLabel { color: #1d4e89; font-weight: bold; }");
    error_ = new QLabel(central);
    error_->setObjectName("error");
    error_->setWordWrap(true);
    error_->setStyleSheet("QLabel { color: #9b1c1c; font-weight: bold; }");
    error_->hide();

    navigator_ = new StepNavigator(central);
    tabs_ = new QTabWidget(central);
    matrixPanel_ = new MatrixPanel(tabs_);
    heatmap_ = new HeatmapView(tabs_);
    editor_ = new LessonEditor(tabs_);
    tabs_->addTab(matrixPanel_, tr("Worked example"));
    tabs_->addTab(heatmap_, tr("Attention heatmap"));
    tabs_->addTab(editor_, tr("Edit lesson"));
    buildModelTabs();
    buildCorefTab();
    buildHeadsTab();
    auto* splitter = new QSplitter(Qt::Horizontal, central);
    splitter->addWidget(navigator_);
    splitter->addWidget(tabs_);
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
    layout->addWidget(title_);
    layout->addWidget(description_);
    layout->addLayout(sentenceRow);
    layout->addWidget(buildModelControls(central));
    layout->addWidget(tokens_);
    layout->addWidget(pieces_);
    layout->addWidget(notices_);
    layout->addLayout(statusRow);
    layout->addWidget(splitter, 1);
    return central;
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open lesson…"), QKeySequence::Open, this, &MainWindow::openLessonDialog);
    file->addAction(tr("&Save lesson"), QKeySequence::Save, this, &MainWindow::saveLesson);
    file->addAction(tr("Save lesson &as…"), QKeySequence::SaveAs, this, &MainWindow::saveLessonAs);
    file->addSeparator();
    file->addAction(tr("Open &model…"), this, &MainWindow::openModelDialog);
    file->addAction(tr("&Download model…"), this, &MainWindow::downloadModelDialog);
    file->addSeparator();
    file->addAction(tr("Export heatmap &PNG…"), this, &MainWindow::exportHeatmap);
    file->addAction(tr("Export &worksheet (Markdown)…"), this, &MainWindow::exportWorksheet);
    file->addAction(tr("Export current step (&CSV)…"), this, &MainWindow::exportStepCsv);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    buildLessonsMenu(menuBar()->addMenu(tr("&Lessons")));
    addLabMenu(menuBar()->addMenu(tr("L&ab")), this, session_);  // the teaching lab (issue 5)

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

void MainWindow::buildLessonsMenu(QMenu* menu) {
    for (const BuiltInLesson& lesson : builtInLessons())
        menu->addAction(lesson.title, this, [this, name = lesson.name] { openBuiltInLesson(name); });
}

void MainWindow::connectViews() {
    connect(sentence_, &QLineEdit::textChanged, this, [this] { sentenceTimer_.start(); });
    connect(navigator_, &StepNavigator::stepChanged, this, [this] { showCurrentStep(); });
    connect(navigator_, &StepNavigator::headChanged, this, [this](int head) {
        heatmap_->setHead(head);
        showCurrentStep();
    });
    connect(heatmap_, &HeatmapView::headChanged, navigator_, &StepNavigator::setCurrentHead);
    connect(matrixPanel_, &MatrixPanel::cellSelected, this, &MainWindow::explain);
    connect(editor_, &LessonEditor::lessonEdited, this, &MainWindow::onLessonEdited);
    connect(editor_, &LessonEditor::editRejected, this,
            [this](const QString& text) { statusBar()->showMessage(text, 10000); });
    // Text fields and matrix tables claim the arrows (ShortcutOverride) for their own cursor.
    auto* next = new QShortcut(QKeySequence(Qt::Key_Right), this);
    auto* previous = new QShortcut(QKeySequence(Qt::Key_Left), this);
    connect(next, &QShortcut::activated, navigator_, &StepNavigator::next);
    connect(previous, &QShortcut::activated, navigator_, &StepNavigator::previous);
}

bool MainWindow::openBuiltInLesson(const QString& name) {
    const QString path = ":/lessons/" + name + ".json";
    return openLesson(loadLessonFile(path), path);
}

bool MainWindow::openLessonFile(const QString& path) { return openLesson(loadLessonFile(path), path); }

bool MainWindow::openLesson(Result<Lesson> lesson, const QString& path) {
    std::optional<Error> error = lesson ? session_.openLesson(std::move(lesson).value()) : lesson.error();
    if (error) {
        showError(tr("The lesson could not be opened"),
                  tr("%1\n\nThe previous lesson stays open.").arg(qs(error->text())));
        return false;
    }
    lessonPath_ = path;
    lastError_.clear();
    if (modelMode_) leaveModelMode();
    resetHeadAnalysis();
    selectedCell_.reset();
    shownStep_.reset();
    sentenceTimer_.stop();
    {
        const QSignalBlocker blocker(sentence_);
        sentence_->setText(qs(session_.sentence()));
    }
    editor_->setLesson(&session_.lesson());
    navigator_->setCurrentHead(0);
    {
        const QSignalBlocker blocker(layerBox_);
        layerBox_->clear();  // a new lesson starts at its first layer
    }
    refreshAll();
    navigator_->setCurrentIndex(0);
    setWindowTitle(tr("AttnScope — %1").arg(qs(session_.lesson().title)));
    statusBar()->showMessage(tr("Opened %1").arg(qs(session_.lesson().title)), 5000);
    return true;
}

void MainWindow::showError(const QString& title, const QString& text) {
    lastError_ = text;
    statusBar()->showMessage(text.section('\n', 0, 0), 10000);
    // Non-blocking: the class keeps running (and tests keep going) while the box is open.
    auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::setSentence(const QString& sentence) {
    {
        const QSignalBlocker blocker(sentence_);
        sentence_->setText(sentence);
    }
    sentenceTimer_.stop();
    applySentence();
}

void MainWindow::applySentence() {
    if (modelMode_) return requestModelRun();
    if (!session_.hasLesson()) return;
    const QByteArray utf8 = sentence_->text().toUtf8();
    if (auto error = session_.setSentence(utf8.toStdString())) {
        setErrorText(tr("The sentence could not be run (%1); the previous result stays shown.")
                         .arg(qs(error->text())));
        return;
    }
    setErrorText(QString());
    refreshAll();
}

void MainWindow::onLessonEdited() {
    if (auto error = session_.rerun()) {
        setErrorText(tr("The edited lesson could not be run (%1); the previous result stays shown.")
                         .arg(qs(error->text())));
        return;
    }
    setErrorText(QString());
    resetHeadAnalysis();  // the ranking was of the weights before the edit
    statusBar()->showMessage(tr("Recomputed with the edited weights."), 4000);
    refreshAll();
}

void MainWindow::refreshAll() {
    const Trace& trace = session_.trace();
    refreshLabels();
    refreshLessonLayers();
    tokens_->setTokens(trace.tokens);
    navigator_->setHeadCount(trace.headCount());
    {
        const QSignalBlocker blocker(navigator_);  // one showCurrentStep below is enough
        showStepsOf(trace, lessonLayer());
    }
    showCurrentStep();
    heatmap_->setOptions({});  // lessons show every head as it is; model-mode options do not apply
    heatmap_->showTrace(trace, lessonLayer(), session_.decimals());
    editor_->refresh();
    refreshCoref();
    requestHeadStatistics();
}

// The layer box lists the lesson's layers; it is shown only when there are several.
void MainWindow::refreshLessonLayers() {
    const int layers = session_.trace().layerCount();
    if (layerBox_->count() != layers) {
        const QSignalBlocker blocker(layerBox_);
        const int kept = std::clamp(layerBox_->currentIndex(), 0, std::max(0, layers - 1));
        layerBox_->clear();
        for (int layer = 1; layer <= layers; ++layer) layerBox_->addItem(QString::number(layer));
        layerBox_->setCurrentIndex(kept);
    }
    updateLessonTabs();
}

int MainWindow::lessonLayer() const {
    return std::clamp(layerBox_->currentIndex(), 0, std::max(0, session_.trace().layerCount() - 1));
}

// Another layer of the lesson: its steps (keeping the current one when it has it) and heatmap.
void MainWindow::showLessonLayer() {
    if (modelMode_ || !session_.hasLesson()) return;
    selectedCell_.reset();
    {
        const QSignalBlocker blocker(navigator_);
        showStepsOf(session_.trace(), lessonLayer());
    }
    showCurrentStep();
    heatmap_->showTrace(session_.trace(), lessonLayer(), session_.decimals());
}

void MainWindow::showStepsOf(const Trace& trace, int layer) {
    const std::vector<Step> steps = stepsOf(trace, layer);
    std::vector<std::string> titles;
    for (const Step step : steps) titles.push_back(stepTitleIn(trace, step, layer));
    navigator_->setSteps(steps, titles);
}

void MainWindow::refreshLabels() {
    const Trace& trace = session_.trace();
    title_->setText(qs(session_.lesson().title));
    description_->setText(qs(session_.lesson().description));
    QStringList notices;
    for (const std::string& n : trace.notices) notices << qs(n);
    notices_->setText(notices.isEmpty() ? QString() : "⚠ " + notices.join("\n⚠ "));
    notices_->setVisible(!notices.isEmpty());
    rounding_->setText(trace.handRounding
                           ? tr("Hand rounding: every intermediate is rounded to %1 decimals").arg(*trace.handRounding)
                           : QString());
    rounding_->setVisible(trace.handRounding.has_value());
}

void MainWindow::showCurrentStep() {
    if (!hasWorkedTrace() || navigator_->currentIndex() < 0) return;
    const Step step = navigator_->currentStep();
    if (shownStep_ != step) selectedCell_.reset();
    shownStep_ = step;
    navigator_->setHeadEnabled(isPerHead(step));
    matrixPanel_->showStep(workedTrace(), step, workedLayer(), navigator_->currentHead(), workedDecimals());
    if (selectedCell_) matrixPanel_->selectCell(selectedCell_->first, selectedCell_->second);
}

void MainWindow::explain(const CellRef& cell) {
    selectedCell_ = std::make_pair(cell.row, cell.col);
    auto explanation = explainCell(workedTrace(), cell, workedDecimals());
    if (explanation) matrixPanel_->showExplanation(explanation.value());
    else matrixPanel_->showExplanationError(qs(explanation.error().text()));
}

void MainWindow::setLargerText(bool larger) {
    const double size = larger ? kLargerPointSize : kNormalPointSize;
    setFont(appFont(size));
    QFont titleFont = appFont(size * 1.35);
    titleFont.setBold(true);
    title_->setFont(titleFont);
    matrixPanel_->setExplanationFont(monoFont(size));
    if (modelMode_) refreshModelViews();  // tables and plots resize to the new font
    else if (session_.hasLesson()) refreshAll();
}

void MainWindow::setErrorText(const QString& text) {
    error_->setText(text);
    error_->setVisible(!text.isEmpty());
}

QString MainWindow::noticeText() const { return notices_->text(); }
QString MainWindow::errorText() const { return error_->isVisible() ? error_->text() : QString(); }

// In model mode the worked example walks the detail layer of the last run.
const Trace& MainWindow::workedTrace() const {
    return modelMode_ && detailTrace_ ? *detailTrace_ : session_.trace();
}
int MainWindow::workedLayer() const { return modelMode_ ? 0 : lessonLayer(); }
int MainWindow::workedDecimals() const { return modelMode_ ? 3 : session_.decimals(); }
bool MainWindow::hasWorkedTrace() const { return modelMode_ ? detailTrace_ != nullptr : session_.hasLesson(); }
QString MainWindow::roundingText() const { return rounding_->text(); }
QString MainWindow::lessonTitle() const { return title_->text(); }

void MainWindow::openLessonDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open lesson"), QString(),
                                                      tr("AttnScope lessons (*.json);;All files (*)"));
    if (!path.isEmpty()) openLessonFile(path);
}

bool MainWindow::saveLessonTo(const QString& path) {
    if (auto error = saveLessonFile(session_.lesson(), path)) {
        showError(tr("The lesson could not be saved"),
                  tr("%1\n\nThe file on disk is unchanged; your edits stay here, unsaved.").arg(qs(error->text())));
        return false;
    }
    lessonPath_ = path;
    statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    return true;
}

void MainWindow::saveLesson() {
    if (lessonPath_.isEmpty() || lessonPath_.startsWith(":/")) saveLessonAs();
    else saveLessonTo(lessonPath_);
}

void MainWindow::saveLessonAs() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save lesson as"), QString(),
                                                      tr("AttnScope lessons (*.json)"));
    if (!path.isEmpty()) saveLessonTo(path);
}

bool MainWindow::writeText(const QString& path, const std::string& text) {
    if (auto error = writeFileAtomically(path, QByteArray::fromStdString(text))) {
        showError(tr("The file could not be written"), qs(error->text()));
        return false;
    }
    statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
    return true;
}

void MainWindow::exportHeatmap() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export heatmap"), "heatmap.png", tr("PNG images (*.png)"));
    if (path.isEmpty()) return;
    if (auto error = writePngFile(path, heatmap_->renderImage()))
        showError(tr("The heatmap could not be saved"), qs(error->text()));
}

void MainWindow::exportWorksheet() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export worksheet"), "worksheet.md",
                                                      tr("Markdown (*.md)"));
    if (path.isEmpty()) return;
    ExportRequest request;
    request.decimals = workedDecimals();
    request.explain = true;
    writeText(path, exportTrace(workedTrace(), ExportFormat::Markdown, request));
}

void MainWindow::exportStepCsv() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export step"), "step.csv", tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    ExportRequest request;
    request.step = navigator_->currentStep();
    request.head = navigator_->currentHead();
    request.layer = workedLayer();
    request.decimals = workedDecimals();
    writeText(path, exportTrace(workedTrace(), ExportFormat::Csv, request));
}

}  // namespace attnscope
