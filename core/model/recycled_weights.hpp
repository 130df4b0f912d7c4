#pragma once
// The T×T weight buffers of the last rebuilt layer a window let go, kept for the next rebuild
// (issue 31). The window shows a long run's layer by rebuilding it (traceLayerInDetail) while the
// layer on screen stays until the new one arrives. At 4,096 tokens a Qwen2.5-0.5B layer's heads
// are 14 × 64 MiB of fresh pages a switch, and the kernel clearing them (its page faults), with
// the old layer's unmapping, was about half of a layer switch (perf, bench/README.md "Switching
// the shown layer"). Written into again, they cost no page fault.
//
// One layer is kept at most, every head's buffer (each head computes in its own), so the peak
// stays the one layer a switch holds. The shown Trace's copy of the embeddings (T×d doubles, 64 MB
// at 4,096 tokens on Llama-3.2-1B) may be kept beside them (switchesHeadsFirst): copied into fresh
// pages it took 0.23-0.35 s of a Llama switch here, into these a few milliseconds.
// A rebuild's layer buffers (blocks.hpp's LayerBuffers: the normed input, Q, K and the context,
// 104 MB on Llama-3.2-1B's shape at 4,096 tokens) may be kept too, for a rebuild on another thread.
// So may one head's buffer more (keepSpareHeadBuffer): a switch hands the heatmap's head over
// before the rest of the layer (HeadsFirst) and computes it again in another buffer, and the Trace
// that showed it is let go once the whole layer is in. Kept, that buffer serves the head computed
// again at the next switch: the peak a switch holds stays one layer and that head.
// A new run drops it all (runModel), so a run never has it on top.
// Thread-safe: the layer is let go on the thread that drops the last reference to its Trace.
#include <cstddef>

#include "core/trace/trace.hpp"

namespace attnscope {

// Keeps the layer's heads' float weight buffers (only those) and the embeddings' matrix.
void keepForNextRebuild(LayerTrace&& layer, Mat&& embedding);
// Hands the kept buffers to `layer`'s heads (head h the buffer of head h, the spare head's last)
// and forgets them; multiHeadAttentionInto writes the new weights into them, the spare into a head
// it computes again.
void seedWithKeptBuffers(LayerTrace& layer);
void keepSpareHeadBuffer(MatF&& buffer);  // one at most: an older one is freed
// The kept embeddings' matrix (empty when none), forgotten: assigned the run's, it takes no new page.
Mat takeKeptEmbedding();
void dropKeptBuffers();
// The calling thread's layer buffers (threadLayerBuffers), kept for the next rebuild on any thread,
// which takes them when its own are empty (useKeptLayerBuffers).
void keepLayerBuffers();
void useKeptLayerBuffers();
std::size_t keptBufferBytes();  // the heads' buffers and the embeddings'

}  // namespace attnscope
