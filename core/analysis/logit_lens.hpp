#pragma once
// Reading the residual stream before the last layer (nostalgebraist 2020, "the logit lens"; Elhage
// et al. 2021, "direct logit attribution").
//
// Logit lens: the stream after each layer put through the model's own last steps (the final norm
// and the output head; the BERT family: its masked-LM head), as if the model stopped there: the
// top-k tokens, layers × positions. Decoders read every position (the token after it); the BERT
// family its [MASK] positions (the run's predictions).
//
// Direct logit attribution: what each head writes at the predicted position, through its rows of
// W_O, the final norm with its scale frozen at the run's value (divided by the real stream's
// σ or RMS, the mean removed for LayerNorm, then × γ), and the predicted token's row of the output
// head: the head's direct share of that token's logit. Biases (b_O, β) and Gemma's final soft cap
// belong to no head and are left out; Gemma 3's norm after attention is frozen the same way.
// The BERT family (post-norm, a GELU inside the masked-LM head) has no such linear path: its heads
// get the first-order share along the residual route instead (encoder_logit_path.hpp).
//
// Shape legend: T tokens, d model width, H heads, d_v head width, V vocabulary, L layers, k top tokens.
#include <functional>
#include <string>
#include <vector>

#include "core/analysis/head_effect.hpp"
#include "core/base/result.hpp"
#include "core/model/transformer.hpp"
#include "core/text/language.hpp"

namespace attnscope {

struct LogitLens {
    std::vector<int> positions;  // the positions read (0-based), in order
    bool nextToken = false;      // decoders: each position's row predicts the token after it
    // (L+1)×positions: row 0 the embeddings' output (the stream entering layer 1), row l the
    // stream after layer l; row L is the model's own prediction. Each cell: the top-k, best first.
    std::vector<std::vector<std::vector<TokenScore>>> rows;
};

// Errors: k outside 1…V, a run without L+1 hidden states, a BERT-family checkpoint without its
// masked-LM head (naming the missing tensor), an encoder run without a [MASK] token.
Result<LogitLens> logitLens(const LoadedModel& model, const ModelRun& run, int topK);

struct HeadAttribution {
    HeadRef head;
    double logit = 0;  // this head's direct contribution to the predicted token's logit
};
struct LogitAttribution {
    int position = 0;  // the prediction attributed (0-based)
    int token = -1;    // the token the run predicted there (its top-1)
    double logit = 0;  // its logit in the run
    std::vector<HeadAttribution> heads;  // every head, largest |contribution| first
    // The BERT family: each head's output through every later LayerNorm (scales frozen) and the
    // masked-LM head (GELU linearised at the run): a first-order share (encoder_logit_path.hpp).
    bool linearised = false;
};

// `prediction` indexes run.predictions. Errors: no such prediction, a family without a final norm
// and linear output head that is not an encoder (none built in), a failed layer recomputation.
Result<LogitAttribution> attributeLogit(const LoadedModel& model, const ModelRun& run, int prediction);

// Exports: 1-based layers, heads and positions; token ids as numbers and their labels as text.
using IdLabel = std::function<std::string(int id)>;
std::string lensToJson(const LogitLens& lens, const Trace& trace, const IdLabel& label, const std::string& source);
std::string lensToCsv(const LogitLens& lens, const Trace& trace, const IdLabel& label);
std::string lensToText(const LogitLens& lens, const Trace& trace, const IdLabel& label, int decimals, Language language);
// The attribution beside the ablation ranking when one is given (effects: rankHeadsByEffect's).
std::string attributionToJson(const LogitAttribution& a, const HeadEffects* effects, const IdLabel& label,
                              const std::string& source);
std::string attributionToCsv(const LogitAttribution& a, const HeadEffects* effects);
std::string attributionToText(const LogitAttribution& a, const HeadEffects* effects, const IdLabel& label, int decimals,
                              Language language);

}  // namespace attnscope
