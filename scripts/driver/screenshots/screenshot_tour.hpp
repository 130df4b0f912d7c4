#pragma once
// The screenshots of docs/screenshots, taken from outside the window: it drives a MainWindow
// through its public API and its widgets found by object name, and saves a PNG of it each time.
#include <QString>
#include <initializer_list>
#include <set>
#include <string>
#include <vector>

#include "core/trace/trace.hpp"

class QComboBox;
class QTabWidget;

namespace attnscope {

class CorefTab;
class HeadAnalysisWorker;
class HeadView;
class HeadsPanel;
class HeatmapView;
class LessonEditor;
class MainWindow;
class MatrixPanel;
class ModelView;
class Session;
class StepNavigator;

// The first of `wanted` (English, then Chinese) among `labels`, else `fallback`.
int indexOf(const std::vector<std::string>& labels, std::initializer_list<const char*> wanted, int fallback);

class ScreenshotTour {
public:
    explicit ScreenshotTour(MainWindow& window);

    // Every kind of step of every built-in lesson, the heatmaps, the editor, a Chinese sentence,
    // the coreference arcs, the Heads tab and the lab; returns the number of files written.
    int saveLessonScreenshots(const QString& dir);
    // `model` (a folder or cached id): model view, head view, heatmap with predictions, worked
    // example, coreference, heads, learned positions. Files are named model-NN-….png.
    int saveModelScreenshots(const QString& dir, const QString& model, const QString& sentence);
    // View ▸ Attention between words on `model` and `sentence` (a Chinese one through a Qwen
    // tokenizer): the heatmap of the pieces, then heatmap, head view and Coreference between
    // words. Files are named words-NN-….png.
    int saveWordScreenshots(const QString& dir, const QString& model, const QString& sentence);
    // `lesson` (a built-in lesson) in presentation mode on this screen: its weights step with the
    // row of "it" explained, and the Lab's positional-encoding page (lecture-WxH-….png; lecture_shots.cpp).
    int saveLectureScreenshots(const QString& dir, const QString& lesson);
    // `model` on `sentence` filling this screen: heatmap, model view and head view shaded by
    // weight × ‖value‖, and the Beyond weights tab (beyond-WxH-….png; beyond_shots.cpp).
    int saveBeyondScreenshots(const QString& dir, const QString& model, const QString& sentence);
    // The open lesson or model filling this screen with `sentenceB` typed in the Compare tab: the
    // X → Y tab over the whole stack and at layer 1 (movement-WxH-….png; movement_shots.cpp), the
    // two-context curve of `word` when both sentences have it (else the tab's default).
    int saveMovementScreenshots(const QString& dir, const QString& sentenceB, const QString& word);
    // The built-in encoder–decoder `lesson` filling this screen, stage by stage as the stage box
    // chooses them (stages-WxH-LESSON-….png; stage_shots.cpp).
    int saveStageScreenshots(const QString& dir, const QString& lesson);
    // The first screenshot that could not be written (the file and the OS's reason), or empty.
    QString screenshotError() const { return screenshotError_; }

private:
    bool grabTo(const QString& path);
    int saveCrossStageTabs(const QString& dir, const QString& prefix);  // stage_shots.cpp
    int saveLayerScreenshots(const QString& dir, int n, const QString& lesson, int layer);
    int saveBuiltInLessonScreenshots(const QString& dir, int n, const QString& lesson, std::set<Step>& seen);
    int saveEditorAndChineseScreenshots(const QString& dir, int n);
    // The Queries & keys tab of the shown trace with the query `word` (if any) clicked; 1 or 0.
    int saveQkScreenshot(const QString& path, const QString& word);
    int saveCorpusScreenshot(const QString& path);  // the Heads tab's Corpus page
    int saveProjectorScreenshots(const QString& dir, int n);  // 200 % zoom, presentation mode; 2 or fewer
    MainWindow& window_;
    const Session& session_;  // the lesson under the window
    QComboBox* layerBox_;
    QTabWidget* tabs_;
    StepNavigator* navigator_;
    MatrixPanel* matrixPanel_;
    HeatmapView* heatmap_;
    LessonEditor* editor_;
    ModelView* modelView_;
    HeadView* headView_;
    CorefTab* coref_;
    HeadsPanel* headsPanel_;
    HeadAnalysisWorker* headWorker_;
    QString screenshotError_;  // the first failed file of the last tour
};

}  // namespace attnscope
