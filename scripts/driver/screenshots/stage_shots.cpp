// Issue 29 §4 on this screen: an encoder–decoder lesson stage by stage, chosen in the stage box as
// a teacher does: the encoder's weights, the decoder's masked weights, the cross-attention weights
// (a row of the decoder explained), the output head's probabilities beside teacher forcing's table,
// the Heads tab's statistics of the cross-attention heads, the cross stage's X → Y (each decoder
// row from Y₁ to Y₂, its content from the source words) and the editor on the cross-attention's
// W_Q. The file names carry the screen's size: run under 1280×720 and 1920×1080 virtual screens,
// in English and Chinese (scripts/screenshots.sh).
#include <QComboBox>
#include <QDir>
#include <QScreen>
#include <QTabWidget>
#include <QTest>
#include <algorithm>

#include "app/main_window.hpp"
#include "app/tabs/movement_tab_controller.hpp"
#include "scripts/driver/screenshots/screenshot_tour.hpp"
#include "scripts/driver/window_driver.hpp"
#include "ui/attention/heatmap_view.hpp"
#include "ui/editor/lesson_editor.hpp"
#include "ui/heads/heads_panel.hpp"
#include "ui/movement/movement_view.hpp"
#include "ui/step/matrix_panel.hpp"
#include "ui/step/step_navigator.hpp"

namespace attnscope {

int ScreenshotTour::saveStageScreenshots(const QString& dir, const QString& lesson) {
    MainWindow& w = window_;
    screenshotError_.clear();
    QDir().mkpath(dir);
    if (!w.openBuiltInLesson(lesson)) return 0;
    const QRect screen = w.screen()->geometry();
    w.setGeometry(screen);  // a virtual screen without a window manager: full screen by hand
    const QString size = QStringLiteral("%1x%2").arg(screen.width()).arg(screen.height());
    auto* stages = child<QComboBox>(w, "stageChoice");
    tabs_->setCurrentWidget(matrixPanel_);
    // (stage box item, step, selected cell, file): the cells are the lesson's points (the comments of
    // tests/gui/test_encoder_decoder_window.cpp): 我 on itself, who on itself, <s> on 谁, p(who).
    struct Shot {
        int stage;
        Step step;
        int row, col;
        const char* what;
    };
    const Shot shots[] = {{0, Step::Weights, 0, 0, "encoder-weights"},
                          {1, Step::Weights, 1, 1, "decoder-masked-weights"},
                          {2, Step::Weights, 0, 2, "cross-weights"},
                          {2, Step::Probabilities, 0, 0, "cross-labels"}};
    int n = 0;
    for (const Shot& shot : shots) {
        stages->setCurrentIndex(shot.stage);
        const auto& steps = navigator_->steps();
        const auto at = std::find(steps.begin(), steps.end(), shot.step);
        if (at == steps.end()) continue;
        navigator_->setCurrentIndex(static_cast<int>(at - steps.begin()));
        matrixPanel_->selectCell(shot.row, shot.col);
        n += grabTo(QDir(dir).filePath(QStringLiteral("stages-%1-%2-%3.png").arg(size, lesson, QLatin1String(shot.what)))) ? 1 : 0;
    }
    // The Heads tab on the cross stage: every head's statistics over its T_dec×T_src weights.
    tabs_->setCurrentWidget(headsPanel_);
    waitForHeadAnalysis(w);
    n += grabTo(QDir(dir).filePath(QStringLiteral("stages-%1-%2-cross-heads.png").arg(size, lesson))) ? 1 : 0;
    tabs_->setCurrentWidget(matrixPanel_);
    n += saveCrossStageTabs(dir, QStringLiteral("stages-%1-%2-").arg(size, lesson));
    stages->setCurrentIndex(0);
    tabs_->setCurrentWidget(matrixPanel_);
    return n;
}

// The cross stage's X → Y tab and the editor on the cross-attention's W_Q (names start with `prefix`).
int ScreenshotTour::saveCrossStageTabs(const QString& dir, const QString& prefix) {
    MainWindow& w = window_;
    child<QComboBox>(w, "stageChoice")->setCurrentIndex(2);
    auto* movement = child<MovementTabController>(w, "movementTab");
    tabs_->setCurrentWidget(movement->view());
    child<QComboBox>(w, "movementLayer")->setCurrentIndex(1);  // layer 1: where each row's content came from
    waitUntil([movement] { return !movement->busy(); }, 60000);
    int n = grabTo(QDir(dir).filePath(prefix + "cross-x-to-y.png")) ? 1 : 0;
    // The Attention tab's heatmap of the cross stage: decoder rows over the source's columns.
    tabs_->setCurrentWidget(heatmap_);
    QTest::qWait(200);
    n += grabTo(QDir(dir).filePath(prefix + "cross-heatmap.png")) ? 1 : 0;
    tabs_->setCurrentWidget(editor_);
    editor_->selectMatrix(LessonMatrixKind::WQ, 0, 0, LessonLayerPart::Cross);
    n += grabTo(QDir(dir).filePath(prefix + "editor-cross-wq.png")) ? 1 : 0;
    return n;
}

}  // namespace attnscope
