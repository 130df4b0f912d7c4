#pragma once
// The Heads panel's lower half: a caption and a sortable table of the head statistics of the
// current sentence (HeadStatsModel behind a sort proxy). A row clicked names its head.
#include <QWidget>
#include <optional>
#include <vector>

#include "core/analysis/head_stats.hpp"

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace attnscope {

class HeadStatsModel;

class HeadStatsTable : public QWidget {
    Q_OBJECT
public:
    explicit HeadStatsTable(QWidget* parent = nullptr);

    // The statistics to list; `selected` stays selected when it is among them.
    // `captionTip`: the caption's tooltip (the whole sentence a long caption quotes in part).
    void show(std::vector<HeadStatistics> stats, const QString& caption, std::optional<HeadRef> selected,
              const QString& captionTip = {});
    void selectHead(const HeadRef& head);  // follows the heatmap's selection, sorted or not
    bool lists(const HeadRef& head) const;
    std::optional<HeadRef> headAt(QPoint viewportPoint) const;  // the row's head under a point of table()->viewport()

    HeadStatsModel* model() const;          // behind proxy()
    QSortFilterProxyModel* proxy() const;  // the table's model, sorting
    QTableView* table() const { return table_; }
    QLabel* caption() const { return caption_; }

signals:
    void headChosen(attnscope::HeadRef head);  // the user picked its row

private:
    QLabel* caption_ = nullptr;
    QTableView* table_ = nullptr;  // holds the models (proxy(), model())
};

}  // namespace attnscope
