#pragma once
// Which heads track coreference: a coreference set (JSON lines, docs/coreference.md) and its
// evaluation — for every layer × head the share of examples whose argmax candidate is the gold
// antecedent, beside four baselines (nearest mention, rule, first candidate, a random candidate's
// expectation) and attention rollout, ranked best first, each with a 95 % bootstrap interval
// over the examples (core/analysis/bootstrap.hpp).
//
// Shape legend: L layers, H heads per layer.
#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/bootstrap.hpp"
#include "core/analysis/coreference.hpp"
#include "core/base/result.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

// One line of a coreference set.
struct CorefExample {
    std::string sentence;
    std::string mention;               // the referring word(s) as written in the sentence
    int mentionOccurrence = 1;         // which occurrence of `mention` (1 = first)
    std::string antecedent;            // the gold antecedent as written (its head word, or a few words)
    int antecedentOccurrence = 1;
    std::string id;                    // optional; "line N" when absent
    std::string pair;                  // optional: Winograd pair this example belongs to
    int line = 0;                      // 1-based line in the file
};

struct CorefSet {
    std::string source;  // file name, for messages
    std::vector<CorefExample> examples;
};

// Parses JSON lines. Blank lines and lines starting with '#' are skipped. Errors name the
// source, the line and the field: "set.jsonl: line 4: antecedent: expected …, found …".
Result<CorefSet> parseCorefSet(std::string_view text, const std::string& source);
Result<CorefSet> readCorefSet(const std::filesystem::path& path);

// Runs one sentence of the set and returns its Trace (every layer's weights). The app supplies
// it (lesson or model), so the engine does not depend on how sentences are tokenized.
using SentenceRunner = std::function<Result<Trace>(const std::string& sentence)>;

struct EvaluationControl {
    std::atomic<bool>* cancel = nullptr;                           // checked before every sentence
    std::function<void(int examplesDone, int exampleCount)> progress;  // called after every sentence
    bool cataphora = false;
    BootstrapSettings bootstrap;  // the intervals: resamples and seed
};

// What happened to one example.
struct ExampleOutcome {
    int index = 0;              // into CorefSet::examples
    bool evaluated = false;
    std::optional<Notice> skipReason;  // when not evaluated: why (gold not among the candidates, …), shown with noticeText
    int goldFirst = -1, goldLast = -1;  // word span of the gold antecedent
    bool nearestCorrect = false, ruleCorrect = false, rolloutCorrect = false;
    bool firstCorrect = false;  // the first candidate in sentence order lies in the gold span
    int candidateCount = 0;     // C
    int goldCandidates = 0;     // candidates inside the gold span: a random pick is right with chance goldCandidates / C
    std::vector<int> headChoice;  // L·H word indices chosen (layer-major), -1 when no candidate
};

struct HeadAccuracy {
    HeadRef head;
    int correct = 0;
    double accuracy = 0;  // correct / evaluated
    Interval interval;    // bootstrap interval of the accuracy
    Interval overRule;    // paired bootstrap interval of accuracy − rule baseline's accuracy
    // Significantly above the rule baseline: the paired interval lies above 0 (uncorrected for
    // having picked the best of L·H heads, see docs/coreference.md).
    bool aboveRule() const { return overRule.low > 0; }
};

// A baseline's or rollout's score: correct examples (or the expected number, for the random
// pick), the accuracy and its bootstrap interval.
struct BaselineScore {
    double correct = 0;
    double accuracy = 0;
    Interval interval;
};

struct CorefEvaluation {
    std::string source;
    int layers = 0, headsPerLayer = 0;
    int evaluated = 0;
    int nearestCorrect = 0, ruleCorrect = 0, rolloutCorrect = 0, firstCorrect = 0;
    double randomCorrect = 0;            // Σ goldCandidates / C: a uniformly random pick's expected correct count
    BaselineScore nearest, rule, first, random, rollout;  // with intervals (filled with the ranking)
    BootstrapSettings bootstrap;         // how the intervals were drawn
    Mat correct;                         // L×H examples each head got right
    Mat accuracy;                        // L×H correct / evaluated
    std::vector<HeadAccuracy> ranking;   // every head, best first (ties: lower layer, then head)
    std::vector<ExampleOutcome> outcomes;

    int skipped() const { return static_cast<int>(outcomes.size()) - evaluated; }
    double share(int correct) const { return evaluated > 0 ? static_cast<double>(correct) / evaluated : 0; }
    double nearestAccuracy() const { return share(nearestCorrect); }
    double ruleAccuracy() const { return share(ruleCorrect); }
    double rolloutAccuracy() const { return share(rolloutCorrect); }
    double firstAccuracy() const { return share(firstCorrect); }
    double randomAccuracy() const { return evaluated > 0 ? randomCorrect / evaluated : 0; }
};

// The chosen word is correct when it lies inside the gold antecedent's word span. Examples
// whose mention or gold cannot be found among the model's words, or whose gold is not a
// candidate, are skipped with a reason (they count in neither numerator nor denominator).
// Errors: a sentence that fails to run (named by line), a cancel, traces whose layer or head
// counts differ between sentences, no example evaluated at all (an accuracy of 0/0 means nothing).
Result<CorefEvaluation> evaluateCorefSet(const CorefSet& set, const SentenceRunner& run,
                                         const EvaluationControl& control = {});

// The random-weights control (the same set on withShuffledWeights's model, the same bootstrap
// settings) beside the trained model: the control's best head and where it lands in the trained
// ranking.
struct ControlComparison {
    std::uint32_t seed = 0;  // the shuffle's seed
    HeadAccuracy best;       // the control's best head, with its interval
    int trainedAbove = 0;    // trained heads with more correct examples: best would rank trainedAbove + 1
};
ControlComparison compareWithControl(const CorefEvaluation& trained, const CorefEvaluation& control,
                                     std::uint32_t seed);

// The `count` best heads of the ranking (fewer when the model has fewer), e.g. for a view's
// "select the best heads" button.
std::vector<HeadRef> bestHeads(const CorefEvaluation& evaluation, int count);

// Label of an example in messages: its id, else "line N".
std::string exampleLabel(const CorefSet& set, const CorefExample& example);

}  // namespace attnscope
