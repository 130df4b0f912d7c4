// The scenes the screenshot tour stages before a grab (see screenshot_scenes.hpp).
#include "scripts/driver/screenshots/screenshot_scenes.hpp"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QTabWidget>

#include "app/lab_window.hpp"
#include "scripts/driver/screenshots/lab_shots.hpp"
#include "app/main_window.hpp"
#include "scripts/driver/window_driver.hpp"
#include "core/trace/synthetic_trace.hpp"
#include "app/theme_switcher.hpp"
#include "ui/lab/lab_plots.hpp"
#include "ui/attention/head_effect_box.hpp"
#include "ui/attention/head_view.hpp"
#include "ui/common/core_error_text.hpp"
#include "ui/common/file_write.hpp"
#include "ui/compare/compare_view.hpp"
#include "ui/coref/coref_tab.hpp"
#include "ui/coref/coref_view.hpp"
#include "ui/heads/corpus_panel.hpp"
#include "ui/heads/heads_panel.hpp"
#include "ui/step/matrix_panel.hpp"
#include "ui/step/step_navigator.hpp"

namespace attnscope {

// The Compare tab on the coreference lesson: "…too tired" against "…too wide", head 2 (the head
// that reads the last word). False when B did not run.
bool showTiredAgainstWide(MainWindow& w) {
    auto* view = w.findChild<CompareView*>("compareView");
    auto* navigator = w.findChild<StepNavigator*>("navigator");
    auto* tabs = w.findChild<QTabWidget*>("tabs");
    if (!view || !navigator || !tabs) return false;
    w.setSentence(QStringLiteral("The animal didn't cross the street because it was too tired"));
    tabs->setCurrentWidget(view);
    navigator->setCurrentHead(1);
    view->sentenceBox()->setText(QStringLiteral("The animal didn't cross the street because it was too wide"));
    emit view->sentenceBox()->returnPressed();
    QElapsedTimer clock;
    clock.start();
    while (view->builders()[2]->drawn().size() == 0 && clock.elapsed() < 20000)
        QApplication::processEvents(QEventLoop::AllEvents, 50);
    return view->builders()[2]->drawn().size() > 0;
}

// After showTiredAgainstWide on the two-layer lesson: the Coreference tab (rollout, which reads
// the last word there) draws A's arcs (it → animal) above B's (it → street).
bool showBothArcSets(MainWindow& w) {
    auto* tab = w.findChild<CorefTab*>("corefTab");
    auto* tabs = w.findChild<QTabWidget*>("tabs");
    if (!tab || !tabs) return false;
    tab->scoringBox()->setCurrentIndex(CorefTab::Rollout);
    tabs->setCurrentWidget(tab);
    QElapsedTimer clock;
    clock.start();
    while (tab->secondView()->drawnArcs().empty() && clock.elapsed() < 20000)
        QApplication::processEvents(QEventLoop::AllEvents, 50);
    return !tab->secondView()->drawnArcs().empty();
}

// The window with `menu` drawn open under its entry in the menu bar: a grab leaves out pop-ups.
bool grabWithMenuOpen(QMainWindow& window, QMenu* menu, const QString& path, QString& firstError) {
    for (int pass = 0; pass < 5; ++pass) QApplication::processEvents();
    QImage image = window.grab().toImage();
    if (menu) {
        menu->adjustSize();
        const QRect entry = window.menuBar()->actionGeometry(menu->menuAction());
        QPainter painter(&image);
        painter.drawPixmap(window.menuBar()->mapTo(&window, entry.bottomLeft()), menu->grab());
    }
    const auto error = writePngFile(path, image);
    if (!error.ok() && firstError.isEmpty()) firstError = coreErrorText(error.error());
    return error.ok();
}

// Heads `spec` switched off as typed in the window, then "Most important heads" ranked: the
// predictions before → after and the ranking side by side. False when the run or ranking fails.
bool switchOffAndRank(MainWindow& w, const QString& spec) {
    auto* ablate = w.findChild<QLineEdit*>("ablateEdit");
    auto* box = w.findChild<HeadEffectBox*>("headEffects");
    if (!ablate || !box) return false;
    ablate->setText(spec);
    emit ablate->editingFinished();
    if (!waitForModel(w) || !box->rankButton()->isEnabled()) return false;
    box->rankButton()->click();
    QElapsedTimer clock;
    clock.start();
    while (box->entries().empty() && clock.elapsed() < 120000) QApplication::processEvents(QEventLoop::AllEvents, 50);
    return !box->entries().empty();
}

namespace {

// Until the view has painted its lines (the worker draws the picture of 40,000 of them).
bool waitForLines(HeadView& view) {
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 60000) {
        QApplication::processEvents(QEventLoop::AllEvents, 50);
        view.canvas()->repaint();
        if (view.paintedLineCount() > 0) return true;
    }
    return false;
}

// About 128 word pieces for the example BERT: the classic sentence eight times.
QString sentenceOf128Tokens() {
    QStringList parts;
    for (int i = 0; i < 8; ++i) parts << QStringLiteral("The animal didn't cross the street because it was too tired.");
    return parts.join(QLatin1Char(' '));
}

}  // namespace

