// The masks & cross-attention lab: runs and checks.  Shapes: T tokens (T_q queries, T_k keys
// in cross-attention), n the real tokens of a padded sentence, H heads, L layers.
#include "core/lab/masks_lab.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

#include "core/lesson/lesson_tokenizer.hpp"
#include "core/text/error_messages.hpp"

namespace attnscope {

namespace {

// Empty and over-long sentences are refused before running: the panel keeps what it showed.
Result<void> checkSentence(const Lesson& lesson, std::string_view sentence, ErrorId role) {
    auto words = lessonTokenize(sentence, lesson.lowercase);
    if (!words) return Error{role, words.error().messageForm()};
    const int n = static_cast<int>(words.value().size());
    if (n == 0) return Error{role, ErrorId::IsEmptyTypeWord};
    if (n > kMaxMaskLabTokens)
        return Error{role, errorText(ErrorId::LabTooManyTokens, n, kMaxMaskLabTokens)};
    return {};
}

// max |Σ_j A[i,j] − 1| over rows 0…rows−1 of every head of every layer.
double rowSumError(const Trace& trace, int rows) {
    double worst = 0;
    for (const LayerTrace& layer : trace.layers)
        for (const HeadTrace& head : layer.heads)
            for (int i = 0; i < rows; ++i) worst = std::max(worst, std::abs(head.weights.exact().row(i).sum() - 1.0));
    return worst;
}

double largestAbove(const Mat& m) {  // max m(i, j) with j > i; 0 for one column
    double worst = 0;
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        for (Eigen::Index j = i + 1; j < m.cols(); ++j) worst = std::max(worst, m(i, j));
    return worst;
}

double largestDifference(const Mat& a, const Mat& b) {
    return a.size() == 0 ? 0.0 : (a - b).cwiseAbs().maxCoeff();
}

// The real part (first n tokens) of a padded trace against the same sentence run alone (n tokens).
double differenceFromAlone(const Trace& padded, const Trace& alone) {
    const Eigen::Index n = alone.tokenCount();
    double worst = 0;
    for (std::size_t l = 0; l < alone.layers.size(); ++l) {
        const LayerTrace& p = padded.layers[l];
        const LayerTrace& a = alone.layers[l];
        worst = std::max(worst, largestDifference(p.output.topRows(n), a.output));  // n×d
        for (std::size_t h = 0; h < a.heads.size(); ++h) {
            worst = std::max(worst, largestDifference(p.heads[h].weights.exact().topLeftCorner(n, n), a.heads[h].weights.exact()));
            worst = std::max(worst, largestDifference(p.heads[h].weightedSum.topRows(n), a.heads[h].weightedSum));
        }
    }
    return worst;
}

double largestPadWeight(const Trace& trace) {
    if (trace.paddedFrom < 0) return 0;
    double worst = 0;
    for (const LayerTrace& layer : trace.layers)
        for (const HeadTrace& head : layer.heads)
            worst = std::max(worst, head.weights.exact().rightCols(trace.tokenCount() - trace.paddedFrom).maxCoeff());
    return worst;
}

std::vector<std::string> wordsOf(std::string_view sentence) {
    std::istringstream in{std::string(sentence)};
    std::vector<std::string> words;
    for (std::string w; in >> w;) words.push_back(w);
    return words;
}

std::string joined(const std::vector<std::string>& words) {
    std::string out;
    for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
    return out;
}

}  // namespace

Result<CausalDemo> causalDemo(const Lesson& lesson, std::string_view sentence, RunSettings settings) {
    if (auto error = checkSentence(lesson, sentence, ErrorId::WhereSentence); !error.ok()) return error.error();
    Lesson causal = lesson;
    causal.causalMask = true;
    auto trace = runLesson(causal, sentence, settings);
    if (!trace) return trace.error();
    CausalDemo demo{std::move(trace).value()};
    for (const LayerTrace& layer : demo.trace.layers)
        for (const HeadTrace& head : layer.heads)
            demo.largestAboveDiagonal = std::max(demo.largestAboveDiagonal, largestAbove(head.weights.exact()));  // T×T
    demo.largestRowSumError = rowSumError(demo.trace, demo.trace.tokenCount());
    return demo;
}

Result<PaddingDemo> paddingDemo(const Lesson& lesson, std::string_view first, std::string_view second,
                                RunSettings settings) {
    if (auto error = checkSentence(lesson, first, ErrorId::WhereFirstSentence); !error.ok()) return error.error();
    if (auto error = checkSentence(lesson, second, ErrorId::WhereSecondSentence); !error.ok()) return error.error();
    auto batch = runLessonBatch(lesson, {std::string(first), std::string(second)}, settings);
    if (!batch) return batch.error();
    PaddingDemo demo{std::move(batch).value()};
    for (int s = 0; s < 2; ++s) {
        const Trace& t = demo.batch[static_cast<std::size_t>(s)];
        const int real = t.paddedFrom >= 0 ? t.paddedFrom : t.tokenCount();  // n
        if (t.paddedFrom >= 0) demo.padded = s;
        demo.largestPaddedWeight = std::max(demo.largestPaddedWeight, largestPadWeight(t));
        demo.largestRowSumError = std::max(demo.largestRowSumError, rowSumError(t, real));
    }
    if (demo.padded < 0) return demo;
    auto alone = runLesson(lesson, demo.padded == 0 ? first : second, settings);  // n tokens, no [PAD]
    if (!alone) return alone.error();
    demo.largestDifferenceAlone = differenceFromAlone(demo.batch[static_cast<std::size_t>(demo.padded)], alone.value());
    return demo;
}

Result<CrossAttentionDemo> crossAttentionDemo(const Lesson& lesson, std::string_view target, std::string_view source,
                                              RunSettings settings) {
    if (auto error = checkSentence(lesson, target, ErrorId::WhereTargetSentence); !error.ok()) return error.error();
    if (auto error = checkSentence(lesson, source, ErrorId::WhereSourceSentence); !error.ok()) return error.error();
    auto trace = runCrossAttention(lesson, target, source, settings);
    if (!trace) return trace.error();
    CrossAttentionDemo demo{std::move(trace).value()};
    demo.largestRowSumError = rowSumError(demo.trace, demo.trace.tokenCount());  // T_q rows
    return demo;
}

std::string shorterSentence(std::string_view sentence) {
    std::vector<std::string> words = wordsOf(sentence);
    words.resize(std::max<std::size_t>(1, (words.size() + 1) / 2));
    return words.empty() ? std::string() : joined(words);
}

std::string reversedSource(std::string_view sentence) {
    std::vector<std::string> words = wordsOf(sentence);
    if (words.size() > 1) words.erase(words.begin());
    std::reverse(words.begin(), words.end());
    return joined(words);
}

}  // namespace attnscope
