#pragma once
// What sharing keys and values costs and saves (issue 29 §3): the attention's parameters and the
// numbers each token keeps in the K/V cache, for H query heads and H_kv key/value heads. The one
// count behind Lab ▸ Multi-head (core/lab/multi_head_lab) and a grouped-query lesson's or model's
// run (the exports, --print, the window's lesson text).
//
// Shape legend: d model width, H query heads, H_kv key/value heads, d_k query/key width, d_v value width.
#include <string>
#include <vector>

#include "core/text/language.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

struct AttentionWidths {
    int d = 0, heads = 0, dK = 0, dV = 0;
    int outputWidth = 0;  // W_O's columns (d); 0: no W_O (the heads' concat is the output)
};

struct KeyValueCost {
    int kvHeads = 0;           // H_kv
    long long parameters = 0;  // d·H·d_k (W_Q) + d·H_kv·(d_k + d_v) (W_K, W_V) + H·d_v·d (W_O, when there is one)
    long long kvPerToken = 0;  // H_kv·(d_k + d_v): what a token keeps in the K/V cache, per layer
};
KeyValueCost keyValueCost(const AttentionWidths& widths, int kvHeads);

// H_kv = H, H/2 (when H is even and > 2) and 1, without repeats: multi-head, grouped, multi-query.
std::vector<int> kvHeadChoices(int heads);

// A layer's widths as its run shows them: d from its input, d_k and d_v from head 1's Q and V,
// W_O's columns when the run had one.
AttentionWidths attentionWidths(const Trace& trace, int layer);
// The key/value heads of a layer: those kvHeadOf names, else one per query head.
int kvHeadCount(const LayerTrace& layer);

// The lines a reader sees for a run whose first layer shares keys and values (empty otherwise): the
// formula, then one line per H_kv in kvHeadChoices (and the run's own), each worked out
// ("H_kv = 2 (grouped-query): 4·4·2 + 4·2·(2 + 2) = 64 parameters; …"), the run's own marked.
std::vector<std::string> keyValueCostLines(const Trace& trace, Language language);

}  // namespace attnscope
