#include "app/main_window.hpp"
#include "app/main_window_parts.hpp"

#include <QAction>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QShowEvent>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <utility>

#include "app/app_identity.hpp"
#include "ui/common/qt_text.hpp"
#include "app/drop_opener.hpp"
#include "app/file_menu.hpp"
#include "app/lesson_document.hpp"
#include "app/recent_files.hpp"
#include "app/reporting_part.hpp"
#include "app/head_switch_menu.hpp"
#include "app/model_menu.hpp"
#include "app/lab_window.hpp"
#include "app/lesson_source.hpp"
#include "app/loading_cover.hpp"
#include "app/presentation.hpp"
#include "app/theme_switcher.hpp"
#include "app/norm_scale.hpp"
#include "app/word_level_switch.hpp"
#include "app/source/lesson_trace_source.hpp"
#include "app/source/model_trace_source.hpp"
#include "app/tabs/compare_tab_controller.hpp"
#include "app/tabs/coref_tab_controller.hpp"
#include "app/tabs/corpus_controller.hpp"
#include "app/tabs/head_effect_controller.hpp"
#include "app/tabs/heads_tab.hpp"
#include "app/tabs/qk_tab_controller.hpp"
#include "ui/attention/attention_controls.hpp"
#include "ui/common/fitting_tabs.hpp"
#include "ui/common/folding_text.hpp"
#include "ui/common/job_progress.hpp"
#include "ui/attention/trace_tab.hpp"
#include "ui/attention/head_view.hpp"
#include "ui/attention/head_effect_box.hpp"
#include "ui/attention/heatmap_view.hpp"
#include "ui/editor/lesson_editor.hpp"
#include <qcustomplot.h>
#include "ui/heads/head_ranking_box.hpp"
#include "ui/heads/head_ranking_builder.hpp"
#include "ui/heads/head_stats_table.hpp"
#include "ui/heads/heads_panel.hpp"
#include "ui/step/matrix_panel.hpp"
#include "ui/attention/model_view.hpp"
#include "ui/attention/piece_strip.hpp"
#include "ui/attention/predictions_view.hpp"
#include "ui/step/worked_example.hpp"
#include "ui/step/stage_bar.hpp"
#include "ui/step/step_navigator.hpp"
#include "ui/step/token_strip.hpp"
#include "core/trace/ablation.hpp"
#include "ui/common/core_error_text.hpp"
#include "ui/common/theme_colors.hpp"

// Q_INIT_RESOURCE cannot be used inside a namespace.
static void initAttnScopeResources() { Q_INIT_RESOURCE(resources); }

namespace attnscope {

void initResources() { initAttnScopeResources(); }

namespace {

constexpr int kSentenceDelayMs = 150;
constexpr QSize kTabsMinimum{240, 160};
const QSize kDefaultWindow{1560, 960};

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), ui_(std::make_unique<Parts>()) {
    setWindowTitle("AttnScope");
    lesson_ = new LessonTraceSource(this);
    model_ = new ModelTraceSource(this);
    source_ = lesson_;
    document_ = new LessonDocument(*this, *lesson_, actions());  // undo, the modified mark, the question before closing
    new DropOpener(*this, actions());
    // A new zoom: every view and the worked example's tables size to the new font.
    const auto redraw = [this] {
        if (!source_->trace()) return;
        onTraceChanged();
        ui_->worked->showCurrentStep();
    };
    ui_->presentation = new Presentation(this, redraw, [this] { step(1); }, [this] { step(-1); });
    theme_ = new ThemeSwitcher(this);  // the remembered theme, before anything is drawn
    words_ = new WordLevelSwitch(this);  // the remembered choice, before anything is drawn
    norms_ = new NormScale(this);
    setCentralWidget(buildCentralWidget());
    buildMenus();
    connectViews();
    connectSource(lesson_);
    connectSource(model_);
    connect(model_, &ModelTraceSource::opened, this, &MainWindow::onModelOpened);
    connect(model_, &ModelTraceSource::openFailed, this, &MainWindow::onModelOpenFailed);
    connect(words_, &WordLevelSwitch::changed, this, &MainWindow::showWordsOrPieces);
    connect(norms_, &NormScale::changed, this, &MainWindow::showWordsOrPieces);
    connect(norms_, &NormScale::changed, this, [this] {  // the Heads tab's first-token share by weight × ‖value‖
        if (const auto trace = source_->trace())
            ui_->heads->requestStatistics(source_->statisticsTrace(), ui_->sentence->text(), norms_->shown(trace, false));
    });
    connect(norms_, &NormScale::failed, this, [this](const QString& message, bool cancelled) {
        if (cancelled) return statusBar()->showMessage(tr("Weight × ‖value‖ cancelled; the views show the weights."), 5000);
        setErrorText(tr("Weight × ‖value‖ could not be computed: %1").arg(message));
    });
    showSourcePanels();
    setRunning(false);
    ui_->presentation->applyZoom();  // the zoom the user chose last time
    sentenceTimer_.setSingleShot(true);
    sentenceTimer_.setInterval(kSentenceDelayMs);
    connect(&sentenceTimer_, &QTimer::timeout, this, &MainWindow::applySentence);
    resize(kDefaultWindow);  // showEvent keeps it inside the screen it opens on
    ui_->navigator->list()->setFocus();  // not the sentence box: → steps the lesson at launch
}

// At most the free area of the screen the window opens on: a 1280×720 projector shows all of it.
void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    const bool chosen = size() != kDefaultWindow;  // by a test, or a tool that sized it
    if (std::exchange(fittedToScreen_, true) || chosen || (windowState() & (Qt::WindowFullScreen | Qt::WindowMaximized))) return;
    const QRect free = screen()->availableGeometry();
    const QSize frame = frameGeometry().size() - size();
    resize(size().boundedTo(free.size() - frame));
    if (!free.contains(frameGeometry())) move(free.topLeft());
}

