// View ▸ Language: switching the interface language without a restart. Every text of the window
// is set when its widget is built, so the window rebuilds its central widget, menus and status
// bar widgets in the new language and puts back what the reader was looking at. The sources (the
// open lesson or model and its trace) are not rebuilt: nothing is recomputed or reloaded.
#include <QAction>
#include <QActionGroup>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QTabWidget>

#include "app/file_menu.hpp"
#include "app/lab_window.hpp"
#include "app/language.hpp"
#include "app/main_window.hpp"
#include "app/main_window_parts.hpp"
#include "app/presentation.hpp"
#include "app/source/lesson_trace_source.hpp"
#include "app/source/trace_source.hpp"
#include "app/tabs/corpus_controller.hpp"
#include "app/tabs/heads_tab.hpp"
#include "core/trace/ablation.hpp"
#include "ui/attention/attention_controls.hpp"
#include "ui/common/job_progress.hpp"
#include "ui/editor/lesson_editor.hpp"
#include "ui/step/step_navigator.hpp"

namespace attnscope {

namespace {

// What the reader was looking at, put back after the rebuild.
struct OnScreen {
    QString sentence;
    int tab = 0, step = 0, head = 0, layer = 0;
    bool shading = true;
    CorpusController::Shown corpus;  // the Heads tab's corpus statistics
};

}  // namespace

void MainWindow::addLanguageMenu(QMenu* view) {
    // Each language named in itself, so a reader who cannot read the current one finds theirs.
    QMenu* menu = view->addMenu(tr("&Language"));
    menu->setObjectName("languageMenu");
    auto* group = new QActionGroup(menu);
    const std::pair<QString, QString> languages[] = {{"en", QStringLiteral("English")},
                                                      {"zh_CN", QStringLiteral("简体中文")}};
    for (const auto& [code, name] : languages) {
        QAction* action = menu->addAction(name, this, [this, code = code] { setLanguage(code); });
        action->setObjectName("language:" + code);
        action->setCheckable(true);
        action->setChecked(code == currentLanguage());
        group->addAction(action);
    }
}

void MainWindow::setLanguage(const QString& language) {
    saveLanguage(language);
    if (language == currentLanguage()) return;
    if (!applyLanguage(language)) statusBar()->showMessage(tr("%1: no translation built in").arg(language), 5000);
    rebuildWidgets();
}

void MainWindow::rebuildWidgets() {
    OnScreen kept{ui_->sentence->text(), ui_->tabs->currentIndex(), ui_->navigator->currentIndex(),
                  ui_->navigator->currentHead(), ui_->controls->layer(), ui_->shading->isChecked(),
                  ui_->heads->corpus()->shown()};
    sentenceTimer_.stop();
    ui_->traceTabs.clear();  // as in the destructor: the views go before the widgets they draw in
    delete ui_->progress;
    delete ui_->controls->weightingProgress();  // in the status bar, not under the central widget
    delete ui_->fileMenu;
    delete takeCentralWidget();  // with it the tab controllers and the arrow-key shortcuts
    Presentation* presentation = ui_->presentation;  // its zoom and window actions stay
    ui_ = std::make_unique<Parts>();
    ui_->presentation = presentation;
    setCentralWidget(buildCentralWidget());
    setMenuBar(new QMenuBar(this));  // deletes the old one and its menus
    buildMenus();
    connectViews();
    {
        const QSignalBlocker blocker(ui_->sentence);
        ui_->sentence->setText(kept.sentence);
    }
    if (const auto trace = source_->trace()) ui_->ablate->setText(QString::fromStdString(headSpecText(ablatedHeads(*trace))));
    if (!lessonPath_.isEmpty()) ui_->editor->setLesson(&lesson_->session().lesson());
    ui_->heads->setSource(source_);
    ui_->heads->corpus()->show(kept.corpus);
    ui_->shading->setChecked(kept.shading);
    if (const auto trace = source_->trace()) {
        ui_->controls->setLayerCount(trace->layerCount());
        ui_->controls->setLayer(kept.layer);
    }
    ui_->presentation->applyZoom();  // also shows the trace on every view (onTraceChanged)
    setRunning(source_->running());
    refreshLabels();
    if (source_->trace()) {
        workedLayer_ = -1;
        onWorkedTraceChanged();
        ui_->navigator->setCurrentIndex(kept.step);
        ui_->navigator->setCurrentHead(kept.head);
    }
    showSourcePanels();
    ui_->tabs->setCurrentIndex(kept.tab);
    if (!lessonPath_.isEmpty() || source_ != lesson_) setWindowTitle(tr("AttnScope — %1").arg(source_->name()) + "[*]");
    rebuildLab(this, lesson_->session());  // an open lab window comes back in the new language
}

}  // namespace attnscope
