#include "ui/heads/head_stats_table.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/heads/head_stats_model.hpp"

namespace attnscope {

HeadStatsTable::HeadStatsTable(QWidget* parent) : QWidget(parent) {
    caption_ = new QLabel(this);
    caption_->setObjectName("statsCaption");
    caption_->setWordWrap(true);
    caption_->setTextFormat(Qt::PlainText);  // it quotes tokens: <s> is a word, not a strike-out tag
    auto* model = new HeadStatsModel(this);
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(model);
    proxy->setSortRole(HeadStatsModel::kSortRole);
    table_ = new QTableView(this);
    table_->setObjectName("headStats");
    table_->setModel(proxy);
    table_->setSortingEnabled(true);
    table_->sortByColumn(-1, Qt::AscendingOrder);  // layer by layer until a header is clicked
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this, model, proxy](const QModelIndex& current) {
                const int row = proxy->mapToSource(current).row();
                if (row >= 0) emit headChosen(model->statistics()[static_cast<std::size_t>(row)].head);
            });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(caption_);
    layout->addWidget(table_, 1);
}

// The table holds the chain: its model is the sort proxy, whose source is the statistics.
QSortFilterProxyModel* HeadStatsTable::proxy() const { return static_cast<QSortFilterProxyModel*>(table_->model()); }
HeadStatsModel* HeadStatsTable::model() const { return static_cast<HeadStatsModel*>(proxy()->sourceModel()); }

void HeadStatsTable::show(std::vector<HeadStatistics> stats, const QString& caption, std::optional<HeadRef> selected,
                          const QString& captionTip) {
    model()->setStatistics(std::move(stats));
    caption_->setText(caption);
    caption_->setToolTip(captionTip);
    table_->resizeColumnsToContents();
    if (selected) selectHead(*selected);
}

bool HeadStatsTable::lists(const HeadRef& head) const { return model()->rowOf(head) >= 0; }

void HeadStatsTable::selectHead(const HeadRef& head) {
    const int row = model()->rowOf(head);
    if (row < 0) return;
    const QModelIndex index = proxy()->mapFromSource(model()->index(row, 0));
    const QSignalBlocker blocker(table_->selectionModel());
    table_->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    // Hidden, the viewport has no height yet: scrolling now would push the first rows out of view.
    if (table_->isVisible()) table_->scrollTo(index);
}

std::optional<HeadRef> HeadStatsTable::headAt(QPoint viewportPoint) const {
    const QModelIndex index = proxy()->mapToSource(table_->indexAt(viewportPoint));
    if (!index.isValid()) return std::nullopt;
    return model()->statistics().at(static_cast<std::size_t>(index.row())).head;
}

}  // namespace attnscope
