#pragma once
// The memory policy of a model run, in one place: what a run keeps in full, what it keeps small
// and what it rebuilds on demand. A run keeps every head's T×T float weights while all of them
// fit kAllWeightsBudget. Above it is a *long run*: each layer keeps only its input rows
// (ModelRun::hiddenStates, T×d) and, per head, a digest made while the weights exist (a
// thumbnail of at most 128×128 pooled weights and the statistics' sums, ModelRun::digests); the
// layer someone asks for (the window's shown layer, the command line's --layer) is rebuilt from
// its input by traceLayerInDetail. docs/architecture.md, "Long runs".
//
// Shape legend: T tokens, d model width, L layers, H heads.
#include <cstddef>
#include <vector>

#include "core/model/attention.hpp"
#include "core/model/family.hpp"

namespace attnscope {

// Every head's weights as float: bert-base at 512 tokens 151 MB, Qwen2.5-0.5B (L·H = 336) 352 MB at
// 512 tokens and 1.4 GB at 1,024, Llama-3.2-1B (512 heads) 537 MB at 512 and 34 GB at 4,096.
inline constexpr std::size_t kAllWeightsBudget = std::size_t{1} << 30;  // 1 GiB
// A rebuilt layer holds every intermediate (Full: four T×T double matrices and the float weights a
// head) while that fits this, else only its heads' weights (WeightsOnly): Qwen2.5-0.5B's layer is
// 132 MB at 512 tokens, 8.4 GB at 4,096 (then 940 MB of weights).
inline constexpr std::size_t kRebuiltLayerBudget = std::size_t{1} << 30;  // 1 GiB
// Up to this many tokens the window's run records its shown layer in full (a few milliseconds;
// RunControl::detailLayerMaxTokens); beyond, the layer's steps in double (400 MB for Llama-3.2-1B
// at 512 tokens, 0.6 s of its first heatmap on two threads) are rebuilt after the run is drawn.
inline constexpr int kShownLayerInRunUpTo = 128;

std::size_t allWeightsBytes(const TransformerConfig& config, int tokens);  // L·H·T²·4
std::size_t fullLayerBytes(const TransformerConfig& config, int tokens);   // H·T²·(4·8 + 4)

// True when the run's weights would take more than `budget` bytes.
bool isLongRun(const TransformerConfig& config, int tokens, std::size_t budget = kAllWeightsBudget);

// What each of the L layers of a run keeps. A long run: Summary everywhere. Else Full up to
// `fullDetailMaxTokens`, then WeightsOnly except `detailLayer` (RunControl's fields).
std::vector<LayerDetail> layerDetails(const TransformerConfig& config, int tokens, int fullDetailMaxTokens,
                                      int detailLayer, std::size_t allWeightsBudget);

// How a layer is rebuilt on demand: Full when it fits kRebuiltLayerBudget, else its weights alone
// (WeightsNoOutput: the run kept the layer's output already).
LayerDetail rebuiltDetail(const TransformerConfig& config, int tokens);

// Whether the window's layer switch hands the heatmap's head over before the rest of the layer
// (ShownHeadsFirst), its thread keeps a rebuild's buffers for the next, and the shown Trace's copy
// of the embeddings is kept for the next (recycled_weights.hpp), and a rebuild's layer buffers
// go on to the next rebuild on another thread: for a layer of many heads. All cost memory. On
// Qwen2.5-0.5B (14 heads) at 4,096 tokens the first two took its peak from 1.49 ×
// to 1.57 × the file, the embeddings' copy to 1.52 ×, over the 1.5 × goal, and its 14 heads
// rebuild within a second anyway (0.58–0.85 s). Llama-3.2-1B's 32: the head first in 0.36–0.90 s,
// the whole layer in 0.74–1.19 s, the first switch as the later ones (bench/README.md).
inline constexpr int kHeadsFirstFrom = 16;
bool switchesHeadsFirst(const TransformerConfig& config);

// A long run's layer buffers (threadLayerBuffers: Q, K, V, the T×d_ff MLP rows, about 280 MB at
// 4,096 tokens on Qwen2.5-0.5B's shape) do not outlive it: they are dropped on the calling thread
// once the run, or a layer rebuilt from it, is done. Short runs keep them (reused, no page faults).
void releaseThreadLayerBuffers();
// Except on a thread that rebuilds one layer after another (the window's layer switches): there
// a rebuild's buffers (the normed input, Q, K: 72 MB at 4,096 tokens on Llama-3.2-1B's shape)
// stay for the next, which then faults in no fresh pages (about 0.25 s of a switch in this
// project's VM); a shorter sentence's rebuild shrinks them. No run happens on that thread.
void keepThreadLayerBuffersAfterRebuilds(bool keep);
bool keepsThreadLayerBuffersAfterRebuilds();
// A rebuild's layer buffers on a thread that does not keep them: in a layer of many heads
// (switchesHeadsFirst) handed on to the next rebuild on any thread (recycled_weights.hpp's
// keepLayerBuffers), else dropped. The window's first layer switch rebuilds on its own thread
// after the run's thread rebuilt the shown layer; fresh, they were 31,000 of that switch's page
// faults at 4,096 tokens on Llama-3.2-1B's shape (perf -e page-faults).
void releaseRebuildBuffers(const TransformerConfig& config);

// What a layer leaves in the run once an export has streamed it: each head's ablated flag.
LayerTrace ablationFlagsOf(const LayerTrace& layer);

}  // namespace attnscope
