#pragma once
// Lab ▸ Multi-head (issue 5 §4): the sentence's layer input X split over H heads of one seeded set
// of weights (core/lab/multi_head_lab): the shapes line, each head's weights side by side, the
// inspected head's Q_h, K_h, V_h, the concatenation and W_O's output, the per-H table; and on a
// page of its own, grouped-query attention with the same weights (ui/lab/grouped_query_box).
#include <QWidget>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/lab/multi_head_lab.hpp"
#include "core/trace/trace.hpp"
#include "ui/lab/lab_panel.hpp"

class QComboBox;
class QCustomPlot;
class QHBoxLayout;
class QLabel;
class QSpinBox;
class QTabBar;
class QTableView;

namespace attnscope {

class GroupedQueryBox;
class HeadCountTableModel;
class MatrixPlotBuilder;

class MultiHeadPanel : public QWidget, public LabPanel {
    Q_OBJECT
public:
    // "random X" widths offered beside the sentence's own d (a lesson's d often has few divisors),
    // and the seed of that stand-in input (the weights have their own seed box).
    static constexpr int kRandomWidths[] = {8, 12, 16};
    static constexpr std::uint64_t kInputSeed = 2017;
    // A wider sentence is not offered: its d×d weights and every divisor of d would take tens of
    // seconds (d_model 4096) each time the Lab is activated; the random inputs remain.
    static constexpr int kLargestSentenceWidth = 512;

    explicit MultiHeadPanel(QWidget* parent = nullptr);
    ~MultiHeadPanel() override;
    void setTrace(const Trace& trace);  // X = trace.layers[0].input, labelled by its tokens
    void setInput(const LabInput& input) override { setTrace(input.trace); }

    // For tests and screenshots (each lab panel lists its own controls and plots alike).
    QComboBox* inputBox() const { return controls_.input; }   // item data: 0 = the sentence's X, else the random width
    QComboBox* headsBox() const { return controls_.heads; }   // item data: H
    QSpinBox* seedBox() const { return controls_.seed; }
    QSpinBox* inspectBox() const { return controls_.inspect; }  // 1-based head
    QTableView* summaryView() const { return table_; }
    const Mat& input() const { return x_; }
    const MultiHeadWeights& weights() const { return weights_; }
    const MultiHeadRun& run() const { return run_; }
    const std::vector<HeadCountSummary>& summaries() const { return summaries_; }
    int headPlotCount() const { return static_cast<int>(headPlots_.size()); }
    const MatrixPlotBuilder& headPlot(int head) const { return *headPlots_.at(head); }
    const MatrixPlotBuilder& queryPlot() const { return *query_; }
    const MatrixPlotBuilder& keyPlot() const { return *key_; }
    const MatrixPlotBuilder& valuePlot() const { return *value_; }
    const MatrixPlotBuilder& concatPlot() const { return *concat_; }
    const MatrixPlotBuilder& outputPlot() const { return *output_; }
    QString shapesText() const;
    QString factsText() const;
    QString errorText() const;
    GroupedQueryBox* groupedQuery() const { return grouped_; }
    void showGroupedQuery();  // its page in front of every head's

protected:
    void changeEvent(QEvent* event) override;  // the heads' cards follow a zoom

private:
    QWidget* buildControls();
    void buildEveryHeadPage();
    QWidget* card(QCustomPlot* plot, const QString& name, std::function<const Mat*()> drawn);
    void chooseInput();      // X from the sentence or the random stand-in, then the H choices
    void refreshWeights();   // new seed or new width: new weights, the table, the run
    void refreshRun();       // new H: split, run, draw
    void refreshInspected(); // the inspected head's Q_h, K_h, V_h
    void rebuildHeadPlots(int count);
    void showSection(int index);  // 0: every head, 1: heads that share keys
    const Mat* headWeights(int head) const;  // null once that head is gone

    // What the run is made of: the input X, H, the weights' seed and the head inspected.
    struct RunControls {
        QComboBox* input = nullptr;  // item data: 0 = the sentence's X, else the random width
        QComboBox* heads = nullptr;  // item data: H
        QSpinBox* seed = nullptr;
        QSpinBox* inspect = nullptr;  // 1-based head
    };

    Trace trace_;
    RunControls controls_;
    Mat x_;
    MultiHeadWeights weights_;
    QLabel* shapes_ = nullptr;  // the shapes line and the parameter facts of the weights
    QLabel* facts_ = nullptr;
    MultiHeadRun run_;
    QLabel* error_ = nullptr;  // why the chosen H does not run, else empty
    std::vector<HeadCountSummary> summaries_;
    QHBoxLayout* headRow_ = nullptr;
    std::vector<QWidget*> headCards_;
    std::vector<std::unique_ptr<MatrixPlotBuilder>> headPlots_;
    std::unique_ptr<MatrixPlotBuilder> query_, key_, value_, concat_, output_;
    QTableView* table_ = nullptr;
    HeadCountTableModel* model_ = nullptr;
    QTabBar* sections_ = nullptr;         // every head's page or the grouped-query page
    QWidget* everyHead_ = nullptr;
    GroupedQueryBox* grouped_ = nullptr;  // H_kv key/value heads for the same X, weights and H
};

}  // namespace attnscope
