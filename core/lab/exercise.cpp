// Shape legend: T tokens; a step's matrix is rows × cols.
#include "core/lab/exercise.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>

#include "core/lab/random.hpp"
#include "core/text/error_messages.hpp"

namespace attnscope {

double answerTolerance(int decimals) { return 0.5 * std::pow(10.0, -decimals) + 1e-12; }

namespace {

std::vector<std::pair<int, int>> hiddenCells(GridRef m, const ExerciseSpec& spec) {
    std::vector<std::pair<int, int>> cells;
    for (int r = 0; r < m.rows(); ++r)
        for (int c = 0; c < m.cols(); ++c)
            if (std::isfinite(m(r, c)) && (spec.hide != HideKind::OneRow || r == spec.row)) cells.emplace_back(r, c);
    if (spec.hide != HideKind::RandomCells) return cells;
    // A partial Fisher-Yates: the first `count` of a seeded shuffle, then back in reading order.
    LabRandom random(spec.seed);
    const std::size_t count = std::min<std::size_t>(static_cast<std::size_t>(std::max(spec.count, 0)), cells.size());
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t j = i + static_cast<std::size_t>(random.uniform() * static_cast<double>(cells.size() - i));
        std::swap(cells[i], cells[j]);
    }
    cells.resize(count);
    std::sort(cells.begin(), cells.end());
    return cells;
}

bool sameMatrix(const Mat& a, const Mat& b) {
    return a.rows() == b.rows() && a.cols() == b.cols() && a == b;  // −∞ equals −∞; NaN never matches
}

bool sameHead(const HeadTrace& a, const HeadTrace& b) {
    return sameMatrix(a.q, b.q) && sameMatrix(a.k, b.k) && sameMatrix(a.v, b.v) && sameMatrix(a.scores, b.scores) &&
           sameMatrix(a.scaledScores, b.scaledScores) && sameMatrix(a.maskedScores, b.maskedScores) &&
           a.weights == b.weights && sameMatrix(a.weightedSum, b.weightedSum);
}

bool sameLayer(const LayerTrace& a, const LayerTrace& b) {
    return sameMatrix(a.input, b.input) && sameMatrix(a.concat, b.concat) && sameMatrix(a.output, b.output) &&
           std::equal(a.heads.begin(), a.heads.end(), b.heads.begin(), b.heads.end(), sameHead);
}

}  // namespace

bool sameRun(const Trace& a, const Trace& b) {
    const auto sameText = [](const Token& x, const Token& y) { return x.text == y.text; };
    return std::equal(a.tokens.begin(), a.tokens.end(), b.tokens.begin(), b.tokens.end(), sameText) &&
           sameMatrix(a.embedding, b.embedding) && sameMatrix(a.positional, b.positional) &&
           std::equal(a.layers.begin(), a.layers.end(), b.layers.begin(), b.layers.end(), sameLayer);
}

Result<Exercise> makeExercise(const Trace& trace, const ExerciseSpec& spec) {
    const ErrorText where = errorText(ErrorId::WhereExerciseOn, stepKey(spec.step));
    if (spec.layer < 0 || spec.layer >= static_cast<int>(trace.layers.size()))
        return Error{where, errorText(ErrorId::LayerDoesNotExist, spec.layer + 1)};
    if (isPerHead(spec.step) && (spec.head < 0 || spec.head >= trace.headCount()))
        return Error{where, errorText(ErrorId::HeadDoesNotExist, spec.head + 1)};
    const GridRef m = stepMatrix(trace, spec.step, spec.layer, spec.head);
    if (m.size() == 0) return Error{where, ErrorId::RunKeptNoMatrix};
    if (spec.hide == HideKind::OneRow && (spec.row < 0 || spec.row >= m.rows()))
        return Error{where, errorText(ErrorId::RowOutside, spec.row + 1, m.rows())};
    Exercise exercise{spec, {}, answerTolerance(spec.decimals)};
    for (const auto& [r, c] : hiddenCells(m, spec))
        exercise.blanks.push_back(Blank{CellRef{spec.step, spec.layer, spec.head, r, c}, m(r, c)});
    if (exercise.blanks.empty()) return Error{where, ErrorId::NoFiniteCell};
    return exercise;
}

std::optional<double> readTypedNumber(std::string_view typed) {
    std::string text(typed);
    const auto notSpace = [](unsigned char ch) { return !std::isspace(ch); };
    text.erase(text.begin(), std::find_if(text.begin(), text.end(), notSpace));
    text.erase(std::find_if(text.rbegin(), text.rend(), notSpace).base(), text.end());
    if (text.rfind("\xE2\x88\x92", 0) == 0) text.replace(0, 3, "-");  // U+2212 MINUS SIGN
    if (text.find('.') == std::string::npos) std::replace(text.begin(), text.end(), ',', '.');
    double value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value, std::chars_format::general);
    if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(value)) return std::nullopt;
    return value;
}

AnswerCheck checkAnswer(const Exercise& exercise, const Blank& blank, std::string_view typed) {
    const auto value = readTypedNumber(typed);
    if (!value) return AnswerCheck{};
    const double difference = std::abs(*value - blank.answer);
    return AnswerCheck{difference <= exercise.tolerance ? Verdict::Correct : Verdict::Wrong, *value, difference};
}

void ExerciseProgress::record(std::size_t blank, Verdict verdict) {
    if (blank < verdicts_.size() && verdict != Verdict::NotANumber) verdicts_[blank] = verdict == Verdict::Correct;
}

ExerciseScore ExerciseProgress::score() const {
    ExerciseScore s;
    s.total = static_cast<int>(verdicts_.size());
    for (const auto& v : verdicts_) {
        if (!v) continue;
        ++s.attempted;
        s.correct += *v ? 1 : 0;
    }
    return s;
}

}  // namespace attnscope
