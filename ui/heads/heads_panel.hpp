#pragma once
// The Heads tab: which heads track coreference, and what every head does on the sentence.
//  - top: a coreference set to evaluate (built-in or a file), Evaluate / Cancel and progress;
//  - the ranking: a layers × heads heatmap of antecedent accuracy (HeadRankingBuilder), the
//    baselines on the same examples beside it, the best heads listed; clicking a cell or a list
//    entry selects that head; "Use best head(s) for coreference" hands core's bestHeads on;
//  - below: a sortable table of the head statistics of the current sentence.
// It renders results the app passes in (core's CorefEvaluation and HeadStatistics) and asks
// the app, by signals, to evaluate, cancel and export; it computes nothing.
#include <QString>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "core/analysis/coref_eval.hpp"
#include "core/analysis/head_stats.hpp"

class QComboBox;
class QCustomPlot;
class QLabel;
class QListWidget;
class QMenu;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;
class QVBoxLayout;

namespace attnscope {

class HeadRankingBuilder;
class HeadStatsModel;

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
    std::shared_ptr<const CorefEvaluation> evaluation() const { return evaluation_; }
    void setEvaluating(bool running);
    void setProgress(int done, int total);
    void showMessage(const QString& text);  // under the buttons: errors, "cancelled"

    void showStatistics(std::vector<HeadStatistics> stats, const QString& caption);

    void selectHead(const HeadRef& head);
    std::optional<HeadRef> selectedHead() const;

    // What is drawn and the controls, for tests and the window.
    const HeadRankingBuilder& rankingBuilder() const { return *builder_; }
    QCustomPlot* rankingPlot() const { return plot_; }
    HeadStatsModel* statsModel() const { return statsModel_; }
    QSortFilterProxyModel* statsProxy() const { return statsProxy_; }
    QTableView* statsTable() const { return statsTable_; }
    QPushButton* evaluateButton() const { return evaluate_; }
    QPushButton* cancelButton() const { return cancel_; }
    QProgressBar* progressBar() const { return progress_; }
    QPushButton* useBestButton() const { return useBest_; }
    QSpinBox* bestCountBox() const { return bestCount_; }
    QLabel* baselinesLabel() const { return baselines_; }
    QListWidget* topHeadsList() const { return topHeads_; }
    QString messageText() const;

signals:
    void evaluateRequested(const QString& setSource);
    void cancelRequested();
    void headSelected(attnscope::HeadRef head);
    // The integrator connects this to the Coreference tab (MainWindow::setCoreferenceHeads).
    void useHeadsForCoreference(std::vector<attnscope::HeadRef> heads);
    void exportRequested(const QString& format);  // "png", "svg", "pdf", "csv", "json"

private:
    QWidget* buildSetRow();
    QWidget* buildRanking();
    void buildRankingPlot(QWidget* box);
    QVBoxLayout* buildRankingSide(QWidget* box);
    QMenu* buildExportMenu(QWidget* parent);
    QWidget* buildStatistics();
    void onPlotClicked(const QPointF& pixel);
    void onSetChosen(int index);
    void emitBestHeads();
    void showBaselines(const CorefEvaluation& e);
    void showTopHeads(const CorefEvaluation& e);
    void showSelection();
    void selectStatsRow(const HeadRef& head);

    std::shared_ptr<const CorefEvaluation> evaluation_;
    // The child widgets it reads or updates after building them (such lists look alike in every
    // panel by shape; each holds its own widgets: nothing to share).
    QComboBox* sets_ = nullptr;
    QPushButton* evaluate_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* message_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    std::unique_ptr<HeadRankingBuilder> builder_;
    QLabel* baselines_ = nullptr;
    QListWidget* topHeads_ = nullptr;
    QLabel* selection_ = nullptr;
    QSpinBox* bestCount_ = nullptr;
    QPushButton* useBest_ = nullptr;
    QPushButton* export_ = nullptr;
    QLabel* statsCaption_ = nullptr;
    HeadStatsModel* statsModel_ = nullptr;
    QSortFilterProxyModel* statsProxy_ = nullptr;
    QTableView* statsTable_ = nullptr;
};

}  // namespace attnscope
