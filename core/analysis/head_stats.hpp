#pragma once
// What each head does on one sentence, in numbers: row entropy and the share of attention to
// special tokens and punctuation, to the previous token, to the next token and to itself, with
// a label from documented thresholds (docs/coreference.md, "Head statistics").
//
// Shape legend: T tokens, L layers, H heads per layer. Every share is a mean over the T rows
// (queries) of the head's T×T weights, so it lies in [0, 1]. A cross-attention trace's heads have
// T_q×T_k weights (decoder rows, source columns): entropy and the delimiter share (of the source's
// tokens) apply, the positional shares do not (HeadStatistics::positional).
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/coref_eval.hpp"
#include "core/analysis/coreference.hpp"
#include "core/base/result.hpp"
#include "core/trace/head_digest.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

struct HeadStatistics {
    HeadRef head;
    double entropy = 0;            // mean over rows of −Σ w·log₂ w, in bits
    double normalizedEntropy = 0;  // mean over rows seeing ≥ 2 tokens of entropy / log₂(tokens seen)
    double delimiterShare = 0;     // weight on special tokens and punctuation tokens
    double previousShare = 0;      // w(i, i−1), rows i ≥ 1
    double nextShare = 0;          // w(i, i+1), rows i < T−1
    double selfShare = 0;          // w(i, i)
    double firstShare = 0;         // w(i, 0), rows i ≥ 1: the "attention sink" share (Xiao et al. 2023)
    // False for cross-attention: row i and column j are positions in different sentences, so
    // "previous", "next", "self" and "first" name nothing; those shares are 0 and no label uses them.
    bool positional = true;
    // The same share by weight × ‖value‖ (core/analysis/norm_attention.hpp): what the sink carries.
    // None until a norm-weighted Trace of the same run was given (addNormFirstShares).
    std::optional<double> normFirstShare;
    std::optional<double> corefAccuracy;  // this head's accuracy when an evaluation was given
    std::vector<std::string> labels;      // the pattern label, then "coreference" when it applies
};

// Defaults as documented; a label applies when the share is at least the threshold.
struct HeadLabelThresholds {
    double delimiter = 0.5;     // "delimiter sink"
    double previous = 0.5;      // "previous-token"
    double next = 0.5;          // "next-token"
    double self = 0.5;          // "self"
    double broadEntropy = 0.85; // "broad": normalised entropy at least this
    double sink = 0.5;          // "attention sink" (besides the pattern label): first-token share at least this
};

// −Σ w·log₂ w over one row of weights, in bits (0·log 0 taken as 0). Shared with corpus_stats.
double rowEntropyBits(GridRef weights, Eigen::Index row);
// Tokens a row may attend to: all T, or itself and the earlier ones under a causal mask.
Eigen::Index tokensSeen(const Trace& trace, Eigen::Index row, Eigen::Index T);

// The first that applies, in this order: "delimiter sink", "previous-token", "next-token",
// "self" (these three only for positional statistics), "broad"; else "mixed".
std::string patternLabel(const HeadStatistics& stats, const HeadLabelThresholds& thresholds = {});

// A label (patternLabel's, "attention sink" or "coreference") as a reader of `language` sees it; the English label
// is also its key in the JSON and CSV exports. An unknown label is returned as it is.
std::string headLabelText(const std::string& label, Language language);

// True when the head's accuracy is above zero and at least the better baseline's accuracy.
bool tracksCoreference(const CorefEvaluation& evaluation, const HeadRef& head);

// Every head of the trace, layer by layer. With an evaluation of the same model (same L×H),
// heads that track coreference also get the label "coreference". Error when a head has no
// T_q×T_k weights (T×T in self-attention) or the evaluation's shape differs.
Result<std::vector<HeadStatistics>> headStatistics(const Trace& trace, const CorefEvaluation* evaluation = nullptr,
                                                   const HeadLabelThresholds& thresholds = {});
// The same where a long run's heads hold no weights: their digests (ModelRun::digests, made from
// the weights during the run, core/trace/head_digest.hpp) give the same statistics.
Result<std::vector<HeadStatistics>> headStatistics(const Trace& trace, const RunDigests& digests,
                                                   const CorefEvaluation* evaluation = nullptr,
                                                   const HeadLabelThresholds& thresholds = {});

// Sets each head's normFirstShare from `normWeighted`, the run's Trace whose weights are the
// norm-weighted rows divided by their sums (normWeightedTrace): its first-token share is the share
// of what reaches each query that comes from the first token. Heads `normWeighted` lacks stay without.
void addNormFirstShares(std::vector<HeadStatistics>& stats, const Trace& normWeighted);

}  // namespace attnscope