// The views point into the sources' traces: delete the views first (an open cell editor still
// commits into a live lesson).
MainWindow::~MainWindow() {
    ui_->traceTabs.clear();
    delete takeCentralWidget();
}

// Every tab with its controller: the worked example, heatmap, lesson editor, model view, head
// view, coreference and heads. A new view: a page and a TraceTab in traceTabs (ui/attention/trace_tab.hpp).
QWidget* MainWindow::buildTabs(QWidget* parent) {
    ui_->tabs = new QTabWidget(parent);
    ui_->tabs->setObjectName("tabs");
    // The largest page (the editor at 200 %) must not set the window's minimum: presentation mode
    // is exactly the screen, and a page larger than its room scrolls or clips instead.
    ui_->tabs->setMinimumSize(kTabsMinimum);
    keepEveryTabInSight(ui_->tabs);
    ui_->matrixPanel = new MatrixPanel(ui_->tabs);
    ui_->matrixPanel->setObjectName("matrixPanel");
    ui_->heatmap = new HeatmapView(ui_->tabs);
    ui_->heatmap->setObjectName("heatmap");
    ui_->editor = new LessonEditor(ui_->tabs);
    ui_->editor->setObjectName("lessonEditor");
    ui_->modelView = new ModelView(ui_->tabs);
    ui_->modelView->setObjectName("modelView");
    ui_->headView = new HeadView(ui_->tabs);
    ui_->headView->setObjectName("headView");
    ui_->tabs->addTab(ui_->matrixPanel, tr("Worked example"));
    ui_->tabs->addTab(ui_->heatmap, tr("Attention heatmap"));
    ui_->tabs->addTab(ui_->editor, tr("Edit lesson"));
    ui_->tabs->addTab(ui_->modelView, tr("Model view"));
    ui_->tabs->addTab(ui_->headView, tr("Head view"));
    setShortTabLabel(ui_->tabs, ui_->matrixPanel, tr("Example", "short tab label"));
    setShortTabLabel(ui_->tabs, ui_->heatmap, tr("Heatmap", "short tab label"));
    setShortTabLabel(ui_->tabs, ui_->editor, tr("Edit", "short tab label"));
    setShortTabLabel(ui_->tabs, ui_->modelView, tr("Model", "short tab label"));
    ui_->worked = new WorkedExample(ui_->navigator, ui_->matrixPanel, ui_->tabs);
    ui_->traceTabs.push_back(std::make_unique<HeatmapTab>(ui_->heatmap));
    ui_->traceTabs.push_back(std::make_unique<ModelViewTab>(ui_->modelView));
    ui_->traceTabs.push_back(std::make_unique<HeadViewTab>(ui_->headView));
    ui_->coref = new CorefTabController(ui_->tabs, ui_->tabs);
    ui_->heads = new HeadsTab(ui_->tabs, ui_->modelView, ui_->tabs);
    ui_->qk = new QkTabController(ui_->tabs, ui_->tabs);
    ui_->compare = new CompareTabController(ui_->tabs, ui_->tabs);
    ui_->loading = new LoadingCover(ui_->tabs);
    connect(ui_->compare, &CompareTabController::secondChanged, ui_->coref, &CorefTabController::setSecond);
    connect(ui_->compare, &CompareTabController::secondChanged, ui_->worked, &WorkedExample::setSecond);
    return ui_->tabs;
}

