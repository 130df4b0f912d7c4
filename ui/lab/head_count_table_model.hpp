#pragma once
// Lab ▸ Multi-head's per-H table: one row per divisor of d, the chosen H highlighted. Display text
// is rounded; Qt::UserRole gives each number as core computed it.
#include <QAbstractTableModel>
#include <QFont>
#include <vector>

#include "core/lab/multi_head_lab.hpp"
#include "ui/common/theme_colors.hpp"

namespace attnscope {

class HeadCountTableModel : public QAbstractTableModel {
public:
    enum Column { Heads, HeadWidth, Scale, HeadShapes, Scores, Concat, Parameters, RawStd, ScaledStd, Entropy, Count };

    using QAbstractTableModel::QAbstractTableModel;
    void setRows(std::vector<HeadCountSummary> rows, int T, int d) {
        beginResetModel();
        rows_ = std::move(rows);
        T_ = T;
        d_ = d;
        endResetModel();
    }
    void setChosen(int heads) {
        chosen_ = heads;
        if (!rows_.empty()) emit dataChanged(index(0, 0), index(rowCount() - 1, Count - 1));
    }
    int rowCount(const QModelIndex& = {}) const override { return static_cast<int>(rows_.size()); }
    int columnCount(const QModelIndex& = {}) const override { return Count; }

    QVariant headerData(int section, Qt::Orientation orientation, int role) const override {
        static const char* const titles[] = {"H", "d_k = d/H", "1/√d_k", "Q_h, K_h, V_h", "Q_h·K_hᵀ",
                                             QT_TRANSLATE_NOOP("QObject", "concat"),
                                             QT_TRANSLATE_NOOP("QObject", "parameters 4d²"),
                                             QT_TRANSLATE_NOOP("QObject", "std of Q_h·K_hᵀ"),
                                             QT_TRANSLATE_NOOP("QObject", "std of Q_h·K_hᵀ/√d_k"),
                                             QT_TRANSLATE_NOOP("QObject", "mean row entropy (nats)")};
        if (role != Qt::DisplayRole || orientation != Qt::Horizontal || section < 0 || section >= Count) return {};
        return QObject::tr(titles[section]);
    }

    QVariant data(const QModelIndex& index, int role) const override {
        if (!index.isValid() || index.row() >= rowCount()) return {};
        const HeadCountSummary& s = rows_[static_cast<std::size_t>(index.row())];
        const bool chosen = s.heads == chosen_;
        if (role == Qt::FontRole && chosen) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        if (role == Qt::BackgroundRole && chosen) return theme::color(theme::Role::ChosenRow);
        if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
        if (role == Qt::UserRole) return number(s, index.column());
        if (role == Qt::DisplayRole) return text(s, index.column());
        return {};
    }

private:
    static QString shape(int rows, int cols) { return QStringLiteral("%1×%2").arg(rows).arg(cols); }

    QVariant number(const HeadCountSummary& s, int column) const {
        switch (column) {
            case Heads: return s.heads;
            case HeadWidth: return s.headWidth;
            case Scale: return s.scale;
            case Parameters: return s.parameters;
            case RawStd: return s.rawScoreStd;
            case ScaledStd: return s.scaledScoreStd;
            case Entropy: return s.meanEntropy;
            default: return {};
        }
    }

    QString text(const HeadCountSummary& s, int column) const {
        switch (column) {
            case HeadShapes: return shape(T_, s.headWidth);
            case Scores: return shape(T_, T_);
            case Concat: return shape(T_, d_);
            case Scale: case RawStd: case ScaledStd: case Entropy:
                return QString::number(number(s, column).toDouble(), 'f', 4);
            default: return number(s, column).toString();
        }
    }

    std::vector<HeadCountSummary> rows_;
    int T_ = 0, d_ = 0, chosen_ = 0;
};

}  // namespace attnscope
