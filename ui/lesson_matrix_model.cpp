#include "ui/lesson_matrix_model.hpp"

#include <QLocale>
#include <cmath>

namespace attnscope {

namespace {

QString headName(const QString& symbol, const Lesson& lesson, int head) {
    return lesson.numHeads > 1 ? QStringLiteral("%1 (head %2)").arg(symbol).arg(head + 1) : symbol;
}

QString featureLabel(const Lesson& lesson, int i) {
    return i < static_cast<int>(lesson.featureNames.size()) ? QString::fromStdString(lesson.featureNames[i])
                                                            : QString::number(i);
}

}  // namespace

QString editableNumber(double value) { return QString::number(value, 'g', 15); }

std::vector<LessonMatrixChoice> editableMatrices(const Lesson& lesson) {
    std::vector<LessonMatrixChoice> out{{LessonMatrixKind::Embeddings, 0, QObject::tr("Embedding table")}};
    if (lesson.projections) {
        for (int h = 0; h < static_cast<int>(lesson.heads.size()); ++h) {
            out.push_back({LessonMatrixKind::WQ, h, headName("W_Q", lesson, h)});
            out.push_back({LessonMatrixKind::WK, h, headName("W_K", lesson, h)});
            out.push_back({LessonMatrixKind::WV, h, headName("W_V", lesson, h)});
        }
    }
    if (lesson.wo.size() > 0) out.push_back({LessonMatrixKind::WO, 0, "W_O"});
    if (lesson.positional == PositionalKind::Table)
        out.push_back({LessonMatrixKind::Positional, 0, QObject::tr("Positional table")});
    return out;
}

LessonMatrixModel::LessonMatrixModel(QObject* parent) : QAbstractTableModel(parent) {}

void LessonMatrixModel::setLesson(Lesson* lesson) {
    beginResetModel();
    lesson_ = lesson;
    choice_ = LessonMatrixChoice{};
    endResetModel();
}

void LessonMatrixModel::setChoice(const LessonMatrixChoice& choice) {
    beginResetModel();
    choice_ = choice;
    endResetModel();
}

double* LessonMatrixModel::cell(int row, int col) const {
    if (!lesson_ || row < 0 || col < 0 || row >= rows() || col >= cols()) return nullptr;
    Lesson& l = *lesson_;
    switch (choice_.kind) {
        case LessonMatrixKind::Embeddings: return &l.embeddings[row].second(0, col);
        case LessonMatrixKind::WQ: return &l.heads[choice_.head].wq(row, col);
        case LessonMatrixKind::WK: return &l.heads[choice_.head].wk(row, col);
        case LessonMatrixKind::WV: return &l.heads[choice_.head].wv(row, col);
        case LessonMatrixKind::WO: return &l.wo(row, col);
        case LessonMatrixKind::Positional: return &l.positionalTable(row, col);
    }
    return nullptr;
}

int LessonMatrixModel::rows() const {
    if (!lesson_) return 0;
    const Lesson& l = *lesson_;
    const bool headOk = choice_.head < static_cast<int>(l.heads.size());
    switch (choice_.kind) {
        case LessonMatrixKind::Embeddings: return static_cast<int>(l.embeddings.size());
        case LessonMatrixKind::WQ: return headOk ? int(l.heads[choice_.head].wq.rows()) : 0;
        case LessonMatrixKind::WK: return headOk ? int(l.heads[choice_.head].wk.rows()) : 0;
        case LessonMatrixKind::WV: return headOk ? int(l.heads[choice_.head].wv.rows()) : 0;
        case LessonMatrixKind::WO: return int(l.wo.rows());
        case LessonMatrixKind::Positional: return int(l.positionalTable.rows());
    }
    return 0;
}

int LessonMatrixModel::cols() const {
    if (!lesson_) return 0;
    const Lesson& l = *lesson_;
    const bool headOk = choice_.head < static_cast<int>(l.heads.size());
    switch (choice_.kind) {
        case LessonMatrixKind::Embeddings: return l.dModel;
        case LessonMatrixKind::WQ: return headOk ? int(l.heads[choice_.head].wq.cols()) : 0;
        case LessonMatrixKind::WK: return headOk ? int(l.heads[choice_.head].wk.cols()) : 0;
        case LessonMatrixKind::WV: return headOk ? int(l.heads[choice_.head].wv.cols()) : 0;
        case LessonMatrixKind::WO: return int(l.wo.cols());
        case LessonMatrixKind::Positional: return int(l.positionalTable.cols());
    }
    return 0;
}

double LessonMatrixModel::valueAt(int row, int col) const {
    const double* p = cell(row, col);
    return p ? *p : std::nan("");
}

int LessonMatrixModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : rows(); }
int LessonMatrixModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : cols(); }

QVariant LessonMatrixModel::data(const QModelIndex& index, int role) const {
    const double* p = cell(index.row(), index.column());
    if (!p) return {};
    if (role == Qt::DisplayRole || role == Qt::EditRole) return editableNumber(*p);
    if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant LessonMatrixModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || !lesson_) return {};
    const bool embeddingRows = choice_.kind == LessonMatrixKind::Embeddings && orientation == Qt::Vertical;
    if (embeddingRows && section < static_cast<int>(lesson_->embeddings.size()))
        return QString::fromStdString(lesson_->embeddings[section].first);
    // Feature axes: the columns of E, P and W_O, the rows of W_Q/W_K/W_V.
    const bool wRows = choice_.kind == LessonMatrixKind::WQ || choice_.kind == LessonMatrixKind::WK ||
                       choice_.kind == LessonMatrixKind::WV;
    const bool featureAxis = orientation == Qt::Horizontal ? !wRows : wRows;
    return featureAxis ? featureLabel(*lesson_, section) : QString::number(section);
}

Qt::ItemFlags LessonMatrixModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsEditable;
}

QString LessonMatrixModel::cellName(int row, int col) const {
    const QString base = choice_.kind == LessonMatrixKind::Embeddings ? QStringLiteral("embedding") : choice_.name;
    return QStringLiteral("%1[%2, %3]").arg(base, headerData(row, Qt::Vertical, Qt::DisplayRole).toString(),
                                         headerData(col, Qt::Horizontal, Qt::DisplayRole).toString());
}

bool LessonMatrixModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    double* p = cell(index.row(), index.column());
    if (role != Qt::EditRole || !p) return false;
    const QString text = value.toString().trimmed();
    bool ok = false;
    const double parsed = QLocale::c().toDouble(text, &ok);
    if (!ok || !std::isfinite(parsed)) {
        const QString what = ok ? tr("is not a finite number") : tr("is not a number");
        emit editRejected(tr("“%1” %2; %3 keeps %4")
                              .arg(text, what, cellName(index.row(), index.column()), editableNumber(*p)));
        return false;
    }
    if (parsed == *p) return true;
    *p = parsed;
    emit dataChanged(index, index, {Qt::DisplayRole, Qt::EditRole});
    emit lessonEdited();
    return true;
}

}  // namespace attnscope
