// A lecture on this screen (issue 28): the coreference lesson in presentation mode at 150 %, its
// weights step with the row of "it" (它) explained, then two Lab pages filling the same screen. The
// file names carry the screen's size: run under 1280×720 and 1920×1080 virtual screens
// (scripts/screenshots.sh).
#include <QApplication>
#include <QDir>
#include <QScreen>
#include <QTabWidget>
#include <algorithm>

#include "app/lab_window.hpp"
#include "app/main_window.hpp"
#include "app/presentation.hpp"
#include "app/source/lesson_trace_source.hpp"
#include "core/source/session.hpp"
#include "scripts/driver/screenshots/lab_shots.hpp"
#include "scripts/driver/screenshots/screenshot_tour.hpp"
#include "scripts/driver/window_driver.hpp"
#include "ui/step/matrix_panel.hpp"
#include "ui/step/step_navigator.hpp"

namespace attnscope {

constexpr int kLectureZoom = 150;

// The English lesson in the English interface, the Chinese one in the Chinese interface.
int ScreenshotTour::saveLectureScreenshots(const QString& dir, const QString& lesson) {
    if (!window_.openBuiltInLesson(lesson)) return 0;
    Presentation* presentation = presentationOf(window_);
    const QRect screen = window_.screen()->geometry();
    const QString size = QStringLiteral("%1x%2").arg(screen.width()).arg(screen.height());
    presentation->setZoom(kLectureZoom);
    presentation->setPresenting(true);
    window_.setGeometry(screen);  // a virtual screen without a window manager: full screen by hand
    tabs_->setCurrentWidget(matrixPanel_);
    const auto& steps = navigator_->steps();
    navigator_->setCurrentIndex(static_cast<int>(std::find(steps.begin(), steps.end(), Step::Weights) - steps.begin()));
    const Trace& trace = session_.trace();
    // The lessons' point, in layer 1: "it" attends to "animal" (0.873), 它 to 累 (0.969).
    const int it = indexOf(rowLabels(trace, Step::Weights, 0, 0), {"it", "它"}, 0);
    const int referent = indexOf(columnLabels(trace, Step::Weights, 0, 0), {"animal", "累"}, 0);
    matrixPanel_->selectCell(it, referent);
    int written = grabTo(QDir(dir).filePath(QStringLiteral("lecture-%1-%2-weights.png").arg(size, lesson))) ? 1 : 0;
    LabWindow* lab = openLab(&window_, session_, LabWindow::Positional);
    lab->setGeometry(screen);
    for (int pass = 0; pass < 5; ++pass) QApplication::processEvents();
    written += saveScreenshot(lab, QDir(dir).filePath(QStringLiteral("lecture-%1-lab-positional-encoding.png").arg(size)),
                              screenshotError_) ? 1 : 0;
    lab->showPage(LabWindow::MultiHead);  // per-head maps whose titles and numbers follow the zoom
    for (int pass = 0; pass < 5; ++pass) QApplication::processEvents();
    written += saveScreenshot(lab, QDir(dir).filePath(QStringLiteral("lecture-%1-lab-multi-head.png").arg(size)),
                              screenshotError_) ? 1 : 0;
    lab->close();
    presentation->setPresenting(false);
    presentation->setZoom(100);
    return written;
}

}  // namespace attnscope
