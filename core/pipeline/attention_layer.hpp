#pragma once
// One multi-head self-attention (or cross-attention) layer, step by step, recording every intermediate.
// Lesson models call it directly; real models call it once per layer with their own weights.
//
// Shape legend: T tokens, d model width, H heads, d_k query/key width, d_v value width;
// cross-attention: T_q query tokens, T_k key/value tokens.
#include <optional>
#include <string>
#include <vector>

#include "core/trace/trace.hpp"

namespace attnscope {

struct AttentionOptions {
    bool scaled = true;               // divide scores by √d_k
    bool causal = false;              // hide later tokens
    std::optional<int> handRounding;  // round every intermediate to this many decimals
    int realTokens = -1;              // tokens from here on are padding, masked for every query (-1: none)
    std::vector<bool> ablatedHeads;   // H entries (or empty: none): heads whose output is zeroed
    RowVec ropeFrequencies;           // 1×(d_k/2) θ_i: Q and K turned by position (RoPE); empty: none
    bool ropeInterleaved = false;     // RoPE pairs (2i, 2i+1) instead of (i, i + d_k/2)
};

// X: T×d. heads: H sets of W_Q, W_K, W_V (d×d_k, d×d_k, d×d_v; empty: the identity). wo: (H·d_v)×d,
// or empty for none, in which case the output is the concatenation itself (T×(H·d_v)) and the
// trace's W_O is the identity when it is at most kLargestShownIdentity wide, else empty.
// Notices about masked rows or infinities are appended to `notices`.
LayerTrace runAttentionLayer(const Mat& X, const std::vector<HeadWeights>& heads, const Mat& wo,
                             const RowVec& bo, const AttentionOptions& options,
                             const std::vector<std::string>& tokenNames,
                             std::vector<Notice>* notices);

// Cross-attention: queries from Xq (T_q×d, the target), keys and values from Xkv (T_k×d, the
// source). Scores and weights are T_q×T_k; options.causal and options.realTokens must be off
// (a causal mask compares positions of one sentence). The layer's keyInput holds Xkv.
LayerTrace runCrossAttentionLayer(const Mat& Xq, const Mat& Xkv, const std::vector<HeadWeights>& heads,
                                  const Mat& wo, const RowVec& bo, const AttentionOptions& options,
                                  const std::vector<std::string>& queryNames, std::vector<Notice>* notices);

// Empty weights (W_Q, W_K, W_V of a head, or W_O) mean the identity: the layer copies its input
// instead of multiplying by I. identityHead stores the d×d identities only up to this width, where
// they are worth showing; a 4096-wide lesson would otherwise hold (and multiply by) 128 MB
// identities per head and weight.
inline constexpr int kLargestShownIdentity = 64;

// Q = K = V = X: identity weights of width d, the usual first hand exercise (empty above
// kLargestShownIdentity).
HeadWeights identityHead(int d);

}  // namespace attnscope
