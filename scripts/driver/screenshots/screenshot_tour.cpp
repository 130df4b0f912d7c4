// Screenshots for docs/screenshots: the window on every kind of step, the heatmap, the editor,
// a Chinese sentence and the coreference arcs (the attnscope_screenshots program, main.cpp).
#include "scripts/driver/screenshots/screenshot_tour.hpp"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QPushButton>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QTabWidget>
#include <QTemporaryDir>
#include <algorithm>
#include <set>

#include "app/head_analysis_worker.hpp"
#include "app/lab_window.hpp"
#include "scripts/driver/screenshots/lab_shots.hpp"
#include "app/lesson_source.hpp"
#include "app/main_window.hpp"
#include "scripts/driver/window_driver.hpp"
#include "app/presentation.hpp"
#include "scripts/driver/screenshots/screenshot_scenes.hpp"
#include "app/sentence_runners.hpp"
#include "app/source/lesson_trace_source.hpp"
#include "app/source/trace_source.hpp"
#include "app/tabs/corpus_controller.hpp"
#include "ui/compare/compare_view.hpp"
#include "ui/coref/coref_tab.hpp"
#include "ui/coref/coref_view.hpp"
#include "ui/qk/qk_view.hpp"
#include "ui/lab/lab_plots.hpp"
#include "ui/attention/head_view.hpp"
#include "ui/heads/corpus_panel.hpp"
#include "ui/heads/heads_panel.hpp"
#include "ui/attention/head_effect_box.hpp"
#include "ui/attention/heatmap_view.hpp"
#include "app/lesson_document.hpp"
#include "ui/common/core_error_text.hpp"
#include "ui/common/file_write.hpp"
#include "ui/editor/lesson_editor.hpp"
#include "ui/attention/model_view.hpp"
#include "ui/step/matrix_panel.hpp"
#include "ui/step/step_navigator.hpp"

