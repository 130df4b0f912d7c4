#pragma once
// The AttnScope window: sentence box and tokens on top, the steps on the left, the worked
// example / heatmap / lesson editor in the middle. It owns the Session and wires views to it;
// the views only render the Session's Trace.
#include <QMainWindow>
#include <QTimer>
#include <memory>
#include <optional>

#include "core/source/session.hpp"
#include "core/analysis/coreference.hpp"
#include "core/analysis/coref_eval.hpp"
#include "core/explain.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QTabWidget;

namespace attnscope {

class CorefTab;
class HeadAnalysisWorker;
class HeadView;
class HeadsPanel;
class HeatmapView;
class LessonEditor;
class MatrixPanel;
class ModelView;
class ModelWorker;
class PieceStrip;
class PredictionsView;
class StepNavigator;
class TokenStrip;
struct AttentionViewOptions;
struct ModelRun;

// Registers the compiled-in resources (built-in lessons) of the static attnscope_app library.
void initResources();

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Each returns false and keeps the current lesson when the lesson cannot be opened; the
    // reason appears in a (non-blocking) message box and in lastError().
    bool openBuiltInLesson(const QString& name);  // e.g. "first-hand-exercise"
    bool openLessonFile(const QString& path);
    bool saveLessonTo(const QString& path);

    // Model mode: opens a model folder or a Hugging Face cache id off the GUI thread and runs
    // the sentence box on it. On failure the previous lesson or model stays, with a message
    // (lastError()). Opening a lesson afterwards leaves model mode.
    void openModel(const QString& pathOrId);
    bool isModelMode() const { return modelMode_; }

    // Runs the sentence now (typing runs it after a short pause).
    void setSentence(const QString& sentence);
    void setLargerText(bool larger);

    // Coreference tab (main_window_coref.cpp): scores the arcs with `heads` (0-based) and shows
    // the tab; the head ranking's "use best heads" calls it.
    void setCoreferenceHeads(const std::vector<HeadRef>& heads);

    // Walks every kind of step of every built-in lesson and saves a PNG of the window for each
    // into `dir`; returns the number of files written. Used for docs/screenshots.
    int saveScreenshots(const QString& dir);
    // Model mode on `model` (a folder or cached id): model view, head view, heatmap with
    // predictions, worked example. Files are named model-NN-….png.
    int saveModelScreenshots(const QString& dir, const QString& model, const QString& sentence);
    // Processes events until the model worker is idle; false on timeout.
    bool waitForModel(int timeoutMs = 30000);

    // Heads tab (main_window_heads.cpp): ranks every head on a coreference set (a path or a
    // built-in ":/coref/…"), off the GUI thread; exports the ranking as png, svg, pdf, csv or
    // json, atomically. The panel's useHeadsForCoreference signal carries core's bestHeads.
    void evaluateHeads(const QString& setSource);
    bool exportHeadRanking(const QString& path, const QString& format);
    bool waitForHeadAnalysis(int timeoutMs = 30000);  // until evaluation and statistics are idle
    HeadsPanel* headsPanel() const { return headsPanel_; }
    HeadAnalysisWorker* headAnalysisWorker() const { return headWorker_; }

    // For tests.
    const Session& session() const { return session_; }
    QLineEdit* sentenceEdit() const { return sentence_; }
    TokenStrip* tokenStrip() const { return tokens_; }
    StepNavigator* navigator() const { return navigator_; }
    MatrixPanel* matrixPanel() const { return matrixPanel_; }
    HeatmapView* heatmapView() const { return heatmap_; }
    LessonEditor* lessonEditor() const { return editor_; }
    QTabWidget* tabs() const { return tabs_; }
    QString lastError() const { return lastError_; }
    QString noticeText() const;
    QString roundingText() const;
    QString lessonTitle() const;
    ModelWorker* modelWorker() const { return worker_; }
    PredictionsView* predictionsView() const { return predictions_; }
    ModelView* modelView() const { return modelView_; }
    HeadView* headView() const { return headView_; }
    PieceStrip* pieceStrip() const { return pieces_; }
    CorefTab* corefTab() const { return coref_; }
    QComboBox* layerBox() const { return layerBox_; }
    QCheckBox* hideSpecialBox() const { return hideSpecial_; }
    QComboBox* aggregateBox() const { return aggregate_; }
    QProgressBar* runProgress() const { return progress_; }
    QPushButton* cancelButton() const { return cancel_; }
    QString errorText() const;
    // The run on screen in model mode (null otherwise).
    const ModelRun* shownRun() const { return shownRun_.get(); }

protected:
    void showEvent(QShowEvent* event) override;

private:
    void buildMenus();
    void buildLessonsMenu(QMenu* menu);
    QWidget* buildCentralWidget();
    void connectViews();
    QWidget* buildModelControls(QWidget* parent);
    void buildModelTabs();
    void connectModelWorker();
    void updateLessonTabs();

