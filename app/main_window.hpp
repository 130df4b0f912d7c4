#pragma once
// The AttnScope window: sentence box and tokens on top, the steps on the left, the worked
// example / heatmap / lesson editor in the middle. It owns the Session and wires views to it;
// the views only render the Session's Trace.
#include <QMainWindow>
#include <QTimer>
#include <optional>

#include "app/session.hpp"
#include "core/explain.hpp"

class QLabel;
class QLineEdit;
class QMenu;
class QTabWidget;

namespace attnscope {

class HeatmapView;
class LessonEditor;
class MatrixPanel;
class StepNavigator;
class TokenStrip;

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

    // Runs the sentence now (typing runs it after a short pause).
    void setSentence(const QString& sentence);
    void setLargerText(bool larger);

    // Walks every kind of step of every built-in lesson and saves a PNG of the window for each
    // into `dir`; returns the number of files written. Used for docs/screenshots.
    int saveScreenshots(const QString& dir);

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

protected:
    void showEvent(QShowEvent* event) override;

private:
    void buildMenus();
    void buildLessonsMenu(QMenu* menu);
    QWidget* buildCentralWidget();
    void connectViews();

    bool openLesson(Result<Lesson> lesson, const QString& path);
    void showError(const QString& title, const QString& text);
    void applySentence();
    void onLessonEdited();
    void refreshAll();
    void refreshLabels();
    void setErrorText(const QString& text);
    void showCurrentStep();
    void explain(const CellRef& cell);

    void saveLesson();
    void saveLessonAs();
    void openLessonDialog();
    void exportHeatmap();
    void exportWorksheet();
    void exportStepCsv();
    bool writeText(const QString& path, const std::string& text);
    bool grabTo(const QString& path);

    Session session_;
    QString lessonPath_;  // empty or ":/…" for built-in lessons: Save asks for a file
    QString lastError_;
    std::optional<std::pair<int, int>> selectedCell_;  // kept across recomputes of the same step
    std::optional<Step> shownStep_;
    QTimer sentenceTimer_;

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
};

}  // namespace attnscope
