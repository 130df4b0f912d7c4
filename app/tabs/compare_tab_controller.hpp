#pragma once
// The controller of the Compare tab (issue 14 §4): sentence A is the window's run, sentence B is
// typed in the tab and run the way the open source runs any sentence (its SentenceRunner), off
// the GUI thread on a LatestRequestWorker (a model takes seconds); core's compareHead lines both
// up for the shown layer and head. B is run again when the source changes. With the attention
// controls' "Weight × ‖value‖" on, both maps are of norm-weighted Traces made by core: A's by the
// window's NormScale, B's on this tab's worker with B's run (newest request wins); until both are
// ready the weights stay shown and the caption says so.
#include <QObject>
#include <QString>
#include <memory>

#include "app/sentence_runners.hpp"
#include "app/tabs/on_screen_refresh.hpp"
#include "core/analysis/coref_eval.hpp"
#include "core/trace/trace.hpp"

class QTabWidget;

namespace attnscope {

class CompareView;
class LatestRequestWorker;

// "Weight × ‖value‖" as the attention controls have it.
struct CompareNorms {
    bool on = false;
    std::shared_ptr<const Trace> a;  // A's norm-weighted Trace (token level) once made; else null
    NormSentenceRunner runB;         // how to make B's
};

class CompareTabController : public QObject {
    Q_OBJECT
public:
    explicit CompareTabController(QTabWidget* tabs, QObject* parent = nullptr);  // adds the tab

    // A's trace (every layer), how to run B, the shown layer and head (0-based), decimals.
    void show(std::shared_ptr<const Trace> a, SentenceRunner runner, int layer, int head, int decimals, CompareNorms norms = {});
    void setHead(int head);
    void sourceChanged();  // another lesson or model: B is run again at the next show()
    void runB(const QString& sentence);
    CompareView* view() const { return view_; }
    bool busy() const;

signals:
    // Sentence B's run (nullptr: none, or another source): the Coreference tab draws its arcs too.
    void secondChanged(std::shared_ptr<const Trace> b);
    // Sentence B as typed (or restored from a session), before it runs: the X → Y tab runs it too.
    void sentenceBChanged(const QString& sentence);

private:
    void refresh();
    bool bNormsMissing() const;  // on, B shown, its norms neither made, on the way, nor failed

    CompareView* view_ = nullptr;
    LatestRequestWorker* worker_ = nullptr;
    std::shared_ptr<const Trace> a_, b_;
    SentenceRunner runner_;
    CompareNorms norms_;
    std::shared_ptr<const Trace> bNorms_;  // b_'s norm-weighted Trace (null: not asked for, or failed)
    QString bNormsError_;                 // why b_'s could not be made
    bool bNormsAsked_ = false;            // the last runB() made them too
    QString sentenceB_;
    int layer_ = 0, head_ = 0, decimals_ = 3;
    bool rerunB_ = false;
    std::unique_ptr<OnScreenRefresh> onScreen_;  // three T×T maps are drawn only when looked at
};

}  // namespace attnscope
