#pragma once
// The Heads tab: which heads track coreference, and what every head does on the sentence.
//  - top: a coreference set to evaluate (built-in or a file), Evaluate / Cancel and progress;
//  - the ranking: a layers × heads heatmap of antecedent accuracy (HeadRankingBuilder), the
//    baselines on the same examples beside it, the best heads listed; clicking a cell or a list
//    entry selects that head; "Use best head(s) for coreference" hands core's bestHeads on;
//  - below: a sortable table of the head statistics of the current sentence;
//  - on a second page, "Corpus": the same kind of statistics over a text file (CorpusPanel).
// It renders results the app passes in (core's CorefEvaluation and HeadStatistics) and asks
// the app, by signals, to evaluate, cancel and export; it computes nothing. Each part is its own
// widget (CorefSetRow, HeadRankingBox, HeadStatsTable); this class ties their selections together.
#include <QString>
#include <QWidget>

class QLabel;
class QTabWidget;
#include <memory>
#include <optional>
#include <vector>

#include "core/analysis/coref_eval.hpp"
#include "core/analysis/head_stats.hpp"

namespace attnscope {

class CorefSetRow;
class CorpusPanel;
class HeadRankingBox;
class HeadRankingBuilder;
class HeadStatsTable;

class HeadsPanel : public QWidget {
    Q_OBJECT
public:
    explicit HeadsPanel(QWidget* parent = nullptr);
    ~HeadsPanel() override;

    // A choice in the set box: `source` is what evaluateRequested carries (a path or ":/…").
    void addSetSource(const QString& label, const QString& source);
    void chooseSetSource(const QString& source);  // adds a file entry when new
    QString setSource() const;

    // The evaluation to show (kept alive here); `title` says what was evaluated.
    void showEvaluation(std::shared_ptr<const CorefEvaluation> evaluation, const QString& title);
    void clearEvaluation(const QString& message);
    std::shared_ptr<const CorefEvaluation> evaluation() const;
    void setEvaluating(bool running);
    // Why no coreference set can rank these heads (an encoder–decoder's decoder stages): Evaluate
    // off with it as its tooltip, the ranking hidden and the reason in its place; empty: offered.
    void setEvaluationUnavailable(const QString& why);
    void setProgress(int done, int total);
    void showMessage(const QString& text);  // under the buttons: errors, "cancelled"

    void showStatistics(std::vector<HeadStatistics> stats, const QString& caption, const QString& captionTip = {});

    void selectHead(const HeadRef& head);
    std::optional<HeadRef> selectedHead() const;

    // Its parts, whose accessors reach what is drawn and the controls (tests, exports).
    CorefSetRow* setRow() const { return setRow_; }
    HeadRankingBox* ranking() const { return ranking_; }
    HeadStatsTable* statistics() const { return stats_; }
    CorpusPanel* corpus() const { return corpus_; }
    QTabWidget* sections() const { return sections_; }  // "Ranking and sentence", "Corpus"
    const HeadRankingBuilder& rankingBuilder() const;
    QString messageText() const;

signals:
    void evaluateRequested(const QString& setSource);
    void cancelRequested();
    void headSelected(attnscope::HeadRef head);
    // The integrator connects this to the Coreference tab (MainWindow::setCoreferenceHeads).
    void useHeadsForCoreference(std::vector<attnscope::HeadRef> heads);
    void exportRequested(const QString& format);  // "png", "svg", "pdf", "csv", "json"

private:
    // Its parts, made with it and kept for its whole life, each owning its controls: the set row,
    // the ranking and the statistics (first page), the corpus (second page), and the two pages.
    CorefSetRow* const setRow_;
    HeadRankingBox* const ranking_;
    HeadStatsTable* const stats_;
    CorpusPanel* const corpus_;
    QTabWidget* const sections_;
    QLabel* unavailable_ = nullptr;  // setEvaluationUnavailable's reason, where the ranking was
    QWidget* top_ = nullptr;         // the set row, the reason and the ranking: the splitter's upper part
};

}  // namespace attnscope
