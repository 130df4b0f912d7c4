#pragma once
// Multi-head scaled dot-product attention for the real models, with Trace recording: full
// multi-head (H_kv = H), grouped-query (H query heads share H_kv key/value heads; H_kv = 1 is
// multi-query), a causal mask and a sliding window. Each head goes through the attention kernel
// the lessons use (core/pipeline/attention_kernel.hpp).
//
// Shape legend: T tokens, H query heads, H_kv key/value heads, d_k head width.
#include <functional>
#include <vector>

#include "core/model/blocks.hpp"
#include "core/trace/head_digest.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

// How much of each layer's attention the Trace keeps.
enum class LayerDetail {
    Full,         // every HeadTrace field, the head's W_Q/W_K/W_V slices, W_O
    WeightsOnly,  // HeadTrace::weights only: what the heat maps, the head view and the analyses
                  // read. The layer's input is run.hiddenStates[n] (float), so traceLayerInDetail
                  // can rebuild the rest of one layer on demand.
    Summary,      // long runs (core/model/long_run.hpp): each head's digest (thumbnail and statistics,
                  // ModelRun::digests) made from its weights as soon as they are computed, then the
                  // weights dropped: one T×T buffer a head thread, whatever L and H are. The
                  // LayerTrace keeps each head's `ablated` flag only.
    WeightsNoOutput,  // a layer rebuilt on demand past kRebuiltLayerBudget (traceLayerInDetail): as
                      // WeightsOnly, but the layer's output is not wanted (the run kept the next
                      // layer's input), so no head computes A·V (a third of the layer's products):
                      // the context is left zero.
};

struct AttentionShape {
    int heads = 0;         // H query heads
    int kvHeads = 0;       // H_kv key/value heads (0: H); query head h reads key/value head h / (H / H_kv)
    bool causal = false;   // token i sees tokens 0…i
    int window = 0;        // > 0 (with causal): key j visible to query i only when i − W < j ≤ i
    float divisor = 0;     // the scores are divided by it; 0: √d_k

    int keyValueHeads() const { return kvHeads > 0 ? kvHeads : heads; }
    int keyValueHeadOf(int h) const { return h / (heads / keyValueHeads()); }
};

// How many threads multiHeadAttentionInto runs the heads on for `tokens` tokens: from 128 tokens,
// one per product thread (productThreadCount()) up to `heads`, each head's products on our own
// one-thread kernels; else 1 (heads in turn, OpenBLAS threaded inside each product, or from 128
// tokens with a single product thread our kernels again: a 4,096-token run of Qwen2.5-0.5B's
// shape took 30.0 s on them against 36.3 s on OpenBLAS, its heads digested block by block).
int headThreadsFor(Eigen::Index tokens, int heads);

// What a layer's heads are asked for beside its LayerDetail, H entries each (or empty).
// `ablated`: heads whose output is zeroed (head_mask = 0); empty: none. `kept`: the heads whose
// weights someone reads, when that is not every head the detail keeps (the command line's --head,
// an export's --heads): a Summary layer keeps these heads' weights beside every head's digest (a
// streamed long run), a WeightsNoOutput layer computes only these (a layer rebuilt for a few
// heads: the others are left without weights). Empty, or for Full and WeightsOnly: as `detail` says.
// Heads computed before the others of their layer and handed over (a long run's layer switch in
// the window draws the heatmap's head first): `onComputed` sees the layer with those heads done
// and the rest not yet. It may take their weights (no copy: 64 MiB of fresh pages a head at 4,096
// tokens, 0.13–0.18 s in this project's VM); a head taken is computed again with the rest, the
// same numbers bit for bit. Empty heads: one pass over every head.
struct HeadsFirst {
    std::vector<bool> heads;  // H flags
    std::function<void(LayerTrace& soFar)> onComputed;
};

struct HeadsAsked {
    std::vector<bool> ablated;
    std::vector<bool> kept;
    HeadsFirst first;

    HeadsAsked(std::vector<bool> ablatedHeads = {}, std::vector<bool> keptHeads = {})  // NOLINT: from a head mask
        : ablated(std::move(ablatedHeads)), kept(std::move(keptHeads)) {}
    bool isAblated(int h) const { return static_cast<std::size_t>(h) < ablated.size() && ablated[static_cast<std::size_t>(h)]; }
    bool isKept(int h) const { return kept.empty() || (static_cast<std::size_t>(h) < kept.size() && kept[static_cast<std::size_t>(h)]); }
};

// Q: T×(H·d_k) with head h in columns h·d_k…(h+1)·d_k; K, V: T×(H_kv·d_k). Fills `context`
// (T×(H·d_k), resized only when its shape differs) and layer.heads (H entries) per `detail`
// and `asked`. `digests`: Summary's (resized to H); may be null otherwise.
void multiHeadAttentionInto(const MatF& Q, const MatF& K, const MatF& V, const AttentionShape& shape,
                            LayerDetail detail, LayerTrace& layer, const HeadsAsked& asked, MatF& context,
                            std::vector<HeadDigest>* digests = nullptr);
// Full multi-head attention (H_kv = H, divisor √d_k), as BERT and GPT-2 use it.
void multiHeadAttentionInto(const MatF& Q, const MatF& K, const MatF& V, int heads, bool causal, LayerDetail detail,
                            LayerTrace& layer, const HeadsAsked& asked, MatF& context,
                            std::vector<HeadDigest>* digests = nullptr);
MatF multiHeadAttention(const MatF& Q, const MatF& K, const MatF& V, int heads, bool causal,
                        LayerDetail detail, LayerTrace& layer, const HeadsAsked& asked = {});

// The additive mask of a causal sliding window (T×T, 0 where key j is visible to query i,
// -inf elsewhere); window ≤ 0: the plain causal mask.
MatF slidingWindowMask(Eigen::Index T, int window);

}  // namespace attnscope
