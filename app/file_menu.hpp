#pragma once
// The File menu: opening and saving lessons, opening and downloading models, exporting the
// heatmap, a worksheet and the current step. It asks for files and drives the window through
// the actions it was handed; failures and "Wrote …" go out as signals the window shows.
#include <string>

#include "app/reporting_part.hpp"
#include "app/window_actions.hpp"

class QMainWindow;

class QMenu;

namespace attnscope {

class HeatmapView;
class SessionMenu;
class StepNavigator;
class WorkedExample;

class FileMenu : public ReportingPart {
    Q_OBJECT
public:
    FileMenu(QMainWindow& window, WindowActions actions, const WorkedExample& worked, const StepNavigator& navigator,
             const HeatmapView& heatmap);
    void fill(QMenu* menu);
    SessionMenu* sessions() const { return sessions_; }  // File ▸ Save session / Open session
    // File ▸ Export worksheet without its dialog: the worked example's trace with every cell's
    // explanation, or an encoder–decoder lesson's every stage and its labels; false: not written.
    bool exportWorksheetTo(const QString& path);

private:
    bool showsLesson() const;  // the lesson is what the window shows (not a model)
    void saveLesson();
    void saveLessonAs();
    void openLessonDialog();
    void newLessonDialog();
    void openModelDialog();
    void downloadModelDialog();
    void exportHeatmap();
    void exportWorksheet();
    void exportStepCsv();
    bool writeText(const QString& path, const std::string& text);

    QMainWindow& window_;
    WindowActions actions_;
    const WorkedExample& worked_;
    const StepNavigator& navigator_;
    const HeatmapView& heatmap_;
    SessionMenu* sessions_ = nullptr;
};

}  // namespace attnscope
