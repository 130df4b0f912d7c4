#pragma once
// What switching heads off does to the model's predictions (issue 14 §1): each prediction before
// → after with the change in probability, and the "most important heads" ranking: one forward per
// head with that head switched off, ranked by how far the predicted token's probability moves.
// Probabilities come from the logits in double, so a token outside the top-k still has one.
#include <vector>

#include "core/base/result.hpp"
#include "core/model/transformer.hpp"

namespace attnscope {

// softmax(prediction.logits)[id], in double. 0 for an id outside the vocabulary.
double probabilityOf(const Prediction& prediction, int id);
// prediction.logits[id]; 0 for an id outside the vocabulary.
double logitOf(const Prediction& prediction, int id);

struct PredictionShift {
    int id = -1;
    double before = 0;  // probability in the run without the ablation
    double after = 0;   // … with it
};
struct PredictionChange {
    int position = 0;
    std::vector<PredictionShift> rows;  // the after run's top-k, best first
};

// Pairs each prediction of `after` with the one of `before` at the same position (missing: its
// rows have before = 0). `before` and `after` are the same sentence's runs.
std::vector<PredictionChange> comparePredictions(const std::vector<Prediction>& before,
                                                 const std::vector<Prediction>& after);

struct HeadEffect {
    HeadRef head;
    double after = 0;   // probability of the token `before` predicted, with this head off as well
    int topAfter = -1;  // what the model predicts then
    double logitAfter = 0;  // that token's logit with this head off (differences readable where p ≈ 0)
};
struct HeadEffects {
    int position = 0;      // the prediction ranked (a [MASK] for BERT, the last token for GPT-2)
    int token = -1;        // the token the run predicted there (its top-1)
    double before = 0;     // its probability in the run
    double logitBefore = 0;  // its logit in the run
    std::vector<HeadEffect> heads;  // every head not already off, largest |after − before| first
};

// One forward of `run`'s tokens per head of the model, each with that head switched off on top of
// the heads `run` already had off; `control` supplies cancel and progress (heads done, head count).
// `prediction` indexes run.predictions. Errors: no such prediction, cancelled, a failed run.
Result<HeadEffects> rankHeadsByEffect(const LoadedModel& model, const ModelRun& run, int prediction,
                                      const RunControl& control = {});

}  // namespace attnscope
