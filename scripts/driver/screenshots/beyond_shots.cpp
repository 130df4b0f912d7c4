// Issue 30 §2 on this screen: a model's heatmap, model view and head view shaded by
// weight × ‖value‖, then the Beyond weights tab (logit lens and direct logit attribution). The file
// names carry the screen's size: run under 1280×720 and 1920×1080 virtual screens, in English and
// Chinese (scripts/screenshots.sh).
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QScreen>
#include <QTabWidget>
#include <QTest>

#include "app/main_window.hpp"
#include "app/tabs/beyond_tab_controller.hpp"
#include "scripts/driver/screenshots/screenshot_tour.hpp"
#include "scripts/driver/window_driver.hpp"
#include "ui/attention/head_view.hpp"
#include "ui/attention/heatmap_view.hpp"
#include "ui/attention/model_view.hpp"

namespace attnscope {

int ScreenshotTour::saveBeyondScreenshots(const QString& dir, const QString& model, const QString& sentence) {
    MainWindow& w = window_;
    screenshotError_.clear();
    QDir().mkpath(dir);
    const QRect screen = w.screen()->geometry();
    w.setGeometry(screen);  // a virtual screen without a window manager: full screen by hand
    w.setSentence(sentence);
    w.openModel(model);
    if (!waitForModel(w) || !shownSource(w).trace()) return 0;
    const QString size = QStringLiteral("%1x%2").arg(screen.width()).arg(screen.height());
    int n = 0;
    const auto shot = [&](QWidget* tab, const QString& what) {
        tabs_->setCurrentWidget(tab);
        QTest::qWait(300);  // a multi-head view draws its thumbnails on a worker
        n += grabTo(QDir(dir).filePath(QStringLiteral("beyond-%1-%2.png").arg(size, what))) ? 1 : 0;
    };
    child<QCheckBox>(w, "weighting")->setChecked(true);  // shaded by weight × ‖value‖
    child<QComboBox>(w, "layer")->setCurrentIndex(1);
    heatmap_->setHead(0);
    waitUntil([&] { return heatmap_->builders().at(0)->colourScale()->label().contains(QStringLiteral("‖")); }, 30000);
    shot(heatmap_, "heatmap-norms");
    shot(modelView_, "model-view-norms");
    shot(headView_, "head-view-norms");
    auto* beyond = child<BeyondTabController>(w, "beyondTab");
    tabs_->setCurrentWidget(beyond->view());
    waitUntil([beyond] { return !beyond->view()->grid()->table().cells.empty() && !beyond->busy(); }, 60000);
    shot(beyond->view(), "lens-and-attribution");
    return n;
}

}  // namespace attnscope
