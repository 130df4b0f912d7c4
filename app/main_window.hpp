#pragma once
// The AttnScope window, a thin shell: the menus, the central layout (sentence and tokens on top,
// steps left, tabs in the middle, the source's panels right) and the open TraceSource, a lesson or
// a model. Each tab has its own controller; nothing here asks which kind of source is open.
#include <QMainWindow>
#include <QTimer>
#include <memory>
#include <vector>

#include "core/base/result.hpp"
#include "app/window_actions.hpp"
#include "core/lesson/lesson.hpp"

namespace attnscope {

class LessonDocument; class LessonTraceSource; class ModelTraceSource; class TraceSource;
class NormScale; class ThemeSwitcher; class WordLevelSwitch; struct TraceOnScreen; struct SavedSession;

// Registers the compiled-in resources (built-in lessons) of the static attnscope_app library.
void initResources();

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Each returns false and keeps what is open when the lesson cannot be opened or saved; the
    // reason appears in a (non-blocking) message box and in lastError().
    bool openBuiltInLesson(const QString& name);  // e.g. "first-hand-exercise"
    bool openLessonFile(const QString& path);
    bool saveLessonTo(const QString& path);
    // A model folder or Hugging Face cache id, opened off the GUI thread; then the sentence box
    // runs on it. On failure what was open stays, with a message (lastError()).
    void openModel(const QString& pathOrId);

    void setSentence(const QString& sentence);  // runs it now (typing runs it after a pause)
    // "en" or "zh_CN": installs it, remembers it, rebuilds every widget in it at once, keeping
    // the open source, sentence, layer, step, head and tab (main_window_language.cpp).
    void setLanguage(const QString& language);

    WindowActions actions();  // what its helpers (File menu, drops, recent files…) may ask of it
    QString lastError() const { return lastError_; }
private:
    void showEvent(QShowEvent* event) override;
    QWidget* buildCentralWidget();  // main_window_layout.cpp, with buildInputs
    void buildInputs(QWidget* central);
    QWidget* buildTabs(QWidget* parent);
    void buildSourcePanels();
    void buildMenus();
    void addLanguageMenu(QMenu* view);
    void rebuildWidgets();
    void connectViews();
    void addHeadSwitchMenus();
    void connectSource(TraceSource* source);
    void showError(const QString& title, const QString& text);
    void setErrorText(const QString& text);

    // main_window_source.cpp: the open source and what it shows.
    bool openLesson(Result<Lesson> lesson, const QString& path);
    void onModelOpened();
    void onModelOpenFailed(const QString& message);
    void enterSource(TraceSource* source);
    void showSourcePanels();
    void applySentence();
    void applyAblation();
    void onTraceChanged();
    void onWorkedTraceChanged();
    void onEarlyTrace(int layer);
    void onRunFailed(const QString& message, bool cancelled);
    void setRunning(bool running);
    void refreshLabels();
    void showOnTabs(bool now);
    TraceOnScreen onScreen() const;
    void showLayer();
    void showWordsOrPieces();  // View ▸ Attention between words switched, or its Trace ready
    void step(int by);  // the clicker: +1 (→) or −1 (←), across layers (main_window_source.cpp)
    // main_window_session.cpp: File ▸ Save session / Open session (docs/session-format.md).
    SavedSession capturedSession() const;
    void restoreSession(const SavedSession& session, const std::function<void()>& opened);
    void applySessionView(const SavedSession& session);  // on the restored sentence's first trace

    LessonTraceSource* lesson_ = nullptr;  // kept while a model is shown: the lab works on it
    ModelTraceSource* model_ = nullptr;
    TraceSource* source_ = nullptr;        // one of the two
    LessonDocument* document_ = nullptr;   // the lesson's undo history and modified mark
    ThemeSwitcher* theme_ = nullptr;
    WordLevelSwitch* words_ = nullptr;     // View ▸ Attention between words
    NormScale* norms_ = nullptr;           // "Shade by: weight × ‖value‖" (kept across a rebuild)
    QString lessonPath_, lastError_;
    QTimer sentenceTimer_;
    int workedLayer_ = -1;                 // the layer box's layer the worked example shows
    bool fittedToScreen_ = false;          // the first show keeps the window inside its screen
    int enterLayerAt_ = 0;  // the clicker changed layer: 1 its first step, -1 its last, 0 none
    struct Parts;                 // the widgets and tab controllers (main_window_parts.hpp)
    std::unique_ptr<Parts> ui_;
};

}  // namespace attnscope
