// Issue 29 §5 on this screen: the X → Y tab (what attention did to each word) of the open lesson or
// model over the whole stack and at layer 1, with sentence B typed in the Compare tab for the same
// word in two contexts. The file names carry the screen's size: run under 1280×720 and 1920×1080
// virtual screens, in English and Chinese (scripts/screenshots.sh).
#include <QComboBox>
#include <QDir>
#include <QLineEdit>
#include <QScreen>
#include <QTabWidget>
#include <QTest>

#include "app/main_window.hpp"
#include "app/tabs/movement_tab_controller.hpp"
#include "scripts/driver/screenshots/screenshot_tour.hpp"
#include "scripts/driver/window_driver.hpp"
#include "ui/compare/compare_view.hpp"
#include "ui/lab/lab_plots.hpp"
#include "ui/movement/same_word_panel.hpp"

namespace attnscope {

namespace {

// Chooses the token `word` in a token box ("8 it"), as a user would; false when it has none.
bool chooseWord(QComboBox* box, const QString& word) {
    for (int i = 0; i < box->count(); ++i)
        if (box->itemText(i).section(' ', 1) == word) return box->setCurrentIndex(i), true;
    return false;
}

}  // namespace

int ScreenshotTour::saveMovementScreenshots(const QString& dir, const QString& sentenceB, const QString& word) {
    MainWindow& w = window_;
    screenshotError_.clear();
    QDir().mkpath(dir);
    const QRect screen = w.screen()->geometry();
    w.setGeometry(screen);  // a virtual screen without a window manager: full screen by hand
    if (!waitForModel(w) || !shownSource(w).trace()) return 0;
    auto* compare = child<CompareView>(w, "compareView");
    tabs_->setCurrentWidget(compare);
    compare->sentenceBox()->setText(sentenceB);  // keyClicks types ASCII only; Return runs it as typing would
    QTest::keyClick(compare->sentenceBox(), Qt::Key_Return);
    auto* movement = child<MovementTabController>(w, "movementTab");
    tabs_->setCurrentWidget(movement->view());
    const QString size = QStringLiteral("%1x%2").arg(screen.width()).arg(screen.height());
    int n = 0;
    for (const auto& [index, what] : {std::pair{0, "stack"}, std::pair{1, "layer1"}}) {
        child<QComboBox>(w, "movementLayer")->setCurrentIndex(index);
        QTest::qWait(50);
        waitUntil([movement] { return !movement->busy() && !movement->view()->sameWord()->builder().series().empty(); }, 60000);
        child<QTabWidget>(w, "movementPlots")->setCurrentIndex(index == 0 ? 0 : 1);  // the bars, then the curve
        if (!word.isEmpty() && chooseWord(child<QComboBox>(w, "sameWordTokenA"), word)) chooseWord(child<QComboBox>(w, "sameWordTokenB"), word);
        QTest::qWait(200);
        n += grabTo(QDir(dir).filePath(QStringLiteral("movement-%1-%2.png").arg(size, QLatin1String(what)))) ? 1 : 0;
    }
    return n;
}

}  // namespace attnscope
