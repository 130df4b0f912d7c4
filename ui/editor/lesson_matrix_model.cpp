#include "ui/editor/lesson_matrix_model.hpp"

#include <QLocale>
#include <cmath>

#include "ui/common/qt_text.hpp"

namespace attnscope {

namespace {

// Whose weights, in an encoder–decoder lesson: its encoder's or one of its decoder's stages.
QString partName(const Lesson& lesson, LessonLayerPart part) {
    if (!lesson.encoderDecoder.present) return {};
    switch (part) {
        case LessonLayerPart::DecoderSelf: return LessonMatrixModel::tr("decoder self-attention");
        case LessonLayerPart::Cross: return LessonMatrixModel::tr("cross-attention");
        default: return LessonMatrixModel::tr("encoder");
    }
}

// "W_Q", "W_Q (head 2)", "W_Q (layer 2)", "W_Q (layer 2, head 1)": only what tells them apart.
// With shared key/value heads W_K and W_V belong to a key/value head: "W_K (K/V head 2)".
// An encoder–decoder's say whose they are: "W_Q (cross-attention)".
QString weightName(const QString& symbol, const Lesson& lesson, int layer, int head, bool kvHead = false,
                   LessonLayerPart part = LessonLayerPart::Encoder) {
    QStringList where;
    if (const QString whose = partName(lesson, part); !whose.isEmpty()) where << whose;
    if (part == LessonLayerPart::Encoder && lesson.layers.size() > 1) where << QObject::tr("layer %1").arg(layer + 1);
    if (kvHead) where << QObject::tr("K/V head %1").arg(head + 1);
    else if (head >= 0 && lesson.numHeads > 1) where << QObject::tr("head %1").arg(head + 1);
    return where.isEmpty() ? symbol : QStringLiteral("%1 (%2)").arg(symbol, where.join(", "));
}

// W_K and W_V of each head, or of each shared key/value head.
void addKeyValueMatrices(const Lesson& lesson, int l, LessonLayerPart part, std::vector<LessonMatrixChoice>& out) {
    const bool shared = lesson.sharesKeyValues();
    for (int h = 0; lesson.projections && h < (shared ? lesson.kvHeadCount() : lesson.numHeads); ++h) {
        out.push_back({LessonMatrixKind::WK, h, weightName("W_K", lesson, l, h, shared, part), l, part});
        out.push_back({LessonMatrixKind::WV, h, weightName("W_V", lesson, l, h, shared, part), l, part});
    }
}

// One attention layer's W_Q, W_K, W_V (per head, or W_K and W_V per shared key/value head) and W_O.
void addLayerMatrices(const Lesson& lesson, const LessonLayer& layer, int l, LessonLayerPart part,
                      std::vector<LessonMatrixChoice>& out) {
    for (int h = 0; lesson.projections && h < static_cast<int>(layer.heads.size()); ++h) {
        out.push_back({LessonMatrixKind::WQ, h, weightName("W_Q", lesson, l, h, false, part), l, part});
        if (lesson.sharesKeyValues()) continue;
        out.push_back({LessonMatrixKind::WK, h, weightName("W_K", lesson, l, h, false, part), l, part});
        out.push_back({LessonMatrixKind::WV, h, weightName("W_V", lesson, l, h, false, part), l, part});
    }
    if (lesson.sharesKeyValues()) addKeyValueMatrices(lesson, l, part, out);
    if (layer.wo.size() > 0) out.push_back({LessonMatrixKind::WO, 0, weightName("W_O", lesson, l, -1, false, part), l, part});
}

QString featureLabel(const Lesson& lesson, int i) {
    return i < static_cast<int>(lesson.featureNames.size()) ? qs(lesson.featureNames[i])
                                                            : QString::number(i);
}

// The block after attention (format version 6): its weights, named by their symbols.
void addBlockMatrices(const Lesson& lesson, std::vector<LessonMatrixChoice>& out) {
    const LessonBlock& b = lesson.block;
    const bool gated = b.ffn.kind == BlockFfn::SwiGlu;
    const auto add = [&](LessonMatrixKind kind, const QString& name, bool present) {
        if (present) out.push_back({kind, 0, name});
    };
    add(LessonMatrixKind::NormGamma, LessonMatrixModel::tr("γ (norm)"), b.norm.gamma.size() > 0);
    add(LessonMatrixKind::NormBeta, LessonMatrixModel::tr("β (norm)"), b.norm.beta.size() > 0);
    add(LessonMatrixKind::FfnGate, QStringLiteral("W_gate"), b.ffn.wGate.size() > 0);
    add(LessonMatrixKind::FfnIn, gated ? QStringLiteral("W_up") : QStringLiteral("W_1"), b.ffn.wIn.size() > 0);
    add(LessonMatrixKind::FfnOut, gated ? QStringLiteral("W_down") : QStringLiteral("W_2"), b.ffn.wOut.size() > 0);
    add(LessonMatrixKind::FinalNormGamma, LessonMatrixModel::tr("γ (final norm)"), b.finalNorm.gamma.size() > 0);
    add(LessonMatrixKind::FinalNormBeta, LessonMatrixModel::tr("β (final norm)"), b.finalNorm.beta.size() > 0);
    add(LessonMatrixKind::Vocab, LessonMatrixModel::tr("W_vocab (output head)"), b.outputHead && !b.tied);
}

// Which axis of the chosen matrix runs over the model's features (d), and which over the words (V).
bool featureRows(LessonMatrixKind kind) {
    return kind == LessonMatrixKind::WQ || kind == LessonMatrixKind::WK || kind == LessonMatrixKind::WV ||
           kind == LessonMatrixKind::FfnGate || kind == LessonMatrixKind::FfnIn || kind == LessonMatrixKind::Vocab;
}
bool hiddenColumns(LessonMatrixKind kind) {  // d_ff columns (W_1, W_gate) or V columns (W_vocab)
    return kind == LessonMatrixKind::FfnGate || kind == LessonMatrixKind::FfnIn || kind == LessonMatrixKind::Vocab;
}

}  // namespace

QString editableNumber(double value) { return QString::number(value, 'g', 15); }

std::vector<LessonMatrixChoice> editableMatrices(const Lesson& lesson) {
    std::vector<LessonMatrixChoice> out{{LessonMatrixKind::Embeddings, 0, QObject::tr("Embedding table")}};
    for (int l = 0; l < static_cast<int>(lesson.layers.size()); ++l)
        addLayerMatrices(lesson, lesson.layers[l], l, LessonLayerPart::Encoder, out);
    const LessonEncoderDecoder& ed = lesson.encoderDecoder;
    if (ed.present) {
        addLayerMatrices(lesson, ed.decoderSelf, 0, LessonLayerPart::DecoderSelf, out);
        addLayerMatrices(lesson, ed.cross, 0, LessonLayerPart::Cross, out);
        out.push_back({LessonMatrixKind::Vocab, 0, LessonMatrixModel::tr("W_vocab (output head)")});
    }
    if (lesson.positional == PositionalKind::Table)
        out.push_back({LessonMatrixKind::Positional, 0, QObject::tr("Positional table")});
    addBlockMatrices(lesson, out);
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

Mat* LessonMatrixModel::matrix() const { return lesson_ ? lessonMatrix(*lesson_, choice_.ref()) : nullptr; }

double* LessonMatrixModel::cell(int row, int col) const {
    if (!lesson_ || row < 0 || col < 0 || row >= rows() || col >= cols()) return nullptr;
    if (choice_.kind == LessonMatrixKind::Embeddings) return &lesson_->embeddings[row].second(0, col);
    return &(*matrix())(row, col);
}

int LessonMatrixModel::rows() const {
    if (!lesson_) return 0;
    if (choice_.kind == LessonMatrixKind::Embeddings) return static_cast<int>(lesson_->embeddings.size());
    const Mat* m = matrix();
    return m ? static_cast<int>(m->rows()) : 0;
}

int LessonMatrixModel::cols() const {
    if (!lesson_) return 0;
    if (choice_.kind == LessonMatrixKind::Embeddings) return lesson_->dModel;
    const Mat* m = matrix();
    return m ? static_cast<int>(m->cols()) : 0;
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
    const bool words = choice_.kind == LessonMatrixKind::Vocab && orientation == Qt::Horizontal;
    const std::vector<std::string>& headWords = lesson_->encoderDecoder.vocabulary;  // V_t, an encoder–decoder's
    if (words && lesson_->encoderDecoder.present && section < static_cast<int>(headWords.size()))
        return QString::fromStdString(headWords[section]);
    if (words && section < static_cast<int>(lesson_->embeddings.size()))
        return QString::fromStdString(lesson_->embeddings[section].first);
    // Feature axes: the columns of E, P, W_O, γ, β and W_2, the rows of W_Q/W_K/W_V, W_1 and W_vocab.
    const bool wRows = featureRows(choice_.kind);
    const bool featureAxis = orientation == Qt::Horizontal ? !wRows && !hiddenColumns(choice_.kind) : wRows;
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
    emit lessonEdited(cellName(index.row(), index.column()));
    return true;
}

}  // namespace attnscope