// No shipped model reads 512 tokens: softmax-like rows (core/trace/synthetic_trace.hpp).
int saveLongHeadViewScreenshots(QWidget& window, const QString& dir, QString& firstError) {
    if (!firstError.isEmpty()) return 0;  // the folder refused the earlier pictures: not worth 40,000 lines
    const Trace trace = softmaxLikeTrace(512, 12);
    HeadView view;
    view.setAttribute(Qt::WA_DontShowOnScreen);
    view.setFont(window.font());
    view.resize(1200, 900);
    view.show();
    view.showTrace(trace, 0, {});
    QScrollBar* bar = view.scrollArea()->verticalScrollBar();
    int written = 0;
    const auto shoot = [&](const char* name) {
        if (!waitForLines(view)) return;
        const auto error = writePngFile(QDir(dir).filePath(QString::fromLatin1(name)), view.grab().toImage());
        if (!error.ok() && firstError.isEmpty()) firstError = coreErrorText(error.error());
        written += error.ok() ? 1 : 0;
    };
    bar->setValue(bar->maximum() / 2);
    shoot("head-view-512.png");
    view.setFocusToken(200);
    shoot("head-view-512-focus.png");
    return written;
}

int saveDarkScreenshots(MainWindow& w, const Session& session, const QString& dir, QString& firstError) {
    auto* theme = w.findChild<ThemeSwitcher*>(QStringLiteral("themeSwitcher"));
    auto* tabs = w.findChild<QTabWidget*>(QStringLiteral("tabs"));
    auto* navigator = w.findChild<StepNavigator*>(QStringLiteral("navigator"));
    if (!theme || !tabs || !navigator) return 0;
    const ThemeChoice before = theme->choice();
    theme->setChoice(ThemeChoice::Dark);
    int n = 0;
    const auto shot = [&](const char* tab, const char* what) {
        if (auto* widget = w.findChild<QWidget*>(QLatin1String(tab))) tabs->setCurrentWidget(widget);
        for (int pass = 0; pass < 5; ++pass) QApplication::processEvents();
        n += saveScreenshot(&w, dir + QStringLiteral("/dark-%1.png").arg(QLatin1String(what)), firstError) ? 1 : 0;
    };
    shot("modelView", "model-view");
    if (auto* head = w.findChild<HeadView*>(QStringLiteral("headView"))) {  // its lines are drawn in the background
        tabs->setCurrentWidget(head);
        QElapsedTimer clock;
        clock.start();
        while (head->paintedLineCount() == 0 && clock.elapsed() < 20000) QApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    shot("headView", "head-view");
    const auto& steps = navigator->steps();
    for (std::size_t i = 0; i < steps.size(); ++i)
        if (steps[i] == Step::Weights) navigator->setCurrentIndex(static_cast<int>(i));
    if (auto* matrices = w.findChild<MatrixPanel*>(QStringLiteral("matrixPanel"))) matrices->selectCell(1, 2);
    shot("matrixPanel", "worked-example");
    shot("qkView", "queries-keys");
    if (auto* heads = w.findChild<HeadsPanel*>(QStringLiteral("headsPanel"))) {  // ranking, then the corpus page
        shot("headsPanel", "heads");
        heads->sections()->setCurrentWidget(heads->corpus());
        shot("headsPanel", "corpus-stats");
        heads->sections()->setCurrentIndex(0);
    }
    w.setSentence(QStringLiteral("The animal didn't cross the street because it was too tired."));
    if (waitForModel(w)) shot("corefTab", "coreference");
    w.setSentence(sentenceOf128Tokens());
    if (waitForModel(w)) shot("heatmap", "heatmap-128-tokens");
    n += saveLearnedPositionsScreenshot(&w, session, dir + QStringLiteral("/dark-lab-learned-positions.png"), firstError) ? 1 : 0;
    theme->setChoice(before);
    return n;
}

}  // namespace attnscope
