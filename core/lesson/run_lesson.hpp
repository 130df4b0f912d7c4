#pragma once
// Runs a lesson model on a sentence and returns the full Trace.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/lesson/lesson.hpp"
#include "core/base/result.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

// Longest sentence a lesson shows; longer input is cut with a notice (every number of a
// T×T matrix must stay legible, and 256² cells is already far beyond a projector).
inline constexpr int kMaxLessonTokens = 256;

// handRounding overrides the lesson's own setting when given (use std::nullopt to keep it);
// pass exact=true to ignore both and compute in full double precision.
struct RunSettings {
    std::optional<int> handRounding;
    bool exact = false;
    int padTo = 0;  // append [PAD] tokens up to this length, masked for every query (a batch)
    // Heads switched off (0-based), as Hugging Face's head_mask (core/trace/ablation.hpp); a head
    // the lesson does not have is an error naming it. Cross-attention runs (layer 1 only) refuse
    // a head of a later layer the same way.
    std::vector<HeadRef> ablate;
};

Result<Trace> runLesson(const Lesson& lesson, std::string_view sentence, RunSettings settings = {});

// runLesson on tokens already split (at least one): the encoder–decoder run's decoder input
// ("<s>" is no word the tokenizer makes).
Result<Trace> runLessonOnTokens(const Lesson& lesson, std::vector<std::string> tokens, RunSettings settings = {});

// A batch: every sentence padded with [PAD] tokens to the longest one's length. A [PAD] has a
// zero embedding (plus its position's encoding) and a padding mask keeps every query from it,
// so each sentence's attention over its real tokens is what it is alone — up to the last bit of
// a double: the softmax sums its extra e^−∞ = 0 terms in another order (2.2e-16 measured for
// "the cat saw" padded to 5 tokens in the causal-mask lesson; see core/lab/masks_lab).
Result<std::vector<Trace>> runLessonBatch(const Lesson& lesson, const std::vector<std::string>& sentences,
                                          RunSettings settings = {});

// Cross-attention (e.g. a translation's decoder reading its encoder): queries from `target`,
// keys and values from `source`, each sentence embedded with its own positions (E + P), through
// the lesson's first layer (W_Q, W_K, W_V, W_O, scaling). The Trace's keyTokens are the source
// tokens: scores and weights are T_q×T_k, K and V are T_k×d_k / T_k×d_v. There is no mask: a
// causal mask orders the tokens of one sentence, so a causal lesson gets a notice saying so.
// settings.padTo is ignored. Errors: an empty or untokenisable sentence, named as target/source.
Result<Trace> runCrossAttention(const Lesson& lesson, std::string_view target, std::string_view source,
                                RunSettings settings = {});

// The cross-attention of `layer` appended to `trace` (its tokens the queries', keyTokens the keys'):
// queries from Xq (T_q×d), keys and values from Xkv (T_k×d); heads in `ablate` of layer 1 switched off.
void runCrossLayer(const Lesson& lesson, const LessonLayer& layer, const Mat& Xq, const Mat& Xkv,
                   const std::vector<HeadRef>& ablate, Trace& trace);
// The lesson's settings as a run records them (scaling, projections, W_O, hand-rounding, feature names).
void describeLessonRun(const Lesson& lesson, const RunSettings& settings, Trace& trace);

// The token vectors: from the table, else what Lesson::unknownWords says (the hash rule or
// zeros, Token::inTable = false, named in a notice; Ask: an error naming the words). Special
// tokens ([PAD]) get zero rows.
Result<Mat> embedTokens(const Lesson& lesson, std::vector<Token>& tokens, std::vector<Notice>& notices);  // T×d

// What positional encoding adds for T tokens (zeros when none). Table rows beyond the table's
// length are zero, with a notice.
Mat positionalRows(const Lesson& lesson, int T, std::vector<Notice>* notices);  // T×d

}  // namespace attnscope
