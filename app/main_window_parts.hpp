#pragma once
// The widgets and tab controllers of MainWindow, private to its .cpp files: the window's header
// stays the shell's interface.
#include <functional>
#include <memory>
#include <vector>

#include "app/main_window.hpp"
#include "ui/attention/trace_tab.hpp"

class QAction;
class QLabel;
class QLineEdit;
class QScrollArea;
class QTabWidget;

namespace attnscope {

class AttentionControls;
class BeyondTabController;
class CompareTabController;
class MovementTabController;
class CorefTabController;
class FileMenu;
class HeadEffectBox;
class HeadEffectController;
class HeadView;
class HeadsTab;
class HeatmapView;
class JobProgress;
class LessonEditor;
class LoadingCover;
class MatrixPanel;
class ModelView;
class PieceStrip;
class Presentation;
class PredictionsView;
class FoldingText;
class QkTabController;
class StageBar;
class StepNavigator;
class TokenStrip;
class WorkedExample;

struct MainWindow::Parts {
    QLabel *title = nullptr, *notices = nullptr, *rounding = nullptr, *error = nullptr;
    FoldingText* description = nullptr;  // three lines, "More ▾" for the rest
    QLineEdit* sentence = nullptr;
    QLineEdit* ablate = nullptr;  // "Switch heads off:" L:H,L:H as --ablate takes them
    TokenStrip* tokens = nullptr;
    StageBar* stages = nullptr;  // an encoder–decoder lesson's stage choice and teacher-forcing table
    PieceStrip* pieces = nullptr;
    StepNavigator* navigator = nullptr;
    QTabWidget* tabs = nullptr;
    MatrixPanel* matrixPanel = nullptr;
    HeatmapView* heatmap = nullptr;
    LessonEditor* editor = nullptr;
    ModelView* modelView = nullptr;
    HeadView* headView = nullptr;
    PredictionsView* predictions = nullptr;
    HeadEffectBox* headEffectBox = nullptr;         // "Most important heads", under the predictions
    HeadEffectController* headEffects = nullptr;
    AttentionControls* controls = nullptr;
    QScrollArea* predictionsArea = nullptr;
    JobProgress* progress = nullptr;  // the run's, in the status bar
    WorkedExample* worked = nullptr;
    std::vector<std::unique_ptr<TraceTab>> traceTabs;  // heatmap, model view, head view
    CorefTabController* coref = nullptr;
    HeadsTab* heads = nullptr;
    QkTabController* qk = nullptr;  // Queries & keys: the worked layer's head in 2-D
    CompareTabController* compare = nullptr;  // sentence A beside a sentence B
    BeyondTabController* beyond = nullptr;  // logit lens and direct logit attribution (models)
    MovementTabController* movement = nullptr;  // X → Y: what attention did to each word; one word in A and B
    QAction* shading = nullptr;  // a View menu state, kept across a rebuild
    FileMenu* fileMenu = nullptr;  // rebuilt with the menus
    Presentation* presentation = nullptr;  // zoom, F11, ←/→ anywhere; kept across a rebuild
    LoadingCover* loading = nullptr;       // over the tabs while a model opens
    std::function<void()> whenModelOpens;  // a session being restored: its sentence and view
    std::function<void()> onFirstTrace;    // … and its layer, head, step and tab, once a trace is there
    bool earlyShown = false;               // the heatmap draws a run still going (TraceSource::earlyTrace)
};

}  // namespace attnscope
