#include "ui/lab/exercise_model.hpp"

#include <QColor>

#include "ui/common/qt_text.hpp"
#include "ui/common/theme_colors.hpp"

namespace attnscope {

namespace {

QColor verdictColour(std::optional<Verdict> verdict) {
    using theme::Role;
    if (!verdict) return theme::color(Role::VerdictPending);  // pale yellow (dark: olive): still to fill in
    switch (*verdict) {
        case Verdict::Correct: return theme::color(Role::VerdictCorrect);
        case Verdict::Wrong: return theme::color(Role::VerdictWrong);
        case Verdict::NotANumber: return theme::color(Role::VerdictNotANumber);
    }
    return {};
}

QString verdictMark(Verdict verdict) {
    switch (verdict) {
        case Verdict::Correct: return ExerciseTableModel::kRightMark;
        case Verdict::Wrong: return ExerciseTableModel::kWrongMark;
        case Verdict::NotANumber: return ExerciseTableModel::kNotANumberMark;
    }
    return {};
}

}  // namespace

ExerciseTableModel::ExerciseTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ExerciseTableModel::show(const Trace* trace, const Exercise* exercise) {
    beginResetModel();
    trace_ = trace;
    exercise_ = exercise;
    const ExerciseSpec& s = exercise->spec;
    const GridRef m = stepMatrix(*trace, s.step, s.layer, s.head);
    blankOfCell_.assign(static_cast<std::size_t>(m.size()), -1);
    for (std::size_t b = 0; b < exercise->blanks.size(); ++b) {
        const CellRef& c = exercise->blanks[b].cell;
        blankOfCell_[static_cast<std::size_t>(c.row * m.cols() + c.col)] = static_cast<int>(b);
    }
    answers_.assign(exercise->blanks.size(), Answer{});
    rowLabels_ = rowLabels(*trace, s.step, s.layer, s.head, displayLanguage());
    colLabels_ = columnLabels(*trace, s.step, s.layer, s.head, displayLanguage());
    endResetModel();
}

void ExerciseTableModel::clear() {
    beginResetModel();
    trace_ = nullptr;
    exercise_ = nullptr;
    blankOfCell_.clear();
    answers_.clear();
    rowLabels_.clear();
    colLabels_.clear();
    endResetModel();
}

int ExerciseTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rowLabels_.size());
}

int ExerciseTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(colLabels_.size());
}

int ExerciseTableModel::blankAt(int row, int col) const {
    if (row < 0 || col < 0 || row >= rowCount() || col >= columnCount()) return -1;
    return blankOfCell_[static_cast<std::size_t>(row * columnCount() + col)];
}

QModelIndex ExerciseTableModel::indexOfBlank(int blank) const {
    if (!exercise_ || blank < 0 || blank >= static_cast<int>(exercise_->blanks.size())) return {};
    const CellRef& c = exercise_->blanks[static_cast<std::size_t>(blank)].cell;
    return index(c.row, c.col);
}

void ExerciseTableModel::setAnswer(int blank, const QString& typed, Verdict verdict) {
    const QModelIndex at = indexOfBlank(blank);
    if (!at.isValid()) return;
    answers_[static_cast<std::size_t>(blank)] = Answer{typed.trimmed(), verdict};
    emit dataChanged(at, at);
}

std::optional<Verdict> ExerciseTableModel::verdictOf(int blank) const {
    if (blank < 0 || blank >= static_cast<int>(answers_.size())) return std::nullopt;
    return answers_[static_cast<std::size_t>(blank)].verdict;
}

QVariant ExerciseTableModel::blankData(int blank, int role) const {
    const Answer& a = answers_[static_cast<std::size_t>(blank)];
    switch (role) {
        case Qt::DisplayRole: return a.verdict ? a.typed + " " + verdictMark(*a.verdict) : QString();
        case Qt::EditRole: return a.typed;
        case Qt::BackgroundRole: return verdictColour(a.verdict);
        case Qt::ToolTipRole:
            if (!a.verdict) return tr("Type your answer with %n decimal(s), then press Enter", nullptr, exercise_->spec.decimals);
            if (*a.verdict == Verdict::NotANumber) return tr("“%1” is not a number").arg(a.typed);
            return *a.verdict == Verdict::Correct ? tr("Right") : tr("Wrong: try again, or reveal the explanation");
        default: return {};
    }
}

QVariant ExerciseTableModel::data(const QModelIndex& index, int role) const {
    if (!exercise_ || !index.isValid()) return {};
    if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
    const int blank = blankAt(index.row(), index.column());
    if (blank >= 0) return blankData(blank, role);
    const ExerciseSpec& s = exercise_->spec;
    if (role != Qt::DisplayRole) return {};
    return QString::fromStdString(formatNumber(stepMatrix(*trace_, s.step, s.layer, s.head)(index.row(), index.column()), s.decimals));
}

bool ExerciseTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    const int blank = index.isValid() ? blankAt(index.row(), index.column()) : -1;
    if (role != Qt::EditRole || blank < 0) return false;
    const QString typed = value.toString();
    if (typed.trimmed().isEmpty()) return false;  // nothing written: nothing to check
    emit answerTyped(blank, typed);
    return true;
}

Qt::ItemFlags ExerciseTableModel::flags(const QModelIndex& index) const {
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && blankAt(index.row(), index.column()) >= 0) f |= Qt::ItemIsEditable;
    return f;
}

QVariant ExerciseTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || section < 0) return {};
    const auto& labels = orientation == Qt::Horizontal ? colLabels_ : rowLabels_;
    if (section >= static_cast<int>(labels.size())) return {};
    return QString::fromStdString(labels[static_cast<std::size_t>(section)]);
}

}  // namespace attnscope
