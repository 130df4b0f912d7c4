#pragma once
// The teaching lab's window (issue 5): the Positional encoding, Why scale by √d_k and
// Synthesizer panels as tabs, fed from the main window's Session. It follows the lesson and the
// sentence each time it is brought to the front.
#include <QWidget>

class QMenu;
class QTabWidget;

namespace attnscope {

class PositionalPanel;
class ScalingPanel;
class Session;
class SynthesizerPanel;

class MultiHeadPanel;

class LabWindow : public QWidget {
    Q_OBJECT
public:
    enum Page { Positional, Scaling, Synthesizer, MultiHead };

    LabWindow(const Session& session, QWidget* owner);
    void showPage(Page page);
    void refresh();  // the Session's lesson, sentence and trace into every panel

    PositionalPanel* positionalPanel() const { return positional_; }
    ScalingPanel* scalingPanel() const { return scaling_; }
    SynthesizerPanel* synthesizerPanel() const { return synthesizer_; }
    MultiHeadPanel* multiHeadPanel() const { return multiHead_; }
    QTabWidget* tabs() const { return tabs_; }

protected:
    bool event(QEvent* event) override;

private:
    const Session& session_;
    QTabWidget* tabs_ = nullptr;
    PositionalPanel* positional_ = nullptr;
    ScalingPanel* scaling_ = nullptr;
    SynthesizerPanel* synthesizer_ = nullptr;
    MultiHeadPanel* multiHead_ = nullptr;
};

// Lab ▸ Positional encoding / Why scale by √d_k / Synthesizer, each opening `owner`'s lab window.
void addLabMenu(QMenu* menu, QWidget* owner, const Session& session);
// Opens (or brings up) `owner`'s lab window on `page`.
LabWindow* openLab(QWidget* owner, const Session& session, LabWindow::Page page);
// PNGs of the three panels, numbered from n + 1 (lab-….png); returns how many were written.
int saveLabScreenshots(QWidget* owner, const Session& session, const QString& dir, int n);

}  // namespace attnscope
