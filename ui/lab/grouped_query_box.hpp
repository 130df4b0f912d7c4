#pragma once
// The grouped-query section of Lab ▸ Multi-head (issue 29 §3): the panel's X, weights and H with
// H_kv key/value heads (H, H/2 or 1): which query heads share which K and V, the parameter count
// and K/V memory per token of every choice, and the attention of each query head. Every number
// comes from core/lab/multi_head_lab (runGroupedQuery, keyValueSharing).
#include <QWidget>
#include <memory>
#include <vector>

#include "core/lab/multi_head_lab.hpp"

class QComboBox;
class QHBoxLayout;
class QLabel;

namespace attnscope {

class MatrixPlotBuilder;

class GroupedQueryBox : public QWidget {
    Q_OBJECT
public:
    explicit GroupedQueryBox(QWidget* parent = nullptr);
    ~GroupedQueryBox() override;
    // X (T×d), the weights and H of the panel's run; its tokens label the plots.
    void setRun(const Mat& X, const MultiHeadWeights& weights, int heads, const std::vector<Token>& tokens);

    QComboBox* kvHeadsBox() const { return kvHeads_; }  // item data: H_kv
    const GroupedQueryRun& run() const { return run_; }
    const Mat& costTable() const { return costs_; }  // rows: H_kv, parameters, K/V numbers per token
    int headPlotCount() const { return static_cast<int>(plots_.size()); }
    const MatrixPlotBuilder& headPlot(int head) const { return *plots_.at(static_cast<std::size_t>(head)); }
    QString sharingText() const;
    QString costText() const;
    // The worksheet of the shown choice (core's groupedQueryWorksheet: query head 2's scores) as
    // NAME.md/.tex with its answer key beside it, or one PDF; the Worksheet… button asks for the file.
    Result<void> exportWorksheetTo(const QString& path) const;

private:
    void refresh();
    void exportDialog();
    void rebuildPlots(int count);

    Mat x_;
    MultiHeadWeights weights_;
    int heads_ = 0;
    std::vector<Token> tokens_;
    QComboBox* kvHeads_ = nullptr;
    QLabel *sharing_ = nullptr, *costText_ = nullptr, *written_ = nullptr;
    Mat costs_;
    GroupedQueryRun run_;
    QHBoxLayout* row_ = nullptr;
    std::vector<QWidget*> cards_;
    std::vector<std::unique_ptr<MatrixPlotBuilder>> plots_;
};

}  // namespace attnscope
