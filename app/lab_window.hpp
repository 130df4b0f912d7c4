#pragma once
// The teaching lab's window (issue 5): the Positional encoding, Why scale by √d_k and
// Synthesizer panels as tabs, fed from the main window's Session. It follows the lesson and the
// sentence each time it is brought to the front.
#include <QWidget>
#include <optional>

#include "core/model/transformer.hpp"

class QMenu;
class QTabWidget;

namespace attnscope {

class MasksPanel;
class ExercisePanel;
class PositionalPanel;
class ScalingPanel;
class Session;
class SynthesizerPanel;

class MultiHeadPanel;

class LabWindow : public QWidget {
    Q_OBJECT
public:
    enum Page { Positional, Scaling, Synthesizer, Masks, MultiHead, Exercises };

    LabWindow(const Session& session, QWidget* owner);
    void showPage(Page page);
    void refresh();  // the Session's lesson, sentence and trace into every panel
    // The real model whose learned position table the Positional panel offers (nullopt: none).
    void setModel(const QString& name, std::optional<LoadedModel> model);

    PositionalPanel* positionalPanel() const { return positional_; }
    ScalingPanel* scalingPanel() const { return scaling_; }
    SynthesizerPanel* synthesizerPanel() const { return synthesizer_; }
    MasksPanel* masksPanel() const { return masks_; }
    ExercisePanel* exercisePanel() const { return exercises_; }
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
    MasksPanel* masks_ = nullptr;
    ExercisePanel* exercises_ = nullptr;
    MultiHeadPanel* multiHead_ = nullptr;
};

// Lab ▸ Positional encoding / Why scale by √d_k / Synthesizer, each opening `owner`'s lab window.
void addLabMenu(QMenu* menu, QWidget* owner, const Session& session);
// Opens (or brings up) `owner`'s lab window on `page`.
LabWindow* openLab(QWidget* owner, const Session& session, LabWindow::Page page);
// After a language change: an open lab window of `owner` is rebuilt in the new language on the
// same page (a hidden one is dropped; the next openLab builds it anew).
void rebuildLab(QWidget* owner, const Session& session);
// Called by the main window when a model run is shown (the model) and when it goes back to a
// lesson (nullopt): passed on to `owner`'s lab window, now or when it opens.
void setLabModel(QWidget* owner, const QString& name, std::optional<LoadedModel> model);
// Called by the main window as presentation mode starts and ends: `owner`'s lab window (open now
// or later) takes its whole screen while presenting, as the main window does.
void setLabPresenting(QWidget* owner, bool on);

}  // namespace attnscope
