#pragma once
// The Coreference tab: the scoring controls (rollout / every head of the current layer / chosen
// heads), the cataphora switch, the mention (every pronoun, or the word last clicked), export
// buttons, and the CorefView drawing the result. Its controller (app/tabs/coref_tab_controller)
// asks request() what to resolve, runs core's resolveSentence (off the GUI thread for long
// sentences) and hands the outcome to showResolution(); the view only draws what came out.
#include <QWidget>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/coreference.hpp"
#include "core/base/result.hpp"

class QComboBox;
class QLabel;
class QLineEdit;
class QToolButton;

namespace attnscope {

class CorefMentionRow;
class CorefView;

class CorefTab : public QWidget {
    Q_OBJECT
public:
    enum Choice { Rollout, Layer, Heads };  // the items of scoringBox(), in order
    enum class Export { Png, Svg, Pdf, Csv, Json };

    explicit CorefTab(QWidget* parent = nullptr);

    // What to resolve in `trace` under the controls; nullopt (with the reason shown) when the
    // chosen heads cannot be read. `layer` is the window's current layer (0-based), `head` its
    // current head: the default head set is that one head.
    std::optional<ResolveOptions> request(const Trace& trace, int layer, int head);
    void showResolution(const Result<SentenceResolution>& resolved);
    // Sentence B of the Compare tab, resolved under the same options (every pronoun): drawn in a
    // second view under A's, both named in their legends. nullptr: B's view hides.
    void showSecondResolution(const Result<SentenceResolution>* resolved);
    CorefView* secondView() const { return viewB_; }
    // Chosen heads = `heads` (0-based), e.g. from the head ranking's "use best heads".
    void setHeads(const std::vector<HeadRef>& heads);
    // Back to every pronoun of the sentence.
    void resolveEveryPronoun();

    // Writes the arcs (PNG at `scale`, SVG, PDF) or the scores (CSV, JSON) atomically.
    Result<void> exportTo(const QString& path, Export kind, double scale = 2) const;

    CorefView* view() const { return view_; }
    QComboBox* scoringBox() const { return scoring_; }
    QLineEdit* headsEdit() const { return heads_; }
    std::optional<int> mentionWord() const { return mentionWord_; }
    QString errorText() const;

signals:
    // The user changed what to resolve; CorefTabController resolves the trace on screen again
    // (off the GUI thread beyond a few dozen tokens) and hands the result to showResolution.
    void changed();

private:
    QWidget* buildControls();
    QToolButton* buildExportButton();
    void exportDialog(Export kind, double scale);
    Result<Scoring> chosenScoring(const Trace& trace, int layer, int head);
    void updateMentionLabel();
    void setError(const QString& text);

    std::optional<int> mentionWord_;   // a word index, or every pronoun
    std::vector<std::string> words_;   // the token texts last resolved: a new sentence resets the mention
    CorefView* view_ = nullptr;
    CorefView* viewB_ = nullptr;  // sentence B (Compare tab), hidden without one
    QComboBox* scoring_ = nullptr;
    QLineEdit* heads_ = nullptr;
    CorefMentionRow* mentionRow_ = nullptr;  // the mention, "Every pronoun", cataphora
    QLabel* error_ = nullptr;
    QLabel* madeUp_ = nullptr;
};

}  // namespace attnscope