void MainWindow::buildMenus() {
    auto* files = ui_->fileMenu = new FileMenu(*this, actions(), *ui_->worked, *ui_->navigator, *ui_->heatmap);
    files->fill(menuBar()->addMenu(tr("&File")));
    document_->fillEditMenu(menuBar()->addMenu(tr("&Edit")));

    QMenu* lessons = menuBar()->addMenu(tr("&Lessons"));
    lessons->setObjectName("lessonsMenu");
    // Titles in the language of the moment (View ▸ Language changes it): refilled on every opening.
    auto fillLessons = [this, lessons] {
        lessons->clear();
        for (const BuiltInLesson& lesson : builtInLessons())
            lessons->addAction(lesson.title, this, [this, name = lesson.name] { openBuiltInLesson(name); });
    };
    fillLessons();
    connect(lessons, &QMenu::aboutToShow, this, fillLessons);
    addModelMenu(menuBar()->addMenu(tr("&Model")), actions().openModel);  // the shipped example models (issue 15)
    addLabMenu(menuBar()->addMenu(tr("L&ab")), this, lesson_->session());  // the teaching lab (issue 5)

    QMenu* view = menuBar()->addMenu(tr("&View"));
    ui_->presentation->addToViewMenu(view);  // zoom and presentation mode (app/presentation.cpp)
    theme_->addToViewMenu(view);  // light, dark, system
    document_->addDecimalsMenu(view);  // stored in the lesson, undoable
    QAction* shading = ui_->shading = view->addAction(tr("&Colour shading of cells"), ui_->matrixPanel, &MatrixPanel::setShading);
    shading->setObjectName("shading");
    shading->setCheckable(true);
    shading->setChecked(true);
    QAction* allHeads = view->addAction(tr("&All heads side by side"), ui_->heatmap, &HeatmapView::setAllHeads);
    allHeads->setCheckable(true);
    connect(ui_->heatmap->allHeadsBox(), &QCheckBox::toggled, allHeads, &QAction::setChecked);
    words_->addToViewMenu(view);  // pieces or words in the attention views and Coreference
    addLanguageMenu(view);  // View ▸ Language (main_window_language.cpp)
    fillHelpMenu(menuBar()->addMenu(tr("&Help")), this);  // About AttnScope (app/app_identity.cpp)
}

// Right-click a head in the model view, a one-head heatmap, the Heads ranking or its statistics
// table to switch it off or back on (app/head_switch_menu.cpp).
void MainWindow::addHeadSwitchMenus() {
    const HeadSwitching switching{ui_->ablate, [this] { return source_->trace(); }, [this] { applyAblation(); }};
    ModelView* model = ui_->modelView;
    addHeadSwitchMenu(model->canvas(), [model](QPoint at) -> std::optional<HeadRef> {
        const auto hit = model->thumbnailAt(at);
        if (!hit || hit->second == ModelView::kAggregateHead) return std::nullopt;
        return HeadRef{hit->first, hit->second};
    }, switching);
    HeatmapView* heatmap = ui_->heatmap;
    addHeadSwitchMenu(heatmap, [heatmap](QPoint at) { return heatmap->headAt(at); }, switching);
    const HeadRankingBox* ranking = ui_->heads->panel()->ranking();
    addHeadSwitchMenu(ranking->plot(), [ranking](QPoint at) { return ranking->builder().headAt(at); }, switching);
    const HeadStatsTable* stats = ui_->heads->panel()->statistics();
    addHeadSwitchMenu(stats->table(), [stats](QPoint at) { return stats->headAt(at); }, switching);
    ui_->headEffects = new HeadEffectController(ui_->headEffectBox, model_, ui_->predictions, switching, ui_->headEffectBox);
}

