#pragma once
// The window on a projector (issue 13 §4): View ▸ Zoom in / out / reset from 50 % to 300 %
// (remembered), full-screen presentation mode (F11, Esc leaves) hiding what a class does not
// need, and ←/→, PageUp/PageDown stepping through the lesson wherever the focus is, except in a
// widget where the user types. The window hands it the widgets it acts on (setStage) each time
// it builds them, so the language rebuild (MainWindow::rebuildWidgets) keeps this object.
#include <QFont>
#include <QObject>
#include <QPointer>
#include <functional>
#include <vector>

class QMainWindow;
class QMenu;
class QAction;
class QLabel;
class QSplitter;
class QTabWidget;
class QWheelEvent;
class QWidget;

namespace attnscope {

class MatrixPanel;

class Presentation : public QObject {
    Q_OBJECT
public:
    static constexpr int kBasePointSize = 12;  // 100 %: projector-friendly already
    static const std::vector<int>& zoomSteps();  // 50, 67, 80, 90, 100, 110, 125, … 300 (percent)

    // `redraw` shows the trace again once the fonts changed (tables and plots size to them);
    // `next` and `previous` step through the lesson.
    Presentation(QMainWindow* window, std::function<void()> redraw, std::function<void()> next,
                 std::function<void()> previous);
    ~Presentation() override;

    // The window's widgets it acts on (null ones are left alone).
    struct Stage {
        QPointer<QLabel> title;            // the lesson's title: larger and bold
        QPointer<MatrixPanel> matrixPanel;  // its explanation in the mono font of the zoom
        QPointer<QSplitter> steps;          // the step list (first) and the tabs: the list widens with the zoom
        QPointer<QTabWidget> tabs;
        QPointer<QWidget> editor;           // a page of `tabs`, hidden while presenting
        std::vector<QPointer<QWidget>> hiddenWhilePresenting;  // what a class does not need
    };
    void setStage(Stage stage);

    // The app (main.cpp) remembers the zoom across sessions in QSettings; tests and benchmarks,
    // which never call this, start at 100 % whatever the user chose.
    static void rememberZoom(bool on);

    void addToViewMenu(QMenu* view);  // the zoom actions and presentation mode
    int zoom() const { return zoom_; }
    void setZoom(int percent);        // clamped to 50–300, remembered ("view/zoom") when asked
    void zoomIn();
    void zoomOut();
    void applyZoom();                 // the fonts of the zoom, set again on rebuilt widgets
    bool presenting() const { return presenting_; }
    void setPresenting(bool on);
    // View ▸ Fit the step to the window: the worked example's equation fills its area; always
    // on while presenting.
    void setFitToWindow(bool on);
    bool fitsToWindow() const;
    // View ▸ Focus the chosen row: the chosen cell's row alone, its products one click at a time.
    void setFocusRow(bool on);
    bool focusesRow() const;
    // The window showed the source's panels again (a new trace, a zoom): what presenting hides
    // stays hidden.
    void keepHiddenForClass();

    // Latin text in DejaVu, Chinese and Japanese from WenQuanYi: both must render on a projector.
    static QFont appFont(double pointSize);
    static QFont monoFont(double pointSize);
    // True when `w` takes typed text (a line edit, a spin box, an editable text or cell editor):
    // there ← and → move the cursor, never the lesson.
    static bool editsText(const QWidget* w);

signals:
    void zoomChanged(int percent);
    void presentingChanged(bool on);  // after it: the window shows what its source offers again
    void focusRowChanged(bool on);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void hideForClass(bool hide);
    void applyFit();
    void widenStepList();
    void applyTitleFont();
    void followZoomOutsideTheWindow(const QFont& font);
    bool wheelZooms(const QWidget* widget, const QWheelEvent* wheel);
    QAction* windowAction(const char* name, const QList<QKeySequence>& keys, std::function<void()> slot);
    void retranslate();

    QMainWindow* window_;
    Stage stage_;
    std::function<void()> redraw_, next_, previous_;
    int zoom_ = 100;
    bool presenting_ = false;
    bool wasMaximized_ = false;
    std::vector<QPointer<QWidget>> hidden_;  // what presentation mode hid, shown again when it ends
    // On the window too, so their keys work with the menu bar hidden.
    QAction *zoomIn_ = nullptr, *zoomOut_ = nullptr, *resetZoom_ = nullptr, *present_ = nullptr, *leave_ = nullptr,
            *fit_ = nullptr, *focusRow_ = nullptr;
};

}  // namespace attnscope
