#pragma once
// The Heads tab's "Corpus" page: what every head does over a text file of sentences (issue 14
// §3). A "Corpus statistics…" button chooses the file; while the app runs it (off the GUI
// thread) a progress bar (sentences done of total), Cancel and the time left; then the three
// Clark-style panels (CorpusPlotsBuilder), a statistic to plot in panel (a), an export menu, and
// a message line for errors, cancels and the run's notices. Clicking a point selects its head;
// hovering names it. It renders the CorpusStats the app hands it and asks, by signals, to run,
// cancel and export; it computes nothing.
#include <QWidget>
#include <memory>

#include "core/analysis/corpus_stats.hpp"
#include "ui/heads/corpus_plots.hpp"

class QComboBox;
class QCustomPlot;
class QLabel;
class QPushButton;

namespace attnscope {

class CorpusPlotsBuilder;
class JobProgress;

// "about 1 min 20 s left" for a number of seconds (rounded up to whole seconds; minutes from 1 h).
QString timeLeftText(double seconds);

// Its entry points (showStats / clear / stats) follow HeadRankingBox's (showEvaluation /
// clearEvaluation / evaluation), so duplicates pairs the two declarations; the results differ.
class CorpusPanel : public QWidget {
    Q_OBJECT
public:
    explicit CorpusPanel(QWidget* parent = nullptr);
    ~CorpusPanel() override;

    // The statistics to show (kept alive here); `title` says what ran on which file.
    void showStats(std::shared_ptr<const CorpusStats> stats, const QString& title);
    void clear(const QString& message);  // nothing computed for this source (yet)
    std::shared_ptr<const CorpusStats> stats() const { return stats_; }
    void setRunning(bool running);
    void setProgress(int done, int total, double secondsLeft);
    void showMessage(const QString& text);
    QString messageText() const;
    QString timeLeft() const;  // the time-left label's text ("" when idle)

    CorpusPlotsBuilder& plots() const { return *plots_; }
    QCustomPlot* plot() const;
    QPushButton* runButton() const { return run_.button; }
    QPushButton* exportButton() const { return export_; }
    QComboBox* statisticBox() const { return statistic_; }

signals:
    void runRequested(const QString& path);
    void cancelRequested();
    void exportRequested(const QString& format);  // "png", "svg", "pdf", "csv", "json"

private:
    void fillStatistics(const CorpusStats* stats);  // panel (a)'s choices for these statistics
    CorpusStatistic shownStatistic() const;
    // The run button and how far the run is.
    struct RunStatus {
        QPushButton* button = nullptr;
        JobProgress* progress = nullptr;
        QLabel* timeLeft = nullptr;
    };

    QWidget* buildControls();
    void chooseFile();
    void connectPlot();

    std::shared_ptr<const CorpusStats> stats_;
    std::unique_ptr<CorpusPlotsBuilder> plots_;
    QComboBox* statistic_ = nullptr;  // which of stats_ plots_ draws
    QPushButton* export_ = nullptr;
    RunStatus run_;
    QLabel* message_ = nullptr;
};

}  // namespace attnscope