void MainWindow::connectViews() {
    connect(ui_->presentation, &Presentation::presentingChanged, this, &MainWindow::showSourcePanels);
    connect(ui_->presentation, &Presentation::presentingChanged, this, [this](bool on) { setLabPresenting(this, on); });
    ui_->worked->setFocusing(ui_->presentation->focusesRow());  // a rebuilt worked example (View ▸ Language)
    connect(ui_->presentation, &Presentation::focusRowChanged, ui_->worked, &WorkedExample::setFocusing);
    connect(ui_->sentence, &QLineEdit::textChanged, this, [this] { sentenceTimer_.start(); });
    connect(ui_->ablate, &QLineEdit::editingFinished, this, &MainWindow::applyAblation);
    connect(ui_->stages, &StageBar::stageChosen, this, [this](EncoderDecoderStage stage) {
        ui_->compare->sourceChanged();  // B ran for the stage shown before: it runs again for this one
        source_->setStage(stage);
        // Each stage keeps its own heads switched off, and the box says which.
        if (const auto trace = source_->trace()) ui_->ablate->setText(QString::fromStdString(headSpecText(ablatedHeads(*trace))));
    });
    addHeadSwitchMenus();
    connect(ui_->navigator, &StepNavigator::headChanged, this, [this](int head) {
        ui_->heatmap->setHead(head);
        ui_->worked->showCurrentStep();
        ui_->qk->setHead(head);
        ui_->compare->setHead(head);
    });
    connect(ui_->heatmap, &HeatmapView::headChanged, ui_->navigator, &StepNavigator::setCurrentHead);
    connect(ui_->editor, &LessonEditor::lessonEdited, this, [this] {
        ui_->heads->setSource(source_);  // the ranking was of the weights before the edit
        if (lesson_->rerun()) statusBar()->showMessage(tr("Recomputed with the edited weights."), 4000);
    });
    document_->connectEditor(ui_->editor);
    connect(document_, &LessonDocument::lessonReplaced, ui_->editor, [this] { ui_->heads->setSource(source_); });
    connect(ui_->progress, &JobProgress::cancelRequested, this, [this] { source_->cancel(); });
    connect(ui_->editor, &LessonEditor::editRejected, this,
            [this](const QString& text) { statusBar()->showMessage(text, 10000); });
    connect(ui_->controls, &AttentionControls::layerChanged, this, &MainWindow::showLayer);
    connect(ui_->controls, &AttentionControls::optionsChanged, this, [this] { showOnTabs(false); });
    norms_->attach(ui_->controls);  // the check box both ways, its progress and Cancel
    connect(ui_->tabs, &QTabWidget::currentChanged, this, [this] {
        for (const auto& tab : ui_->traceTabs)
            if (tab->page() == ui_->tabs->currentWidget()) tab->drawIfStale();
    });
    connect(ui_->modelView, &ModelView::headActivated, this, [this](int layer, int head) {
        ui_->controls->setLayer(layer);
        ui_->heatmap->setHead(head);
        ui_->navigator->setCurrentHead(head);
        ui_->tabs->setCurrentWidget(ui_->heatmap);
    });
    connect(ui_->heads, &HeadsTab::useHeadsForCoreference, ui_->coref, &CorefTabController::setHeads);
    const ReportingPart* const reporting[] = {ui_->fileMenu, ui_->heads, ui_->heads->corpus()};
    for (const ReportingPart* part : reporting) {
        connect(part, &ReportingPart::failed, this, &MainWindow::showError);
        connect(part, &ReportingPart::wrote, this, [this](const QString& path) { statusBar()->showMessage(tr("Wrote %1").arg(path), 5000); });
    }
}

void MainWindow::showError(const QString& title, const QString& text) {
    lastError_ = text;
    statusBar()->showMessage(text.section('\n', 0, 0), 10000);
    // Non-blocking: the class keeps running (and tests keep going) while the box is open.
    auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

// The file gets the sentence in the box (while the lesson is on screen): what the teacher typed.
bool MainWindow::saveLessonTo(const QString& path) {
    Lesson lesson = lesson_->session().lesson();
    if (source_ == lesson_) lesson.sentence = ui_->sentence->text().toUtf8().toStdString();
    if (auto error = saveLessonFile(lesson, path); !error.ok()) {
        showError(tr("The lesson could not be saved"),
                  tr("%1\n\nThe file on disk is unchanged; your edits stay here, unsaved.")
                      .arg(coreErrorText(error.error())));
        return false;
    }
    lessonPath_ = path;
    document_->saved();
    addRecentFile(path);
    statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    return true;
}

WindowActions MainWindow::actions() {
    return {[this](const QString& path) { return openLessonFile(path); }, [this](const QString& id) { openModel(id); },
            [this](const QString& path) { return saveLessonTo(path); }, [this] { return lessonPath_; },
            [this] { return source_->offers(TraceSource::Offer::LessonEditor); },
            [this](const Result<Lesson>& lesson) {
                if (!openLesson(lesson, QString())) return false;
                ui_->tabs->setCurrentWidget(ui_->editor);  // its numbers are the teacher's to fill
                return true;
            },
            [this] { return capturedSession(); },
            [this] { return source_ == model_ ? (model_->model() ? qs(model_->model()->folder) : QString()) : lessonPath_; },
            [this](const SavedSession& s, const std::function<void()>& opened) { restoreSession(s, opened); },
            [this] { return source_->shortName(); },
            [this] { return ui_->controls->layer(); },
            [this]() -> const EncoderDecoderRun* { return source_ == lesson_ ? lesson_->session().encoderDecoder() : nullptr; }};
}

void MainWindow::setErrorText(const QString& text) {
    ui_->error->setText(text);
    ui_->error->setVisible(!text.isEmpty());
}

}  // namespace attnscope
