// The non-per-head fields of a model layer's Trace.  Shapes: T tokens, d model width, H heads.
#include "core/model/layer_trace.hpp"

#include "core/trace/ablation.hpp"

namespace attnscope {

void recordAttentionLayer(const AttentionLayerParts& parts, LayerDetail detail, LayerTrace& trace) {
    if (detail != LayerDetail::Full) return;  // WeightsOnly: the heads' weights are all it keeps
    trace.input = toDouble(parts.input);      // T×d
    trace.concat = toDouble(parts.context);   // T×d
    trace.output = toDouble(parts.output);    // T×d
    const auto wo = parts.outputProjection.weight.view();
    trace.wo = parts.layout == WeightLayout::OutIn ? Mat(wo.transpose().cast<double>()) : Mat(wo.cast<double>());  // d×d
    trace.bo = parts.outputProjection.bias.view().cast<double>();
    for (std::size_t h = 0; h < trace.heads.size(); ++h) trace.heads[h].params = parts.headWeights(static_cast<int>(h));
}

namespace {

// What a streamed layer leaves behind: its heads, each with only the `ablated` flag (ablatedHeads).
LayerTrace ablationFlagsOf(const LayerTrace& layer) {
    LayerTrace kept;
    kept.heads.resize(layer.heads.size());
    for (std::size_t h = 0; h < layer.heads.size(); ++h) kept.heads[h].ablated = layer.heads[h].ablated;
    return kept;
}

}  // namespace

Result<void> runLayers(MatF& X, int layers, int heads, const RunControl& control, ModelRun& run,
                       const LayerStep& step) {
    for (int n = 0; n < layers; ++n) {
        if (auto cancelled = checkCancelled(control); !cancelled.ok()) return cancelled;
        LayerTrace layer;
        X = step(X, n, run.detail[static_cast<std::size_t>(n)], layer, layerHeadMask(control.ablate, n, heads));
        if (control.onLayer) {
            LayerTrace flags = ablationFlagsOf(layer);
            if (auto sent = control.onLayer(run.trace, n, layer); !sent.ok()) return sent;
            layer = std::move(flags);
            run.detail[static_cast<std::size_t>(n)] = LayerDetail::WeightsOnly;
        }
        run.trace.layers.push_back(std::move(layer));
        run.hiddenStates.push_back(X);
        reportProgress(control, n + 1, layers);
    }
    return {};
}

}  // namespace attnscope
