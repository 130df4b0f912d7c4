// The non-per-head fields of a model layer's Trace.  Shapes: T tokens, d model width, H heads.
#include "core/model/layer_trace.hpp"


namespace attnscope {

void recordAttentionLayer(const AttentionLayerParts& parts, LayerDetail detail, LayerTrace& trace) {
    if (detail != LayerDetail::Full) return;  // WeightsOnly: the heads' weights are all it keeps
    trace.input = toDouble(parts.input);      // T×d
    trace.concat = toDouble(parts.context);   // T×d
    trace.output = toDouble(parts.output);    // T×d
    const MatF wo = parts.outputProjection.weight.toFloat();
    trace.wo = parts.layout == WeightLayout::OutIn ? Mat(wo.transpose().cast<double>()) : Mat(wo.cast<double>());  // d×d
    trace.bo = parts.outputProjection.bias.view().cast<double>();
    for (std::size_t h = 0; h < trace.heads.size(); ++h) trace.heads[h].params = parts.headWeights(static_cast<int>(h));
}

}  // namespace attnscope
