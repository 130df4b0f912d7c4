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
    model_ = new HeadStatsModel(this);
    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(HeadStatsModel::kSortRole);
    table_ = new QTableView(this);
    table_->setObjectName("headStats");
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(-1, Qt::AscendingOrder);  // layer by layer until a header is clicked
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                const int row = proxy_->mapToSource(current).row();
                if (row >= 0) emit headChosen(model_->statistics()[static_cast<std::size_t>(row)].head);
            });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(caption_);
    layout->addWidget(table_, 1);
}

void HeadStatsTable::show(std::vector<HeadStatistics> stats, const QString& caption, std::optional<HeadRef> selected) {
    model_->setStatistics(std::move(stats));
    caption_->setText(caption);
    table_->resizeColumnsToContents();
    if (selected) selectHead(*selected);
}

bool HeadStatsTable::lists(const HeadRef& head) const { return model_->rowOf(head) >= 0; }

void HeadStatsTable::selectHead(const HeadRef& head) {
    const int row = model_->rowOf(head);
    if (row < 0) return;
    const QModelIndex index = proxy_->mapFromSource(model_->index(row, 0));
    const QSignalBlocker blocker(table_->selectionModel());
    table_->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    // Hidden, the viewport has no height yet: scrolling now would push the first rows out of view.
    if (table_->isVisible()) table_->scrollTo(index);
}

}  // namespace attnscope

namespace attnscope {

std::optional<HeadRef> HeadStatsTable::headAt(QPoint viewportPoint) const {
    const QModelIndex index = proxy_->mapToSource(table_->indexAt(viewportPoint));
    if (!index.isValid()) return std::nullopt;
    return model_->statistics().at(static_cast<std::size_t>(index.row())).head;
}

}  // namespace attnscope
