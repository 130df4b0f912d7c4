#pragma once
// Direct logit attribution for the BERT family (post-LayerNorm encoders with a masked-LM head).
//
// A head's output reaches the [MASK] logit through every LayerNorm after it and through the MLM
// head's dense → GELU → LayerNorm, so it does not add up linearly as in a pre-norm decoder. The
// direct path is linearised at the run (first-order attribution, gradient × contribution, as
// Elhage et al. 2021 freeze the final norm and Kobayashi et al. 2021 / Yang et al. 2023 treat
// post-LN models): every LayerNorm's per-token scale 1/σ is frozen at the run's value (its mean
// removal is linear), other blocks' outputs stay as they were (the direct path skips them: a
// layer's FFN and later attention read the stream but are not on the residual route), and the
// MLM head's GELU is replaced by its slope at the run's pre-activation. The result is the
// gradient of the token's logit with respect to the attention output of each layer along that
// path, dotted with what the head writes there (b_O apart).
//
// Shape legend: T tokens, d model width, L layers.
#include <vector>

#include "core/base/result.hpp"
#include "core/model/blocks.hpp"
#include "core/model/transformer.hpp"

namespace attnscope {

// L readouts (each 1×d): readouts[n]·c is the direct first-order share of `token`'s logit at
// `position` of a contribution c added to layer n's attention output (before its residual
// LayerNorm). Errors: a failed layer recomputation. Needs model.weightsAs<EncoderWeights>() with
// its masked-LM head (checked by the caller).
Result<std::vector<RowVec>> encoderDirectReadouts(const LoadedModel& model, const ModelRun& run, int position, int token);

// The slope of `activation` at z: GELU (erf or tanh form), ReLU, SiLU.
double activationSlope(Activation activation, double z);

}  // namespace attnscope
