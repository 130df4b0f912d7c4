#pragma once
// What attention did to each word (issue 29 §5): for every token i, the vector x_i entering a layer
// (or the stack) and the vector y_i leaving it, how far it moved (‖y_i − x_i‖, cos(x_i, y_i)), and
// where the layer's attention took its new content from: per source token j the value it carried
// to i through every head, c_ij = Σ_h α^h_ij · f^h(x_j), f^h(x_j) = v_j·W_O^h (norm_attention.hpp;
// the output bias b_O belongs to no source and is left out), listed by ‖c_ij‖, largest first.
// And "the same word in two contexts": one token's vectors in two runs compared layer by layer.
//
// What a run keeps of the residual stream ("states", L+1 matrices T×d): the input of each layer,
// then what leaves the last one. Lessons: X₁ = E + P, X_{l+1} = X_l + output_l with a residual,
// else output_l; the block after attention (Add & Norm, FFN) is not part of it. Models: the hidden
// states (ModelRun::hiddenStates; a decoder's last one is after the final norm, as transformers').
//
// Shape legend: T tokens (T_q queries, T_k keys), d model width, H heads, d_v value width, L layers.
#include <optional>
#include <vector>

#include "core/base/result.hpp"
#include "core/model/transformer.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

struct SourceContribution {
    int token = 0;       // j, 0-based, a key token
    double norm = 0;     // ‖c_ij‖
    RowVec vector;       // 1×d  c_ij = Σ_h α^h_ij · f^h(x_j) (ablated heads add nothing)
    double share = 0;    // ‖c_ij‖ / Σ_j' ‖c_ij'‖ (0 when every source is zero): the window's "41 %"
};

struct TokenMove {
    int token = 0;        // i, 0-based
    double distance = 0;  // ‖y_i − x_i‖
    double cosine = 0;    // x_i·y_i / (‖x_i‖‖y_i‖); 0 when either vector is zero
    std::vector<SourceContribution> sources;  // T_k, largest ‖c_ij‖ first (ties: lower j first); empty for the stack
};

struct TokenMovement {
    std::optional<int> layer;  // 0-based; none: the whole stack (input of layer 1 to output of layer L)
    Mat x, y;                  // T×d  the rows entering and leaving
    std::vector<TokenMove> tokens;  // T
};

// A lesson's states from its Trace (every layer's input is kept).
Result<std::vector<Mat>> residualStates(const Trace& trace);
// A model run's states: its hidden states as double (L+1 of them, T×d).
std::vector<Mat> residualStates(const ModelRun& run);

// T_q×d: row i of c_ij for one query token i over every key j, i.e. the T_k contributions stacked
// (row j = c_ij). Needs the layer's heads in full detail (their V); else an error naming the head.
Result<Mat> sourceContributions(const Trace& trace, int layer, int token);

// Distance and cosine of every token between states[from] and states[to].
std::vector<TokenMove> movesBetween(const Mat& x, const Mat& y);  // x, y: T×d

// `layer` (0-based) of `trace`: states[layer] → states[layer + 1] with each token's sources; none:
// states[0] → states[L], no sources. `states` as residualStates gives them for this trace.
Result<TokenMovement> tokenMovement(const Trace& trace, const std::vector<Mat>& states, std::optional<int> layer);

// cos(a_l, b_l) for l = 0 … L: token `tokenA` of run A and `tokenB` of run B (0-based) in every state
// (L+1 values: entering each layer, then leaving the last). Both runs need as many states, as wide.
Result<std::vector<double>> sameTokenCosines(const std::vector<Mat>& statesA, int tokenA,
                                             const std::vector<Mat>& statesB, int tokenB);

double cosineOf(const RowVec& a, const RowVec& b);  // 0 when either is zero

}  // namespace attnscope
