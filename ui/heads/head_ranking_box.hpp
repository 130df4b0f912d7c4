#pragma once
// The Heads panel's ranking: the layers × heads heatmap of antecedent accuracy (drawn by
// HeadRankingBuilder) and beside it the baselines, the best heads listed, the selected head,
// "Use best head(s) for coreference" and the export menu. It keeps the evaluation it shows.
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "core/analysis/coref_eval.hpp"

class QCustomPlot;
class QLabel;
class QListWidget;
class QMenu;
class QPushButton;
class QSpinBox;
class QVBoxLayout;

namespace attnscope {

class HeadRankingBuilder;

// "best N" + "Use best head(s) for coreference", and the export button under them.
class BestHeadsRow : public QWidget {
    Q_OBJECT
public:
    explicit BestHeadsRow(QWidget* parent = nullptr);
    // After an evaluation of `heads` heads: how many may be used, and whether they may; export on.
    void showEvaluated(int heads, bool usable);
    void clear();  // nothing to use or export
    QSpinBox* countBox() const { return count_; }
    QPushButton* useButton() const { return use_; }

signals:
    void useRequested(int count);
    void exportRequested(const QString& format);  // "png", "svg", "pdf", "csv", "json"

private:
    QMenu* buildExportMenu(QWidget* parent);

    QSpinBox* count_ = nullptr;
    QPushButton* use_ = nullptr;
    QPushButton* export_ = nullptr;
};

class HeadRankingBox : public QWidget {
    Q_OBJECT
public:
    explicit HeadRankingBox(QWidget* parent = nullptr);
    ~HeadRankingBox() override;

    void showEvaluation(std::shared_ptr<const CorefEvaluation> evaluation, const QString& title);
    void clearEvaluation(const QString& message);
    // Adds the random-weights control's best head under the baselines (nothing without one).
    void showControl(const std::optional<ControlComparison>& control);
    std::shared_ptr<const CorefEvaluation> evaluation() const { return evaluation_; }
    void selectHead(std::optional<HeadRef> head);  // frames its cell and says its accuracy
    std::optional<HeadRef> selectedHead() const;

    const HeadRankingBuilder& builder() const { return *builder_; }
    QCustomPlot* plot() const;
    QLabel* baselinesLabel() const { return baselines_; }
    QListWidget* topHeadsList() const { return topHeads_; }
    BestHeadsRow* bestHeadsRow() const { return best_; }

signals:
    void headClicked(attnscope::HeadRef head);  // a cell or a list entry
    void useHeadsForCoreference(std::vector<attnscope::HeadRef> heads);
    void exportRequested(const QString& format);

private:
    void buildPlot();
    QVBoxLayout* buildSide();
    void showBaselines(const CorefEvaluation& e);
    void showTopHeads(const CorefEvaluation& e);
    void showSelection();

    std::shared_ptr<const CorefEvaluation> evaluation_;
    std::unique_ptr<HeadRankingBuilder> builder_;  // with the heatmap it draws on (plot())
    QLabel* baselines_ = nullptr;
    QListWidget* topHeads_ = nullptr;
    QLabel* selection_ = nullptr;
    BestHeadsRow* best_ = nullptr;
};

}  // namespace attnscope
