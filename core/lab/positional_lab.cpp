// Shape legend: T tokens, d model width, k a position offset.
#include "core/lab/positional_lab.hpp"

#include <cmath>
#include <numeric>
#include <string>

#include <Eigen/QR>

#include "core/lab/random.hpp"
#include "core/pipeline/steps.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/text/error_messages.hpp"

namespace attnscope {

Result<Mat> relativePositionMap(int d, int k) {
    if (d <= 0 || d % 2 != 0)
        return Error{ErrorId::WhereRelativeMapD, errorText(ErrorId::ExpectedFound, ErrorId::AnEvenWidth, d)};
    Mat map = Mat::Zero(d, d);  // d×d
    for (int i = 0; i < d / 2; ++i) {
        const double angle = k / std::pow(10000.0, 2.0 * i / d);  // k·ωᵢ, as sinusoidalEncoding
        const int s = 2 * i, c = 2 * i + 1;                       // the sine and cosine columns
        map(s, s) = std::cos(angle);
        map(c, s) = std::sin(angle);
        map(s, c) = -std::sin(angle);
        map(c, c) = std::cos(angle);
    }
    return map;
}

Result<RelativePositionCheck> checkRelativePosition(int T, int d, int k) {
    if (k < 0 || k >= T)
        return Error{ErrorId::WhereRelativeCheckK, errorText(ErrorId::KBelowT, T, k)};
    auto map = relativePositionMap(d, k);
    if (!map) return map.error();
    const Mat pe = sinusoidalEncoding(T, d);                                     // T×d
    const Mat predicted = pe.topRows(T - k) * map.value();                       // (T−k)×d
    const double largest = (pe.bottomRows(T - k) - predicted).cwiseAbs().maxCoeff();
    return RelativePositionCheck{std::move(map).value(), largest, T - k};
}

Result<Mat> learnedPositionTable(const LoadedModel& model, int rows) {
    const MatrixRef* table = model.weights ? model.weights->positionTable() : nullptr;
    const ErrorText where = errorText(ErrorId::WhereLearnedTableOf, model.source);
    if (!table || !table->present())
        return Error{where, errorText(ErrorId::LearnedTableExpected, familyName(model.config.family))};
    const int first = model.config.positionOffset;  // RoBERTa: rows 0, 1 belong to padding
    const int available = static_cast<int>(table->rows) - first;
    if (rows < 1 || rows > available)
        return Error{where, errorText(ErrorId::PositionsAskedFor, available, rows)};
    return Mat(table->rowsAsFloat(first, rows).cast<double>());  // rows×d
}

Result<RelativePositionFit> fitRelativePositionMap(const Mat& table, int k) {
    const int N = static_cast<int>(table.rows()), D = static_cast<int>(table.cols());
    if (k < 1 || N - k <= D)
        return Error{ErrorId::WhereRelativeFit, errorText(ErrorId::FitNeedsPairs, D, N, k)};
    const Mat before = table.topRows(N - k), after = table.bottomRows(N - k);  // (N−k)×D each
    RelativePositionFit fit;
    fit.map = before.colPivHouseholderQr().solve(after);  // D×D, least squares
    fit.rowsFitted = N - k;
    const double size = after.norm();
    fit.relativeResidual = size > 0 ? (after - before * fit.map).norm() / size : 0.0;
    return fit;
}

std::vector<int> shuffledOrder(int n, std::uint64_t seed) {
    std::vector<int> order(static_cast<std::size_t>(std::max(n, 0)));
    std::iota(order.begin(), order.end(), 0);
    LabRandom random(seed);
    for (int i = n - 1; i >= 1; --i) {
        const int j = static_cast<int>(random.uniform() * (i + 1));
        std::swap(order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(j)]);
    }
    return order;
}

namespace {

std::string joinShuffled(const std::vector<Token>& tokens, const std::vector<int>& order) {
    std::string text;
    for (int i : order) text += (text.empty() ? "" : " ") + tokens[static_cast<std::size_t>(i)].text;
    return text;
}

// max |A'(i, j) − A(order[i], order[j])| over every layer and head.
double largestPermutedDifference(const Trace& a, const Trace& b, const std::vector<int>& order) {
    double largest = 0;
    const Eigen::Index T = static_cast<Eigen::Index>(order.size());
    for (std::size_t l = 0; l < a.layers.size(); ++l)
        for (std::size_t h = 0; h < a.layers[l].heads.size(); ++h) {
            const Mat& A = a.layers[l].heads[h].weights.exact();  // lessons: double
            const Mat& B = b.layers[l].heads[h].weights.exact();
            for (Eigen::Index i = 0; i < T; ++i)
                for (Eigen::Index j = 0; j < T; ++j)
                    largest = std::max(largest, std::abs(B(i, j) - A(order[static_cast<std::size_t>(i)],
                                                                     order[static_cast<std::size_t>(j)])));
        }
    return largest;
}

}  // namespace

Result<PermutationDemo> permutationDemo(const Lesson& lesson, std::string_view sentence, std::uint64_t seed,
                                        bool keepPositional) {
    Lesson used = lesson;
    if (!keepPositional) {
        used.positional = PositionalKind::None;
        used.causalMask = false;  // a causal mask is position information too: it would break the symmetry
    }
    auto original = runLesson(used, sentence);
    if (!original) return original.error();
    PermutationDemo demo;
    demo.positional = keepPositional && lesson.positional != PositionalKind::None;
    demo.order = shuffledOrder(original.value().tokenCount(), seed);
    auto shuffled = runLesson(used, joinShuffled(original.value().tokens, demo.order));
    if (!shuffled) return shuffled.error();
    for (std::size_t i = 0; i < demo.order.size(); ++i)
        if (i >= shuffled.value().tokens.size() ||
            shuffled.value().tokens[i].text != original.value().tokens[static_cast<std::size_t>(demo.order[i])].text)
            return Error{ErrorId::WherePermutationDemo, errorText(ErrorId::ShuffledDoesNotReadBack, i + 1)};
    demo.largestDifference = largestPermutedDifference(original.value(), shuffled.value(), demo.order);
    demo.original = std::move(original).value();
    demo.shuffled = std::move(shuffled).value();
    return demo;
}

}  // namespace attnscope
