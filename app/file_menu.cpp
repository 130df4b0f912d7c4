// The File menu: opening and saving lessons, opening and downloading models, exports.
#include "app/file_menu.hpp"

#include <QAction>
#include <QFileDialog>
#include <QKeySequence>
#include <QMainWindow>
#include <QMenu>

#include "app/hub/download_dialog.hpp"
#include "app/hub/open_model_dialog.hpp"
#include "app/lesson_source.hpp"
#include "core/lesson/lesson_edit.hpp"
#include "ui/editor/new_lesson_dialog.hpp"
#include "ui/common/file_write.hpp"
#include "app/recent_files.hpp"
#include "app/session_menu.hpp"
#include "core/export/encoder_decoder_export.hpp"
#include "core/export/export.hpp"
#include "ui/attention/heatmap_view.hpp"
#include "ui/step/worked_example.hpp"
#include "ui/step/step_navigator.hpp"
#include "ui/common/qt_text.hpp"
#include "ui/common/core_error_text.hpp"
#include "ui/common/core_language.hpp"

namespace attnscope {

FileMenu::FileMenu(QMainWindow& window, WindowActions actions, const WorkedExample& worked, const StepNavigator& navigator,
                   const HeatmapView& heatmap)
    : ReportingPart(&window), window_(window), actions_(std::move(actions)), worked_(worked), navigator_(navigator),
      heatmap_(heatmap) {}

void FileMenu::fill(QMenu* file) {
    QAction* create = file->addAction(tr("&New lesson…"), QKeySequence::New, this, &FileMenu::newLessonDialog);
    create->setObjectName("newLessonAction");
    file->addAction(tr("&Open lesson…"), QKeySequence::Open, this, &FileMenu::openLessonDialog);
    QMenu* recent = file->addMenu(tr("Open &recent"));
    recent->setObjectName("recentMenu");
    fillRecentMenu(recent, actions_);
    connect(recent, &QMenu::aboutToShow, this, [this, recent] { fillRecentMenu(recent, actions_); });
    QAction* save = file->addAction(tr("&Save lesson"), QKeySequence::Save, this, &FileMenu::saveLesson);
    QAction* saveAs = file->addAction(tr("Save lesson &as…"), QKeySequence::SaveAs, this, &FileMenu::saveLessonAs);
    save->setObjectName("saveLesson");
    saveAs->setObjectName("saveLessonAs");
    // A model on screen: the lesson is hidden, and saving it would write what nobody sees.
    connect(file, &QMenu::aboutToShow, this, [this, save, saveAs] {
        save->setEnabled(showsLesson());
        saveAs->setEnabled(showsLesson());
    });
    file->addSeparator();
    file->addAction(tr("Open &model…"), this, &FileMenu::openModelDialog);
    file->addAction(tr("&Download model…"), this, &FileMenu::downloadModelDialog);
    file->addSeparator();
    sessions_ = new SessionMenu(window_, actions_);  // its messages go out as this menu's
    connect(sessions_, &ReportingPart::failed, this, &ReportingPart::failed);
    connect(sessions_, &ReportingPart::wrote, this, &ReportingPart::wrote);
    sessions_->fill(file);
    file->addSeparator();
    file->addAction(tr("Export heatmap &PNG…"), this, &FileMenu::exportHeatmap);
    file->addAction(tr("Export &worksheet (Markdown)…"), this, &FileMenu::exportWorksheet);
    file->addAction(tr("Export current step (&CSV)…"), this, &FileMenu::exportStepCsv);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, &window_, &QWidget::close);
}

void FileMenu::openModelDialog() {
    if (const auto chosen = OpenModelDialog::choose(&window_)) actions_.openModel(*chosen);
}

void FileMenu::downloadModelDialog() {
    if (const auto snapshot = DownloadDialog::download(&window_)) actions_.openModel(*snapshot);
}

void FileMenu::openLessonDialog() {
    const QString path = QFileDialog::getOpenFileName(&window_, tr("Open lesson"), QString(),
                                                      tr("AttnScope lessons (*.json);;All files (*)"));
    if (!path.isEmpty()) actions_.openLessonFile(path);
}

// Not blocking (open, not exec): the window goes on; OK makes the lesson through core.
void FileMenu::newLessonDialog() {
    auto* dialog = new NewLessonDialog(&window_);
    dialog->setObjectName("newLessonDialog");
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { actions_.openNewLesson(newLesson(dialog->spec())); });
    dialog->open();
}

bool FileMenu::showsLesson() const { return actions_.showsLesson(); }

void FileMenu::saveLesson() {
    if (!showsLesson()) return;  // Ctrl+S in model mode: nothing to save
    const QString path = actions_.lessonPath();
    if (path.isEmpty() || path.startsWith(":/")) saveLessonAs();
    else actions_.saveLessonTo(path);
}

void FileMenu::saveLessonAs() {
    if (!showsLesson()) return;
    const QString path = QFileDialog::getSaveFileName(&window_, tr("Save lesson as"), QString(),
                                                      tr("AttnScope lessons (*.json)"));
    if (!path.isEmpty()) actions_.saveLessonTo(path);
}

bool FileMenu::writeText(const QString& path, const std::string& text) {
    if (auto error = writeFileAtomically(path, QByteArray::fromStdString(text)); !error.ok()) {
        emit failed(tr("The file could not be written"), coreErrorText(error.error()));
        return false;
    }
    emit wrote(path);
    return true;
}

void FileMenu::exportHeatmap() {
    const QString path = QFileDialog::getSaveFileName(&window_, tr("Export heatmap"), "heatmap.png", tr("PNG images (*.png)"));
    if (path.isEmpty()) return;
    const QImage figure = heatmap_.renderFigure(actions_.sourceName(), actions_.shownLayer() + 1);
    if (auto error = writePngFile(path, figure); !error.ok())
        emit failed(tr("The heatmap could not be saved"), coreErrorText(error.error()));
}

void FileMenu::exportWorksheet() {
    const QString path = QFileDialog::getSaveFileName(&window_, tr("Export worksheet"), "worksheet.md",
                                                      tr("Markdown (*.md)"));
    if (!path.isEmpty()) exportWorksheetTo(path);
}

bool FileMenu::exportWorksheetTo(const QString& path) {
    ExportRequest request;
    request.decimals = worked_.decimals();
    request.explain = true;
    request.language = coreLanguage();
    if (const EncoderDecoderRun* stages = actions_.shownStages ? actions_.shownStages() : nullptr)
        return writeText(path, exportEncoderDecoder(*stages, ExportFormat::Markdown, request));
    return worked_.trace() && writeText(path, exportTrace(*worked_.trace(), ExportFormat::Markdown, request));
}

void FileMenu::exportStepCsv() {
    const QString path = QFileDialog::getSaveFileName(&window_, tr("Export step"), "step.csv", tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    ExportRequest request;
    request.step = navigator_.currentStep();
    request.head = navigator_.currentHead();
    request.layer = worked_.layer();
    request.decimals = worked_.decimals();
    if (worked_.trace()) writeText(path, exportTrace(*worked_.trace(), ExportFormat::Csv, request));
}

}  // namespace attnscope
