#pragma once
// Lab ▸ Masks & cross-attention (issue 5 §3): the causal mask as its own matrix, the padding mask
// of a batch of two sentences, and cross-attention between two sentences — each with the numeric
// check the panel prints, computed here so the view only draws.
//
// Shape legend: T tokens (T_q queries, T_k keys in cross-attention), d model width, H heads.
#include <string>
#include <string_view>
#include <vector>

#include "core/lesson/lesson.hpp"
#include "core/base/result.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

// Longest sentence the lab's heatmaps take: every cell prints its number, which stays legible up
// to about this many tokens at 1400×900.
inline constexpr int kMaxMaskLabTokens = 16;

// The lesson run with the causal mask switched on (whatever the lesson says).
struct CausalDemo {
    Trace trace;
    double largestAboveDiagonal = 0;  // max weight with j > i over every layer and head: exactly 0
    double largestRowSumError = 0;    // max |Σ_j A[i,j] − 1| over every row, layer and head
};
Result<CausalDemo> causalDemo(const Lesson& lesson, std::string_view sentence, RunSettings settings = {});

// Two sentences as one batch (runLessonBatch): the shorter one gains [PAD] tokens.
struct PaddingDemo {
    std::vector<Trace> batch;             // [first, second], both T_max tokens long
    int padded = -1;                      // index in batch of the padded sentence; -1: same length, none
    double largestPaddedWeight = 0;       // max weight in a [PAD] column, every row, layer, head: 0
    double largestRowSumError = 0;        // max |Σ_j A[i,j] − 1| over the real tokens' rows
    double largestDifferenceAlone = 0;    // max |real part of the padded run − the sentence run alone|
                                          // over weights, weighted sums and outputs of every layer/head
};
Result<PaddingDemo> paddingDemo(const Lesson& lesson, std::string_view first, std::string_view second,
                                RunSettings settings = {});

// runCrossAttention with the lab's length limit, and its check: each row of weights sums to 1.
struct CrossAttentionDemo {
    Trace trace;                    // T_q×T_k weights: rows target tokens, columns source tokens
    double largestRowSumError = 0;  // max |Σ_j A[i,j] − 1| over every row and head
};
Result<CrossAttentionDemo> crossAttentionDemo(const Lesson& lesson, std::string_view target, std::string_view source,
                                              RunSettings settings = {});

// Default second sentences for the panel, from the lesson's sentence split at spaces:
// the first half of its words (at least one), for padding…
std::string shorterSentence(std::string_view sentence);
// …and its words in reverse order without its first word, so the cross-attention heatmap is
// rectangular (T_q × (T_q − 1)); a one-word sentence is its own source.
std::string reversedSource(std::string_view sentence);

}  // namespace attnscope
