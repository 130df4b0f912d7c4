#include "ui/heads/head_stats_model.hpp"

#include "ui/common/core_language.hpp"

namespace attnscope {

QString labelText(const HeadStatistics& stats) {
    QStringList labels;
    for (const std::string& l : stats.labels) labels << QString::fromStdString(headLabelText(l, coreLanguage()));
    return labels.join(", ");
}

HeadStatsModel::HeadStatsModel(QObject* parent) : QAbstractTableModel(parent) {}

void HeadStatsModel::setStatistics(std::vector<HeadStatistics> stats) {
    beginResetModel();
    stats_ = std::move(stats);
    endResetModel();
}

int HeadStatsModel::rowOf(const HeadRef& head) const {
    for (std::size_t i = 0; i < stats_.size(); ++i)
        if (stats_[i].head == head) return static_cast<int>(i);
    return -1;
}

int HeadStatsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(stats_.size());
}

int HeadStatsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

namespace {

// The shares that compare a row's position with a column's: none in cross-attention (HeadStatistics::positional).
bool positionalColumn(int column) {
    return column == HeadStatsModel::Previous || column == HeadStatsModel::Next || column == HeadStatsModel::Self ||
           column == HeadStatsModel::First || column == HeadStatsModel::NormFirst;
}

}  // namespace

QVariant HeadStatsModel::sortValue(const HeadStatistics& s, int column) const {
    if (!s.positional && positionalColumn(column)) return -1.0;  // "–" sorts first
    switch (column) {
    case Layer: return s.head.layer + 1;
    case Head: return s.head.head + 1;
    case Entropy: return s.entropy;
    case Delimiter: return s.delimiterShare;
    case Previous: return s.previousShare;
    case Next: return s.nextShare;
    case Self: return s.selfShare;
    case First: return s.firstShare;
    case NormFirst: return s.normFirstShare.value_or(-1.0);  // none yet sorts first
    case Coreference: return s.corefAccuracy ? *s.corefAccuracy : -1.0;  // "no evaluation" sorts first
    case Label: return labelText(s);
    default: return {};
    }
}

QString HeadStatsModel::displayText(const HeadStatistics& s, int column) const {
    if (!s.positional && positionalColumn(column)) return QStringLiteral("–");
    switch (column) {
    case Layer: case Head: return QString::number(sortValue(s, column).toInt());
    case Entropy: return QString::number(s.entropy, 'f', 2);
    case Coreference: return s.corefAccuracy ? QString::number(100 * *s.corefAccuracy, 'f', 1) + "%" : QStringLiteral("–");
    case NormFirst: return s.normFirstShare ? QString::number(*s.normFirstShare, 'f', 3) : QStringLiteral("–");
    case Label: return labelText(s);
    default: return QString::number(sortValue(s, column).toDouble(), 'f', 3);
    }
}

QVariant HeadStatsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const HeadStatistics& s = stats_[static_cast<std::size_t>(index.row())];
    if (role == Qt::DisplayRole) return displayText(s, index.column());
    if (role == kSortRole) return sortValue(s, index.column());
    if (role == Qt::TextAlignmentRole)
        return index.column() == Label ? QVariant(Qt::AlignLeft | Qt::AlignVCenter) : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == Entropy)
        return tr("%1 bits; normalised %2").arg(s.entropy, 0, 'f', 3).arg(s.normalizedEntropy, 0, 'f', 3);
    if (role == Qt::ToolTipRole && !s.positional && positionalColumn(index.column()))
        return tr("Cross-attention: the rows are the decoder's tokens and the columns the source's, two different "
                  "sentences, so previous, next, self and first name nothing here");
    return {};
}

QVariant HeadStatsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    // Short: the table shares the tab with the ranking; the tooltips say more.
    static const char* const names[] = {QT_TR_NOOP("Layer"),    QT_TR_NOOP("Head"),     QT_TR_NOOP("Entropy"),
                                        QT_TR_NOOP("Delim./special"), QT_TR_NOOP("Previous"), QT_TR_NOOP("Next"),
                                        QT_TR_NOOP("Self"),     QT_TR_NOOP("First"),    QT_TR_NOOP("First ×‖v‖"), QT_TR_NOOP("Coref."),
                                        QT_TR_NOOP("Label")};
    static const char* const tips[] = {
        QT_TR_NOOP("Layers and heads count from 1"),
        "",
        QT_TR_NOOP("Mean over rows of −Σ w·log₂ w, in bits"),
        QT_TR_NOOP("Share of attention to special tokens and punctuation"),
        QT_TR_NOOP("Share to the token just before (rows after the first)"),
        QT_TR_NOOP("Share to the token just after (rows before the last)"),
        QT_TR_NOOP("Share to the token itself"),
        QT_TR_NOOP("Share to the first token (rows after the first); “attention sink” from 0.5 (Xiao et al. 2023)"),
        QT_TR_NOOP("The same share by weight × ‖value‖ (Kobayashi et al. 2020): how much the first token really carries. "
                   "Shown once the attention controls' “Weight × ‖value‖” is on and computed"),
        QT_TR_NOOP("Antecedent accuracy on the evaluated coreference set"),
        QT_TR_NOOP("Thresholds in docs/coreference.md, “Head statistics”")};
    if (section < 0 || section >= ColumnCount) return {};
    if (role == Qt::DisplayRole) return tr(names[section]);
    if (role == Qt::ToolTipRole && tips[section][0] != '\0') return tr(tips[section]);
    return {};
}

}  // namespace attnscope
