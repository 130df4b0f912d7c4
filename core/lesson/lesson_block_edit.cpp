// The editor's changes to the block after attention (lesson_block_edit.hpp).
// Shape legend: d model width, d_ff feed-forward width, V the words of the embedding table.
#include "core/lesson/lesson_block_edit.hpp"

#include <algorithm>
#include <tuple>

namespace attnscope {

namespace {

// The top-left block of `m` that fits rows×cols, `fill` around it; an empty matrix stays empty.
Mat resizedOr(const Mat& m, Eigen::Index rows, Eigen::Index cols, double fill) {
    if (m.size() == 0) return m;
    Mat out = Mat::Constant(rows, cols, fill);
    const Eigen::Index r = std::min(rows, m.rows()), c = std::min(cols, m.cols());
    out.topLeftCorner(r, c) = m.topLeftCorner(r, c);
    return out;
}

LessonNorm neutralNorm(BlockNorm kind, int d) {
    LessonNorm norm;
    norm.kind = kind;
    if (kind == BlockNorm::None) return norm;
    norm.gamma = Mat::Ones(1, d);
    if (kind == BlockNorm::LayerNorm) norm.beta = Mat::Zero(1, d);
    return norm;
}

// The same kind keeps its weights; another kind starts neutral (LayerNorm keeps γ from RMSNorm).
LessonNorm chosenNorm(const LessonNorm& now, BlockNorm kind, int d) {
    if (now.kind == kind) return now;
    LessonNorm next = neutralNorm(kind, d);
    if (now.kind != BlockNorm::None && kind != BlockNorm::None) {
        next.gamma = now.gamma;
        next.eps = now.eps;
    }
    return next;
}

LessonFeedForward chosenFeedForward(const LessonFeedForward& now, BlockFfn kind, int d, int dFf) {
    if (now.kind == kind) return now;
    LessonFeedForward next;
    next.kind = kind;
    if (kind == BlockFfn::None) return next;
    const bool had = now.kind != BlockFfn::None;
    const Eigen::Index width = had ? now.wIn.cols() : std::max(1, dFf);
    next.wIn = had ? now.wIn : Mat::Zero(d, width);     // d×d_ff
    next.wOut = had ? now.wOut : Mat::Zero(width, d);   // d_ff×d
    if (kind == BlockFfn::SwiGlu) next.wGate = Mat::Zero(d, width);
    else if (now.kind != BlockFfn::SwiGlu) std::tie(next.bIn, next.bOut) = std::tie(now.bIn, now.bOut);
    return next;
}

Mat tableTransposed(const Lesson& lesson) {
    Mat w(lesson.dModel, static_cast<Eigen::Index>(lesson.embeddings.size()));  // d×V
    for (std::size_t v = 0; v < lesson.embeddings.size(); ++v)
        w.col(static_cast<Eigen::Index>(v)) = lesson.embeddings[v].second.transpose();
    return w;
}

}  // namespace

LessonBlockChoice blockChoiceOf(const Lesson& lesson) {
    const LessonBlock& b = lesson.block;
    LessonBlockChoice choice{b.residual, b.norm.kind, b.ffn.kind, lesson.dModel, b.finalNorm.kind, OutputHeadChoice::None};
    if (b.ffn.kind != BlockFfn::None) choice.dFf = static_cast<int>(b.ffn.wIn.cols());
    if (b.outputHead) choice.head = b.tied ? OutputHeadChoice::Tied : OutputHeadChoice::Own;
    return choice;
}

Result<Lesson> applyLessonBlockChoice(const Lesson& lesson, const LessonBlockChoice& choice) {
    Lesson out = lesson;
    LessonBlock& b = out.block;
    const int d = lesson.dModel;
    b.residual = choice.residual;
    b.norm = chosenNorm(b.norm, choice.norm, d);
    b.ffn = chosenFeedForward(b.ffn, choice.ffn, d, choice.dFf);
    b.finalNorm = chosenNorm(b.finalNorm, choice.finalNorm, d);
    const bool own = choice.head == OutputHeadChoice::Own;
    if (own && (!b.outputHead || b.tied)) b.wVocab = tableTransposed(out);  // start from the table itself
    if (!own) b.wVocab.resize(0, 0);
    if (choice.head == OutputHeadChoice::None) b.bVocab.resize(0);
    b.outputHead = choice.head != OutputHeadChoice::None;
    b.tied = choice.head == OutputHeadChoice::Tied;
    if (auto e = validateLesson(out, out.title.in("")); !e.ok()) return e.error();
    return out;
}

void resizeLessonBlock(Lesson& lesson, int d) {
    LessonBlock& b = lesson.block;
    for (LessonNorm* norm : {&b.norm, &b.finalNorm}) {
        norm->gamma = resizedOr(norm->gamma, 1, d, 1.0);
        norm->beta = resizedOr(norm->beta, 1, d, 0.0);
    }
    LessonFeedForward& f = b.ffn;
    f.wIn = resizedOr(f.wIn, d, f.wIn.cols(), 0.0);
    f.wGate = resizedOr(f.wGate, d, f.wGate.cols(), 0.0);
    f.wOut = resizedOr(f.wOut, f.wOut.rows(), d, 0.0);
    if (f.bOut.size()) f.bOut = RowVec(resizedOr(f.bOut, 1, d, 0.0));
    b.wVocab = resizedOr(b.wVocab, d, b.wVocab.cols(), 0.0);
}

void addVocabularyWord(Lesson& lesson) {
    LessonBlock& b = lesson.block;
    if (b.wVocab.size()) b.wVocab = resizedOr(b.wVocab, b.wVocab.rows(), b.wVocab.cols() + 1, 0.0);
    if (b.bVocab.size()) b.bVocab = RowVec(resizedOr(b.bVocab, 1, b.bVocab.size() + 1, 0.0));
}

namespace {

template <class M>
void dropColumn(M& m, int index) {
    if (m.size() == 0 || index < 0 || index >= m.cols()) return;
    M out(m.rows(), m.cols() - 1);
    out << m.leftCols(index), m.rightCols(m.cols() - index - 1);
    m = out;
}

}  // namespace

void deleteVocabularyWord(Lesson& lesson, int index) {
    dropColumn(lesson.block.wVocab, index);
    dropColumn(lesson.block.bVocab, index);
}

}  // namespace attnscope
