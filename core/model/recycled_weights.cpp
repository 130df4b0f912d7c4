#include "core/model/recycled_weights.hpp"

#include <mutex>
#include <utility>
#include <vector>

namespace attnscope {

namespace {

struct KeptBuffers {
    std::mutex mutex;
    std::vector<MatF> buffers;  // head h's T×T floats, in head order
};

KeptBuffers& kept() {
    static KeptBuffers instance;
    return instance;
}

}  // namespace

void keepForNextRebuild(LayerTrace&& layer) {
    std::vector<MatF> buffers;
    for (HeadTrace& head : layer.heads)
        if (head.weights.isFloat()) buffers.push_back(std::move(head.weights.floatStorage()));
    layer = LayerTrace();  // the rest goes now, on this thread
    std::vector<MatF> older;
    {
        const std::scoped_lock lock(kept().mutex);
        older.swap(kept().buffers);
        kept().buffers = std::move(buffers);
    }
}  // `older` is freed outside the lock

void seedWithKeptBuffers(LayerTrace& layer) {
    std::vector<MatF> buffers;
    {
        const std::scoped_lock lock(kept().mutex);
        buffers.swap(kept().buffers);
    }
    if (layer.heads.size() < buffers.size()) layer.heads.resize(buffers.size());
    for (std::size_t h = 0; h < buffers.size(); ++h) layer.heads[h].weights.floatStorage().swap(buffers[h]);
}

void dropKeptBuffers() {
    std::vector<MatF> older;
    const std::scoped_lock lock(kept().mutex);
    older.swap(kept().buffers);
}

std::size_t keptBufferBytes() {
    const std::scoped_lock lock(kept().mutex);
    std::size_t bytes = 0;
    for (const MatF& m : kept().buffers) bytes += static_cast<std::size_t>(m.size()) * sizeof(float);
    return bytes;
}

}  // namespace attnscope
