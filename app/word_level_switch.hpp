#pragma once
// View ▸ Attention between words: the heatmap, model view, head view and Coreference tab draw the
// run's word-level Trace (core/analysis/word_attention.hpp: to a word = sum over its pieces, from
// a word = mean) instead of its pieces, so a Chinese sentence through a byte-level tokenizer reads
// as words and a coreference arc goes from 它 to 马路, not to 路. The word-level Trace is computed
// at once for short sentences, on a LatestRequestWorker beyond that (O(L·H·T²)); until it is
// ready the views keep the pieces. The choice is remembered like the zoom and the theme.
#include <QObject>
#include <memory>

#include "core/trace/trace.hpp"

class QAction;
class QMenu;

namespace attnscope {

class LatestRequestWorker;

class WordLevelSwitch : public QObject {
    Q_OBJECT
public:
    explicit WordLevelSwitch(QObject* parent = nullptr);
    // attnscope's main(): the choice is read at start and saved when changed (tests leave it off).
    static void rememberChoice(bool on);

    void addToViewMenu(QMenu* view);  // the checkable action; the menus are rebuilt on a language switch
    QAction* action() const { return action_; }
    bool on() const { return on_; }
    void setOn(bool on);

    // A new run (or none): its word-level Trace is computed when the switch is on.
    void setTrace(std::shared_ptr<const Trace> pieces);
    // What the views draw for `pieces`: its word-level Trace when on and ready, else `pieces`.
    std::shared_ptr<const Trace> shown(const std::shared_ptr<const Trace>& pieces) const;
    // The word of each piece while the switch is on (the token strip's brackets); else empty.
    std::vector<int> groupsShown(const Trace& pieces) const;
    // Sentences up to this many tokens are converted at once on the GUI thread.
    void setInlineTokenLimit(int tokens) { inlineTokenLimit_ = tokens; }
    bool busy() const;

signals:
    void changed();  // switched, or a word-level Trace became ready: the views draw again

private:
    void convert();

    bool on_ = false;
    QAction* action_ = nullptr;
    LatestRequestWorker* worker_ = nullptr;
    int inlineTokenLimit_ = 64;
    std::shared_ptr<const Trace> pieces_;
    std::shared_ptr<const Trace> words_;      // pieces_ between words, once ready
};

}  // namespace attnscope
