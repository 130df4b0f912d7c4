// The File menu: opening and saving lessons, opening and downloading models, exports.
#include <QFileDialog>
#include <QStatusBar>

#include "app/hub/download_dialog.hpp"
#include "app/hub/open_model_dialog.hpp"
#include "app/lesson_source.hpp"
#include "app/main_window.hpp"
#include "app/source/lesson_trace_source.hpp"
#include "core/export.hpp"
#include "ui/heatmap_view.hpp"
#include "ui/step/worked_example.hpp"
#include "ui/step_navigator.hpp"

namespace attnscope {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

void MainWindow::openModelDialog() {
    if (const auto chosen = OpenModelDialog::choose(this)) openModel(*chosen);
}

void MainWindow::downloadModelDialog() {
    if (const auto snapshot = DownloadDialog::download(this)) openModel(*snapshot);
}

void MainWindow::openLessonDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open lesson"), QString(),
                                                      tr("AttnScope lessons (*.json);;All files (*)"));
    if (!path.isEmpty()) openLessonFile(path);
}

bool MainWindow::saveLessonTo(const QString& path) {
    if (auto error = saveLessonFile(lesson_->session().lesson(), path)) {
        showError(tr("The lesson could not be saved"), qs(error->text()));
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
    if (!heatmap_->savePng(path)) showError(tr("The heatmap could not be saved"), path);
}

void MainWindow::exportWorksheet() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export worksheet"), "worksheet.md",
                                                      tr("Markdown (*.md)"));
    if (path.isEmpty()) return;
    ExportRequest request;
    request.decimals = worked_->decimals();
    request.explain = true;
    if (worked_->trace()) writeText(path, exportTrace(*worked_->trace(), ExportFormat::Markdown, request));
}

void MainWindow::exportStepCsv() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export step"), "step.csv", tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    ExportRequest request;
    request.step = navigator_->currentStep();
    request.head = navigator_->currentHead();
    request.layer = worked_->layer();
    request.decimals = worked_->decimals();
    if (worked_->trace()) writeText(path, exportTrace(*worked_->trace(), ExportFormat::Csv, request));
}

}  // namespace attnscope
