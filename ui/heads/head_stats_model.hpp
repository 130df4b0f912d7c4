#pragma once
// A read-only table over core's head statistics (core/analysis/head_stats.hpp), one row per
// head: layer, head, entropy, shares to delimiters/special tokens, previous, next and self,
// to the first token by weight and by weight × ‖value‖, coreference accuracy, label. Display text is formatted; kSortRole gives the raw number (or
// the label text) so a QSortFilterProxyModel sorts numerically. It computes nothing.
#include <QAbstractTableModel>
#include <vector>

#include "core/analysis/head_stats.hpp"

namespace attnscope {

class HeadStatsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Layer, Head, Entropy, Delimiter, Previous, Next, Self, First, NormFirst, Coreference, Label, ColumnCount };
    static constexpr int kSortRole = Qt::UserRole + 1;

    explicit HeadStatsModel(QObject* parent = nullptr);

    void setStatistics(std::vector<HeadStatistics> stats);
    const std::vector<HeadStatistics>& statistics() const { return stats_; }
    int rowOf(const HeadRef& head) const;  // -1 when absent

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QVariant sortValue(const HeadStatistics& s, int column) const;
    QString displayText(const HeadStatistics& s, int column) const;

    std::vector<HeadStatistics> stats_;
};

// "previous-token, coreference"
QString labelText(const HeadStatistics& stats);

}  // namespace attnscope
