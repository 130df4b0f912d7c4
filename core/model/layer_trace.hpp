#pragma once
// The part of a real model layer's Trace that is not per head: what the heads read, the
// concatenation, W_O and b_O, the output, and each head's W_Q/W_K/W_V slices. The heads'
// intermediates come from the attention kernel (multiHeadAttention); this fills the rest, the
// same way for every family (bert.cpp, gpt2.cpp, decoder.cpp).
//
// Shape legend: T tokens, d model width, H heads, d_k = d / H.
#include <functional>

#include "core/model/attention.hpp"
#include "core/model/blocks.hpp"

namespace attnscope {

// How a checkpoint stores a d×d projection: HF nn.Linear [out, in] (y = x·Wᵀ + b: BERT family),
// or GPT-2's Conv1D [in, out] (y = x·W + b).
enum class WeightLayout { OutIn, InOut };

struct AttentionLayerParts {
    const MatF& input;                  // T×d, what Q, K, V were projected from (GPT-2: ln_1(X))
    const MatF& context;                // T×d, [head_1 | … | head_H]
    const MatF& output;                 // T×d, context·W_O + b_O
    const LinearRef& outputProjection;  // W_O, b_O as stored
    WeightLayout layout;                // of outputProjection
    std::function<HeadWeights(int head)> headWeights;  // head h's slices, as double (Full only)
};

// LayerDetail::Full: fills trace.input, concat, output, wo (row-vector convention, (H·d_k)×d), bo
// and every head's params (trace.heads must hold H heads). WeightsOnly: nothing, not even a copy.
void recordAttentionLayer(const AttentionLayerParts& parts, LayerDetail detail, LayerTrace& trace);

}  // namespace attnscope
