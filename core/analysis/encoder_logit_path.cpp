// The BERT family's direct path to a [MASK] logit, linearised at the run (encoder_logit_path.hpp).
//
// Shape legend: T tokens, d model width, d_ff feed-forward width, L layers.
#include "core/analysis/encoder_logit_path.hpp"

#include <cmath>
#include <numbers>

#include "core/model/bert.hpp"
#include "core/model/blocks.hpp"

namespace attnscope {

namespace {

// A LayerNorm with its scale frozen at the stream x (1×d): a change δ of x moves its output by
// γ ⊙ (δ − δ̄)/σ, so a readout r of the output becomes (γ ⊙ r / σ) with its mean taken off
// ((δ − δ̄)·v = δ·(v − v̄)).
RowVec backThroughNorm(const RowVec& r, const RowVec& x, const LayerNormRef& norm, float eps) {
    const double sigma = std::sqrt((x.array() - x.mean()).square().mean() + static_cast<double>(eps));
    RowVec back = (norm.gamma.view().cast<double>().array() * r.array() / sigma).matrix();
    back.array() -= back.mean();
    return back;
}

// One row through a LayerNorm as the run applied it (float, as the engine).
MatF normed(const RowVec& x, const LayerNormRef& norm, float eps) {
    MatF row = x.cast<float>();
    layerNorm(row, norm, eps);
    return row;
}

// What each layer's two LayerNorms saw at the position: attention output + stream, and FFN
// output + the first norm's output.
struct NormInputs {
    RowVec beforeAttentionNorm, beforeOutputNorm;  // 1×d each
};

Result<NormInputs> normInputsOf(const LoadedModel& model, const ModelRun& run, int n, int position) {
    const EncoderWeights& w = *model.weightsAs<EncoderWeights>();
    const EncoderLayerWeights& layer = w.layers[static_cast<std::size_t>(n)];
    const float eps = model.config.layerNormEps;
    auto detail = traceLayerInDetail(model, run, n);
    if (!detail) return detail.error();
    const RowVec input = run.hiddenStates[static_cast<std::size_t>(n)].row(position).cast<double>();  // 1×d
    NormInputs in;
    in.beforeAttentionNorm = detail.value().output.row(position) + input;  // W_O·heads + b_O, then the residual
    const MatF attended = normed(in.beforeAttentionNorm, layer.attentionNorm, eps);  // 1×d
    MatF inner = linear(attended, layer.intermediate);                               // 1×d_ff
    activate(inner, model.config.activation);
    in.beforeOutputNorm = (linear(inner, layer.output) + attended).row(0).cast<double>();
    return in;
}

// The MLM head's readout of the last stream x (1×d): the decoder row of `token`, back through
// the head's LayerNorm (frozen), its GELU (its slope at the run's pre-activation) and its dense.
RowVec maskedLmReadout(const EncoderWeights& w, const TransformerConfig& c, const RowVec& x, int token) {
    const MaskedLmHead& head = *w.mlm;
    const MatF z = linear(MatF(x.cast<float>()), head.transform);  // 1×d, the pre-activation
    const Activation act = maskedLmActivation(c);
    MatF g = z;
    activate(g, act);
    const RowVec row = head.decoder.rowsAsFloat(token, 1).row(0).cast<double>();  // 1×d
    RowVec r = backThroughNorm(row, g.row(0).cast<double>(), head.norm, c.layerNormEps);
    for (Eigen::Index i = 0; i < r.size(); ++i) r(i) *= activationSlope(act, z(0, i));
    const Mat transform = head.transform.weight.toFloat().cast<double>();  // d×d, [out, in]
    return r * transform;  // δz = W·δx: r·δz = (r·W)·δx
}

}  // namespace

double activationSlope(Activation activation, double z) {
    switch (activation) {
        case Activation::GeluErf:  // Φ(z) + z·φ(z)
            return 0.5 * (1 + std::erf(z / std::numbers::sqrt2)) + z * std::exp(-0.5 * z * z) / std::sqrt(2 * std::numbers::pi);
        case Activation::GeluTanh: {
            const double k = std::sqrt(2 / std::numbers::pi), u = k * (z + 0.044715 * z * z * z), t = std::tanh(u);
            return 0.5 * (1 + t) + 0.5 * z * (1 - t * t) * k * (1 + 3 * 0.044715 * z * z);
        }
        case Activation::Relu: return z > 0 ? 1.0 : 0.0;
        case Activation::Silu: {
            const double s = 1 / (1 + std::exp(-z));
            return s * (1 + z * (1 - s));
        }
    }
    return 0;
}

Result<std::vector<RowVec>> encoderDirectReadouts(const LoadedModel& model, const ModelRun& run, int position, int token) {
    const EncoderWeights& w = *model.weightsAs<EncoderWeights>();
    const TransformerConfig& c = model.config;
    std::vector<NormInputs> inputs;
    for (int n = 0; n < c.layers; ++n) {
        auto in = normInputsOf(model, run, n, position);
        if (!in) return in.error();
        inputs.push_back(std::move(in).value());
    }
    const RowVec last = run.hiddenStates.back().row(position).cast<double>();  // 1×d, the encoder's output
    RowVec r = maskedLmReadout(w, c, last, token);
    std::vector<RowVec> readouts(static_cast<std::size_t>(c.layers));
    for (int n = c.layers - 1; n >= 0; --n) {  // down the residual route: output norm, then attention norm
        const EncoderLayerWeights& layer = w.layers[static_cast<std::size_t>(n)];
        const NormInputs& in = inputs[static_cast<std::size_t>(n)];
        r = backThroughNorm(r, in.beforeOutputNorm, layer.outputNorm, c.layerNormEps);
        r = backThroughNorm(r, in.beforeAttentionNorm, layer.attentionNorm, c.layerNormEps);
        readouts[static_cast<std::size_t>(n)] = r;
    }
    return readouts;
}

}  // namespace attnscope