namespace attnscope {

namespace {

// A cell worth explaining: off the diagonal when there is one, so the sum has two tokens.
std::pair<int, int> interestingCell(const Trace& trace, Step step) {
    const GridRef m = stepMatrix(trace, step, 0, 0);
    const int row = m.rows() > 1 ? 1 : 0;
    const int col = m.cols() > 2 ? 2 : 0;
    return {row, col};
}

// In a later layer of the two-layer lessons: the row of "it" (它), and the column of "animal" (动)
// among the weights or of the feature "tired" in X; interestingCell for sentences without them.
std::pair<int, int> layerCell(const Trace& trace, Step step, int layer) {
    const auto [row, col] = interestingCell(trace, step);
    const bool weights = step == Step::Weights;  // X's columns are features, named in English here
    return {indexOf(rowLabels(trace, step, layer, 0), {"it", "它"}, row),
            indexOf(columnLabels(trace, step, layer, 0), {weights ? "animal" : "tired", weights ? "动" : "tired"}, col)};
}

QString fileName(int n, const QString& lesson, const QString& what) {
    return QStringLiteral("%1-%2-%3.png").arg(n, 2, 10, QLatin1Char('0')).arg(lesson, what);
}

}  // namespace

int indexOf(const std::vector<std::string>& labels, std::initializer_list<const char*> wanted, int fallback) {
    for (const char* word : wanted)
        if (const auto at = std::find(labels.begin(), labels.end(), word); at != labels.end())
            return static_cast<int>(at - labels.begin());
    return fallback;
}

// The widgets under the names the window gave them; the tour keeps the window's member names.
ScreenshotTour::ScreenshotTour(MainWindow& window)
    : window_(window),
      session_(child<LessonTraceSource>(window, "lessonSource")->session()),
      layerBox_(child<QComboBox>(window, "layer")),
      tabs_(child<QTabWidget>(window, "tabs")),
      navigator_(child<StepNavigator>(window, "navigator")),
      matrixPanel_(child<MatrixPanel>(window, "matrixPanel")),
      heatmap_(child<HeatmapView>(window, "heatmap")),
      editor_(child<LessonEditor>(window, "lessonEditor")),
      modelView_(child<ModelView>(window, "modelView")),
      headView_(child<HeadView>(window, "headView")),
      coref_(child<CorefTab>(window, "corefTab")),
      headsPanel_(child<HeadsPanel>(window, "headsPanel")),
      headWorker_(child<HeadAnalysisWorker>(window, "headAnalysisWorker")) {}

bool ScreenshotTour::grabTo(const QString& path) {
    // Layout requests travel up one parent per pass: let every level settle.
    for (int pass = 0; pass < 5; ++pass) QApplication::processEvents();
    return saveScreenshot(&window_, path, screenshotError_);
}

// Layer `layer` (0-based, ≥ 1) of a lesson with several layers: its input (the residual sum)
// and its weights, with the row of "it" explained when the sentence has one. Returns the count.
int ScreenshotTour::saveLayerScreenshots(const QString& dir, int n, const QString& lesson, int layer) {
    layerBox_->setCurrentIndex(layer);
    tabs_->setCurrentWidget(matrixPanel_);
    const QString prefix = QStringLiteral("layer%1-").arg(layer + 1);
    int written = 0;
    for (const Step step : {Step::Input, Step::Weights}) {
        const auto& steps = navigator_->steps();
        const auto at = std::find(steps.begin(), steps.end(), step);
        if (at == steps.end()) continue;
        navigator_->setCurrentIndex(static_cast<int>(at - steps.begin()));
        const auto [row, col] = layerCell(session_.trace(), step, layer);
        matrixPanel_->selectCell(row, col);
        const QString what = prefix + QString::fromUtf8(stepKey(step).data());
        written += grabTo(QDir(dir).filePath(fileName(n + written + 1, lesson, what))) ? 1 : 0;
    }
    return written;
}

int ScreenshotTour::saveLessonScreenshots(const QString& dir) {
    MainWindow& w = window_;
    screenshotError_.clear();
    QDir().mkpath(dir);
    const QString openedPath = w.actions().lessonPath();
    std::set<Step> seen;
    int n = 0;
    const auto chinese = [](const BuiltInLesson& lesson) { return lesson.name.endsWith("-zh"); };
    for (const BuiltInLesson& lesson : builtInLessons())
        if (!chinese(lesson) && w.openBuiltInLesson(lesson.name))
            n += saveBuiltInLessonScreenshots(dir, n, lesson.name, seen);
    // The editor and a Chinese sentence, on the lesson the window was showing.
    const auto reopen = [&w, openedPath] {
        if (openedPath.startsWith(":/lessons/")) w.openBuiltInLesson(QFileInfo(openedPath).completeBaseName());
        else if (!openedPath.isEmpty()) w.openLessonFile(openedPath);
    };
    reopen();
    n += saveEditorAndChineseScreenshots(dir, n);
    // The coreference arcs last, so the earlier files keep their numbers (the README shows them).
    if (w.openBuiltInLesson("coreference")) {
        tabs_->setCurrentWidget(coref_);
        coref_->scoringBox()->setCurrentIndex(CorefTab::Layer);  // the side panel lists both heads
        n += grabTo(QDir(dir).filePath(fileName(n + 1, "coreference", "arcs"))) ? 1 : 0;
        coref_->scoringBox()->setCurrentIndex(CorefTab::Rollout);
        reopen();
    }
    // Last, so the numbers above stay: the Heads tab on the coreference lesson (1 layer, 2 heads).
    if (w.openBuiltInLesson("coreference")) {
        headsTabOf(w)->evaluate(builtInCorefSets().at(0));
        waitForHeadAnalysis(w, 120000);
        tabs_->setCurrentWidget(headsPanel_);
        n += grabTo(QDir(dir).filePath(fileName(n + 1, "coreference", "heads"))) ? 1 : 0;
        reopen();  // the window ends on the lesson it was showing
    }
    n += saveLabScreenshots(&w, session_, dir, n, screenshotError_);
    // The Chinese lessons after everything else, so the files above keep their numbers.
    for (const BuiltInLesson& lesson : builtInLessons())
        if (chinese(lesson) && w.openBuiltInLesson(lesson.name))
            n += saveBuiltInLessonScreenshots(dir, n, lesson.name, seen);
    // Queries and keys of the coreference head, "it" clicked (after the rest, so the numbers stay).
    if (w.openBuiltInLesson("coreference"))
        n += saveQkScreenshot(QDir(dir).filePath(fileName(n + 1, "coreference", "queries-keys")), "it");
    if (w.openBuiltInLesson("coreference") && showTiredAgainstWide(w))
        n += grabTo(QDir(dir).filePath(fileName(n + 1, "coreference", "compare"))) ? 1 : 0;
    if (w.openBuiltInLesson("two-layers") && showTiredAgainstWide(w) && showBothArcSets(w))
        n += grabTo(QDir(dir).filePath(fileName(n + 1, "two-layers", "compare-arcs"))) ? 1 : 0;
    n += saveProjectorScreenshots(dir, n);
    reopen();
    // The editor just after a word was added (its row of zeros, the change named as Edit ▸ Undo
    // names it), then undone: last, so the numbers above stay.
    if (auto* document = child<LessonDocument>(w, "lessonDocument"); document->addWord("birds")) {
        tabs_->setCurrentWidget(editor_);
        editor_->selectMatrix(LessonMatrixKind::Embeddings);
        n += grabWithMenuOpen(w, w.findChild<QMenu*>("editMenu"), QDir(dir).filePath(fileName(n + 1, "editor", "word-added")),
                              screenshotError_) ? 1 : 0;
        document->undoStack().undo();
    }
    // Lab ▸ Positional encoding's RoPE and Multi-head's grouped-query sections, below their pages'
    // fold: last, so the numbers above stay.
    n += saveLabSectionScreenshots(&w, session_, dir, n, screenshotError_);
    n += saveLongHeadViewScreenshots(w, dir, screenshotError_);  // head-view-512*.png (unnumbered)
    return n;
}

// Lesson 1 on a projector: four tokens' scores at 200 % zoom, then presentation mode. The
// user's remembered zoom is put back.
int ScreenshotTour::saveProjectorScreenshots(const QString& dir, int n) {
    Presentation* presentation = presentationOf(window_);
    if (!window_.openBuiltInLesson("first-hand-exercise")) return 0;
    const int zoom = presentation->zoom();
    window_.setSentence(QStringLiteral("cats chase mice cats"));
    presentation->setZoom(200);
    tabs_->setCurrentWidget(matrixPanel_);
    const auto& steps = navigator_->steps();
    navigator_->setCurrentIndex(static_cast<int>(std::find(steps.begin(), steps.end(), Step::Scores) - steps.begin()));
    matrixPanel_->selectCell(0, 2);
    int written = grabTo(QDir(dir).filePath(fileName(n + 1, "projector", "zoom-200"))) ? 1 : 0;
    presentation->setPresenting(true);
    written += grabTo(QDir(dir).filePath(fileName(n + written + 1, "projector", "presentation-mode"))) ? 1 : 0;
    presentation->setPresenting(false);
    presentation->setZoom(zoom);
    return written;
}

// The open built-in lesson: each step not shown by an earlier lesson (`seen`), its later
// layers, and its heatmap. Returns how many files were written after the n already there.
int ScreenshotTour::saveBuiltInLessonScreenshots(const QString& dir, int n, const QString& lesson, std::set<Step>& seen) {
    const int before = n;
    const Trace& trace = session_.trace();
    tabs_->setCurrentWidget(matrixPanel_);
    const std::vector<Step> steps = navigator_->steps();
    for (std::size_t i = 0; i < steps.size(); ++i) {
        if (!seen.insert(steps[i]).second) continue;
        navigator_->setCurrentIndex(static_cast<int>(i));
        const auto [row, col] = interestingCell(trace, steps[i]);
        matrixPanel_->selectCell(row, col);
        n += grabTo(QDir(dir).filePath(fileName(n + 1, lesson, QString::fromUtf8(stepKey(steps[i]).data())))) ? 1 : 0;
    }
    for (int layer = 1; layer < trace.layerCount(); ++layer) n += saveLayerScreenshots(dir, n, lesson, layer);
    tabs_->setCurrentWidget(heatmap_);  // of the last layer shown
    heatmap_->setAllHeads(trace.headCount() > 1);
    n += grabTo(QDir(dir).filePath(fileName(n + 1, lesson, "heatmap"))) ? 1 : 0;
    heatmap_->setAllHeads(false);
    return n - before;
}

// The editor, then a Chinese sentence's weights and heatmap; the lesson's sentence is put back.
int ScreenshotTour::saveEditorAndChineseScreenshots(const QString& dir, int n) {
    MainWindow& w = window_;
    const int before = n;
    tabs_->setCurrentWidget(editor_);
    n += grabTo(QDir(dir).filePath(fileName(n + 1, "editor", "embedding-table"))) ? 1 : 0;
    w.setSentence(QStringLiteral("猫追老鼠。"));
    tabs_->setCurrentWidget(matrixPanel_);
    navigator_->setCurrentIndex(static_cast<int>(navigator_->steps().size()) - 1);
    for (std::size_t i = 0; i < navigator_->steps().size(); ++i)
        if (navigator_->steps()[i] == Step::Weights) navigator_->setCurrentIndex(static_cast<int>(i));
    matrixPanel_->selectCell(1, 2);
    n += grabTo(QDir(dir).filePath(fileName(n + 1, "chinese", "weights"))) ? 1 : 0;
    tabs_->setCurrentWidget(heatmap_);
    n += grabTo(QDir(dir).filePath(fileName(n + 1, "chinese", "heatmap"))) ? 1 : 0;
    w.setSentence(QString::fromStdString(session_.lesson().sentence));
    return n - before;
}

int ScreenshotTour::saveQkScreenshot(const QString& path, const QString& word) {
    auto* view = child<QkView>(window_, "qkView");
    tabs_->setCurrentWidget(view);
    if (view->space())
        for (std::size_t p = 0; p < view->space()->points.size(); ++p)
            if (view->space()->points[p].kind == QkKind::Query && view->space()->points[p].text == word.toStdString())
                view->selectQuery(static_cast<int>(p));
    return grabTo(path) ? 1 : 0;
}

int ScreenshotTour::saveModelScreenshots(const QString& dir, const QString& model, const QString& sentence) {
    MainWindow& w = window_;
    screenshotError_.clear();
    QDir().mkpath(dir);
    if (!sentence.isEmpty()) w.setSentence(sentence);  // the model reads the box once loaded
    w.openModel(model);
    if (!waitForModel(w) || !shownSource(w).offers(TraceSource::Offer::ModelViews) || !shownSource(w).trace()) return 0;
    waitForHeadAnalysis(w);  // the model view's label badges
    int n = 0;
    const auto shot = [&](QWidget* tab, const QString& what) {
        tabs_->setCurrentWidget(tab);
        const QString name = QStringLiteral("model-%1-%2.png").arg(n + 1, 2, 10, QLatin1Char('0')).arg(what);
        n += grabTo(QDir(dir).filePath(name)) ? 1 : 0;
    };
    shot(modelView_, "model-view");
    shot(headView_, "head-view");
    heatmap_->setHead(0);
    shot(heatmap_, "heatmap-predictions");
    const std::vector<Step>& steps = navigator_->steps();
    for (std::size_t i = 0; i < steps.size(); ++i)
        if (steps[i] == Step::Weights) navigator_->setCurrentIndex(static_cast<int>(i));
    matrixPanel_->selectCell(1, 2);
    shot(matrixPanel_, "worked-example-weights");
    if (shownSource(w).trace()->rotates()) {  // RoPE: the rotation, on a head whose key/value head is shared
        navigator_->setCurrentHead(std::min(1, shownSource(w).trace()->headCount() - 1));
        for (std::size_t i = 0; i < steps.size(); ++i)
            if (steps[i] == Step::Key) navigator_->setCurrentIndex(static_cast<int>(i));
        matrixPanel_->selectCell(std::min(3, shownSource(w).trace()->tokenCount() - 1), 1);
        shot(matrixPanel_, "worked-example-rope");
    }
    // Coreference needs a pronoun: the classic sentence (the example models know its words).
    w.setSentence(QStringLiteral("The animal didn't cross the street because it was too tired."));
    if (waitForModel(w)) shot(coref_, "coreference");
    // The Heads tab: the shipped English set ranked on this model, the best head selected.
    headsTabOf(w)->evaluate(builtInCorefSets().at(0));
    if (waitForHeadAnalysis(w, 120000) && headWorker_->evaluation() && !headWorker_->evaluation()->ranking.empty())
        headsPanel_->selectHead(headWorker_->evaluation()->ranking.front().head);
    shot(headsPanel_, "heads");
    if (!sentence.isEmpty()) w.setSentence(sentence);
    if (waitForModel(w) && switchOffAndRank(w, QStringLiteral("1:1"))) shot(heatmap_, "ablation");
    const QString lab = QStringLiteral("model-%1-lab-learned-positions.png").arg(n + 1, 2, 10, QLatin1Char('0'));
    n += saveLearnedPositionsScreenshot(&w, session_, QDir(dir).filePath(lab), screenshotError_) ? 1 : 0;
    const QString qk = QStringLiteral("model-%1-queries-keys.png").arg(n + 1, 2, 10, QLatin1Char('0'));
    n += saveQkScreenshot(QDir(dir).filePath(qk), QStringLiteral("it"));
    const QString corpus = QStringLiteral("model-%1-corpus-stats.png").arg(n + 1, 2, 10, QLatin1Char('0'));
    n += saveCorpusScreenshot(QDir(dir).filePath(corpus));
    n += saveDarkScreenshots(w, session_, dir, screenshotError_);  // last: dark-*.png (issue 13 §6)
    return n;
}

int ScreenshotTour::saveWordScreenshots(const QString& dir, const QString& model, const QString& sentence) {
    MainWindow& w = window_;
    screenshotError_.clear();
    QDir().mkpath(dir);
    w.setSentence(sentence);
    w.openModel(model);
    if (!waitForModel(w) || !shownSource(w).trace()) return 0;
    int n = 0;
    const auto shot = [&](QWidget* tab, const QString& what) {
        tabs_->setCurrentWidget(tab);
        const QString name = QStringLiteral("words-%1-%2.png").arg(n + 1, 2, 10, QLatin1Char('0')).arg(what);
        n += grabTo(QDir(dir).filePath(name)) ? 1 : 0;
    };
    heatmap_->setHead(0);
    shot(heatmap_, "heatmap-pieces");
    auto* words = child<QAction>(w, "wordLevel");
    if (!words->isChecked()) words->trigger();
    shot(heatmap_, "heatmap-words");
    shot(headView_, "head-view-words");
    shot(coref_, "coreference-words");
    words->trigger();  // back to pieces: the arcs of the tokenizer's pieces, for comparison
    shot(coref_, "coreference-pieces");
    return n;
}

// The Heads tab's Corpus page over the sentences of the shipped English coreference set.
int ScreenshotTour::saveCorpusScreenshot(const QString& path) {
    auto set = loadCorefSet(builtInCorefSets().at(0));
    QTemporaryDir dir;
    QFile file(dir.filePath(QStringLiteral("english-sentences.txt")));
    if (!set || !dir.isValid() || !file.open(QIODevice::WriteOnly)) return 0;
    for (const CorefExample& e : set.value().examples) file.write(QByteArray::fromStdString(e.sentence + "\n"));
    file.close();
    auto* corpus = child<CorpusController>(window_, "corpusController");
    corpus->run(file.fileName());
    if (!waitForHeadAnalysis(window_, 120000) || !headsPanel_->corpus()->stats()) return 0;
    tabs_->setCurrentWidget(headsPanel_);
    headsPanel_->sections()->setCurrentWidget(headsPanel_->corpus());
    const bool saved = grabTo(path);
    headsPanel_->sections()->setCurrentIndex(0);
    return saved ? 1 : 0;
}

}  // namespace attnscope
