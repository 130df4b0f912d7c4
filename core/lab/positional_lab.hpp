#pragma once
// How attention knows word order: the sinusoidal encoding's relative-position property, and the
// permutation check (without positional encoding, shuffling the tokens only shuffles the rows and
// columns of every attention matrix).
//
// Shape legend: T tokens, d model width, k a position offset.
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/lesson/lesson.hpp"
#include "core/base/matrix.hpp"
#include "core/model/transformer.hpp"
#include "core/base/result.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

// PE(pos + k) = PE(pos) · R_k for every pos (row-vector convention): R_k is block-diagonal with,
// for each frequency ωᵢ = 1/10000^(2i/d), the 2×2 rotation [[cos kωᵢ, −sin kωᵢ], [sin kωᵢ, cos kωᵢ]]
// on columns 2i, 2i+1 — by sin(a+b) = sin a cos b + cos a sin b and cos(a+b) = cos a cos b −
// sin a sin b. d×d. Error for odd d (its last column has no cosine partner).
Result<Mat> relativePositionMap(int d, int k);

// The numeric check on T positions: the largest |PE(pos + k) − PE(pos)·R_k| over pos = 0…T−k−1.
struct RelativePositionCheck {
    Mat map;                 // d×d  R_k
    double largestDifference = 0;
    int rowsChecked = 0;     // T − k
};
Result<RelativePositionCheck> checkRelativePosition(int T, int d, int k);

// A real model's learned position table, the rows for positions 0 … rows − 1 as double: BERT's
// embeddings.position_embeddings.weight, GPT-2's wpe (RoBERTa's positions start at row
// padding_idx + 1, so its first rows are skipped). rows×d. Error naming the model when it has no
// learned table or has fewer positions.
Result<Mat> learnedPositionTable(const LoadedModel& model, int rows);

// The relative-position question for any table PE (N×D): is there one D×D map R_k with
// PE(pos + k) ≈ PE(pos)·R_k for every pos? R_k is the least-squares solution of
// PE[k:] ≈ PE[:N−k]·R (QR with column pivoting), the residual ‖PE[k:] − PE[:N−k]·R_k‖_F relative
// to ‖PE[k:]‖_F. For the sinusoidal table R_k is relativePositionMap and the residual ≈ 0. Error
// unless N − k > D: with no more equations than unknowns per column, any table fits exactly.
struct RelativePositionFit {
    Mat map;                    // D×D  R_k
    double relativeResidual = 0;
    int rowsFitted = 0;         // N − k
};
Result<RelativePositionFit> fitRelativePositionMap(const Mat& table, int k);

// A Fisher–Yates shuffle of 0…n−1 driven by LabRandom(seed): for i = n−1 down to 1, swap i with
// ⌊u·(i+1)⌋. order[i] = the original position of the token now at i.
std::vector<int> shuffledOrder(int n, std::uint64_t seed);

struct PermutationDemo {
    Trace original, shuffled;
    std::vector<int> order;        // shuffled token i is original token order[i]
    double largestDifference = 0;  // max over layers, heads, i, j of |A'(i, j) − A(order[i], order[j])|
    bool positional = false;       // whether the lesson's positional encoding / causal mask were kept
};
// Runs the lesson on the sentence and on its tokens shuffled (joined by spaces), with the
// positional encoding and the causal mask (position information too) switched off unless
// `keepPositional` (then the property breaks, which is the point of showing it). Error when the shuffled text does not tokenize to the shuffled tokens.
Result<PermutationDemo> permutationDemo(const Lesson& lesson, std::string_view sentence, std::uint64_t seed,
                                        bool keepPositional = false);

}  // namespace attnscope