    bool openLesson(Result<Lesson> lesson, const QString& path);
    void showError(const QString& title, const QString& text);
    void applySentence();
    void onLessonEdited();
    void refreshAll();
    void refreshLabels();
    void refreshLessonLayers();
    void showLessonLayer();
    void showStepsOf(const Trace& trace, int layer);
    int lessonLayer() const;  // 0-based, the layer box's choice within the lesson's layers
    void setErrorText(const QString& text);
    void showCurrentStep();
    void explain(const CellRef& cell);
    const Trace& workedTrace() const;  // what the worked example shows
    int workedLayer() const;           // its layer: the chosen one of a lesson, 0 of the model's detail trace
    int workedDecimals() const;
    bool hasWorkedTrace() const;

    // Model mode (main_window_model.cpp).
    void openModelDialog();
    void downloadModelDialog();
    void enterModelMode();
    void leaveModelMode();
    void requestModelRun();
    void onModelRunFinished();
    void onModelRunFailed(const QString& message, bool cancelled);
    void refreshModelViews();
    void refreshModelLabels();
    void showModelDetail();
    void showModelLayer();
    void refreshModelTab(QWidget* tab);
    void applyAttentionOptions();
    AttentionViewOptions attentionOptions() const;
    int currentModelLayer() const;
    void setModelRunning(bool running);

    // Coreference tab (main_window_coref.cpp).
    void buildCorefTab();
    void refreshCoref();  // re-resolves the trace on screen when the tab is shown, else later
    const Trace* corefTrace() const;
    // Heads tab (main_window_heads.cpp).
    void buildHeadsTab();
    void connectHeadsPanel();
    SentenceRunner currentSentenceRunner() const;
    QString analysedName() const;
    void onHeadEvaluationFinished();
    void resetHeadAnalysis();
    void requestHeadStatistics();
    void onHeadStatisticsReady();
    void exportHeadRankingDialog(const QString& format);

    void saveLesson();
    void saveLessonAs();
    void openLessonDialog();
    void exportHeatmap();
    void exportWorksheet();
    void exportStepCsv();
    bool writeText(const QString& path, const std::string& text);
    bool grabTo(const QString& path);
    int saveLayerScreenshots(const QString& dir, int n, const QString& lesson, int layer);

    Session session_;
    QString lessonPath_;  // empty or ":/…" for built-in lessons: Save asks for a file
    QString lastError_;
    std::optional<std::pair<int, int>> selectedCell_;  // kept across recomputes of the same step
    std::optional<Step> shownStep_;
    QTimer sentenceTimer_;
    bool modelMode_ = false;
    ModelWorker* worker_ = nullptr;
    // Kept alive while views point into them; replaced only once a newer result is shown.
    std::shared_ptr<const ModelRun> shownRun_;
    std::shared_ptr<const Trace> detailTrace_;
    // The run a multi-head view shows; it keeps that run alive. Views off screen are brought up
    // to date when their tab opens: at 512 tokens each rebuild costs more than a frame.
    struct ShownBy {
        std::shared_ptr<const ModelRun> run;
        bool stale = true;  // layer or options changed since
        bool needs(const std::shared_ptr<const ModelRun>& latest) const { return stale || run != latest; }
    };
    ShownBy heatmapShows_, modelViewShows_, headViewShows_;

    QLabel* title_ = nullptr;
    QLabel* description_ = nullptr;
    QLineEdit* sentence_ = nullptr;
    TokenStrip* tokens_ = nullptr;
    QLabel* notices_ = nullptr;
    QLabel* rounding_ = nullptr;
    QLabel* error_ = nullptr;
    StepNavigator* navigator_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    MatrixPanel* matrixPanel_ = nullptr;
    HeatmapView* heatmap_ = nullptr;
    LessonEditor* editor_ = nullptr;
    QWidget* modelControls_ = nullptr;
    QComboBox* layerBox_ = nullptr;
    QWidget* attentionControls_ = nullptr;  // model-mode options beside the layer box
    QCheckBox* hideSpecial_ = nullptr;
    QComboBox* aggregate_ = nullptr;
    QComboBox* scale_ = nullptr;
    QCheckBox* renormalize_ = nullptr;
    PieceStrip* pieces_ = nullptr;
    ModelView* modelView_ = nullptr;
    HeadView* headView_ = nullptr;
    PredictionsView* predictions_ = nullptr;
    QScrollArea* predictionsArea_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_ = nullptr;
    CorefTab* coref_ = nullptr;
    bool corefStale_ = true;  // the trace, layer or head changed while the tab was hidden
    HeadsPanel* headsPanel_ = nullptr;
    HeadAnalysisWorker* headWorker_ = nullptr;
};

}  // namespace attnscope
