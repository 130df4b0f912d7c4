#include "core/model/recycled_weights.hpp"

#include "core/model/blocks.hpp"

#include <mutex>
#include <utility>
#include <vector>

namespace attnscope {

namespace {

struct KeptBuffers {
    std::mutex mutex;
    std::vector<MatF> buffers;  // head h's T×T floats, in head order
    MatF spare;                 // a head's handed over first (keepSpareHeadBuffer)
    Mat embedding;              // T×d
    LayerBuffers layer;         // a rebuild's normed input, Q, K and context
};

KeptBuffers& kept() {
    static KeptBuffers instance;
    return instance;
}

// Every head's buffer: a rebuild's head computes in the buffer it is handed (multiHeadAttentionInto),
// and its thread's scratch ends as it started, empty. (When the scratch's swaps lent each head's
// buffer to the head two after it, each thread's first two heads took fresh pages: 256 MiB at
// 4,096 tokens on two threads, a quarter of a Llama-3.2-1B switch in clearing pages.)
std::size_t buffersToKeep(const LayerTrace& layer) { return layer.heads.size(); }

}  // namespace

void keepForNextRebuild(LayerTrace&& layer, Mat&& embedding) {
    std::vector<MatF> buffers;
    const std::size_t keep = buffersToKeep(layer);
    for (std::size_t h = 0; h < keep; ++h)
        if (layer.heads[h].weights.isFloat()) buffers.push_back(std::move(layer.heads[h].weights.floatStorage()));
    std::vector<MatF> older;
    Mat olderEmbedding;
    {
        const std::scoped_lock lock(kept().mutex);
        older.swap(kept().buffers);
        kept().buffers = std::move(buffers);
        olderEmbedding.swap(kept().embedding);
        kept().embedding.swap(embedding);
    }
    // The rest goes after the buffers are kept: freeing it takes tens of milliseconds at 4,096
    // tokens, and a rebuild asked for meanwhile (a quick second switch) would find none kept,
    // fill fresh pages, and leave the kept ones on top of the peak.
    layer = LayerTrace();
}  // `older` and `olderEmbedding` are freed outside the lock

void seedWithKeptBuffers(LayerTrace& layer) {
    std::vector<MatF> buffers;
    {
        const std::scoped_lock lock(kept().mutex);
        buffers.swap(kept().buffers);
        if (kept().spare.size() > 0) buffers.push_back(std::move(kept().spare));
        kept().spare = MatF();
    }
    if (layer.heads.size() < buffers.size()) layer.heads.resize(buffers.size());
    for (std::size_t h = 0; h < buffers.size(); ++h) layer.heads[h].weights.floatStorage().swap(buffers[h]);
}

void keepSpareHeadBuffer(MatF&& buffer) {
    MatF older = std::move(buffer);
    const std::scoped_lock lock(kept().mutex);
    older.swap(kept().spare);
}  // the one kept before is freed outside the lock

Mat takeKeptEmbedding() {
    Mat embedding;
    const std::scoped_lock lock(kept().mutex);
    embedding.swap(kept().embedding);
    return embedding;
}

void dropKeptBuffers() {
    std::vector<MatF> older;
    Mat olderEmbedding;
    LayerBuffers olderLayer;
    MatF olderSpare;
    const std::scoped_lock lock(kept().mutex);
    older.swap(kept().buffers);
    olderSpare.swap(kept().spare);
    olderEmbedding.swap(kept().embedding);
    std::swap(olderLayer, kept().layer);
}

void keepLayerBuffers() {
    LayerBuffers older = std::exchange(threadLayerBuffers(), LayerBuffers{});
    const std::scoped_lock lock(kept().mutex);
    std::swap(older, kept().layer);
}  // the ones kept before are freed outside the lock

void useKeptLayerBuffers() {
    if (threadLayerBuffers().floats() > 0) return;
    const std::scoped_lock lock(kept().mutex);
    std::swap(threadLayerBuffers(), kept().layer);
}

std::size_t keptBufferBytes() {
    const std::scoped_lock lock(kept().mutex);
    std::size_t bytes = 0;
    for (const MatF& m : kept().buffers) bytes += static_cast<std::size_t>(m.size()) * sizeof(float);
    bytes += static_cast<std::size_t>(kept().spare.size()) * sizeof(float);
    return bytes + static_cast<std::size_t>(kept().embedding.size()) * sizeof(double) + kept().layer.floats() * sizeof(float);
}

}  // namespace attnscope
