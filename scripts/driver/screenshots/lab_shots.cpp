// The lab window's screenshots (see lab_shots.hpp).
#include "scripts/driver/screenshots/lab_shots.hpp"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QScrollArea>
#include <QThread>
#include <cmath>

#include "app/lab_window.hpp"
#include "core/trace/explain.hpp"
#include "ui/common/core_error_text.hpp"
#include "ui/common/file_write.hpp"
#include "ui/common/qt_text.hpp"
#include "ui/lab/exercise_panel.hpp"
#include "ui/lab/grouped_query_box.hpp"
#include "ui/lab/masks_panel.hpp"
#include "ui/lab/multi_head_panel.hpp"
#include "ui/lab/positional_panel.hpp"
#include "ui/lab/rope_demo_box.hpp"
#include "ui/lab/scaling_panel.hpp"

namespace attnscope {

namespace {

// One answer right, one wrong, and that one's explanation partly revealed.
void showExerciseDemo(ExercisePanel& panel) {
    const Exercise* exercise = panel.exercise();
    if (!exercise || exercise->blanks.size() < 2) return;
    const int decimals = exercise->spec.decimals;
    const double unit = std::pow(10.0, -decimals);
    panel.answer(0, qs(formatNumber(exercise->blanks[0].answer, decimals)));
    panel.answer(1, qs(formatNumber(exercise->blanks[1].answer + unit, decimals)));  // one unit off: wrong
    for (int i = 0; i < 5; ++i) panel.revealNextStep();
}

// One PNG per sub-tab of the Masks & cross-attention panel (three sections do not fit one page).
int saveMasksScreenshots(LabWindow* lab, const QString& dir, int n, QString& firstError) {
    const std::pair<MasksPanel::SubPage, QString> pages[] = {
        {MasksPanel::CausalPage, "masks-causal"}, {MasksPanel::PaddingPage, "masks-padding"},
        {MasksPanel::CrossPage, "masks-cross-attention"}};
    lab->showPage(LabWindow::Masks);
    int written = 0;
    for (const auto& [page, what] : pages) {
        lab->masksPanel()->showSubPage(page);
        if (page == MasksPanel::CrossPage) lab->masksPanel()->selectCrossCell(0, 0);  // an explanation shown
        for (int pass = 0; pass < 5; ++pass) QApplication::processEvents();
        const QString name = QStringLiteral("%1-lab-%2.png").arg(n + written + 1, 2, 10, QLatin1Char('0')).arg(what);
        written += saveScreenshot(lab, QDir(dir).filePath(name), firstError) ? 1 : 0;
    }
    return written;
}

void selectData(QComboBox* box, int data) {
    if (const int index = box->findData(data); index >= 0) box->setCurrentIndex(index);
}

// The page's scroll area (LabWindow wraps every page in one) scrolled to show `section`.
void scrollTo(LabWindow* lab, QWidget* section) {
    if (auto* area = qobject_cast<QScrollArea*>(lab->tabs()->currentWidget())) area->ensureWidgetVisible(section, 0, 0);
    for (int pass = 0; pass < 5; ++pass) QApplication::processEvents();
}

}  // namespace

bool saveScreenshot(QWidget* widget, const QString& path, QString& firstError) {
    const auto error = writePngFile(path, widget->grab().toImage());
    if (!error.ok() && firstError.isEmpty()) firstError = coreErrorText(error.error());
    return error.ok();
}

int saveLabScreenshots(QWidget* owner, const Session& session, const QString& dir, int n, QString& firstError) {
    const std::pair<LabWindow::Page, QString> pages[] = {
        {LabWindow::Positional, "positional-encoding"}, {LabWindow::Scaling, "scaling"}, {LabWindow::Synthesizer, "synthesizer"},
        {LabWindow::MultiHead, "multi-head"}, {LabWindow::Exercises, "exercises"}};
    LabWindow* lab = openLab(owner, session, LabWindow::Positional);
    int written = 0;
    for (const auto& [page, what] : pages) {
        lab->showPage(page);
        if (page == LabWindow::Exercises) showExerciseDemo(*lab->exercisePanel());
        for (int wait = 0; wait < 2000 && lab->scalingPanel()->isSweepRunning(); ++wait) {  // the worker's result
            QThread::msleep(5);
            QApplication::processEvents();
        }
        for (int pass = 0; pass < 5; ++pass) QApplication::processEvents();
        const QString name = QStringLiteral("%1-lab-%2.png").arg(n + written + 1, 2, 10, QLatin1Char('0')).arg(what);
        written += saveScreenshot(lab, QDir(dir).filePath(name), firstError) ? 1 : 0;
    }
    written += saveMasksScreenshots(lab, dir, n + written, firstError);
    lab->close();
    return written;
}

int saveLabSectionScreenshots(QWidget* owner, const Session& session, const QString& dir, int n, QString& firstError) {
    LabWindow* lab = openLab(owner, session, LabWindow::Positional);
    const auto shoot = [&](const QString& what) {
        const QString name = QStringLiteral("%1-%2.png").arg(n + 1, 2, 10, QLatin1Char('0')).arg(what);
        const bool saved = saveScreenshot(lab, QDir(dir).filePath(name), firstError);
        n += saved ? 1 : 0;
        return saved ? 1 : 0;
    };
    for (int pass = 0; pass < 5; ++pass) QApplication::processEvents();
    scrollTo(lab, lab->positionalPanel()->rope());
    int written = shoot("lab-rope");
    lab->showPage(LabWindow::MultiHead);
    MultiHeadPanel* multiHead = lab->multiHeadPanel();
    selectData(multiHead->inputBox(), 8);
    selectData(multiHead->headsBox(), 4);
    selectData(multiHead->groupedQuery()->kvHeadsBox(), 2);
    multiHead->showGroupedQuery();
    for (int pass = 0; pass < 5; ++pass) QApplication::processEvents();
    written += shoot("lab-grouped-query");
    lab->close();
    return written;
}

bool saveLearnedPositionsScreenshot(QWidget* owner, const Session& session, const QString& path,
                                    QString& firstError) {
    LabWindow* lab = openLab(owner, session, LabWindow::Positional);
    QComboBox* source = lab->positionalPanel()->sourceBox();
    const int learned = source->findData(PositionalPanel::Learned);
    bool saved = false;
    if (learned >= 0) {
        source->setCurrentIndex(learned);
        for (int pass = 0; pass < 5; ++pass) QApplication::processEvents();
        saved = saveScreenshot(lab, path, firstError);
        source->setCurrentIndex(0);
    }
    lab->close();
    return saved;
}

}  // namespace attnscope
