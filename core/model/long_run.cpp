// The run's memory policy (see long_run.hpp).
//
// Shape legend: T tokens, L layers, H heads.
#include "core/model/long_run.hpp"

#include "core/model/recycled_weights.hpp"

namespace attnscope {

namespace {

std::size_t squared(int tokens) { return static_cast<std::size_t>(tokens) * static_cast<std::size_t>(tokens); }

}  // namespace

std::size_t allWeightsBytes(const TransformerConfig& config, int tokens) {
    return static_cast<std::size_t>(config.layers) * static_cast<std::size_t>(config.heads) * squared(tokens) * sizeof(float);
}

std::size_t fullLayerBytes(const TransformerConfig& config, int tokens) {
    return static_cast<std::size_t>(config.heads) * squared(tokens) * (4 * sizeof(double) + sizeof(float));
}

bool isLongRun(const TransformerConfig& config, int tokens, std::size_t budget) {
    return allWeightsBytes(config, tokens) > budget;
}

std::vector<LayerDetail> layerDetails(const TransformerConfig& config, int tokens, int fullDetailMaxTokens,
                                      int detailLayer, std::size_t allWeightsBudget) {
    const auto layers = static_cast<std::size_t>(config.layers);
    if (isLongRun(config, tokens, allWeightsBudget)) return std::vector<LayerDetail>(layers, LayerDetail::Summary);
    std::vector<LayerDetail> detail(layers, LayerDetail::Full);
    if (tokens <= fullDetailMaxTokens) return detail;
    for (std::size_t n = 0; n < layers; ++n)
        if (static_cast<int>(n) != detailLayer) detail[n] = LayerDetail::WeightsOnly;
    return detail;
}

LayerDetail rebuiltDetail(const TransformerConfig& config, int tokens) {
    return fullLayerBytes(config, tokens) <= kRebuiltLayerBudget ? LayerDetail::Full : LayerDetail::WeightsNoOutput;
}

bool switchesHeadsFirst(const TransformerConfig& config) { return config.heads >= kHeadsFirstFrom; }

void releaseThreadLayerBuffers() { threadLayerBuffers() = LayerBuffers{}; }

namespace {
thread_local bool keepAfterRebuilds = false;
}  // namespace

void keepThreadLayerBuffersAfterRebuilds(bool keep) { keepAfterRebuilds = keep; }
bool keepsThreadLayerBuffersAfterRebuilds() { return keepAfterRebuilds; }

void releaseRebuildBuffers(const TransformerConfig& config) {
    if (switchesHeadsFirst(config)) keepLayerBuffers();
    else releaseThreadLayerBuffers();
}

LayerTrace ablationFlagsOf(const LayerTrace& layer) {
    LayerTrace kept;
    kept.heads.resize(layer.heads.size());
    for (std::size_t h = 0; h < layer.heads.size(); ++h) kept.heads[h].ablated = layer.heads[h].ablated;
    return kept;
}

}  // namespace attnscope
