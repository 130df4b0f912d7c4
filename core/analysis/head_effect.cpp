#include "core/analysis/head_effect.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/text/error_messages.hpp"
#include "core/trace/ablation.hpp"

namespace attnscope {

double probabilityOf(const Prediction& prediction, int id) {
    const RowVecF& logits = prediction.logits;
    if (id < 0 || id >= logits.size()) return 0;
    const double top = logits.maxCoeff();
    double sum = 0;  // subtracting the largest logit keeps exp() finite
    for (Eigen::Index i = 0; i < logits.size(); ++i) sum += std::exp(double(logits[i]) - top);
    return std::exp(double(logits[id]) - top) / sum;
}

double logitOf(const Prediction& prediction, int id) {
    return id < 0 || id >= prediction.logits.size() ? 0.0 : static_cast<double>(prediction.logits[id]);
}

namespace {

const Prediction* atPosition(const std::vector<Prediction>& predictions, int position) {
    for (const Prediction& p : predictions)
        if (p.position == position) return &p;
    return nullptr;
}

// The run's tokens as runModel takes them back: ids and labels.
std::vector<int> idsOf(const Trace& trace) {
    std::vector<int> ids;
    for (const Token& t : trace.tokens) ids.push_back(t.id);
    return ids;
}

std::vector<HeadRef> withHead(std::vector<HeadRef> heads, HeadRef head) {
    heads.push_back(head);
    return heads;
}

bool contains(const std::vector<HeadRef>& heads, HeadRef head) {
    return std::any_of(heads.begin(), heads.end(),
                       [&](const HeadRef& h) { return h.layer == head.layer && h.head == head.head; });
}

}  // namespace

std::vector<PredictionChange> comparePredictions(const std::vector<Prediction>& before,
                                                 const std::vector<Prediction>& after) {
    std::vector<PredictionChange> changes;
    for (const Prediction& a : after) {
        const Prediction* b = atPosition(before, a.position);
        PredictionChange change{a.position, {}};
        for (const TokenScore& s : a.top)
            change.rows.push_back({s.id, b ? probabilityOf(*b, s.id) : 0.0, probabilityOf(a, s.id)});
        changes.push_back(std::move(change));
    }
    return changes;
}

Result<HeadEffects> rankHeadsByEffect(const LoadedModel& model, const ModelRun& run, int prediction,
                                      const RunControl& control) {
    if (prediction < 0 || prediction >= static_cast<int>(run.predictions.size()))
        return Error{ErrorId::WhereHeadRanking,
                     errorText(ErrorId::ExpectedFound, errorText(ErrorId::APredictionFrom, run.predictions.size()), prediction + 1)};
    const Prediction& chosen = run.predictions[static_cast<std::size_t>(prediction)];
    HeadEffects effects{chosen.position, chosen.top.empty() ? -1 : chosen.top.front().id, 0, 0, {}};
    effects.before = probabilityOf(chosen, effects.token);
    effects.logitBefore = logitOf(chosen, effects.token);
    const std::vector<HeadRef> alreadyOff = ablatedHeads(run.trace);
    const std::vector<int> ids = idsOf(run.trace);
    const int count = model.config.layers * model.config.heads;
    RunControl one;  // weights of every layer are not needed: only the prediction
    one.cancel = control.cancel;
    one.fullDetailMaxTokens = 0;
    one.topK = 1;
    one.predictAt = {chosen.position};
    for (int n = 0; n < count; ++n) {
        const HeadRef head{n / model.config.heads, n % model.config.heads};
        if (contains(alreadyOff, head)) continue;
        one.ablate = withHead(alreadyOff, head);
        auto ablated = runModel(model, ids, run.trace.tokens, one);
        if (!ablated) return ablated.error();
        const Prediction& p = ablated.value().predictions.front();
        effects.heads.push_back({head, probabilityOf(p, effects.token), p.top.empty() ? -1 : p.top.front().id,
                                 logitOf(p, effects.token)});
        if (control.progress) control.progress(n + 1, count);
    }
    std::stable_sort(effects.heads.begin(), effects.heads.end(), [&](const HeadEffect& a, const HeadEffect& b) {
        return std::abs(a.after - effects.before) > std::abs(b.after - effects.before);
    });
    return effects;
}

}  // namespace attnscope
