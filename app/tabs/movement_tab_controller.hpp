#pragma once
// The X → Y tab (ui/movement/movement_view.hpp) for the open lesson or model: core's tokenMovement
// of the window's sentence (A) at the chosen layer or over the whole stack, and core's sameWordCurve
// of one word of A and one of the Compare tab's sentence B (the same B, not a box of its own). Both
// sentences run through the source's StatesSentenceRunner on one LatestRequestWorker while the tab is
// on screen (progress, cancel; a newer A, B or layer wins). Exports use core's writers, as
// `attnscope movement` does, through the one atomic file writer.
#include <QObject>
#include <QString>
#include <memory>
#include <optional>

#include "app/sentence_runners.hpp"
#include "core/analysis/token_movement_export.hpp"
#include "ui/movement/movement_view.hpp"

class QTabWidget;

namespace attnscope {

class LatestRequestWorker;
class OnScreenRefresh;

class MovementTabController : public QObject {
    Q_OBJECT
public:
    explicit MovementTabController(QTabWidget* tabs, QObject* parent = nullptr);  // adds the tab
    ~MovementTabController() override;

    // A new run of A: how the source runs a sentence, the sentence, the source's name (for the JSON
    // exports), its layer count and the decimals shown.
    void show(StatesSentenceRunner runner, const QString& sentence, const QString& sourceName, int layers, int decimals);
    void sourceChanged();                       // another lesson or model: nothing to show yet
    void setSentenceB(const QString& sentence);  // the Compare tab's B (empty: none)
    MovementView* view() const { return view_; }
    bool busy() const;
    // Writes what the tab shows: the bars or the curve as a figure, or core's CSV/JSON of either, or
    // the worksheet of the word chosen in the table (core's movementWorksheet, .md/.tex/.pdf).
    Result<void> exportTo(const QString& path, MovementExport kind) const;

private:
    void compute();
    void showCurve();
    void chooseTokens(int a, int b);
    Result<void> exportWorksheet(const QString& path) const;

    MovementView* view_;
    LatestRequestWorker* worker_;
    std::unique_ptr<OnScreenRefresh> onScreen_;
    StatesSentenceRunner runner_;
    QString sentenceA_, sentenceB_;
    int decimals_ = 3;
    std::string source_;  // the model or lesson, for the JSON exports
    // What is shown, all of one request: A's run (with its detail layer), B's run, their results.
    std::shared_ptr<const StatesRun> a_, b_;
    std::optional<int> aLayer_;  // the layer a_ keeps in full detail
    std::optional<TokenMovement> movement_;
    std::optional<SameWordCurve> curve_;
    std::optional<std::pair<int, int>> tokens_;  // chosen in A and B (0-based)
};

}  // namespace attnscope
