#pragma once
// Exercise mode: cells of a step hidden for the student to compute, each typed answer checked
// with a tolerance that suits the decimals shown, and a running score.
//
// Shape legend: T tokens; a step's matrix is rows × cols.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/trace/explain.hpp"
#include "core/base/result.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

enum class HideKind {
    WholeStep,    // every cell of the step's matrix
    OneRow,       // every cell of one row
    RandomCells,  // `count` distinct cells chosen by LabRandom(seed)
};

struct ExerciseSpec {
    Step step = Step::Weights;
    int layer = 0, head = 0;
    HideKind hide = HideKind::WholeStep;
    int row = 0;             // OneRow
    int count = 5;           // RandomCells (at most the number of cells)
    std::uint64_t seed = 0;  // RandomCells
    int decimals = 3;        // what the student writes
};

struct Blank {
    CellRef cell;
    double answer = 0;  // the Trace's value (already hand-rounded when the run was)
};

struct Exercise {
    ExerciseSpec spec;
    std::vector<Blank> blanks;  // row by row, left to right
    double tolerance = 0;       // see answerTolerance
};

// Half a unit in the last written decimal, plus a hair for the binary representation: a
// student who rounds the exact value correctly to `decimals` is always right, one who is a unit
// off in the last decimal never is. E.g. 3 decimals → 0.0005 + 1e-12.
double answerTolerance(int decimals);

// True when two runs hold the same tokens and numbers in every step an exercise can ask for:
// the exercise of one still fits the other (the lab refreshes often; answers must survive).
bool sameRun(const Trace& a, const Trace& b);

// Error when the step has no matrix for that layer/head, the row is outside it, or the step
// holds non-finite cells to hide (−∞ mask entries are shown, never asked).
Result<Exercise> makeExercise(const Trace& trace, const ExerciseSpec& spec);

// What the student typed, read as a number: surrounding spaces ignored, "−" (U+2212) read as a
// minus, a decimal comma accepted when there is no point. NaN, infinities and anything else are
// refused (nullopt).
std::optional<double> readTypedNumber(std::string_view typed);

enum class Verdict { Correct, Wrong, NotANumber };
struct AnswerCheck {
    Verdict verdict = Verdict::NotANumber;
    double given = 0;
    double difference = 0;  // |given − answer|
};
AnswerCheck checkAnswer(const Exercise& exercise, const Blank& blank, std::string_view typed);

// The score: each blank counts once, by its latest checked answer.
struct ExerciseScore {
    int correct = 0, attempted = 0, total = 0;
};
class ExerciseProgress {
public:
    explicit ExerciseProgress(const Exercise& exercise) : verdicts_(exercise.blanks.size()) {}
    void record(std::size_t blank, Verdict verdict);  // NotANumber does not count as an attempt
    ExerciseScore score() const;

private:
    std::vector<std::optional<bool>> verdicts_;
};

}  // namespace attnscope
